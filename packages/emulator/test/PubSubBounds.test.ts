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

  it.live("a frame over the bound closes its socket with 1009; a fresh socket's slotSubscribe works", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make()
      const url = `${emu.url.replace(/^http/, "ws")}/?api-key=${emu.apiKey}`
      const big = yield* connect(url)
      // A slotSubscribe padded to 10 MB: the default bound is 1 MiB.
      big.ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slotSubscribe", pad: "x".repeat(10_000_000) }))
      yield* until("the close of the 10 MB frame's socket", () => big.closed !== undefined, () => big.closed)
      expect(big.closed?.code).toBe(1009)
      expect(big.frames).toEqual([])
      const fresh = yield* connect(url)
      request(fresh, 1, "slotSubscribe")
      expect((yield* answer(fresh, 1)).result).toBeTypeOf("number")
      // Configurable: a bound of 100 bytes refuses a 200-byte request.
      const small = yield* Emulator.make({ webSockets: { maxFrameBytes: 100 } })
      const c = yield* connect(`${small.url.replace(/^http/, "ws")}/?api-key=${small.apiKey}`)
      request(c, 1, "accountSubscribe", [ADDRESS, { encoding: "base64", pad: "y".repeat(150) }])
      yield* until("the close of the 200-byte frame's socket", () => c.closed !== undefined, () => c.closed)
      expect(c.closed?.code).toBe(1009)
    }).pipe(Effect.scoped))

  it.live("subscriptions per connection and connections per key are bounded; the socket stays open", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ webSockets: { maxSubscriptionsPerConnection: 3, maxConnectionsPerKey: 2 } })
      const url = `${emu.url.replace(/^http/, "ws")}/?api-key=${emu.apiKey}`
      const c = yield* connect(url)
      for (let id = 1; id <= 4; id++) request(c, id, "slotSubscribe")
      const answers = [yield* answer(c, 1), yield* answer(c, 2), yield* answer(c, 3), yield* answer(c, 4)]
      expect(answers.slice(0, 3).map((a) => typeof a.result)).toEqual(["number", "number", "number"])
      expect(answers[3].error).toMatchObject({ code: -32005 })
      expect(answers[3].error.message).toContain("at most 3")
      // Room again after an unsubscribe, on the same socket.
      request(c, 5, "slotUnsubscribe", [answers[0].result])
      expect((yield* answer(c, 5)).result).toBe(true)
      request(c, 6, "slotSubscribe")
      expect((yield* answer(c, 6)).result).toBeTypeOf("number")
      expect(c.closed).toBeUndefined()
      // A second connection of the key is taken; a third is refused, until one closes.
      const second = yield* connect(url)
      const refused = yield* Effect.flip(connect(url))
      expect(refused.message).toContain("429")
      second.ws.close()
      yield* until("the second socket's close", () => emu.pubsub.connections() === 1, () => emu.pubsub.connections())
      const third = yield* connect(url)
      request(third, 1, "slotSubscribe")
      expect((yield* answer(third, 1)).result).toBeTypeOf("number")
    }).pipe(Effect.scoped))

  it.live("a client that does not read is closed with 1008 past its outbound bound, its queue released", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ webSockets: { maxBufferedBytes: 256 * 1024 } })
      const url = `${emu.url.replace(/^http/, "ws")}/?api-key=${emu.apiKey}`
      const c = yield* connect(url)
      const SUBS = 200
      for (let id = 1; id <= SUBS; id++) request(c, id, "accountSubscribe", [ADDRESS])
      yield* answer(c, SUBS)
      // The client stops reading: its socket is paused, so the kernel's buffers fill and then the server's.
      c.ws.pause()
      let landings = 0
      while (emu.pubsub.closedBehind() === 0 && landings < 2_000) {
        yield* emu.world.fund({ address: ADDRESS, lamports: 1n })
        landings++
        if (landings % 20 === 0) yield* Effect.sleep("5 millis")
      }
      expect({ closedBehind: emu.pubsub.closedBehind(), landings }).toMatchObject({ closedBehind: 1 })
      expect(emu.pubsub.buffered()).toBe(0)
      expect(emu.pubsub.subscriptions()).toBe(0)
      // Reading again, the client finds the close frame after what was already on its way.
      c.ws.resume()
      yield* until(
        "the 1008 close",
        () => c.closed !== undefined,
        () => ({ closed: c.closed, frames: c.frames.length })
      )
      expect(c.closed).toMatchObject({ code: 1008 })
      expect(c.closed?.reason).toContain("too slow")
      const fresh = yield* connect(url)
      request(fresh, 1, "slotSubscribe")
      expect((yield* answer(fresh, 1)).result).toBeTypeOf("number")
    }).pipe(Effect.scoped))
})
