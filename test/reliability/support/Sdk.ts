/**
 * Every SDK service over one transport, either speaking real HTTP to a fresh
 * emulator on loopback, or answered by an `HttpTesting` handler (which also
 * counts the requests). Retries are fast so that fault runs stay short in real time.
 */
import type * as SolfxConfig from "@solfx/core/Config"
import type * as Emulator from "@solfx/emulator/Emulator"
import type { FaultKind } from "@solfx/emulator/Faults"
import * as HttpTesting from "@solfx/http/HttpTesting"
import type * as HttpTransport from "@solfx/http/HttpTransport"
import * as Solfx from "@solfx/sdk/Solfx"
import type * as Subscriptions from "@solfx/subscriptions/Subscriptions"
import * as Loopback from "@solfx/testing/Loopback"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** Every area service (not the transport or config). */
export type Services = Exclude<Solfx.Services, HttpTransport.HttpTransport | Subscriptions.Subscriptions>

/** The service layers, needing an `HttpTransport`. */
export const services: Layer.Layer<Services, never, HttpTransport.HttpTransport> = Solfx.services()

/** Small delays: 1 ms doubling, capped at 20 ms, up to 10 retries. */
export const fastRetry = { times: 10, base: Duration.millis(1), maxDelay: Duration.millis(20) }

/**
 * A fresh emulator and every service pointed at it over real HTTP (undici).
 * `config` overrides the SDK config (the key and base URLs come from the emulator).
 */
export const overEmulator = (
  emulator: Emulator.Options = {},
  config: Partial<SolfxConfig.Options> = {}
) => Loopback.layer(services, emulator, { config: { retry: fastRetry, timeout: "10 seconds", ...config } })

/** Every service over a handler; `RequestLog` counts what reached the "network". */
export const overHandler = (handler: HttpTesting.Handler, config: Partial<SolfxConfig.Options> = {}) =>
  services.pipe(Layer.provideMerge(HttpTesting.layerTransport(handler, { retry: fastRetry, ...config })))

/** Answers anything with an empty JSON-RPC result: used where no request may be sent at all. */
export const anything: HttpTesting.Handler = (req) => HttpTesting.rpcResult(req, {})

/** The sum of the emulator's fault counts. */
export const totalFaults = (hits: Readonly<Record<FaultKind, number>>): number =>
  Object.values(hits).reduce((a, b) => a + b, 0)

/** `{429: 3, reset: 1}`: only the kinds that were hit. */
export const describeFaults = (hits: Readonly<Record<FaultKind, number>>): string =>
  JSON.stringify(Object.fromEntries(Object.entries(hits).filter(([, n]) => n > 0)))

/** Polls a condition every millisecond; dies (failing the test) after `ms`. */
export const eventually = (condition: () => boolean, ms: number, what: string): Effect.Effect<void> =>
  Effect.gen(function*() {
    const deadline = performance.now() + ms
    while (!condition()) {
      if (performance.now() > deadline) return yield* Effect.dieMessage(`timed out waiting for ${what}`)
      yield* Effect.sleep("1 millis")
    }
  })
