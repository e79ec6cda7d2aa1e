import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Effect from "effect/Effect"
import { WebSocket } from "ws"

interface Client {
  readonly ws: WebSocket
  readonly frames: Array<any>
  /** Set when the socket closed: its code and reason. */
  closed?: { readonly code: number; readonly reason: string }
}

/** A raw client: keeps every frame it gets, and how the socket closed. */
const connect = (url: string) =>
  Effect.acquireRelease(
    Effect.async<Client, Error>((resume) => {
      const ws = new WebSocket(url)
      const client: Client = { ws, frames: [] }
      ws.on("message", (data) => client.frames.push(JSON.parse(data.toString())))
      ws.on("close", (code, reason) => (client.closed = { code, reason: reason.toString() }))
      ws.on("error", () => {})
      ws.once("open", () => resume(Effect.succeed(client)))
      ws.once("error", (e) => resume(Effect.fail(e)))
    }),
    ({ ws }) => Effect.sync(() => ws.terminate())
  )

/** Waits for `check`, 5 ms apart, at most `tries` times; then fails with what it saw. */
const until = (what: string, check: () => boolean, state: () => unknown, tries = 2_000) =>
  Effect.gen(function*() {
    for (let i = 0; i < tries; i++) {
      if (check()) return
      yield* Effect.sleep("5 millis")
    }
    return yield* Effect.dieMessage(`waited for ${what}; state: ${JSON.stringify(state())}`)
  })

const request = (c: Client, id: number, method: string, params?: unknown) =>
  c.ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }))

const answer = (c: Client, id: number) =>
  until(`the answer to request ${id}`, () => c.frames.some((f) => f.id === id), () => c.frames).pipe(
    Effect.map(() => c.frames.find((f) => f.id === id))
  )

const ADDRESS = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"
const SIGNATURE = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"

describe("the emulator's WebSocket server under abuse", () => {
  it.live("malformed params get -32602 naming the param and the rule; the socket stays usable", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make()
      const url = `${emu.url.replace(/^http/, "ws")}/?api-key=${emu.apiKey}`
      const c = yield* connect(url)
      const cases: ReadonlyArray<readonly [string, unknown, string, string]> = [
        ["accountSubscribe", ["0OIl+/notBase58address!!"], "params[0]", "32 bytes"],
        ["accountSubscribe", ["1".repeat(60)], "params[0]", "32 bytes"],
        ["programSubscribe", ["0OIl+/notBase58address!!"], "params[0]", "32 bytes"],
        ["programSubscribe", ["1".repeat(60)], "params[0]", "32 bytes"],
        ["logsSubscribe", [{ mentions: ["0OIl+/notBase58address!!"] }], "params[0].mentions[0]", "32 bytes"],
        ["logsSubscribe", [{ mentions: ["1".repeat(60)] }], "params[0].mentions[0]", "32 bytes"],
        ["signatureSubscribe", ["abc"], "params[0]", "64 bytes"],
        ["signatureSubscribe", [ADDRESS], "params[0]", "64 bytes"],
        ["signatureSubscribe", ["0OIl+/notBase58address!!"], "params[0]", "64 bytes"]
      ]
      let id = 0
      for (const [method, params, field, rule] of cases) {
        request(c, ++id, method, params)
        const got = yield* answer(c, id)
        expect({ method, error: got.error }).toMatchObject({ method, error: { code: -32602 } })
        expect(got.error.message).toContain(field)
        expect(got.error.message).toContain(rule)
      }
      expect(emu.pubsub.subscriptions()).toBe(0)
      // The same socket still serves good requests.
      request(c, ++id, "accountSubscribe", [ADDRESS, { encoding: "base64", commitment: "confirmed" }])
      request(c, ++id, "signatureSubscribe", [SIGNATURE])
      request(c, ++id, "logsSubscribe", [{ mentions: [ADDRESS] }])
      const good = [yield* answer(c, id - 2), yield* answer(c, id - 1), yield* answer(c, id)]
      expect(good.map((f) => typeof f.result)).toEqual(["number", "number", "number"])
      expect(c.closed).toBeUndefined()
    }).pipe(Effect.scoped))
})
