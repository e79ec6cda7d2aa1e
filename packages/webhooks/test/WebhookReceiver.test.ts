/**
 * The webhook receiver served by NodeHttpServer on a free loopback port and
 * spoken to with plain fetch: the auth check, both body limits, path-precise
 * 400s, the quick acknowledgement, deduplication, handler failures (logged
 * without the auth value), `failureStatus`, and a full queue.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { describe, expect, it } from "@effect/vitest"
import { encodeBase58 } from "@solfx/core/Primitives"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import { WebhookReceiver } from "@solfx/webhooks"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as Redacted from "effect/Redacted"
import * as TestClock from "effect/TestClock"
import { randomBytes } from "node:crypto"
import * as Http from "node:http"

const AUTH = "Bearer s3cr3t-webhook-auth-value"
const PAYER = "CKs1E69a2e9TmH4mKKLrXFF8kD3ZnwKjoEuXa6sz9WqX"

const freshSignature = () => encodeBase58(randomBytes(64))

const enhanced = (signature = freshSignature()) => ({
  signature,
  slot: 7,
  timestamp: 1_700_000_000,
  type: "TRANSFER",
  source: "SYSTEM_PROGRAM",
  fee: 5000,
  feePayer: PAYER,
  nativeTransfers: [{ fromUserAccount: PAYER, toUserAccount: PAYER, amount: 1000 }],
  tokenTransfers: [],
  accountData: []
})

/** Starts a receiver on a free port; the URL of its route. */
const serve = <E, R>(options: WebhookReceiver.Options<E, R>, mount: "router" | "app" = "router") =>
  Effect.gen(function*() {
    const receiver = yield* WebhookReceiver.make(options)
    let node: Http.Server | undefined
    const server = yield* NodeHttpServer.make(() => (node = Http.createServer()), { port: 0, host: "127.0.0.1" })
    // Before the server's own close: keep-alive sockets would hold the scope open.
    yield* Effect.addFinalizer(() => Effect.sync(() => node?.closeAllConnections()))
    yield* server.serve(mount === "router" ? WebhookReceiver.router(receiver, "/hook") : receiver.app)
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    return { receiver, url: `http://127.0.0.1:${port}/hook` }
  })

const post = (url: string, body: BodyInit, headers: Record<string, string> = { authorization: AUTH }) =>
  Effect.promise(async () => {
    const res = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } })
    return { status: res.status, text: await res.text() }
  })

const collecting = () => {
  const batches: Array<ReadonlyArray<WebhookDelivery.DeliveryItem>> = []
  return {
    batches,
    onEvents: (events: ReadonlyArray<WebhookDelivery.DeliveryItem>) => Effect.sync(() => void batches.push(events))
  }
}

describe("WebhookReceiver", () => {
  it.scopedLive("401 without or with a wrong Authorization; the handler never runs", () =>
    Effect.gen(function*() {
      const sink = collecting()
      const { receiver, url } = yield* serve({ authHeader: Redacted.make(AUTH), onEvents: sink.onEvents })
      const body = JSON.stringify([enhanced()])
      expect((yield* post(url, body, {})).status).toBe(401)
      expect((yield* post(url, body, { authorization: "Bearer wrong" })).status).toBe(401)
      expect((yield* post(url, body, { authorization: `${AUTH}x` })).status).toBe(401)
      expect((yield* post(url, body, { authorization: AUTH.slice(0, -1) })).status).toBe(401)
      const ok = yield* post(url, body)
      expect(ok.status).toBe(200)
      yield* receiver.idle
      const counters = yield* receiver.counters
      expect(counters.unauthorized).toBe(4)
      expect(counters.deliveries).toBe(1)
      expect(sink.batches.length).toBe(1)
    }))

  it.scopedLive("413 when Content-Length is over the limit, and when streamed bytes are (chunked, no length)", () =>
    Effect.gen(function*() {
      const sink = collecting()
      const { receiver, url } = yield* serve({
        authHeader: Redacted.make(AUTH),
        onEvents: sink.onEvents,
        maxBodyBytes: 2048
      })
      const big = JSON.stringify(Array.from({ length: 20 }, () => enhanced()))
      expect(big.length).toBeGreaterThan(2048)
      const declared = yield* post(url, big)
      expect(declared.status).toBe(413)

      // A streamed body has no Content-Length: only counting the bytes catches it.
      const chunked = yield* Effect.promise(async () => {
        const bytes = new TextEncoder().encode(big)
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i < bytes.length; i += 512) controller.enqueue(bytes.subarray(i, i + 512))
            controller.close()
          }
        })
        const res = await fetch(url, {
          method: "POST",
          body: stream,
          headers: { authorization: AUTH },
          duplex: "half"
        } as RequestInit)
        return res.status
      })
      expect(chunked).toBe(413)

      // A body just under the limit passes.
      const small = JSON.stringify([enhanced()])
      expect((yield* post(url, small)).status).toBe(200)
      yield* receiver.idle
      const counters = yield* receiver.counters
      expect(counters.tooLarge).toBe(2)
      expect(sink.batches.length).toBe(1)
    }))

  it.scopedLive("400 with a path-precise message when the body is malformed", () =>
    Effect.gen(function*() {
      const sink = collecting()
      const { receiver, url } = yield* serve({ authHeader: Redacted.make(AUTH), onEvents: sink.onEvents })
      const notJson = yield* post(url, "[{\"signature\":")
      expect(notJson.status).toBe(400)
      const badFee = yield* post(url, JSON.stringify([enhanced(), { ...enhanced(), fee: "lots" }]))
      expect(badFee.status).toBe(400)
      expect(JSON.parse(badFee.text).error).toContain("$[1].fee")
      const rawBad = yield* post(
        url,
        JSON.stringify([{
          slot: 1,
          meta: { err: null, fee: 1, preBalances: [], postBalances: [] },
          transaction: { message: {}, signatures: [] }
        }])
      )
      expect(rawBad.status).toBe(400)
      expect(JSON.parse(rawBad.text).error).toContain("$[0].transaction.message.accountKeys")
      const notArray = yield* post(url, JSON.stringify(enhanced()))
      expect(notArray.status).toBe(400)
      expect(JSON.parse(notArray.text).error).toMatch(/at \$:/)
      const counters = yield* receiver.counters
      expect(counters.malformed).toBe(4)
      expect(counters.deliveries).toBe(0)
      expect(sink.batches.length).toBe(0)
    }))

  it.scopedLive("answers 200 before a slow handler finishes, and hands batches over in order", () =>
    Effect.gen(function*() {
      const release = yield* Deferred.make<void>()
      const seen: Array<string> = []
      const { receiver, url } = yield* serve({
        authHeader: Redacted.make(AUTH),
        onEvents: (events) =>
          Effect.zipRight(
            Deferred.await(release),
            Effect.sync(() => void seen.push(...events.map(WebhookDelivery.signatureOf)))
          )
      })
      const a = enhanced()
      const b = enhanced()
      // The handler cannot finish before `release`: both answers came first.
      expect((yield* post(url, JSON.stringify([a]))).status).toBe(200)
      expect((yield* post(url, JSON.stringify([b]))).status).toBe(200)
      expect(seen).toEqual([])
      yield* Deferred.succeed(release, undefined)
      yield* receiver.idle
      expect(seen).toEqual([a.signature, b.signature])
      expect((yield* receiver.counters).handled).toBe(2)
    }))

  it.scoped("deduplicates by signature within the window, across and inside deliveries (TestClock)", () =>
    Effect.gen(function*() {
      const sink = collecting()
      const { receiver, url } = yield* serve({
        authHeader: Redacted.make(AUTH),
        onEvents: sink.onEvents,
        dedupeWindow: "300 millis"
      })
      const tx = enhanced()
      const other = enhanced()
      expect((yield* post(url, JSON.stringify([tx]))).status).toBe(200)
      const again = yield* post(url, JSON.stringify([tx, other, other]))
      expect(again.status).toBe(200)
      expect(JSON.parse(again.text)).toEqual({ accepted: 1, duplicates: 2 })
      yield* receiver.idle
      expect(sink.batches.map((b) => b.length)).toEqual([1, 1])
      // After the window, the same signature is new again (the window is on the Effect Clock).
      yield* TestClock.adjust("400 millis")
      expect((yield* post(url, JSON.stringify([tx]))).status).toBe(200)
      yield* receiver.idle
      expect(sink.batches.length).toBe(3)
      const counters = yield* receiver.counters
      expect(counters).toMatchObject({ deliveries: 3, received: 5, duplicatesDropped: 2, handled: 3 })
    }))

  it.scopedLive("a failing handler still gets 200, is counted, and is logged without the auth value", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const logger = Logger.make(({ annotations, cause, message }) => {
        lines.push(`${String(message)} ${JSON.stringify([...annotations])} ${String(cause)}`)
      })
      const { receiver, url } = yield* serve({
        authHeader: Redacted.make(AUTH),
        onEvents: () => Effect.fail(new Error("database down"))
      }).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
      expect((yield* post(url, JSON.stringify([enhanced()]))).status).toBe(200)
      yield* receiver.idle
      expect((yield* receiver.counters).handlerFailures).toBe(1)
      const text = lines.join("\n")
      expect(text).toContain("webhook handler failed")
      expect(text).toContain("database down")
      expect(text).not.toContain("s3cr3t")
    }))

  it.scopedLive("with failureStatus, a failing handler answers it and the retry is processed", () =>
    Effect.gen(function*() {
      let calls = 0
      const done: Array<string> = []
      const { receiver, url } = yield* serve({
        authHeader: Redacted.make(AUTH),
        failureStatus: 500,
        onEvents: (events) =>
          Effect.suspend(() =>
            ++calls === 1
              ? Effect.fail("flaky")
              : Effect.sync(() => void done.push(...events.map(WebhookDelivery.signatureOf)))
          )
      }).pipe(Effect.provide(Logger.remove(Logger.defaultLogger)))
      const body = JSON.stringify([enhanced()])
      expect((yield* post(url, body)).status).toBe(500)
      expect((yield* post(url, body)).status).toBe(200)
      expect((yield* post(url, body)).status).toBe(200)
      yield* receiver.idle
      expect(calls).toBe(2)
      expect(done.length).toBe(1)
      expect(yield* receiver.counters).toMatchObject({ handlerFailures: 1, duplicatesDropped: 1, handled: 1 })
    }))

  it.scopedLive("503 when the queue is full; the signatures of a refused delivery are not remembered", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const { receiver, url } = yield* serve({
        authHeader: Redacted.make(AUTH),
        queueCapacity: 1,
        onEvents: () => Effect.zipRight(Deferred.succeed(started, undefined), Deferred.await(release))
      })
      expect((yield* post(url, JSON.stringify([enhanced()]))).status).toBe(200)
      yield* Deferred.await(started)
      expect((yield* post(url, JSON.stringify([enhanced()]))).status).toBe(200)
      const refused = enhanced()
      expect((yield* post(url, JSON.stringify([refused]))).status).toBe(503)
      yield* Deferred.succeed(release, undefined)
      yield* receiver.idle
      expect((yield* post(url, JSON.stringify([refused]))).status).toBe(200)
      yield* receiver.idle
      expect(yield* receiver.counters).toMatchObject({ queueFull: 1, handled: 3, duplicatesDropped: 0 })
    }))

  it.scopedLive("405 for other methods than POST", () =>
    Effect.gen(function*() {
      const { url } = yield* serve({ authHeader: Redacted.make(AUTH), onEvents: () => Effect.void }, "app")
      const res = yield* Effect.promise(() => fetch(url, { method: "GET", headers: { authorization: AUTH } }))
      expect(res.status).toBe(405)
      expect(res.headers.get("allow")).toBe("POST")
    }))
})
