import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Effect from "effect/Effect"
import { WebSocket } from "ws"

/** A raw client: sends JSON-RPC requests, keeps every frame it gets. */
const connect = (url: string) =>
  Effect.acquireRelease(
    Effect.async<{ readonly ws: WebSocket; readonly frames: Array<any> }, Error>((resume) => {
      const ws = new WebSocket(url)
      const frames: Array<any> = []
      ws.on("message", (data) => frames.push(JSON.parse(data.toString())))
      ws.once("open", () => resume(Effect.succeed({ ws, frames })))
      ws.once("error", (e) => resume(Effect.fail(e)))
    }),
    ({ ws }) => Effect.sync(() => ws.close())
  )

const until = (check: () => boolean) => Effect.sleep("5 millis").pipe(Effect.repeat({ until: check }), Effect.asVoid)

describe("the emulator's WebSocket server", () => {
  it.live("authenticates by the api-key query and answers JSON-RPC errors as the service does", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make()
      const ws = emu.url.replace(/^http/, "ws")
      const refused = yield* Effect.flip(connect(`${ws}/?api-key=wrong`))
      expect(refused.message).toContain("401")
      const { frames, ws: socket } = yield* connect(`${ws}/?api-key=${emu.apiKey}`)
      const send = (id: number, method: string, params?: unknown) =>
        socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }))
      send(1, "accountSubscribe", [42])
      send(2, "nosuchSubscribe", [])
      send(3, "slotSubscribe")
      socket.send("{not json")
      yield* until(() => frames.length === 4)
      expect(frames[0]).toMatchObject({ id: 1, error: { code: -32602 } })
      expect(frames[1]).toMatchObject({ id: 2, error: { code: -32601 } })
      expect(frames[2]).toMatchObject({ id: 3, result: 1 })
      expect(frames[3]).toMatchObject({ id: null, error: { code: -32700 } })
      // Only the subscription that was made counts.
      expect(emu.usage().usage.websocket).toBe(1)
      expect(emu.pubsub.subscriptions()).toBe(1)
      send(4, "slotUnsubscribe", [1])
      send(5, "slotUnsubscribe", [1])
      yield* until(() => frames.some((f) => f.id === 5))
      expect(frames.filter((f) => f.id === 4 || f.id === 5).map((f) => f.result)).toEqual([true, false])
      expect(emu.pubsub.subscriptions()).toBe(0)
      expect(emu.pubsub.connections()).toBe(1)
    }).pipe(Effect.scoped))

  it.live("a landed transaction notifies account, signature and logs subscribers; slots tick", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ slotMs: 20 })
      const { frames, ws: socket } = yield* connect(`${emu.url.replace(/^http/, "ws")}/?api-key=${emu.apiKey}`)
      const address = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "accountSubscribe", params: [address] }))
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "logsSubscribe", params: ["all"] }))
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "slotSubscribe" }))
      yield* until(() => frames.filter((f) => f.id !== undefined).length === 3)
      const landed = yield* emu.world.fund({ address, lamports: 7n })
      yield* until(() =>
        frames.some((f) => f.method === "accountNotification") && frames.some((f) => f.method === "logsNotification")
      )
      const account = frames.find((f) => f.method === "accountNotification")
      expect(account.params).toMatchObject({ subscription: 1, result: { context: { slot: landed.slot } } })
      expect(frames.find((f) => f.method === "logsNotification").params.result.value.signature).toBe(landed.signature)
      yield* until(() => frames.filter((f) => f.method === "slotNotification").length >= 2)
      const slots = frames.filter((f) => f.method === "slotNotification").map((f) => f.params.result.slot)
      expect(slots[1]).toBeGreaterThan(slots[0])
    }).pipe(Effect.scoped))

  it.live("signatureSubscribe waits for its commitment (a signature that already landed too); accountSubscribe shows the executed account in its encoding", () =>
    Effect.gen(function*() {
      // Slots pass only when the test says (an hour a slot).
      const emu = yield* Emulator.make({ slotMs: 3_600_000 })
      const { frames, ws: socket } = yield* connect(`${emu.url.replace(/^http/, "ws")}/?api-key=${emu.apiKey}`)
      const send = (id: number, method: string, params: unknown) =>
        socket.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }))
      const owner = emu.dataset.address("pubsub:owner")
      yield* emu.world.fund({ address: owner, lamports: 1_000_000_000n })
      const minted = yield* emu.world.mintFungible({ owner, amount: 1_000n, decimals: 2 })
      const account = emu.ledger.tokenAccountsOf(owner)[0]!.address
      send(1, "accountSubscribe", [account, { encoding: "jsonParsed", commitment: "confirmed" }])
      send(2, "accountSubscribe", [account, { encoding: "base64", commitment: "processed" }])
      yield* until(() => frames.filter((f) => f.id !== undefined).length === 2)
      const landed = yield* emu.world.transfer({
        from: owner,
        to: emu.dataset.address("pubsub:other"),
        mint: minted.mint,
        amount: 400n
      })
      // Subscribed after the landing: still notified, once its slot is confirmed.
      send(3, "signatureSubscribe", [landed.signature, { commitment: "confirmed" }])
      send(4, "signatureSubscribe", [landed.signature, { commitment: "processed" }])
      yield* until(() => frames.filter((f) => f.method !== undefined).length === 2)
      const notes = () => frames.filter((f) => f.method !== undefined)
      expect(notes().map((f) => f.method).sort()).toEqual(["accountNotification", "signatureNotification"])
      const base64 = notes().find((f) => f.method === "accountNotification").params.result.value
      const info = yield* Effect.promise(() =>
        fetch(`${emu.url}/?api-key=${emu.apiKey}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "getAccountInfo",
            params: [account, { encoding: "base64" }]
          })
        }).then((r) => r.json() as Promise<any>)
      )
      // The bytes getAccountInfo gives: the token account after the transfer.
      expect(base64).toEqual(info.result.value)
      expect(notes().find((f) => f.method === "signatureNotification").params.result).toEqual({
        context: { slot: landed.slot },
        value: { err: null }
      })
      yield* emu.world.advanceSlots({ slots: 1 })
      yield* until(() => notes().length === 4)
      const confirmed = notes().slice(2)
      const parsed = confirmed.find((f) => f.method === "accountNotification").params
      expect(parsed.subscription).toBe(1)
      expect(parsed.result.value.data.parsed.info).toMatchObject({
        owner,
        mint: minted.mint,
        tokenAmount: { amount: "600" }
      })
      expect(confirmed.find((f) => f.method === "signatureNotification").params.result.value).toEqual({ err: null })
      // Each signature subscription ended with its notification.
      expect(emu.pubsub.subscriptions()).toBe(2)
    }).pipe(Effect.scoped))
})
