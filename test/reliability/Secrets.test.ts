/**
 * Secrets never surface. With the API key `SECRET-…` and a webhook `authHeader`
 * `AUTH-…`, every error kind is driven end to end (over the emulator, over
 * `HttpTesting` with a server that echoes the key back, through the webhook
 * receiver, and through the CLI as a child process), and every rendered form is
 * searched: message, `String`, JSON, `util.inspect`, `Cause.pretty`, log lines
 * and span attributes. The count of leaks must be 0.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { beforeEach, describe, expect, it } from "@effect/vitest"
import * as Admin from "@solfx/admin/Admin"
import * as Webhooks from "@solfx/admin/Webhooks"
import type * as SolfxConfig from "@solfx/core/Config"
import { encodeBase58 } from "@solfx/core/Primitives"
import * as Transaction from "@solfx/core/Transaction"
import * as Emulator from "@solfx/emulator/Emulator"
import type { FaultOptions } from "@solfx/emulator/Faults"
import * as HttpTesting from "@solfx/http/HttpTesting"
import * as Bundles from "@solfx/rpc/Bundles"
import * as Compression from "@solfx/rpc/Compression"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as Kit from "@solfx/testing/Kit"
import * as Wallet from "@solfx/wallet/Wallet"
import * as WebhookReceiver from "@solfx/webhooks/WebhookReceiver"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Redacted from "effect/Redacted"
import { execFile } from "node:child_process"
import { randomBytes, randomUUID } from "node:crypto"
import { existsSync } from "node:fs"
import * as Http from "node:http"
import { fileURLToPath } from "node:url"
import { capture, leaksIn } from "./support/Capture.js"
import { overEmulator, overHandler, type Services } from "./support/Sdk.js"

const KEY = `SECRET-${randomUUID()}`
/** A key the service does not know: a secret all the same. */
const WRONG_KEY = `SECRET-${randomUUID()}`
const OTHER_PROJECT_KEY = `SECRET-${randomUUID()}`
const AUTH = `AUTH-${randomUUID()}`
const SECRETS = [KEY, WRONG_KEY, OTHER_PROJECT_KEY, AUTH]
const OTHER_PROJECT = randomUUID()

const tally = { scenarios: 0, texts: 0, leaks: [] as Array<string> }

const record = (name: string, texts: ReadonlyArray<string>) => {
  const found = leaksIn(texts, SECRETS)
  tally.scenarios++
  tally.texts += texts.length
  tally.leaks.push(...found.map((f) => `${name}: ${f}`))
  expect(found, name).toEqual([])
}

const tagOf = (exit: Exit.Exit<unknown, unknown>): string =>
  Exit.isSuccess(exit) ? "Success" : String((Cause.squash(exit.cause) as { _tag?: unknown })._tag)

/** Runs `effect` captured, checks it ended as `expected`, and searches every rendering. */
const sweep = <R>(name: string, expected: string, effect: Effect.Effect<unknown, unknown, R>, error?: object) =>
  Effect.gen(function*() {
    const c = yield* capture(effect)
    expect(tagOf(c.exit), name).toBe(expected)
    if (error !== undefined && Exit.isFailure(c.exit)) expect(Cause.squash(c.exit.cause), name).toMatchObject(error)
    expect(c.spans, name).toBeGreaterThan(0)
    expect(c.logs, name).toBeGreaterThan(0)
    record(name, c.texts)
  })

const WALLET = "HXsKP7wrBWaQ8T2Vtjry3Nj3oUgwYcqq9vrHDM12G664"
const randomSignature = () => encodeBase58(randomBytes(64))

const emulatorOptions: Emulator.Options = {
  apiKey: KEY,
  projects: [{ id: OTHER_PROJECT, apiKey: OTHER_PROJECT_KEY }],
  webhooks: [{
    webhookURL: "https://hooks.example.com/solfx",
    webhookType: "enhanced",
    authHeader: AUTH,
    accountAddresses: [WALLET]
  }]
}

interface EmulatorScenario {
  readonly name: string
  readonly expected: string
  readonly config?: Partial<SolfxConfig.Options>
  readonly faults?: FaultOptions
  readonly run: Effect.Effect<unknown, unknown, Services | Emulator.EmulatorHandle>
}

const fault = (kind: FaultOptions["kinds"][number]): FaultOptions => ({ rate: 1, kinds: [kind], slowMs: 5_000 })
const das = Effect.flatMap(
  Emulator.EmulatorHandle,
  (emu) =>
    Effect.flatMap(
      DigitalAssets.DigitalAssets,
      (d) => d.getAssetsByAuthority({ authorityAddress: emu.samples.assetAuthority, page: 1, limit: 2 })
    )
)

const emulatorScenarios: ReadonlyArray<EmulatorScenario> = [
  { name: "Unauthorized (a wrong key)", expected: "Unauthorized", config: { apiKey: WRONG_KEY }, run: das },
  { name: "RateLimited (429 with Retry-After)", expected: "RateLimited", faults: fault("429"), run: das },
  { name: "HttpError (500)", expected: "HttpError", faults: fault("500"), run: das },
  { name: "HttpError (503)", expected: "HttpError", faults: fault("503"), run: das },
  { name: "TransportError (reset)", expected: "TransportError", faults: fault("reset"), run: das },
  { name: "TransportError (truncated body)", expected: "TransportError", faults: fault("truncate"), run: das },
  {
    name: "TransportError (timeout)",
    expected: "TransportError",
    faults: fault("slow"),
    // The slow answer takes a minute; only this scenario needs a short timeout.
    config: { timeout: "1 second" },
    run: das
  },
  {
    name: "TransportError (connection refused)",
    expected: "TransportError",
    config: { baseUrl: "http://127.0.0.1:1" },
    run: das
  },
  { name: "DecodeError (malformed 200)", expected: "DecodeError", faults: fault("malformed"), run: das },
  {
    name: "JsonRpcError (unknown transaction)",
    expected: "JsonRpcError",
    run: Effect.flatMap(
      Compression.Compression,
      (c) => c.getTransactionWithCompressionInfo({ signature: randomSignature() })
    )
  },
  {
    name: "ProjectMismatch (another project's id)",
    expected: "ProjectMismatch",
    run: Effect.flatMap(Admin.Admin, (a) => a.getProjectUsage(OTHER_PROJECT))
  },
  {
    name: "InvalidRequest (a bad wallet)",
    expected: "InvalidRequest",
    run: Effect.flatMap(Wallet.Wallet, (w) => w.balances("not-a-wallet"))
  },
  {
    name: "InsecureTransport (plain http)",
    expected: "InsecureTransport",
    config: { baseUrl: "http://api.example.com" },
    run: das
  },
  {
    name: "Webhooks.list (authHeader in the value)",
    expected: "Success",
    run: Effect.flatMap(Webhooks.Webhooks, (w) => w.list())
  },
  {
    name: "Wallet history (a success, logged and traced)",
    expected: "Success",
    run: Effect.flatMap(
      Emulator.EmulatorHandle,
      (emu) => Effect.flatMap(Wallet.Wallet, (w) => w.history(emu.samples["wallet"]!, { limit: 5 }))
    )
  }
]

/**
 * A server that echoes the key (in bodies, messages, JSON-RPC data), and webhook
 * records whose auth header the SDK then holds. (The SDK never sends an auth
 * header, so a server can only echo the key.) The key passed by mistake as input
 * (a wallet) is not echoed back either: `InvalidRequest` shows `<redacted>`.
 */
interface EchoScenario {
  readonly name: string
  readonly expected: string
  readonly handler: HttpTesting.Handler
  readonly run: Effect.Effect<unknown, unknown, Services>
  /** The failure still says precisely what was wrong. */
  readonly error?: object
}

const webhookRecord = (overrides: Record<string, unknown>) => ({
  webhookID: "hook-1",
  wallet: WALLET,
  webhookURL: "https://hooks.example.com/solfx",
  transactionTypes: ["ANY"],
  accountAddresses: [WALLET],
  webhookType: "enhanced",
  authHeader: AUTH,
  ...overrides
})

const kitBundle = Effect.promise(() => Kit.signer().then((payer) => Kit.buildMemoTip(payer, "secrets", 5_000n)))

const echoScenarios: ReadonlyArray<EchoScenario> = [
  {
    name: "Unauthorized echoing the key",
    expected: "Unauthorized",
    handler: (req) =>
      Response.json({ error: `invalid api key ${req.url.searchParams.get("api-key")}` }, { status: 401 }),
    run: Effect.flatMap(DigitalAssets.DigitalAssets, (d) => d.getAssetsByAuthority({ authorityAddress: WALLET }))
  },
  {
    name: "CreditsExhausted echoing the key",
    expected: "CreditsExhausted",
    handler: (req) =>
      Response.json({ jsonrpc: "2.0", error: { code: -32429, message: `max usage reached (${req.url})` } }, {
        status: 429
      }),
    run: Effect.flatMap(DigitalAssets.DigitalAssets, (d) => d.getAssetsByAuthority({ authorityAddress: WALLET }))
  },
  {
    name: "InvalidRequest: the key passed as a wallet",
    expected: "InvalidRequest",
    handler: () => Response.json({}),
    run: Effect.flatMap(Wallet.Wallet, (w) => w.balances(KEY)),
    error: { field: "wallet", value: "<redacted>" }
  },
  {
    name: "RateLimited echoing the key",
    expected: "RateLimited",
    handler: (req) => new Response(`slow down ${req.url}`, { status: 429, headers: { "retry-after": "0" } }),
    run: Effect.flatMap(Wallet.Wallet, (w) => w.balances(WALLET))
  },
  {
    name: "JsonRpcError echoing the URL in message and data",
    expected: "JsonRpcError",
    handler: (req) =>
      Response.json({
        jsonrpc: "2.0",
        id: (req.body as { id: string }).id,
        error: {
          code: -32602,
          message: `bad params for ${req.url}`,
          data: { url: req.url.toString(), key: req.url.searchParams.get("api-key") }
        }
      }),
    run: Effect.flatMap(Compression.Compression, (c) => c.getCompressedMintTokenHolders({ mint: WALLET }))
  },
  {
    name: "HttpError: an HTML page with the URL",
    expected: "HttpError",
    handler: (req) => new Response(`<html><body>${req.url}</body></html>`, { status: 418 }),
    run: Effect.flatMap(Wallet.Wallet, (w) => w.transfers(WALLET))
  },
  {
    name: "DecodeError: the key where a number belongs",
    expected: "DecodeError",
    handler: (req) => HttpTesting.rpcResult(req, { context: { slot: KEY }, value: { items: [], cursor: null } }),
    run: Effect.flatMap(Compression.Compression, (c) => c.getCompressedMintTokenHolders({ mint: WALLET }))
  },
  {
    name: "DecodeError: a non-JSON body with the key",
    expected: "DecodeError",
    handler: (req) => new Response(`oops ${req.url}`, { status: 200 }),
    run: Effect.flatMap(Wallet.Wallet, (w) => w.history(WALLET))
  },
  {
    name: "DecodeError: a webhook whose authHeader is not a string",
    expected: "DecodeError",
    handler: () => Response.json([webhookRecord({ authHeader: [AUTH] })]),
    run: Effect.flatMap(Webhooks.Webhooks, (w) => w.list()),
    error: { path: "$[0].authHeader", expected: "a string (the value is a secret: not shown)" }
  },
  {
    name: "DecodeError: a webhook with a bad field next to its authHeader",
    expected: "DecodeError",
    handler: () => Response.json([webhookRecord({ webhookType: "bogus" })]),
    run: Effect.flatMap(Webhooks.Webhooks, (w) => w.list()),
    error: { path: "$[0].webhookType", expected: expect.stringContaining("\"enhanced\"") }
  },
  {
    name: "DecodeError: a webhook list that is an object with an authHeader",
    expected: "DecodeError",
    handler: () => Response.json({ webhooks: [webhookRecord({})], authHeader: AUTH }),
    run: Effect.flatMap(Webhooks.Webhooks, (w) => w.list())
  },
  {
    name: "BundleIdMismatch: the service answers the key as the bundle id",
    expected: "BundleIdMismatch",
    handler: (req) => HttpTesting.rpcResult(req, `${KEY} ${req.url}`),
    run: Effect.flatMap(Bundles.Bundles, (b) => Effect.flatMap(kitBundle, (tx) => b.sendBundle([tx.base64])))
  },
  {
    name: "InvalidProof: a proof that does not verify",
    expected: "InvalidProof",
    handler: (req) =>
      HttpTesting.rpcResult(req, {
        [WALLET]: { root: WALLET, proof: [WALLET, WALLET], node_index: 5, leaf: WALLET, tree_id: WALLET }
      }),
    run: Effect.flatMap(DigitalAssets.DigitalAssets, (d) => d.getAssetProofBatchVerified([WALLET]))
  },
  {
    name: "MalformedTransaction",
    expected: "MalformedTransaction",
    handler: () => new Response("{}"),
    run: Transaction.parse(`${KEY}`, "base58")
  },
  {
    name: "TransportError: reset after the key was sent",
    expected: "TransportError",
    handler: () => Effect.fail("reset" as const),
    run: Effect.flatMap(Wallet.Wallet, (w) => w.identity(WALLET))
  }
]

describe("secrets never surface", () => {
  it("the search finds a planted secret (the check itself can fail)", () => {
    expect(leaksIn([`an error about ${KEY}`, "clean"], SECRETS).length).toBeGreaterThan(0)
    expect(leaksIn([`auth ${AUTH.slice(5)}`], SECRETS)).toHaveLength(1)
  })

  it.live("SDK over the emulator: every error kind, the key and the auth header nowhere", () =>
    Effect.gen(function*() {
      for (const s of emulatorScenarios) {
        yield* Effect.gen(function*() {
          const emu = yield* Emulator.EmulatorHandle
          if (s.faults) emu.setFaults(s.faults)
          yield* sweep(s.name, s.expected, s.run)
        }).pipe(
          // No tight timeout for the others: on a busy machine a 500 must still arrive as HttpError.
          Effect.provide(overEmulator(emulatorOptions, { retry: { times: 0 }, ...s.config }))
        )
      }
    }))

  it.effect("SDK over a server that echoes secrets back: every rendering stays clean", () =>
    Effect.gen(function*() {
      for (const s of echoScenarios) {
        yield* sweep(s.name, s.expected, s.run, s.error).pipe(
          Effect.provide(overHandler(s.handler, { apiKey: KEY, retry: { times: 0 } }))
        )
      }
    }))

  it.live("the webhook receiver: wrong auth, bad bodies, a failing handler", () =>
    Effect.gen(function*() {
      const deliveries = Effect.scoped(Effect.gen(function*() {
        const receiver = yield* WebhookReceiver.make({
          authHeader: Redacted.make(AUTH),
          onEvents: () => Effect.fail(new Error("the handler broke")),
          failureStatus: 500,
          maxBodyBytes: 4096
        })
        let node: Http.Server | undefined
        const server = yield* NodeHttpServer.make(() => (node = Http.createServer()), { port: 0, host: "127.0.0.1" })
        yield* Effect.addFinalizer(() => Effect.sync(() => node?.closeAllConnections()))
        yield* server.serve(receiver.app)
        const url = server.address._tag === "TcpAddress" ? `http://127.0.0.1:${server.address.port}/` : ""
        const item = {
          signature: randomSignature(),
          slot: 7,
          timestamp: 1_700_000_000,
          type: "TRANSFER",
          source: "SYSTEM_PROGRAM",
          fee: 5000,
          feePayer: WALLET,
          nativeTransfers: [{ fromUserAccount: WALLET, toUserAccount: WALLET, amount: 1000 }],
          tokenTransfers: [],
          accountData: []
        }
        const post = (body: string, authorization: string) =>
          Effect.promise(() =>
            fetch(url, { method: "POST", body, headers: { "content-type": "application/json", authorization } })
              .then(async (r) => ({ status: r.status, text: await r.text() }))
          )
        const answers = [
          yield* post(JSON.stringify([item]), "Bearer wrong"),
          yield* post(JSON.stringify([item]), `${AUTH}x`),
          yield* post("{not json", AUTH),
          yield* post(JSON.stringify([{ ...item, fee: AUTH }]), AUTH),
          yield* post(JSON.stringify(Array(40).fill(item)), AUTH),
          yield* post(JSON.stringify([item]), AUTH)
        ]
        yield* receiver.idle
        return { answers, counters: yield* receiver.counters }
      }))
      const c = yield* capture(deliveries)
      expect(tagOf(c.exit)).toBe("Success")
      const { answers, counters } = (c.exit as Exit.Success<any, never>).value
      expect(answers.map((a: { status: number }) => a.status)).toEqual([401, 401, 400, 400, 413, 500])
      expect(counters.handlerFailures).toBe(1)
      // The receiver logged the handler failure; the line must not carry the auth value.
      expect(c.texts.some((t) => t.includes("the handler broke"))).toBe(true)
      record("webhook receiver", c.texts)
    }))
})

// -- the CLI, as a child process --------------------------------------------------------------

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
const BIN = `${ROOT}packages/cli/src/bin.ts`
const hasCli = existsSync(BIN)

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const solfx = (args: ReadonlyArray<string>, env: Record<string, string>): Promise<Run> =>
  new Promise((resolve) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("SOLFX_")))
    execFile(
      process.execPath,
      ["--conditions=@solfx/source", "--import", "tsx", BIN, ...args],
      { cwd: ROOT, env: { ...clean, NO_COLOR: "1", ...env }, timeout: 240_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })
    )
  })

describe("secrets in the CLI's output (child process)", () => {
  beforeEach((ctx) => ctx.skip(!hasCli, "the CLI's sources absent (packages/cli/src/bin.ts)"))
  it.live(
    "failure lines and normal output never show the key or the auth header",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const main = yield* Emulator.make(emulatorOptions)
        const faulty = (kind: FaultOptions["kinds"][number]) =>
          Emulator.make({
            ...emulatorOptions,
            faults: { rate: 1, kinds: [kind], retryAfterSeconds: 0.01, slowMs: 60_000 }
          })
        const limited = yield* faulty("429")
        const failing = yield* faulty("500")
        const malformed = yield* faulty("malformed")
        const at = (url: string) => ({
          SOLFX_RPC_URL: url,
          SOLFX_REST_URL: url,
          SOLFX_V0_URL: url,
          SOLFX_ADMIN_URL: url
        })
        const cases: ReadonlyArray<
          readonly [name: string, expected: string, args: ReadonlyArray<string>, env: Record<string, string>]
        > = [
          ["Unauthorized", "Unauthorized", ["wallet", "identity", WALLET], {
            SOLFX_API_KEY: WRONG_KEY,
            ...at(main.url)
          }],
          [
            "InvalidRequest, key as a flag",
            "InvalidRequest",
            ["--api-key", KEY, "wallet", "balances", "not-a-wallet"],
            at(main.url)
          ],
          ["InsecureTransport", "InsecureTransport", ["zk", "latest-signatures"], {
            SOLFX_API_KEY: KEY,
            ...at("http://api.example.com")
          }],
          ["TransportError", "TransportError", ["wallet", "funded-by", WALLET], {
            SOLFX_API_KEY: KEY,
            ...at("http://127.0.0.1:1")
          }],
          ["ProjectMismatch", "ProjectMismatch", ["usage", OTHER_PROJECT], { SOLFX_API_KEY: KEY, ...at(main.url) }],
          ["JsonRpcError", "JsonRpcError", ["zk", "transaction", randomSignature()], {
            SOLFX_API_KEY: KEY,
            ...at(main.url)
          }],
          ["RateLimited", "RateLimited", ["wallet", "history", WALLET], { SOLFX_API_KEY: KEY, ...at(limited.url) }],
          ["HttpError", "HttpError", ["wallet", "transfers", WALLET], { SOLFX_API_KEY: KEY, ...at(failing.url) }],
          ["DecodeError", "DecodeError", ["zk", "latest-signatures"], { SOLFX_API_KEY: KEY, ...at(malformed.url) }],
          ["webhooks (table)", "Success", ["webhooks"], { SOLFX_API_KEY: KEY, ...at(main.url) }],
          ["webhooks (--json)", "Success", ["--json", "webhooks"], { SOLFX_API_KEY: KEY, ...at(main.url) }]
        ]
        const runs = yield* Effect.promise(() => Promise.all(cases.map(([, , args, env]) => solfx(args, env))))
        runs.forEach((run, i) => {
          const [name, expected] = cases[i]!
          const output = `${run.stdout}\n${run.stderr}`
          if (expected === "Success") {
            expect(run.code, `${name}: ${output}`).toBe(0)
            expect(run.stdout, name).toContain("hooks.example.com")
          } else {
            // An argument refused before any request is a bad argument: exit 2 (README, exit codes).
            expect(run.code, `${name}: ${output}`).toBe(expected === "InvalidRequest" ? 2 : 1)
            expect(run.stderr.trim(), name).toMatch(new RegExp(`^${expected}: `))
          }
          record(`cli ${name}`, [run.stdout, run.stderr])
        })
        console.log(`[reliability] cli runs: ${runs.length} (${cases.map((c) => c[1]).join(", ")})`)
      })),
    { timeout: 300_000 }
  )
})

describe("secrets summary", () => {
  it("no leaks in any rendering", () => {
    console.log(
      `[reliability] secrets: scenarios=${tally.scenarios} renderingsSearched=${tally.texts} leaks=${tally.leaks.length}`
    )
    for (const leak of tally.leaks) console.log(`  leak: ${leak}`)
    expect(tally.leaks).toEqual([])
    expect(tally.scenarios).toBeGreaterThanOrEqual(emulatorScenarios.length + echoScenarios.length)
  })
})
