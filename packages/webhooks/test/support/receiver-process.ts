/**
 * One receiver process for the multi-process test: a WebhookReceiver with the Redis
 * de-duplication store, served on a free loopback port. Prints `LISTENING <port>` once, then
 * `HANDLED <signature>` for every transaction handed to the app. Env: AUTH, REDIS_PORT.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import * as Loopback from "@solfx/testing/Loopback"
import * as DedupeStoreRedis from "@solfx/webhooks/DedupeStoreRedis"
import * as WebhookReceiver from "@solfx/webhooks/WebhookReceiver"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as Redacted from "effect/Redacted"

const program = Effect.gen(function*() {
  const dedupeStore = yield* DedupeStoreRedis.make({ host: "127.0.0.1", port: Number(process.env.REDIS_PORT) })
  const receiver = yield* WebhookReceiver.make({
    authHeader: Redacted.make(process.env.AUTH!),
    dedupeStore,
    onEvents: (events) =>
      Effect.sync(() => {
        for (const e of events) process.stdout.write(`HANDLED ${WebhookDelivery.signatureOf(e)}\n`)
      })
  })
  const url = yield* Loopback.serve(HttpRouter.empty.pipe(HttpRouter.post("/hook", receiver.app)))
  process.stdout.write(`LISTENING ${new URL(url).port}\n`)
  return yield* Effect.never
})

// Warnings (the store unreachable) go to stderr, out of the protocol on stdout.
program.pipe(
  Effect.scoped,
  Effect.provide(Logger.replace(Logger.defaultLogger, Logger.prettyLogger({ stderr: true }))),
  NodeRuntime.runMain
)
