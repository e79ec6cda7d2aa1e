/**
 * How a socket's notification frames are read: the frames of one event to several subscriptions
 * (the service's and the emulator's form, differing only in the subscription id) are parsed and
 * decoded once, frames of any other form (keys reordered, spaces) the general way, both exact for
 * u64 values past 2^53; a notification its Schema refuses fails its stream with the JSON path.
 */
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import { describe, expect, it } from "@effect/vitest"
import * as SolfxConfig from "@solfx/core/Config"
import * as Subscriptions from "@solfx/subscriptions/Subscriptions"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import { type WebSocket, WebSocketServer } from "ws"

const SYSTEM = "11111111111111111111111111111111"
const account = (slot: number, lamports: string) =>
  `{"context":{"slot":${slot}},"value":{"lamports":${lamports},"data":["","base64"],"owner":"${SYSTEM}",` +
  `"executable":false,"rentEpoch":0,"space":0}}`

describe("notification frames", () => {
  it.live(
    "one event's frames decoded once, other forms the general way, both exact; a refused one fails typed",
    () =>
      Effect.gen(function*() {
        const sockets: Array<WebSocket> = []
        let acked = 0
        const wss = yield* Effect.acquireRelease(
          Effect.async<WebSocketServer>((resume) => {
            const server: WebSocketServer = new WebSocketServer(
              { host: "127.0.0.1", port: 0 },
              () => resume(Effect.succeed(server))
            )
          }),
          (server) => Effect.async<void>((resume) => server.close(() => resume(Effect.void)))
        )
        wss.on("connection", (ws) => {
          sockets.push(ws)
          ws.on("message", (data) => {
            const msg = JSON.parse(data.toString())
            if (msg.method === "accountSubscribe") {
              ws.send(JSON.stringify({ jsonrpc: "2.0", result: ++acked, id: msg.id }))
            }
          })
        })
        const port = (wss.address() as { port: number }).port
        const subs = yield* Subscriptions.make({ urls: { standard: `ws://127.0.0.1:${port}/` } }).pipe(
          Effect.provide(SolfxConfig.layer({ apiKey: "frames-test-key", baseUrl: `http://127.0.0.1:${port}` })),
          Effect.provide(NodeSocket.layerWebSocketConstructor)
        )
        const take = (n: number) =>
          Effect.fork(Stream.runCollect(Stream.take(subs.account(SYSTEM), n)).pipe(Effect.either))
        const first = yield* take(2)
        const second = yield* take(2)
        const third = yield* take(1)
        yield* Effect.sleep("20 millis").pipe(Effect.repeat({ until: () => acked === 3, times: 6_000 }))
        expect(acked).toBe(3)

        const ws = sockets[0]!
        const standard = (id: number, result: string) =>
          `{"jsonrpc":"2.0","method":"accountNotification","params":{"result":${result},"subscription":${id}}}`
        const reordered = (id: number, result: string) =>
          `{ "params": { "subscription": ${id}, "result": ${result} }, "method": "accountNotification", "jsonrpc": "2.0" }`
        // One event to both subscriptions, in the service's form: u64's largest value, exact.
        ws.send(standard(1, account(10, "18446744073709551615")))
        ws.send(standard(2, account(10, "18446744073709551615")))
        // The next in another form: 2^53 + 1, exact too.
        ws.send(reordered(1, account(11, "9007199254740993")))
        ws.send(reordered(2, account(11, "9007199254740993")))
        // A value the Schema refuses, in the service's form: the stream fails with where.
        ws.send(standard(3, account(12, `"lots"`)))

        for (const fiber of [first, second]) {
          const got = yield* Fiber.join(fiber)
          expect(Either.isRight(got)).toBe(true)
          const events = Either.isRight(got) ? Chunk.toReadonlyArray(got.right) : []
          expect(events.map((e) => e._tag === "Notification" ? [e.slot, e.value.value.lamports] : e._tag)).toEqual([
            [10n, 18446744073709551615n],
            [11n, 9007199254740993n]
          ])
        }
        const refused = yield* Fiber.join(third)
        expect(Either.isLeft(refused) && refused.left._tag).toBe("DecodeError")
        expect(Either.isLeft(refused) && refused.left._tag === "DecodeError" && refused.left.path).toMatch(
          /^\$\.params\.result\.value\.lamports/
        )
      }).pipe(Effect.scoped),
    { timeout: 120_000 }
  )
})
