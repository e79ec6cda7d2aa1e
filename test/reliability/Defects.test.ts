/**
 * Regression tests for defects 1 to 6 of issue 17, each over real HTTP against a
 * small hostile server written here (node:http on 127.0.0.1, port 0):
 * 1. the key passed where an id or a region is expected, and echoed URL-encoded by a
 *    server, reaches no error and no span (an in-memory OpenTelemetry exporter records
 *    every span, event and attribute);
 * 2. Retry-After is capped and the call ends within its budget (TestClock);
 * 3. page walks end: cursor cycles, endless empty pages, `hasMore` with no data;
 * 4. with FetchHttpClient a redirect is refused, never followed with the key, and a
 *    compression bomb stops at the body bound;
 * 5. a huge body is refused at the bound, after one request;
 * 6. the JSON-RPC id is taken when the call runs, and Retry-After dates are read on the Clock.
 */
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { describe, expect, it } from "@effect/vitest"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import * as Admin from "@solfx/admin/Admin"
import * as Config from "@solfx/core/Config"
import * as Pagination from "@solfx/core/Pagination"
import { encodeBase58 } from "@solfx/core/Primitives"
import * as HttpTransport from "@solfx/http/HttpTransport"
import * as Bundles from "@solfx/rpc/Bundles"
import * as Compression from "@solfx/rpc/Compression"
import * as Solfx from "@solfx/sdk/Solfx"
import * as Wallet from "@solfx/wallet/Wallet"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as Http from "node:http"
import { inspect } from "node:util"
import * as Zlib from "node:zlib"
import { fastRetry } from "./support/Sdk.js"

// -- the hostile server ----------------------------------------------------------------

interface Seen {
  readonly method: string
  readonly url: string
  readonly headers: Http.IncomingHttpHeaders
  readonly body: string
}

type Handler = (req: Seen, res: Http.ServerResponse, n: number) => void

interface Hostile {
  readonly url: string
  readonly seen: Array<Seen>
}

const hostile = (handler: Handler) =>
  Effect.acquireRelease(
    Effect.async<Hostile & { readonly server: Http.Server }>((resume) => {
      const seen: Array<Seen> = []
      const server = Http.createServer((req, res) => {
        let body = ""
        req.on("data", (c: Buffer) => {
          body += c.toString()
        })
        req.on("end", () => {
          const s = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body }
          seen.push(s)
          handler(s, res, seen.length - 1)
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const port = (server.address() as { port: number }).port
        resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, seen, server }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

const json = (res: Http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify(body))
}

const rpcReply = (req: Seen, res: Http.ServerResponse, result: unknown) =>
  json(res, 200, { jsonrpc: "2.0", id: (JSON.parse(req.body) as { id: unknown }).id, result })

// -- the SDK over it ---------------------------------------------------------------------

interface SdkOptions {
  readonly apiKey?: string
  readonly fetch?: boolean
  readonly transport?: HttpTransport.Options
  readonly retry?: Partial<Config.RetryPolicy>
}

const sdk = (url: string, o: SdkOptions = {}) =>
  Solfx.services().pipe(
    Layer.provideMerge(HttpTransport.layerWith(o.transport ?? {})),
    Layer.provide(o.fetch ? FetchHttpClient.layer : NodeHttpClient.layerUndici),
    Layer.provideMerge(
      Config.layer({ apiKey: o.apiKey ?? KEY, baseUrl: url, retry: o.retry ?? fastRetry, timeout: "10 seconds" })
    )
  )

const KEY = "a&b=c#d%20-secret-key"
const WALLET = "86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY"
const MINT = WALLET

/** Lets real I/O run while the TestClock stands still. */
const realPause = Effect.promise(() => new Promise<void>((r) => setTimeout(r, 5)))

/** Advances the TestClock a second at a time until the fiber is done; the simulated time it took. */
const driveClock = <A, E>(fiber: Fiber.RuntimeFiber<A, E>, limit: Duration.DurationInput) =>
  Effect.gen(function*() {
    let elapsed = 0
    while (fiber.unsafePoll() === null && elapsed <= Duration.toMillis(limit)) {
      yield* realPause
      yield* TestClock.adjust("1 second")
      elapsed += 1000
    }
    return elapsed
  })

describe("defect 1: the key reaches no error and no span", () => {
  const forms = (key: string) => [
    key,
    encodeURIComponent(key),
    new URLSearchParams({ k: key }).toString().slice(2),
    Buffer.from(key).toString("base64")
  ]

  it.live("key as project id, bundle ids, bundle id, region; a server that echoes the URL-encoded key", () => {
    const exporter = new InMemorySpanExporter()
    const tracing = NodeSdk.layer(() => ({
      resource: { serviceName: "defects" },
      spanProcessor: new SimpleSpanProcessor(exporter)
    }))
    const UUID_KEY = "0b7e4c1a-5d2f-4e8b-9a3c-6f1d2e3a4b5c"
    return Effect.gen(function*() {
      // Echoes the request URL (the key in it, URL-encoded) in every error it sends.
      const server = yield* hostile((req, res) => json(res, 400, { error: `bad request ${req.url}` }))
      const errors: Array<unknown> = []
      const collect = <A, E, R>(e: Effect.Effect<A, E, R>) => Effect.tap(Effect.flip(e), (x) => errors.push(x))
      yield* Effect.gen(function*() {
        const bundles = yield* Bundles.Bundles
        const wallet = yield* Wallet.Wallet
        yield* collect(bundles.getBundleStatuses([KEY]))
        yield* collect(bundles.awaitBundle(KEY))
        yield* collect(bundles.sendBundle(["AQ=="], { region: KEY as "fra" }))
        yield* collect(wallet.balances(WALLET))
      }).pipe(Effect.provide(sdk(server.url)))
      yield* Effect.gen(function*() {
        yield* collect((yield* Admin.Admin).getProjectUsage(UUID_KEY))
      }).pipe(Effect.provide(sdk(server.url, { apiKey: UUID_KEY })))
      expect(errors.map((e) => (e as { _tag: string })._tag)).toEqual([
        "InvalidRequest",
        "InvalidRequest",
        "InvalidRequest",
        "HttpError",
        "ProjectMismatch"
      ])
      const spans = exporter.getFinishedSpans()
      const rendered = JSON.stringify(spans.map((s) => ({
        name: s.name,
        attributes: s.attributes,
        events: s.events.map((e) => ({ name: e.name, attributes: e.attributes })),
        status: s.status
      })))
      expect(spans.length).toBeGreaterThanOrEqual(5)
      expect(rendered).toContain("exception")
      const renderedErrors = errors.map((e) => `${String(e)}\n${JSON.stringify(e)}\n${inspect(e, { depth: 10 })}`)
      for (const form of [...forms(KEY), ...forms(UUID_KEY)]) {
        expect(rendered, form).not.toContain(form)
        for (const text of renderedErrors) expect(text, form).not.toContain(form)
      }
      console.log(`[reliability] defect 1: spans=${spans.length} errors=${errors.length} key forms checked=8`)
    }).pipe(Effect.provide(tracing), Effect.scoped)
  })
})

describe("defect 2: Retry-After is capped, the call ends within its budget", () => {
  for (const retryAfter of ["99999", "Fri, 01 Jan 2100 00:00:00 GMT"]) {
    it.effect(`429 with Retry-After: ${retryAfter} ends with RateLimited carrying the server's figure`, () =>
      Effect.gen(function*() {
        const server = yield* hostile((_req, res) =>
          json(res, 429, { error: "rate limited" }, { "retry-after": retryAfter })
        )
        const fiber = yield* Effect.fork(
          Effect.flatMap(Wallet.Wallet, (w) => w.balances(WALLET)).pipe(
            Effect.provide(sdk(server.url, {
              retry: { times: 10, base: Duration.millis(100), maxDelay: Duration.seconds(10) },
              transport: { budget: "30 seconds" }
            })),
            Effect.flip,
            Effect.zip(Clock.currentTimeMillis)
          )
        )
        yield* driveClock(fiber, "2 minutes")
        const [error, elapsed] = yield* Fiber.join(fiber)
        expect(error._tag).toBe("RateLimited")
        if (error._tag === "RateLimited") expect(error.retryAfterMillis).toBeGreaterThanOrEqual(99_999_000)
        expect(elapsed).toBeLessThanOrEqual(30_000)
        // Sleeps of at most 10 s within 30 s: at most 4 attempts.
        expect(server.seen.length).toBeGreaterThan(1)
        expect(server.seen.length).toBeLessThanOrEqual(4)
        console.log(
          `[reliability] defect 2: Retry-After ${retryAfter}: ${server.seen.length} requests, ended by ${
            elapsed / 1000
          } s`
        )
      }).pipe(Effect.scoped))
  }
})

describe("defect 3: every page walk ends", () => {
  const sig = (n: number) => ({ signature: encodeBase58(new Uint8Array(64).fill(n)), slot: n, blockTime: n })

  it.live("cursors cycling A→B→A end with PaginationError after 3 requests", () =>
    Effect.gen(function*() {
      const next: Record<string, string> = { none: "A", A: "B", B: "A" }
      const server = yield* hostile((req, res) => {
        const cursor = (JSON.parse(req.body) as { params: { cursor?: string } }).params.cursor ?? "none"
        rpcReply(req, res, { context: { slot: 1 }, value: { items: [sig(1)], cursor: next[cursor] } })
      })
      const error = yield* Effect.flatMap(Compression.Compression, (c) =>
        Stream.runDrain(c.getCompressionSignaturesForTokenOwnerStream({ owner: WALLET }))).pipe(
          Effect.provide(sdk(server.url)),
          Effect.flip
        )
      expect([error._tag, error.message]).toEqual(["PaginationError", expect.stringContaining("second time")])
      expect(server.seen.length).toBe(3)
      console.log(`[reliability] defect 3: cursor cycle stopped after ${server.seen.length} requests`)
    }).pipe(Effect.scoped))

  it.live("empty pages with fresh cursors end after MAX_EMPTY_RUN requests, even under Stream.take(5)", () =>
    Effect.gen(function*() {
      const server = yield* hostile((req, res, n) =>
        rpcReply(req, res, { context: { slot: 1 }, value: { items: [], cursor: `fresh-${n}` } })
      )
      const error = yield* Effect.flatMap(
        Compression.Compression,
        (c) => Stream.runDrain(Stream.take(c.getCompressedMintTokenHoldersStream({ mint: MINT }), 5))
      ).pipe(
        Effect.provide(sdk(server.url)),
        Effect.flip
      )
      expect(error).toMatchObject({ _tag: "PaginationError", reason: "empty" })
      expect(server.seen.length).toBe(Pagination.MAX_EMPTY_RUN)
      console.log(`[reliability] defect 3: endless empty pages stopped after ${server.seen.length} requests`)
    }).pipe(Effect.scoped))

  it.live("transfersStream against hasMore: true with empty data ends after MAX_EMPTY_RUN requests", () =>
    Effect.gen(function*() {
      const server = yield* hostile((_req, res, n) =>
        json(res, 200, { data: [], pagination: { hasMore: true, nextCursor: `c${n}` } })
      )
      const error = yield* Effect.flatMap(Wallet.Wallet, (w) => Stream.runDrain(w.transfersStream(WALLET))).pipe(
        Effect.provide(sdk(server.url)),
        Effect.flip
      )
      expect(error).toMatchObject({ _tag: "PaginationError", reason: "empty" })
      expect(server.seen.length).toBe(Pagination.MAX_EMPTY_RUN)
      console.log(`[reliability] defect 3: hasMore with empty data stopped after ${server.seen.length} requests`)
    }).pipe(Effect.scoped))
})

describe("defect 4: FetchHttpClient neither follows a redirect with the key nor inflates a bomb", () => {
  it.live("a 302 to another host over plain http is RedirectRefused; the other host sees nothing", () =>
    Effect.gen(function*() {
      const elsewhere = yield* hostile((_req, res) => json(res, 200, {}))
      const server = yield* hostile((_req, res) => {
        res.writeHead(302, { location: `${elsewhere.url}/steal` })
        res.end()
      })
      const error = yield* Effect.flatMap(Wallet.Wallet, (w) => w.balances(WALLET)).pipe(
        Effect.provide(sdk(server.url, { fetch: true })),
        Effect.flip
      )
      expect(error).toMatchObject({ _tag: "RedirectRefused", status: 302 })
      expect(elsewhere.seen).toEqual([])
      expect(server.seen.length).toBe(1)
    }).pipe(Effect.scoped))

  it.live("a gzip bomb stops at the body bound after one request", () =>
    Effect.gen(function*() {
      const bomb = Zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024))
      const server = yield* hostile((_req, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" })
        res.end(bomb)
      })
      const error = yield* Effect.flatMap(Wallet.Wallet, (w) => w.balances(WALLET)).pipe(
        Effect.provide(sdk(server.url, { fetch: true, transport: { maxBodyBytes: 1024 * 1024 } })),
        Effect.flip
      )
      expect(error).toMatchObject({ _tag: "ResponseTooLarge", limitBytes: 1024 * 1024 })
      expect(server.seen.length).toBe(1)
      console.log(`[reliability] defect 4: ${bomb.length} B gzip of 64 MiB refused at 1 MiB, 1 request`)
    }).pipe(Effect.scoped))
})

describe("defect 5: a huge body is refused at the bound and not downloaded again", () => {
  it.live("declared 700 MB: ResponseTooLarge after one request, nothing read", () =>
    Effect.gen(function*() {
      const server = yield* hostile((_req, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": String(700 * 1024 * 1024) })
        res.write("[")
        // Never finishes: the client must stop on the header alone.
      })
      const error = yield* Effect.flatMap(Wallet.Wallet, (w) => w.balances(WALLET)).pipe(
        Effect.provide(sdk(server.url)),
        Effect.flip
      )
      expect(error).toMatchObject({ _tag: "ResponseTooLarge", limitBytes: HttpTransport.DEFAULT_MAX_BODY_BYTES })
      expect(server.seen.length).toBe(1)
    }).pipe(Effect.scoped))

  it.live("chunked, no length: the read stops at the bound, after one request", () =>
    Effect.gen(function*() {
      const chunk = Buffer.alloc(64 * 1024, 32)
      const server = yield* hostile((_req, res) => {
        res.writeHead(200, { "content-type": "application/json" })
        let sent = 0
        const pump = () => {
          while (sent < 64 && res.write(chunk)) sent++
          if (sent < 64) res.once("drain", pump)
          else res.end()
        }
        pump()
      })
      const error = yield* Effect.flatMap(Wallet.Wallet, (w) => w.balances(WALLET)).pipe(
        Effect.provide(sdk(server.url, { transport: { maxBodyBytes: 256 * 1024 } })),
        Effect.flip
      )
      expect(error).toMatchObject({ _tag: "ResponseTooLarge" })
      expect(server.seen.length).toBe(1)
    }).pipe(Effect.scoped))
})

describe("defect 6: ids and Retry-After dates are read when the call runs", () => {
  it.live("running one Effect twice sends two JSON-RPC ids", () =>
    Effect.gen(function*() {
      const server = yield* hostile((req, res) => rpcReply(req, res, { total: 0, limit: 1, page: 1, items: [] }))
      yield* Effect.gen(function*() {
        // The transport's own call, built once and run twice (as a retry or a repeat would).
        const transport = yield* HttpTransport.HttpTransport
        const once = transport.rpc("getAssetsByAuthority", { authorityAddress: WALLET }, Schema.Unknown)
        yield* once
        yield* once
      }).pipe(Effect.provide(sdk(server.url)))
      const ids = server.seen.map((s) => (JSON.parse(s.body) as { id: unknown }).id)
      expect(ids).toHaveLength(2)
      expect(ids[0]).not.toEqual(ids[1])
    }).pipe(Effect.scoped))

  it.effect("a Retry-After date is read on the Clock: TestClock at 0 and a date 5 s later waits 5 s", () =>
    Effect.gen(function*() {
      const server = yield* hostile((_req, res, n) =>
        n === 0
          ? json(res, 429, { error: "slow down" }, { "retry-after": new Date(5_000).toUTCString() })
          : json(res, 200, { balances: [], totalUsdValue: 0, pagination: { page: 1, limit: 100, hasMore: false } })
      )
      const fiber = yield* Effect.fork(
        Effect.flatMap(Wallet.Wallet, (w) => w.balances(WALLET)).pipe(
          Effect.provide(sdk(server.url, { retry: { times: 3, maxDelay: Duration.seconds(10) } }))
        )
      )
      while (server.seen.length === 0) yield* realPause
      yield* realPause
      yield* TestClock.adjust("4 seconds")
      yield* realPause
      expect(server.seen.length).toBe(1)
      yield* driveClock(fiber, "10 seconds")
      expect((yield* Fiber.join(fiber)).balances).toEqual([])
      expect(server.seen.length).toBe(2)
    }).pipe(Effect.scoped))
})
