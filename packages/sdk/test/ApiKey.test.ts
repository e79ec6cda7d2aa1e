/**
 * A missing, empty or blank API key fails building the layer with a typed
 * `ConfigError` naming the key, from `Solfx.layer` as from `Solfx.layerConfig`:
 * never a defect, and no request leaves the process.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { describe, expect, it } from "@effect/vitest"
import { Solfx, Wallet } from "@solfx/sdk"
import * as ConfigError from "effect/ConfigError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"

/** An HTTP client that counts what it is asked to send (and sends nothing). */
const counting = () => {
  const sent: Array<string> = []
  const layer = Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request) => {
      sent.push(request.url)
      return Effect.dieMessage("no request should be sent")
    })
  )
  return { layer, sent }
}

const callWallet = Effect.flatMap(Wallet.Wallet, (w) => w.identity("86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY"))

/** The failure of a run: it must be a ConfigError (typed), not a defect. */
const configErrorOf = <A, E>(exit: Exit.Exit<A, E>): ConfigError.ConfigError => {
  expect(Exit.isFailure(exit)).toBe(true)
  if (Exit.isSuccess(exit)) throw new Error("unreachable")
  const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined
  expect(ConfigError.isConfigError(failure)).toBe(true)
  return failure as ConfigError.ConfigError
}

describe("a missing, empty or blank API key", () => {
  const bad: ReadonlyArray<readonly [string, unknown, string]> = [
    ["undefined", undefined, "is missing"],
    ["empty", "", "is empty"],
    ["blank", "   ", "is blank"],
    ["blank, Redacted", Redacted.make(" \t\n"), "is blank"],
    ["short", "abcd", "is shorter than 8 characters"],
    ["not a string", 42, "is missing"]
  ]
  for (const [name, apiKey, reason] of bad) {
    it.effect(`Solfx.layer({ apiKey: ${name} }) fails with a ConfigError naming apiKey, 0 requests sent`, () =>
      Effect.gen(function*() {
        const client = counting()
        const exit = yield* Effect.exit(
          callWallet.pipe(Effect.provide(Solfx.layer({ apiKey: apiKey as any, httpClient: client.layer })))
        )
        const error = configErrorOf(exit)
        expect(error).toMatchObject({ _op: "InvalidData", path: ["apiKey"] })
        expect(String(error)).toContain("apiKey")
        expect(String(error)).toContain(`the API key ${reason}`)
        expect(client.sent).toEqual([])
      }))
  }

  for (const [name, value] of [["unset", undefined], ["empty", ""], ["blank", "   "]] as const) {
    it.effect(`Solfx.layerConfig with SOLFX_API_KEY ${name} fails with a ConfigError naming SOLFX_API_KEY`, () =>
      Effect.gen(function*() {
        const env = new Map(value === undefined ? [] : [["SOLFX_API_KEY", value]])
        const exit = yield* Effect.exit(
          callWallet.pipe(Effect.provide(Solfx.layerConfig), Effect.withConfigProvider(ConfigProvider.fromMap(env)))
        )
        const error = configErrorOf(exit)
        expect(String(error)).toContain("SOLFX_API_KEY")
      }))
  }

  it.effect("a good key still builds the layer (the check refuses only what it should)", () =>
    Effect.gen(function*() {
      const client = counting()
      const exit = yield* Effect.exit(
        callWallet.pipe(Effect.provide(Solfx.layer({ apiKey: "good-key-1", httpClient: client.layer })))
      )
      // The layer was built and the call reached the client (which refuses to send).
      expect(Exit.isFailure(exit) && exit.cause._tag === "Die").toBe(true)
      expect(client.sent).toHaveLength(1)
    }))
})
