/**
 * The Redis de-duplication store when a claim's answer is lost: Redis ran the claim in time, but the
 * answer reached the receiver after its command timeout (a loaded machine, Redis resumed from a
 * pause with a backlog). Replies are held by a TCP proxy between the store and a real redis-server,
 * so the race is made on purpose: the claim fails with an `outcome`, the signature is taken for
 * everyone else, and the outcome (once replies flow again) says this claim took it. Through two
 * receivers: the first answers 503, the service's retry reaches the second and is a duplicate, and the
 * first hands the transaction to the app once Redis answers: once, none lost.
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import { describe, expect, it } from "@effect/vitest"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import * as Loopback from "@solfx/testing/Loopback"
import * as Servers from "@solfx/testing/Servers"
import type { DedupeStore } from "@solfx/webhooks/DedupeStore"
import * as DedupeStoreRedis from "@solfx/webhooks/DedupeStoreRedis"
import * as WebhookReceiver from "@solfx/webhooks/WebhookReceiver"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Net from "node:net"

const AUTH = "Bearer lost-answer-secret"
const SIGNATURE = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"

/** A TCP proxy to `port` that forwards requests at once and holds Redis' replies while `held`. */
const holdingProxy = (port: number) =>
  Effect.acquireRelease(
    Effect.async<{ readonly port: number; hold: (on: boolean) => void; readonly server: Net.Server }>((resume) => {
      let held = false
      const flushes = new Set<() => void>()
      const server = Net.createServer((client) => {
        const upstream = Net.connect(port, "127.0.0.1")
        const waiting: Array<Buffer> = []
        const flush = () => {
          for (const chunk of waiting.splice(0)) client.write(chunk)
        }
        flushes.add(flush)
        client.on("data", (d) => upstream.write(d))
        upstream.on("data", (d) => held ? waiting.push(d) : client.write(d))
        const end = () => {
          flushes.delete(flush)
          client.destroy()
          upstream.destroy()
        }
        client.on("close", end).on("error", end)
        upstream.on("close", end).on("error", end)
      })
      server.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          port: (server.address() as Net.AddressInfo).port,
          server,
          hold: (on) => {
            held = on
            if (!on) { for (const f of flushes) f() }
          }
        })))
    }),
    ({ server }) => Effect.async<void>((r) => void server.close(() => r(Effect.void)))
  )

const delivery = JSON.stringify([{
  signature: SIGNATURE,
  slot: 7,
  timestamp: 1_700_000_000,
  type: "TRANSFER",
  source: "SYSTEM_PROGRAM",
  fee: 5000,
  feePayer: "CKs1E69a2e9TmH4mKKLrXFF8kD3ZnwKjoEuXa6sz9WqX",
  nativeTransfers: [],
  tokenTransfers: [],
  accountData: []
}])

const post = (url: string) =>
  Effect.promise(async () => {
    const res = await fetch(url, {
      method: "POST",
      body: delivery,
      headers: { "content-type": "application/json", authorization: AUTH }
    })
    return { status: res.status, body: await res.text() }
  })

/** Waits (polling, bounded) until `done()`; on timeout, fails with what it waited for. */
const until = (what: string, done: () => boolean) =>
  Effect.suspend(() => done() ? Effect.void : Effect.fail(what)).pipe(
    Effect.retry({ schedule: Schedule.spaced(Duration.millis(100)), times: 600 }),
    Effect.mapError((w) => new Error(`timed out waiting for ${w}`))
  )

/** One claim through (retried while the connection comes up), so the store is connected before replies are held. */
const ready = (store: DedupeStore) =>
  store.claim([`warm-up-${Math.random()}`], 60_000).pipe(
    Effect.retry({ schedule: Schedule.spaced(Duration.millis(100)), times: 300 })
  )

const missing = Servers.unavailable("redis")

describe.skipIf(missing !== undefined)(Servers.title("DedupeStoreRedis, a claim's answer lost", missing), () => {
  it.live(
    "the failed claim's outcome says it took the signature; everyone else sees it taken",
    () =>
      Effect.gen(function*() {
        const redis = yield* Servers.redis
        const proxy = yield* holdingProxy(redis.port)
        const slow = yield* DedupeStoreRedis.make({ host: "127.0.0.1", port: proxy.port }, { commandTimeoutMs: 500 })
        const direct = yield* DedupeStoreRedis.make({ host: "127.0.0.1", port: redis.port })
        yield* ready(slow)

        proxy.hold(true)
        const failed = yield* Effect.either(slow.claim(["a", "b", "a"], 60_000))
        expect(Either.isLeft(failed) && failed.left._tag).toBe("DedupeUnavailable")
        const outcome = Either.isLeft(failed) ? failed.left.outcome : undefined
        expect(outcome).toBeDefined()
        // Redis ran it: for another claimer (another process) the signatures are taken.
        expect(yield* direct.claim(["a", "c"], 60_000)).toEqual([false, true])

        proxy.hold(false)
        expect(yield* outcome!).toEqual([true, true, false])
        // Another claim's outcome is not this one's.
        const other = yield* Effect.either(Effect.flatMap(
          Effect.sync(() => proxy.hold(true)),
          () => slow.claim(["c"], 60_000)
        ))
        proxy.hold(false)
        const otherOutcome = Either.isLeft(other) ? other.left.outcome : undefined
        expect(otherOutcome).toBeDefined()
        expect(yield* otherOutcome!).toEqual([false])
      }).pipe(Effect.scoped),
    { timeout: 120_000 }
  )

  it.live(
    "two receivers: the 503'd delivery's retry is a duplicate, and the first hands it over once",
    () =>
      Effect.gen(function*() {
        const redis = yield* Servers.redis
        const proxy = yield* holdingProxy(redis.port)
        const handled: Array<string> = []
        const receiverOn = (port: number, commandTimeoutMs: number) =>
          Effect.gen(function*() {
            const dedupeStore = yield* DedupeStoreRedis.make({ host: "127.0.0.1", port }, { commandTimeoutMs })
            yield* ready(dedupeStore)
            const receiver = yield* WebhookReceiver.make({
              authHeader: Redacted.make(AUTH),
              dedupeStore,
              onEvents: (events) =>
                Effect.sync(() => events.forEach((e) => handled.push(WebhookDelivery.signatureOf(e))))
            })
            const url = yield* Loopback.serve(HttpRouter.empty.pipe(HttpRouter.post("/hook", receiver.app)))
            return { receiver, url: `${url}/hook` }
          })
        const first = yield* receiverOn(proxy.port, 500)
        const second = yield* receiverOn(redis.port, 2_000)

        proxy.hold(true)
        expect((yield* post(first.url)).status).toBe(503)
        // The service's retry, at the other receiver: Redis says taken, so it is a duplicate.
        const retry = yield* post(second.url)
        expect(retry.status).toBe(200)
        expect(JSON.parse(retry.body)).toEqual({ accepted: 0, duplicates: 1 })
        expect(handled).toEqual([])

        proxy.hold(false)
        yield* until("the first receiver to hand the transaction over", () => handled.length > 0)
        yield* first.receiver.idle
        expect(handled).toEqual([SIGNATURE])
        expect((yield* first.receiver.counters).recovered).toBe(1)
        expect((yield* first.receiver.counters).storeUnavailable).toBe(1)
      }).pipe(Effect.scoped),
    { timeout: 120_000 }
  )
})
