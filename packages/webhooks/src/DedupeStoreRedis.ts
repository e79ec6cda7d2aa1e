/**
 * The receiver's de-duplication in Redis (the same Redis the plan limits may use), so that several
 * receiver processes behind one URL hand each transaction to the app once per window. A separate
 * module so that only its users need `ioredis`.
 *
 * What it guarantees: at-least-once in (the service retries until a 2xx), once per window out, for
 * as long as Redis keeps its keys. A claim is one script (`SET NX PX` per signature, the value a
 * token of this claim) that first checks its deadline against Redis' own clock, so a claim that
 * reaches a slow or paused Redis after the receiver gave up does nothing. A claim Redis ran just in
 * time whose answer came too late (or never, the connection lost) did take the signatures: its
 * `DedupeUnavailable` carries an `outcome` that reads which keys hold its token, and the receiver
 * hands those over once Redis answers again (the service's retries meanwhile are duplicates).
 * While Redis is unreachable every claim fails at once with `DedupeUnavailable` (no offline queue,
 * nothing resent after a reconnect): the receiver answers 503.
 *
 * @example
 * const dedupeStore = yield* DedupeStoreRedis.make({ host: "127.0.0.1", port: 6379 })
 * const receiver = yield* WebhookReceiver.make({ authHeader, onEvents, dedupeStore })
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { Redis, type RedisOptions } from "ioredis"
import { randomUUID } from "node:crypto"
import { type DedupeStore, DedupeUnavailable } from "./DedupeStore.js"

/**
 * Options of the Redis store.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Prefix of the keys (default `solfx:webhooks:seen:`). */
  readonly prefix?: string | undefined
  /** How long one request to Redis may take, in ms (default 2,000); its deadline goes with it. */
  readonly commandTimeoutMs?: number | undefined
}

// KEYS: the signatures' keys. ARGV: window ms, deadline (epoch ms), the claim's token. Returns -1
// past the deadline (nothing set), else 1 (claimed) or 0 (seen) per key.
const CLAIM = `
local t = redis.call('TIME')
if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > tonumber(ARGV[2]) then return -1 end
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('SET', key, ARGV[3], 'NX', 'PX', ARGV[1]) then out[i] = 1 else out[i] = 0 end
end
return out
`

interface Scripted extends Redis {
  solfxClaim(numKeys: number, ...args: Array<string | number>): Promise<Array<number> | number>
}

/**
 * A store over one Redis connection, closed with the scope.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (redis: RedisOptions, options: Options = {}): Effect.Effect<DedupeStore, never, Scope.Scope> =>
  Effect.gen(function*() {
    const prefix = options.prefix ?? "solfx:webhooks:seen:"
    const commandTimeout = options.commandTimeoutMs ?? 2_000
    const client = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const c = new Redis({
          ...redis,
          enableOfflineQueue: false,
          autoResendUnfulfilledCommands: false,
          maxRetriesPerRequest: 0,
          commandTimeout,
          connectTimeout: redis.connectTimeout ?? commandTimeout,
          // Reconnect by itself, at most 2 s apart.
          retryStrategy: (times) => Math.min(times * 100, 2_000)
        }) as Scripted
        c.defineCommand("solfxClaim", { lua: CLAIM })
        // Handled: a claim fails with DedupeUnavailable while it is down, and the receiver logs that.
        c.on("error", () => {})
        return c
      }),
      (c) => Effect.promise(() => c.quit().catch(() => c.disconnect()))
    )
    const unavailable = (what: string) => (cause: unknown) =>
      new DedupeUnavailable({ message: `the de-duplication store (Redis) could not ${what}`, cause })
    // Which of the keys hold this claim's token: the outcome of a claim whose answer was lost.
    const outcome = (keys: ReadonlyArray<string>, token: string) =>
      Effect.tryPromise({
        try: () => client.mget(...keys),
        catch: unavailable("tell which signatures a claim took")
      }).pipe(Effect.map((values) => {
        // As the claim answers: a signature twice in one batch is claimed by its first place only.
        const first = new Set<string>()
        return keys.map((key, i) => {
          if (values[i] !== token || first.has(key)) return false
          first.add(key)
          return true
        })
      }))
    return {
      claim: (signatures, windowMillis) => {
        if (signatures.length === 0) return Effect.succeed([])
        const keys = signatures.map((s) => prefix + s)
        const token = randomUUID()
        return Effect.tryPromise({
          try: () =>
            client.solfxClaim(
              keys.length,
              ...keys,
              Math.max(1, Math.round(windowMillis)),
              Date.now() + commandTimeout,
              token
            ),
          // Redis may have run the script though no answer came: the outcome tells.
          catch: (cause) =>
            new DedupeUnavailable({
              message: "the de-duplication store (Redis) could not claim the signatures",
              cause,
              outcome: outcome(keys, token)
            })
        }).pipe(
          Effect.flatMap((answer) =>
            Array.isArray(answer)
              ? Effect.succeed(answer.map((n) => n === 1))
              : Effect.fail(unavailable("claim the signatures in time")(new Error("answered after its deadline")))
          )
        )
      },
      release: (signatures) =>
        signatures.length === 0 ? Effect.void : Effect.tryPromise({
          try: () => client.del(...signatures.map((s) => prefix + s)),
          catch: unavailable("release the signatures")
        }).pipe(Effect.asVoid)
    } satisfies DedupeStore
  })
