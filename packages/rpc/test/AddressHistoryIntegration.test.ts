/**
 * The AddressHistory service (getTransactionsForAddress) against the emulator over loopback: the
 * history is the one getSignaturesForAddress lists, walked by pagination token in both orders,
 * narrowed by filters, whole transactions for what landed, refusals before any request.
 */
import { describe, expect, it } from "@effect/vitest"
import * as kit from "@solana/kit"
import * as Emulator from "@solfx/emulator/Emulator"
import * as AddressHistory from "@solfx/rpc/AddressHistory"
import * as Signatures from "@solfx/rpc/Signatures"
import * as Kit from "@solfx/testing/Kit"
import * as Loopback from "@solfx/testing/Loopback"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"

const TestLayer = Loopback.layer(Layer.merge(AddressHistory.layer, Signatures.layer), { seed: 11, slotMs: 60_000 })

const all = <A, E, R>(stream: Stream.Stream<A, E, R>) => Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

const setup = Effect.gen(function*() {
  return {
    history: yield* AddressHistory.AddressHistory,
    signatures: yield* Signatures.Signatures,
    emu: yield* Emulator.EmulatorHandle
  }
})

describe("AddressHistory (integration, loopback emulator)", () => {
  it.live("a seeded wallet's history is its signatures list; pages follow the token and resume with { start }", () =>
    Effect.gen(function*() {
      const { emu, history, signatures } = yield* setup
      const address = emu.samples.wallet
      const listed = yield* all(signatures.getSignaturesForAddress.stream({ address }))
      emu.resetLog()
      const pages = yield* all(history.getTransactionsForAddress.pages({ address, limit: 100 }))
      const items = pages.flatMap((p) => p.items) as ReadonlyArray<{ signature: string; slot: bigint; err: unknown }>
      expect(items.map((t) => t.signature)).toEqual(listed.map((s) => s.signature))
      expect(items.map((t) => [t.slot, t.err])).toEqual(listed.map((s) => [s.slot, s.err]))
      // The last page says there is none after it: no empty page is asked for.
      expect(pages.length).toBe(Math.ceil(items.length / 100))
      expect(emu.count("getTransactionsForAddress")).toBe(pages.length)
      expect(pages.at(-1)!.next).toBeUndefined()
      expect(pages[0]!.next).toMatch(/^\d+:\d+$/)
      const resumed = yield* all(
        history.getTransactionsForAddress.stream({ address, limit: 100 }, { start: pages[1]!.next })
      )
      expect(resumed).toEqual(items.slice(200))
      // A walk without a limit takes the largest page: 1,000 signatures.
      const big = yield* all(history.getTransactionsForAddress.pages({ address }))
      expect(big[0]!.items.length).toBe(Math.min(1000, items.length))
      // Oldest first, page by page.
      const asc = yield* all(history.getTransactionsForAddress.stream({ address, limit: 250, sortOrder: "asc" }))
      expect(asc).toEqual([...items].reverse())
    }).pipe(Effect.provide(TestLayer)))

  it.live("filters: status, slot and block time ranges, a stretch between two of its signatures", () =>
    Effect.gen(function*() {
      const { emu, history } = yield* setup
      const address = emu.samples.wallet
      const items = (yield* all(history.getTransactionsForAddress.stream({ address }))) as ReadonlyArray<
        { signature: string; slot: bigint; err: unknown; blockTime: number | null }
      >
      const failed = yield* all(history.getTransactionsForAddress.stream({ address, filters: { status: "failed" } }))
      expect(failed).toEqual(items.filter((t) => t.err !== null))
      expect(failed.length).toBeGreaterThan(0)
      const succeeded = yield* history.getTransactionsForAddress({ address, filters: { status: "succeeded" } })
      expect(succeeded.data).toEqual(items.filter((t) => t.err === null).slice(0, 1000))
      const mid = Number(items[50]!.slot)
      const bySlot = yield* history.getTransactionsForAddress({
        address,
        filters: { slot: { lte: mid, gt: mid - 100_000 } }
      })
      expect(bySlot.data).toEqual(items.filter((t) => Number(t.slot) <= mid && Number(t.slot) > mid - 100_000))
      const time = items[10]!.blockTime!
      const byTime = yield* history.getTransactionsForAddress({ address, filters: { blockTime: { gte: time } } })
      expect(byTime.data).toEqual(items.filter((t) => t.blockTime !== null && t.blockTime >= time))
      const stretch = yield* history.getTransactionsForAddress({
        address,
        filters: { signature: { lt: items[5]!.signature as never, gte: items[9]!.signature as never } }
      })
      expect(stretch.data).toEqual(items.slice(6, 10))
    }).pipe(Effect.provide(TestLayer)))

  it.live("what lands shows once finalized (or confirmed, asked); full transactions carry their meta", () =>
    Effect.gen(function*() {
      const { emu, history } = yield* setup
      const to = emu.dataset.address("history:recipient")
      const funded = yield* emu.world.fund({ address: to, lamports: 1_000_000n })
      const sent = yield* emu.world.transfer({ from: to, to: emu.samples.wallet, lamports: 5_000n })
      expect((yield* history.getTransactionsForAddress({ address: to })).data).toEqual([])
      yield* emu.world.advanceSlots({ slots: 2 })
      const confirmed = yield* history.getTransactionsForAddress({ address: to, commitment: "confirmed" })
      expect(confirmed.data.map((t) => (t as { signature: string }).signature)).toEqual([
        sent.signature,
        funded.signature
      ])
      yield* emu.world.advanceSlots({ slots: 40 })
      const full = yield* history.getTransactionsForAddress({ address: to, transactionDetails: "full" })
      expect(
        full.data.map((t) => (t as { transaction: { signatures: ReadonlyArray<string> } }).transaction.signatures[0])
      )
        .toEqual([sent.signature, funded.signature])
      expect(full.data[0]).toMatchObject({ slot: BigInt(sent.slot), meta: { err: null, fee: 5000n } })
      expect(full.paginationToken).toBeNull()
      // The recipient's history names the transfer too; the seeded wallet's older entries carry no meta.
      const wallet = yield* history.getTransactionsForAddress({
        address: emu.samples.wallet,
        transactionDetails: "full",
        limit: 2
      })
      expect(wallet.data[0]).toMatchObject({ slot: BigInt(sent.slot) })
      expect(wallet.data[1]).toMatchObject({ meta: null })
    }).pipe(Effect.provide(TestLayer)))

  it.live("full honours encoding: each item is getTransaction's answer in it; v0 needs maxSupportedTransactionVersion", () =>
    Effect.gen(function*() {
      const { emu, history } = yield* setup
      const rpc = (method: string, params: ReadonlyArray<unknown>) =>
        Effect.promise(() =>
          fetch(`${emu.url}/?api-key=${emu.apiKey}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
          }).then((r) => r.json() as Promise<{ result?: any; error?: { code: number } }>)
        )
      const payer = yield* Effect.promise(() => Kit.signer())
      const to = emu.dataset.address("history:encodings")
      yield* emu.world.fund({ address: payer.address, lamports: 1_000_000_000n })
      const { blockhash } = (yield* rpc("getLatestBlockhash", [])).result.value
      // Executed by the bank: a v0 transaction with its own bytes, signatures and logs.
      const tx = yield* Effect.promise(() => Kit.buildTransfers(payer, [[kit.address(to), 2_000_000n]], { blockhash }))
      expect((yield* rpc("sendTransaction", [tx.base64, { encoding: "base64" }])).result).toBe(tx.signature)
      yield* emu.world.advanceSlots({ slots: 40 })
      const v0 = { maxSupportedTransactionVersion: 0 }
      for (const encoding of ["json", "jsonParsed", "base64", "base58"] as const) {
        const page = (yield* rpc("getTransactionsForAddress", [to, { transactionDetails: "full", encoding, ...v0 }]))
          .result
        const one = (yield* rpc("getTransaction", [tx.signature, { encoding, ...v0 }])).result
        expect(page.data).toHaveLength(1)
        const { transactionIndex, ...item } = page.data[0]
        expect(typeof transactionIndex).toBe("number")
        expect(item).toEqual(one)
        // Decoded by the SDK in every encoding.
        const decoded = yield* history.getTransactionsForAddress({
          address: to,
          transactionDetails: "full",
          encoding,
          maxSupportedTransactionVersion: 0
        })
        expect(decoded.data[0]).toMatchObject({ slot: BigInt(one.slot), version: 0, meta: { fee: 5000n } })
      }
      const encoded = (yield* history.getTransactionsForAddress({
        address: to,
        transactionDetails: "full",
        encoding: "base64",
        maxSupportedTransactionVersion: 0
      })).data[0] as { transaction: readonly [string, string] }
      expect(encoded.transaction).toEqual([tx.base64, "base64"])
      // As getTransaction: a v0 transaction is refused without maxSupportedTransactionVersion.
      expect(yield* Effect.flip(history.getTransactionsForAddress({ address: to, transactionDetails: "full" })))
        .toMatchObject({ _tag: "JsonRpcError", code: -32015 })
      // A seeded entry in base64: its rebuilt message's bytes, signed by its signature; no meta.
      const seeded = (yield* rpc("getTransactionsForAddress", [emu.samples.wallet, {
        transactionDetails: "full",
        encoding: "base64",
        limit: 1
      }])).result.data[0]
      expect(seeded.meta).toBeNull()
      expect(seeded.transaction[1]).toBe("base64")
      const bytes = Buffer.from(seeded.transaction[0], "base64")
      const signatures = (yield* rpc("getSignaturesForAddress", [emu.samples.wallet, { limit: 1 }])).result
      expect(kit.getBase58Decoder().decode(bytes.subarray(1, 65))).toBe(signatures[0].signature)
    }).pipe(Effect.provide(TestLayer)))

  it.live("bad input is refused with the field and the rule, nothing sent", () =>
    Effect.gen(function*() {
      const { emu, history } = yield* setup
      const address = emu.samples.wallet
      emu.resetLog()
      expect(yield* Effect.flip(history.getTransactionsForAddress({ address, transactionDetails: "full", limit: 101 })))
        .toMatchObject({
          _tag: "InvalidRequest",
          field: "limit",
          rule: "an integer from 1 to 100 (transactionDetails full)"
        })
      expect(yield* Effect.flip(history.getTransactionsForAddress({ address, limit: 1001 }))).toMatchObject({
        field: "limit"
      })
      expect(yield* Effect.flip(history.getTransactionsForAddress({ address, commitment: "processed" as never })))
        .toMatchObject({ field: "commitment", rule: "confirmed or finalized (processed is not supported)" })
      expect(yield* Effect.flip(history.getTransactionsForAddress({ address, paginationToken: "next-token" })))
        .toMatchObject({ field: "paginationToken" })
      expect(yield* Effect.flip(history.getTransactionsForAddress({ address, filters: { status: "ok" as never } })))
        .toMatchObject({ field: "filters.status" })
      expect(emu.count("getTransactionsForAddress")).toBe(0)
    }).pipe(Effect.provide(TestLayer)))
})
