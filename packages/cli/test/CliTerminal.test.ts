/**
 * What `solfx` puts on the terminal, as a child process: one base URL (`--url`,
 * `SOLFX_URL`) against a separately started `solfx emulator`; a group's own help;
 * no ANSI when piped; the "more pages" note of every paginated command without
 * `--all`; and the configured key in no output, usage errors included.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { WebSocket } from "ws"
import { morePagesNote } from "../src/Handler.js"
import { exited, firstLine, inProcess, jsonLines, solfx, start } from "./support/Cli.js"

const KEY = "5c1e0f9a-3d7b-4c2e-9f61-2a8b7c4d0e13"

/** `solfx emulator` in its own process, stopped when the test's scope closes. */
const separateEmulator = Effect.acquireRelease(
  Effect.promise(async () => {
    const child = start(["emulator", "--port", "0", "--seed", "3", "--api-key", KEY])
    const info = JSON.parse(await firstLine(child)) as {
      url: string
      projectId: string
      samples: Record<string, string>
    }
    return { child, info }
  }),
  ({ child }) => Effect.promise(() => (child.kill("SIGINT"), exited(child)))
)

describe("solfx on the terminal", () => {
  it.scopedLive(
    "SOLFX_URL and --url point every host at a separately started `solfx emulator`",
    () =>
      Effect.gen(function*() {
        const { info } = yield* separateEmulator
        const [balances, usage, override] = yield* Effect.all([
          solfx(["wallet", "balances", info.samples["wallet"]!, "--json"], {
            env: { SOLFX_URL: info.url, SOLFX_API_KEY: KEY }
          }),
          solfx(["--url", info.url, "usage", info.projectId, "--json"], { env: { SOLFX_API_KEY: KEY } }),
          // A host's own variable overrides the one URL: the admin host is sent nowhere useful.
          solfx(["usage", info.projectId, "--json"], {
            env: { SOLFX_URL: info.url, SOLFX_ADMIN_URL: "http://127.0.0.1:9", SOLFX_API_KEY: KEY }
          })
        ], { concurrency: 3 })
        expect(balances!.code, balances!.stderr).toBe(0)
        expect(jsonLines(balances!.stdout).length).toBeGreaterThan(0)
        expect(usage!.code, usage!.stderr).toBe(0)
        expect(jsonLines(usage!.stdout)[0]).toMatchObject({ creditsUsed: expect.any(Number) })
        expect(override!.code).toBe(1)
        expect(override!.stderr).toMatch(/^TransportError: /)
      }),
    { timeout: 240_000 }
  )

  it.live(
    "a group's help lists its own subcommands; a wrong one is a usage error that says which exist",
    () =>
      Effect.gen(function*() {
        const [wrong, help, bare] = yield* Effect.all([
          solfx(["wallet", "frobnicate"]),
          solfx(["wallet", "--help"]),
          solfx(["das"])
        ], { concurrency: 3 })
        expect(wrong!.code).toBe(2)
        expect(wrong!.stdout).toBe("")
        expect(wrong!.stderr).toMatch(/^UsageError: unknown command for solfx wallet: use one of /)
        const named = wrong!.stderr.split("\n")[0]!
        for (const sub of ["identity", "identities", "funded-by", "balances", "history", "transfers"]) {
          expect(named).toContain(` ${sub}`)
          expect(help!.stdout).toContain(`- ${sub}`)
        }
        expect(named).not.toContain("emulator")
        expect(help!.code).toBe(0)
        expect(help!.stdout).toContain("$ solfx wallet <command>")
        expect(bare!.code).toBe(0)
        expect(bare!.stdout).toContain("- token-accounts")
        // Piped (not a terminal): no ANSI escape anywhere, help and errors included.
        for (const r of [wrong!, help!, bare!]) expect(r.stdout + r.stderr).not.toContain("\u001b")
      }),
    { timeout: 240_000 }
  )

  it.live(
    "a wrong command names every valid one, long names included, and suggests the nearest",
    () =>
      Effect.gen(function*() {
        const runs = yield* Effect.all([
          inProcess(["zk", "holders", "x"]),
          inProcess(["das", "asset-sigs", "x"]),
          inProcess(["walet", "balances", "x"]),
          inProcess(["zk", "qqqqqq"])
        ])
        for (const r of runs) {
          expect(r.code).toBe(2)
          // One line on stderr, nothing on stdout: the help is a --help away.
          expect(r.stderr.trimEnd().split("\n"), r.stderr).toHaveLength(1)
          expect(r.stdout).toBe("")
        }
        const first = runs.map((r) => r.stderr.split("\n")[0]!)
        expect(first[0]).toBe(
          "UsageError: unknown command for solfx zk: use one of latest-signatures, mint-holders, signatures-for-address, " +
            "token-accounts, token-balances, token-owner-signatures, transaction, validity-proof (did you mean mint-holders?)"
        )
        expect(first[1]).toMatch(/\(did you mean asset-signatures\?\)$/)
        expect(first[2]).toMatch(/^UsageError: unknown command for solfx: use one of .*\(did you mean wallet\?\)$/)
        expect(first[3]).not.toContain("did you mean")
      }),
    { timeout: 240_000 }
  )

  it.live(
    "every failure is one `<Tag>: <message>` line: usage errors, a blank key, control characters escaped",
    () =>
      Effect.gen(function*() {
        const [blank, notInt, missing, osc] = yield* Effect.all([
          inProcess(["usage"], { SOLFX_API_KEY: "   " }),
          inProcess(["wallet", "balances", "86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY", "--limit", "abc"], {
            SOLFX_API_KEY: KEY
          }),
          inProcess(["das", "asset"], { SOLFX_API_KEY: KEY }),
          // A mint read from stdin is quoted by InvalidRequest: its terminal escapes are shown, not sent.
          inProcess(["wallet", "identity", "evil\u001b]0;owned\u0007\u001b[2J"], { SOLFX_API_KEY: KEY })
        ])
        for (const r of [blank, notInt, missing, osc]) {
          expect(r.code, r.stderr).toBe(2)
          expect(r.stderr).toMatch(/^[A-Z][A-Za-z]+: \S.*\n$/)
          expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/)
        }
        expect(blank.stderr).toBe(
          "UsageError: Invalid data at SOLFX_API_KEY: \"the API key must not be empty or blank, and at least 8 characters long\"\n"
        )
        expect(notInt.stderr).toBe("UsageError: 'abc' is not a integer\n")
        expect(osc.stderr).toMatch(/^InvalidRequest: .*\\u001b\]0;owned\\u0007\\u001b\[2J/)
      }),
    { timeout: 240_000 }
  )

  it.live(
    "optional flags are shown optional: zk validity-proof takes --hash and --new-address, either or both",
    () =>
      Effect.gen(function*() {
        const help = yield* inProcess(["zk", "--help"])
        expect(help.stdout).toContain("validity-proof [--hash text...] [--new-address text...]")
        // Neither: the SDK's own rule answers (no request is sent), not a missing-option usage error.
        const neither = yield* inProcess(["zk", "validity-proof"], {
          SOLFX_API_KEY: KEY,
          SOLFX_URL: "http://127.0.0.1:9"
        })
        expect(neither.code).toBe(2)
        expect(neither.stderr).toBe("InvalidRequest: Invalid hashes: at least one hash or new address to prove\n")
      }),
    { timeout: 240_000 }
  )

  it.live("every help fits 100 columns", () =>
    Effect.gen(function*() {
      const helps = yield* Effect.all([
        inProcess(["--help"]),
        inProcess(["emulator", "--help"]),
        inProcess(["wallet", "--help"]),
        inProcess(["das", "--help"]),
        inProcess(["bundle", "send", "--help"])
      ])
      for (const h of helps) {
        expect(h.code).toBe(0)
        expect(h.stdout.split("\n").filter((l) => l.length > 100)).toEqual([])
      }
      // Nothing lost by the wrapping: the root help still names every group's commands and options.
      expect(helps[0]!.stdout).toContain("zk validity-proof [--hash text...] [--new-address text...]")
      expect(helps[1]!.stdout).toContain("--max-body-bytes")
    }), { timeout: 240_000 })

  it.live("root help and usage errors carry no ANSI when piped", () =>
    Effect.gen(function*() {
      const [help, usage] = yield* Effect.all([
        solfx(["--help"]),
        solfx(["das", "proofs", "x", "--limit", "abc"])
      ], { concurrency: 2 })
      expect(help!.code).toBe(0)
      expect(help!.stdout).toContain("COMMANDS")
      expect(usage!.code).toBe(2)
      for (const r of [help!, usage!]) expect(r.stdout + r.stderr).not.toContain("\u001b")
    }), { timeout: 240_000 })

  it.live(
    "no output contains the configured key, even when it is pasted as an option's value",
    () =>
      Effect.gen(function*() {
        const wallet = "86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY"
        // In this process (the same Cli.main the bin runs): a child per line would cost seconds each.
        const runs = yield* Effect.all([
          inProcess(["wallet", "balances", wallet, "--limit", KEY], { SOLFX_API_KEY: KEY }),
          inProcess(["wallet", "balances", wallet, "--api-key", KEY, "--limit", KEY]),
          inProcess(["das", "assets-by-authority", wallet, "--sort", KEY], { SOLFX_API_KEY: KEY }),
          // Not configured at all: a long value is still not echoed.
          inProcess(["wallet", "balances", wallet, "--limit", KEY])
        ])
        for (const r of runs) {
          expect(r.code, r.stderr).toBe(2)
          expect(r.stderr.trim()).not.toBe("")
          expect(r.stdout + r.stderr).not.toContain(KEY)
        }
        expect(runs[0]!.stderr).toContain("is not a integer")
      }),
    { timeout: 240_000 }
  )
})

describe("hostile service data", () => {
  it.scopedLive("a name holding terminal escapes and the key: escaped and redacted in the table, exact JSON but no key with --json", () =>
    Effect.gen(function*() {
      const wallet = "86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY"
      const name = `Evil\u001b[2J\u001b]0;owned\u0007 ${KEY}`
      // A server that answers every identity request with that name.
      const server = yield* Effect.acquireRelease(
        Effect.promise(() =>
          new Promise<Server>((resolve) => {
            const s = createServer((_, res) => {
              res.writeHead(200, { "content-type": "application/json" })
              res.end(JSON.stringify({ address: wallet, type: "wallet", name, category: "test" }))
            })
            s.listen(0, "127.0.0.1", () => resolve(s))
          })
        ),
        (s) => Effect.promise(() => new Promise((resolve) => s.close(resolve)))
      )
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const env = { SOLFX_URL: url, SOLFX_API_KEY: KEY }
      const table = yield* inProcess(["wallet", "identity", wallet], env)
      const json = yield* inProcess(["wallet", "identity", wallet, "--json"], env)
      expect(table.code, table.stderr).toBe(0)
      expect(json.code, json.stderr).toBe(0)
      expect(table.stdout).toContain("Evil\\u001b[2J\\u001b]0;owned\\u0007 <redacted>")
      expect(table.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/)
      // --json: exact JSON of what came (JSON.stringify escapes the controls), the key excepted.
      expect(JSON.parse(json.stdout).name).toBe("Evil\u001b[2J\u001b]0;owned\u0007 <redacted>")
      for (const r of [table, json]) expect(r.stdout + r.stderr).not.toContain(KEY)
    }))
})

describe("the more-pages note", () => {
  it.scopedLive(
    "every paginated command without --all says on stderr that more pages exist; with --all it does not",
    () =>
      Effect.gen(function*() {
        const { info } = yield* separateEmulator
        const env = { SOLFX_URL: info.url, SOLFX_API_KEY: KEY }
        const s = info.samples
        const paginated: ReadonlyArray<ReadonlyArray<string>> = [
          ["das", "token-accounts", s["dasOwner"]!],
          ["das", "assets-by-authority", s["dasAuthority"]!],
          ["das", "asset-signatures", s["dasCompressedAsset"]!],
          ["zk", "signatures-for-address", s["compressionAddress"]!],
          ["zk", "mint-holders", s["compressedMint"]!],
          ["zk", "token-accounts", s["compressedTokenOwner"]!],
          ["zk", "token-balances", s["compressedTokenOwner"]!],
          ["zk", "token-owner-signatures", s["compressedTokenOwner"]!],
          ["wallet", "balances", s["wallet"]!],
          ["wallet", "history", s["wallet"]!],
          ["wallet", "transfers", s["wallet"]!]
        ]
        // In this process (the same Cli.main the bin runs), one after the other: eleven children would cost a minute.
        const firstPages = yield* Effect.all(
          paginated.map((args) => inProcess([...args, "--limit", "1", "--json"], env))
        )
        firstPages.forEach((r, i) => {
          const what = paginated[i]!.slice(0, 2).join(" ")
          expect(r.code, `${what}: ${r.stderr}`).toBe(0)
          expect(r.stderr, what).toBe(`${morePagesNote}\n`)
          // stdout stays pure data: the first page only (wallet balances may add native SOL to its page).
          expect(jsonLines(r.stdout).length, what).toBeGreaterThan(0)
        })
        const every = yield* inProcess(["wallet", "history", s["wallet"]!, "--all", "--limit", "100", "--json"], env)
        expect(every.code, every.stderr).toBe(0)
        expect(every.stderr).toBe("")
      }),
    { timeout: 240_000 }
  )
})

/** Runs `body` with stderr taken for a terminal, as the progress bar needs. */
const onTerminal = <A, E, R>(body: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const was = Object.getOwnPropertyDescriptor(process.stderr, "isTTY")
      Object.defineProperty(process.stderr, "isTTY", { value: true, configurable: true })
      return was
    }),
    () => body,
    (was) =>
      Effect.sync(() =>
        was === undefined
          ? void delete (process.stderr as { isTTY?: boolean }).isTTY
          : Object.defineProperty(process.stderr, "isTTY", was)
      )
  )

/** The progress bar's drawings on stderr (each starts with a carriage return and a line erase). */
const drawings = (stderr: string): ReadonlyArray<string> => stderr.split("\r\u001b[2K").filter((d) => d.length > 0)

describe("the progress bar of a paged command", () => {
  it.scopedLive(
    "a DAS list with --all shows the bar with page 1's total and a rate (an ETA while items remain); a list with no total a bare counter",
    () =>
      Effect.gen(function*() {
        const { info } = yield* separateEmulator
        const env = { SOLFX_URL: info.url, SOLFX_API_KEY: KEY }
        const [assets, history] = yield* onTerminal(Effect.all([
          inProcess(["das", "assets-by-authority", info.samples["dasAuthority"]!, "--all", "--limit", "500"], env),
          inProcess(["wallet", "history", info.samples["wallet"]!, "--all", "--limit", "100"], env)
        ]))
        expect(assets.code, assets.stderr).toBe(0)
        // The table's rows: every asset of the list, the total page 1 gave.
        const listed = assets.stdout.trim().split("\n").length - 1
        expect(listed).toBeGreaterThan(500)
        const bars = drawings(assets.stderr)
        expect(bars.length).toBeGreaterThan(0)
        for (const bar of bars) {
          expect(bar).toMatch(new RegExp(`^assets \\[[#.]{28}\\] \\d+/${listed} \\d+(\\.\\d)?/s( ETA \\d+[smh])?`))
        }
        expect(history.code, history.stderr).toBe(0)
        const counters = drawings(history.stderr)
        expect(counters.length).toBeGreaterThan(0)
        for (const counter of counters) expect(counter).toMatch(/^history \d+$/)
      }),
    { timeout: 240_000 }
  )
})

describe("solfx emulator's flags", () => {
  it.scopedLive(
    "every flag of the emulator's own program is reachable from `solfx emulator`, and takes effect",
    () =>
      Effect.gen(function*() {
        const projectId = "0f7e3c1a-5b2d-4e8f-9a6c-1d2e3f4a5b6c"
        const child = yield* Effect.acquireRelease(
          Effect.sync(() =>
            start([
              "emulator",
              "--port",
              "0",
              "--api-key",
              KEY,
              "--plan",
              "developer",
              "--project-id",
              projectId,
              "--max-body-bytes",
              "2000",
              "--latency-ms",
              "1",
              "--sizes",
              "das.bigAuthorityAssets=10",
              "--item-cache-chars",
              "1000000",
              "--idle-timeout-ms",
              "4000",
              "--max-connections",
              "50",
              "--ws-max-subscriptions",
              "1",
              "--ws-max-frame-bytes",
              "4096"
            ])
          ),
          (c) => Effect.promise(() => (c.kill("SIGINT"), exited(c)))
        )
        const info = JSON.parse(yield* Effect.promise(() => firstLine(child))) as { url: string; projectId: string }
        expect(info.projectId).toBe(projectId)
        const usage = yield* inProcess(["--url", info.url, "usage", projectId, "--json"], { SOLFX_API_KEY: KEY })
        expect(usage.code, usage.stderr).toBe(0)
        expect(jsonLines(usage.stdout)[0]).toMatchObject({ subscriptionDetails: { plan: "developer" } })
        // Past --max-body-bytes: 413, before the body is read.
        const big = yield* Effect.promise(() =>
          fetch(`${info.url}/?api-key=${KEY}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getAsset", params: { id: "x".repeat(3000) } })
          })
        )
        expect(big.status).toBe(413)
        // Past --ws-max-subscriptions: a JSON-RPC error on a socket that stays open.
        const frames = yield* Effect.promise(() =>
          new Promise<Array<any>>((resolve, reject) => {
            const ws = new WebSocket(`${info.url.replace(/^http/, "ws")}/?api-key=${KEY}`)
            const got: Array<any> = []
            ws.on("error", reject)
            ws.on("open", () => {
              ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" }))
              ws.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "slotSubscribe" }))
            })
            ws.on("message", (data) => {
              const msg = JSON.parse(data.toString())
              if (msg.id !== undefined) got.push(msg)
              if (got.length === 2) {
                ws.close()
                resolve(got)
              }
            })
          })
        )
        expect(frames.map((f) => f.error?.code ?? "ok")).toEqual(["ok", -32005])
        const wrong = yield* inProcess(["emulator", "--plan", "gold"])
        expect(wrong.code).toBe(2)
        expect(wrong.stderr).toContain("developer")
      }),
    { timeout: 240_000 }
  )
})

describe("solfx emulator under npx", () => {
  it.live(
    "stops when npx gets SIGTERM (npx exits without passing it on; the launcher and the emulator see their parent go)",
    () =>
      Effect.gen(function*() {
        const root = fileURLToPath(new URL("../../..", import.meta.url))
        const npx = spawn("npx", ["solfx", "emulator", "--port", "0"], {
          cwd: root,
          stdio: ["ignore", "pipe", "ignore"]
        })
        const url = (JSON.parse(yield* Effect.promise(() => firstLine(npx))) as { url: string }).url
        const answers = () => fetch(url, { method: "POST", body: "{}" }).then(() => true, () => false)
        expect(yield* Effect.promise(answers)).toBe(true)
        npx.kill("SIGTERM")
        // Bounded: up to 120 polls half a second apart (a count, not a speed check).
        let polls = 0
        while (polls < 120 && (yield* Effect.promise(answers))) {
          polls++
          yield* Effect.sleep("500 millis")
        }
        expect(yield* Effect.promise(answers)).toBe(false)
      }),
    { timeout: 240_000 }
  )
})
