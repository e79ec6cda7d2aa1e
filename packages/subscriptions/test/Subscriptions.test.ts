import * as Socket from "@effect/platform/Socket"
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Signatures from "@solfx/rpc/Signatures"
import type { Event } from "@solfx/subscriptions/SubscriptionEvent"
import * as Subscriptions from "@solfx/subscriptions/Subscriptions"
import * as Kit from "@solfx/testing/Kit"
import * as Loopback from "@solfx/testing/Loopback"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as Supervisor from "effect/Supervisor"
import { WebSocket as WsSocket, WebSocketServer } from "ws"

// Short keep-alive and reconnection values, so a dead socket is found quickly; tests assert counts, never durations.
const fast: Subscriptions.Options = {
  pingInterval: "100 millis",
  pongTimeout: "1 second",
  openTimeout: "2 seconds",
  reconnect: Schedule.spaced("20 millis").pipe(Schedule.intersect(Schedule.recurs(20)))
}

/** Every WebSocket the SDK opens, to count what is left of them. */
const tracked = () => {
  const sockets: Array<WsSocket> = []
  const layer = Layer.succeed(Socket.WebSocketConstructor, (url: string, protocols?: string | Array<string>) => {
    const ws = new WsSocket(url, protocols)
    sockets.push(ws)
    return ws as unknown as globalThis.WebSocket
  })
  return { sockets, layer }
}

const stack = (options: Subscriptions.Options = fast, emulator: Emulator.Options = {}, sockets = tracked()) =>
  Subscriptions.layerWith(options).pipe(
    Layer.provide(sockets.layer),
    Layer.provideMerge(Loopback.config()),
    // Slots of 200 ms: a blockhash then lives 30 s (150 slots), time enough under load to build and
    // send a bundle over it (at 40 ms it lived 6 s, and loaded runs sent expired bundles).
    Layer.provideMerge(Emulator.layer({ slotMs: 200, ...emulator }))
  )

/** The subscriptions and the `Signatures` service (over HTTP) of one emulator: a backfill source. */
const withSignatures = () =>
  Loopback.layer(Layer.merge(Subscriptions.layerWith(fast).pipe(Layer.provide(tracked().layer)), Signatures.layer), {
    slotMs: 200
  })

/** Waits (polling the emulator) until `check` holds; after 2 minutes, a failure saying so. */
const until = (check: () => boolean) =>
  Effect.sleep("5 millis").pipe(
    Effect.repeat({ until: check, times: 24_000 }),
    Effect.flatMap(() => check() ? Effect.void : Effect.die(new Error("the awaited state never came (2 minutes)")))
  )

/** Lands a tipped bundle from a funded payer: one transaction paying each `[address, lamports]`. */
const land = (emu: Emulator.Emulator, transfers: ReadonlyArray<readonly [string, bigint]>) =>
  Effect.gen(function*() {
    const tx = yield* Effect.promise(async () =>
      Kit.buildTransfers(await Kit.signer(), [...transfers.map(([a, l]) => [a as any, l] as const), [Kit.TIP, 2000n]], {
        version: "legacy",
        blockhash: emu.ledger.bank.blockhash().blockhash
      })
    )
    const body = yield* Loopback.sendBundle(emu, [tx.base64])
    if (body.result === undefined) return yield* Effect.die(new Error(`sendBundle failed: ${JSON.stringify(body)}`))
    return tx
  })

/** Runs a stream in the background, keeping what it emits. */
const collect = <A, E>(stream: Stream.Stream<A, E>) =>
  Effect.gen(function*() {
    const seen = yield* Ref.make<ReadonlyArray<A>>([])
    const fiber = yield* Effect.fork(Stream.runForEach(stream, (a) => Ref.update(seen, (s) => [...s, a])))
    return { fiber, seen: () => Effect.runSync(Ref.get(seen)) }
  })

const lamportsOf = (events: ReadonlyArray<Event<{ readonly value: { readonly lamports: bigint } }>>) =>
  events.map((e) => (e._tag === "Gap" ? `gap:${e.reason}` : e.value.value.lamports))

describe("Subscriptions against the emulator over loopback WebSocket", () => {
  it.live("an account gets exactly the notifications of what the world changes in it (world API and a bundle)", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const subs = yield* Subscriptions.Subscriptions
      const wallet = (yield* Effect.promise(() => Kit.signer())).address
      const other = (yield* Effect.promise(() => Kit.signer())).address
      const account = yield* collect(subs.account(wallet))
      yield* until(() => emu.pubsub.subscriptions() === 1)
      // The world changes it through the world API, then through a bundle; a change elsewhere between.
      const funded = yield* emu.world.fund({ address: wallet, lamports: 1_500_000n })
      yield* emu.world.fund({ address: other, lamports: 7n })
      yield* land(emu, [[wallet, 500_000n]])
      yield* until(() => account.seen().length === 2)
      // One socket carries every subscription.
      expect(emu.pubsub.accepted()).toBe(1)
      const [a, b] = account.seen()
      if (a?._tag !== "Notification" || b?._tag !== "Notification") return expect.fail("two notifications")
      // The two that touched it, in order (the one between did not touch it); exact bigints.
      expect(a.slot).toBe(BigInt(funded.slot))
      expect(a.value.value.lamports).toBe(1_500_000n)
      expect(b.value.value.lamports).toBe(2_000_000n)
      expect(a.value.value.rentEpoch).toBe(18446744073709551615n)
      expect(b.slot >= a.slot).toBe(true)
      expect(emu.usage().usage.websocket).toBe(1)
      yield* Fiber.interrupt(account.fiber)
    }).pipe(Effect.provide(stack())))

  it.live("a signature that lands while the socket is replaced: the Gap, then its status found by backfill, then the end", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const subs = yield* Subscriptions.Subscriptions
      const signatures = yield* Signatures.Signatures
      const payer = yield* Effect.promise(() => Kit.signer())
      yield* emu.world.fund({ address: payer.address, lamports: 1_000_000_000n })
      const [tx, other] = yield* Effect.promise(() =>
        Promise.all([
          Kit.buildTransfers(payer, [[Kit.TIP, 2000n]], {
            version: "legacy",
            blockhash: emu.ledger.bank.blockhash().blockhash
          }),
          Kit.buildTransfers(payer, [[Kit.TIP, 3000n]], {
            version: "legacy",
            blockhash: emu.ledger.bank.blockhash().blockhash
          })
        ])
      )
      // The same landing is watched with backfill and without: both see the Gap, only one is told.
      const withBackfill = yield* collect(
        subs.signature(tx.signature, { commitment: "processed", backfill: signatures })
      )
      const without = yield* collect(subs.signature(tx.signature, { commitment: "processed" }))
      yield* until(() => emu.pubsub.subscriptions() === 2)
      // The landing's notification is not sent: the socket is destroyed instead.
      emu.setFaults({ rate: 1, kinds: ["drop"], only: ["signatureNotification"], times: 1 })
      yield* Loopback.sendBundle(emu, [tx.base64])
      yield* Fiber.join(withBackfill.fiber)
      const found = withBackfill.seen()
      expect(found.map((e) => e._tag)).toEqual(["Gap", "Notification"])
      expect(found[0]).toMatchObject({ _tag: "Gap", reason: "Reconnected" })
      const landed = emu.ledger.transaction(tx.signature)!
      expect(found[1]).toEqual({
        _tag: "Notification",
        slot: BigInt(landed.slot),
        value: { context: { slot: BigInt(landed.slot) }, value: { err: null } },
        backfilled: true
      })
      expect(emu.faultsHit.drop).toBe(1)
      expect(emu.pubsub.accepted()).toBe(2)
      // Without backfill the stream has its Gap, then what the server itself says when it is asked
      // again: a signature that already landed is notified at its commitment, as a validator does
      // from its status cache (nothing backfilled, no status request of this stream's).
      yield* Loopback.sendBundle(emu, [other.base64])
      yield* until(() => emu.ledger.landed(other.signature) && without.seen().length === 2)
      expect(without.seen().map((e) => e._tag)).toEqual(["Gap", "Notification"])
      expect(without.seen()[1]).toMatchObject({ _tag: "Notification", slot: BigInt(landed.slot) })
      expect((without.seen()[1] as { backfilled?: boolean }).backfilled).not.toBe(true)
      expect(emu.count("getSignatureStatuses")).toBe(1)
      yield* Fiber.interrupt(without.fiber)
    }).pipe(Effect.provide(withSignatures())))

  it.live("logs of an address with backfill: the reconnection's Gap lists the signature it missed", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const subs = yield* Subscriptions.Subscriptions
      const signatures = yield* Signatures.Signatures
      const wallet = (yield* Effect.promise(() => Kit.signer())).address
      const logs = yield* collect(subs.logs({ mentions: [wallet] }, { backfill: signatures }))
      yield* until(() => emu.pubsub.subscriptions() === 1)
      const first = yield* land(emu, [[wallet, 1_000_000n]])
      yield* until(() => logs.seen().length === 1)
      // The next notification is not sent: the socket is destroyed instead.
      emu.setFaults({ rate: 1, kinds: ["drop"], only: ["logsNotification"], times: 1 })
      const missed = yield* land(emu, [[wallet, 2_000_000n]])
      yield* until(() => logs.seen().length === 2)
      const third = yield* land(emu, [[wallet, 3_000_000n]])
      yield* until(() => logs.seen().length === 3)
      const [one, gap, three] = logs.seen()
      expect(one?._tag === "Notification" && one.value.value.signature).toBe(first.signature)
      expect(gap).toMatchObject({ _tag: "Gap", reason: "Reconnected" })
      const landed = emu.ledger.transaction(missed.signature)!
      expect(gap?._tag === "Gap" && gap.missed?.map((m) => [m.signature, m.slot, m.err])).toEqual([
        [missed.signature, BigInt(landed.slot), null]
      ])
      expect(three?._tag === "Notification" && three.value.value.signature).toBe(third.signature)
      expect(emu.count("getSignaturesForAddress")).toBe(1)
      yield* Fiber.interrupt(logs.fiber)
    }).pipe(Effect.provide(withSignatures())))

  it.live("a signature subscription made before the landing gets one notification and ends", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const subs = yield* Subscriptions.Subscriptions
      const payer = yield* Effect.promise(() => Kit.signer())
      yield* emu.world.fund({ address: payer.address, lamports: 1_000_000_000n })
      const tx = yield* Effect.promise(() =>
        Kit.buildTransfers(payer, [[Kit.TIP, 2000n]], {
          version: "legacy",
          blockhash: emu.ledger.bank.blockhash().blockhash
        })
      )
      const fiber = yield* Effect.fork(Stream.runCollect(subs.signature(tx.signature)))
      yield* until(() => emu.pubsub.subscriptions() === 1)
      yield* Effect.promise(() =>
        fetch(`${emu.url}/?api-key=${emu.apiKey}`, {
          method: "POST",
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "sendBundle",
            params: [[tx.base64], { encoding: "base64" }]
          })
        })
      )
      const events = Chunk.toReadonlyArray(yield* Fiber.join(fiber))
      expect(events.map((e) => e._tag)).toEqual(["Notification"])
      const e = events[0]!
      expect(e._tag === "Notification" && e.value.value).toEqual({ err: null })
      // The server dropped it after notifying; the stream's end sent no unsubscribe for it.
      yield* until(() => emu.pubsub.connections() === 0)
      expect(emu.pubsub.subscriptions()).toBe(0)
    }).pipe(Effect.provide(stack())))
  it.live("a socket dropped mid-stream: the stream reconnects, says where the gap is, repeats nothing", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const subs = yield* Subscriptions.Subscriptions
      const wallet = (yield* Effect.promise(() => Kit.signer())).address
      const account = yield* collect(subs.account(wallet))
      yield* until(() => emu.pubsub.subscriptions() === 1)
      yield* land(emu, [[wallet, 1_000_000n]])
      yield* until(() => account.seen().length === 1)
      // The next notification is not sent: the socket is destroyed instead.
      emu.setFaults({ rate: 1, kinds: ["drop"], only: ["accountNotification"], times: 1 })
      yield* land(emu, [[wallet, 2_000_000n]])
      yield* until(() => account.seen().length === 2)
      yield* land(emu, [[wallet, 3_000_000n]])
      yield* until(() => account.seen().length === 3)
      const [first, gap, third] = account.seen()
      expect(emu.faultsHit.drop).toBe(1)
      expect(emu.pubsub.accepted()).toBe(2)
      expect(gap).toMatchObject({ _tag: "Gap", reason: "Reconnected" })
      // The gap starts after the last slot the consumer saw.
      expect(gap?._tag === "Gap" && first?._tag === "Notification" && gap.afterSlot === first.slot).toBe(true)
      expect(lamportsOf([first!, third!]).map(String)).not.toContain("gap:Reconnected")
      expect(
        third?._tag === "Notification" && first?._tag === "Notification" &&
          third.value.value.lamports - first.value.value.lamports
      ).toBe(5_000_000n)
      expect(emu.pubsub.subscriptions()).toBe(1)
      yield* Fiber.interrupt(account.fiber)
    }).pipe(Effect.provide(stack())))

  it.live("a stalled socket (no answer to pings) is replaced; a malformed frame too", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const subs = yield* Subscriptions.Subscriptions
      const wallet = (yield* Effect.promise(() => Kit.signer())).address
      const account = yield* collect(subs.account(wallet))
      yield* until(() => emu.pubsub.subscriptions() === 1)
      emu.setFaults({ rate: 1, kinds: ["stall"], only: ["ping"], times: 1 })
      yield* until(() => account.seen().length === 1)
      expect(account.seen()[0]).toMatchObject({ _tag: "Gap", reason: "Reconnected", afterSlot: undefined })
      expect(emu.faultsHit.stall).toBe(1)
      expect(emu.pubsub.accepted()).toBe(2)
      emu.setFaults({ rate: 1, kinds: ["malformedFrame"], only: ["accountNotification"], times: 1 })
      // A new account gets at least its rent-exempt minimum (890,880 lamports), or the runtime refuses it.
      yield* land(emu, [[wallet, 1_000_005n]])
      yield* until(() => account.seen().length === 2)
      yield* land(emu, [[wallet, 6n]])
      yield* until(() => account.seen().length === 3)
      expect(account.seen().map((e) => e._tag)).toEqual(["Gap", "Gap", "Notification"])
      expect(emu.pubsub.accepted()).toBe(3)
      yield* Fiber.interrupt(account.fiber)
      yield* until(() => emu.pubsub.connections() === 0)
    }).pipe(Effect.provide(stack())))

  it.live("one socket for every subscription; interrupting the last subscriber closes it", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const subs = yield* Subscriptions.Subscriptions
      const wallet = (yield* Effect.promise(() => Kit.signer())).address
      const slots = yield* collect(subs.slot())
      const account = yield* collect(subs.account(wallet))
      const logs = yield* collect(subs.logs({ mentions: [wallet] }))
      yield* until(() => emu.pubsub.subscriptions() === 3)
      expect(emu.pubsub.connections()).toBe(1)
      yield* Fiber.interrupt(slots.fiber)
      yield* until(() => emu.pubsub.subscriptions() === 2)
      yield* Fiber.interrupt(account.fiber)
      yield* until(() => emu.pubsub.subscriptions() === 1)
      expect(emu.pubsub.connections()).toBe(1)
      yield* Fiber.interrupt(logs.fiber)
      yield* until(() => emu.pubsub.connections() === 0)
      expect(emu.pubsub.accepted()).toBe(1)
      expect(emu.usage().usage.websocket).toBe(3)
    }).pipe(Effect.provide(stack())))

  const sockets = tracked()
  it.live("1,000 subscribe/unsubscribe cycles leave no socket, fiber or listener behind", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const subs = yield* Subscriptions.Subscriptions
      const supervisor = yield* Supervisor.track
      // Each cycle subscribes, receives one slot, and ends (unsubscribing); 20 at a time.
      yield* Effect.forEach(
        Array.from({ length: 1000 }, (_, i) => i),
        () => Stream.runHead(subs.slot()),
        { concurrency: 20, discard: true }
      ).pipe(Effect.supervised(supervisor))
      yield* until(() => emu.pubsub.connections() === 0)
      expect(emu.pubsub.subscriptions()).toBe(0)
      expect(emu.usage().usage.websocket).toBe(1000)
      // Every fiber started for the cycles (socket readers, keep-alive, buffers) has ended.
      yield* until(() => Effect.runSync(supervisor.value).length === 0)
      expect(sockets.sockets.length).toBeGreaterThan(0)
      yield* until(() => sockets.sockets.every((s) => s.readyState === WsSocket.CLOSED))
      const listeners = sockets.sockets.map((s) =>
        ["open", "message", "close", "error"].reduce((n, e) => n + s.listenerCount(e), 0)
      )
      expect(listeners.filter((n) => n > 0)).toEqual([])
    }).pipe(
      Effect.provide(stack({ ...fast, pingInterval: "5 seconds", pongTimeout: "5 seconds" }, { slotMs: 5 }, sockets))
    ))

  it.live("a slow consumer: dropOldest says how many were dropped, fail ends the stream", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const subs = yield* Subscriptions.Subscriptions
      const dropping = yield* Stream.toPull(subs.slot({ bufferCapacity: 2, overflow: "dropOldest" }))
      const failing = yield* Stream.toPull(subs.slot({ bufferCapacity: 2, overflow: "fail" }))
      const first = yield* Effect.all([dropping, failing], { concurrency: 2 })
      expect(first.map((c) => Chunk.size(c) >= 1)).toEqual([true, true])
      const before = emu.pubsub.notified()
      yield* until(() => emu.pubsub.notified() >= before + 12)
      const next = Chunk.toReadonlyArray(yield* dropping)
      expect(next[0]).toMatchObject({ _tag: "Gap", reason: "Overflow" })
      expect(next[0]?._tag === "Gap" && next[0].dropped! >= 1).toBe(true)
      expect(next.slice(1).map((e) => e._tag)).toEqual(["Notification", "Notification"])
      const failed = yield* Effect.flip(Effect.forever(failing))
      expect(failed).toMatchObject({ _tag: "Some", value: { _tag: "BufferOverflow", capacity: 2 } })
    }).pipe(Effect.scoped, Effect.provide(stack())))

  it.live("bad input fails before a socket opens; a lost endpoint fails typed, without the key", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const subs = yield* Subscriptions.Subscriptions
      const bad = yield* Effect.flip(Stream.runDrain(subs.account("not-an-address")))
      expect(bad).toMatchObject({ _tag: "InvalidRequest", field: "address" })
      expect(emu.pubsub.accepted()).toBe(0)
      const lost = yield* Subscriptions.make({
        ...fast,
        urls: { standard: "ws://127.0.0.1:9/" },
        reconnect: Schedule.recurs(2)
      })
        .pipe(Effect.provide(tracked().layer))
      const error = yield* Effect.flip(Stream.runDrain(lost.slot()))
      expect(error).toMatchObject({ _tag: "ConnectionLost", endpoint: "standard" })
      expect(JSON.stringify(error) + String(error) + error.message).not.toContain(emu.apiKey)
      const insecure = yield* Subscriptions.make({ urls: { standard: "ws://example.com/" } }).pipe(
        Effect.provide(tracked().layer)
      )
      expect(yield* Effect.flip(Stream.runDrain(insecure.slot()))).toMatchObject({
        _tag: "InsecureTransport",
        host: "example.com"
      })
    }).pipe(Effect.scoped, Effect.provide(stack())))

  it.live("a server's close with 1008 (too slow) or 1001 (going away) is a reconnection with a Gap", () =>
    Effect.gen(function*() {
      // A server that notifies one slot per connection, then closes: 1008 first, 1001 next, the third stays.
      const wss = yield* Effect.acquireRelease(
        Effect.async<WebSocketServer>((resume) => {
          const server: WebSocketServer = new WebSocketServer(
            { host: "127.0.0.1", port: 0 },
            () => resume(Effect.succeed(server))
          )
        }),
        (server) =>
          Effect.async<void>((resume) => {
            for (const c of server.clients) c.terminate()
            server.close(() => resume(Effect.void))
          })
      )
      let connections = 0
      wss.on("connection", (ws) => {
        const n = ++connections
        ws.on("message", (data) => {
          const msg = JSON.parse(data.toString())
          if (msg.method !== "slotSubscribe") return
          ws.send(JSON.stringify({ jsonrpc: "2.0", result: n, id: msg.id }))
          const result = { parent: 9 + n, root: 0, slot: 10 + n }
          ws.send(JSON.stringify({ jsonrpc: "2.0", method: "slotNotification", params: { result, subscription: n } }))
          if (n === 1) ws.close(1008, "client too slow")
          if (n === 2) ws.close(1001, "going away")
        })
      })
      const port = (wss.address() as { port: number }).port
      const subs = yield* Subscriptions.make({ ...fast, urls: { standard: `ws://127.0.0.1:${port}/` } }).pipe(
        Effect.provide(tracked().layer)
      )
      const events = yield* Stream.runCollect(Stream.take(subs.slot(), 5))
      expect(
        Chunk.toReadonlyArray(events).map((e) => (e._tag === "Gap" ? `gap ${e.reason} after ${e.afterSlot}` : e.slot))
      )
        .toEqual([11n, "gap Reconnected after 11", 12n, "gap Reconnected after 12", 13n])
      expect(connections).toBe(3)
    }).pipe(Effect.scoped, Effect.provide(stack())))

  it.live("notifications a server repeats after a reconnection reach the consumer once", () =>
    Effect.gen(function*() {
      // A server that, on every subscription, first replays what it last sent (as a resuming feed may),
      // and drops the first socket after its second notification.
      const wss = yield* Effect.acquireRelease(
        Effect.async<WebSocketServer>((resume) => {
          const server: WebSocketServer = new WebSocketServer({ host: "127.0.0.1", port: 0 }, () =>
            resume(Effect.succeed(server)))
        }),
        (server) =>
          Effect.async<void>((resume) => server.close(() => resume(Effect.void)))
      )
      let connections = 0
      const sent: Array<unknown> = []
      const account = (slot: number, lamports: number) => ({
        context: { slot },
        value: { lamports, data: ["", "base64"], owner: Kit.SYSTEM, executable: false, rentEpoch: 0, space: 0 }
      })
      wss.on("connection", (ws) => {
        const n = ++connections
        ws.on("message", (data) => {
          const msg = JSON.parse(data.toString())
          if (msg.method !== "accountSubscribe") return
          ws.send(JSON.stringify({ jsonrpc: "2.0", result: n, id: msg.id }))
          const notify = (result: unknown) =>
            ws.send(
              JSON.stringify({ jsonrpc: "2.0", method: "accountNotification", params: { result, subscription: n } })
            )
          for (const r of sent) notify(r)
          const fresh = n === 1 ? [account(10, 1), account(11, 2)] : [account(12, 3)]
          for (const r of fresh) {
            sent.push(r)
            notify(r)
          }
          if (n === 1) ws.terminate()
        })
      })
      const port = (wss.address() as { port: number }).port
      const subs = yield* Subscriptions.make({ ...fast, urls: { standard: `ws://127.0.0.1:${port}/` } }).pipe(
        Effect.provide(tracked().layer)
      )
      const events = yield* Stream.runCollect(Stream.take(subs.account(Kit.SYSTEM), 4))
      expect(Chunk.toReadonlyArray(events).map((e) => (e._tag === "Gap" ? `gap after ${e.afterSlot}` : e.slot)))
        .toEqual([
          10n,
          11n,
          "gap after 11",
          12n
        ])
      expect(connections).toBe(2)
    }).pipe(Effect.scoped, Effect.provide(stack())))

  it.live("program, logs, enhanced transaction and enhanced account subscriptions see one world transfer", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const subs = yield* Subscriptions.Subscriptions
      const from = (yield* Effect.promise(() => Kit.signer())).address
      const to = (yield* Effect.promise(() => Kit.signer())).address
      yield* emu.world.fund({ address: from, lamports: 5_000_000_000n })
      const program = yield* collect(subs.program(Kit.SYSTEM))
      const logs = yield* collect(subs.logs({ mentions: [to] }))
      const transaction = yield* collect(subs.transaction({ accountInclude: [to] }))
      const enhanced = yield* collect(subs.account(to, { enhanced: true }))
      yield* until(() => emu.pubsub.subscriptions() === 4)
      const sent = yield* emu.world.transfer({ from, to, lamports: 1_000_000n })
      yield* until(() =>
        [logs, transaction, enhanced].every((c) => c.seen().length === 1) &&
        program.seen().filter((e) => e._tag === "Notification" && e.value.value.pubkey === String(to)).length === 1
      )
      const [log] = logs.seen()
      const [tx] = transaction.seen()
      const [account] = enhanced.seen()
      if (log?._tag !== "Notification" || tx?._tag !== "Notification" || account?._tag !== "Notification") {
        return expect.fail("one notification each")
      }
      expect(log.value.value.signature).toBe(sent.signature)
      expect(log.value.value.err).toBeNull()
      expect(log.value.value.logs.some((l) => l.includes(Kit.SYSTEM))).toBe(true)
      expect(tx.value.signature).toBe(sent.signature)
      expect(tx.slot).toBe(BigInt(sent.slot))
      const meta = tx.value.transaction.meta!
      // Balances before and after, exact: the recipient got the lamports, the sender also paid the fee.
      expect(meta.postBalances.reduce((a, b) => a + b, 0n)).toBe(
        meta.preBalances.reduce((a, b) => a + b, 0n) - meta.fee
      )
      expect(account.value.value.lamports).toBeGreaterThanOrEqual(1_000_000n)
      expect(account.value.value.owner).toBe(Kit.SYSTEM)
      // The standard and the enhanced endpoint are the same emulator port here, but two sockets.
      expect(emu.pubsub.connections()).toBe(2)
      for (const c of [program, logs, transaction, enhanced]) yield* Fiber.interrupt(c.fiber)
      yield* until(() => emu.pubsub.connections() === 0)
    }).pipe(Effect.provide(stack())))

  it.live("a stream interrupted before the server answered its subscription leaves none behind", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const subs = yield* Subscriptions.Subscriptions
      // Keeps the socket open, so what the server holds can be counted.
      const keep = yield* collect(subs.slot())
      yield* until(() => emu.pubsub.subscriptions() === 1)
      for (let i = 0; i < 100; i++) {
        const fiber = yield* Effect.fork(Stream.runDrain(subs.slot()))
        yield* Effect.yieldNow()
        yield* Fiber.interrupt(fiber)
      }
      // Every subscription the server made for them is ended again.
      yield* until(() => emu.usage().usage.websocket > 1 && emu.pubsub.subscriptions() === 1)
      expect(emu.pubsub.connections()).toBe(1)
      yield* Fiber.interrupt(keep.fiber)
      yield* until(() => emu.pubsub.connections() === 0)
    }).pipe(Effect.provide(stack())))
})
