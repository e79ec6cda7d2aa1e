/**
 * The compression area over raw HTTP, with no SDK schema involved: field names of
 * the spec, Photon-like validation errors, opaque cursors, bare-number bigints, the
 * million-signature address, determinism, and the charge (category photon).
 */
import { describe, expect, it } from "@effect/vitest"
import { base58 } from "@scure/base"
import * as Effect from "effect/Effect"
import * as Compression from "../src/areas/Compression.js"
import * as Emulator from "../src/Emulator.js"
import * as Paging from "../src/Paging.js"
import { rpc } from "./support/Http.js"

const start = (options: Emulator.Options = {}) => Emulator.make({ areas: [Compression.area], seed: 11, ...options })

const NOBODY = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"

describe("compression area", () => {
  it.scopedLive("serves the spec's field names in {context: {slot}, value}", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const s = emu.samples
      const holders = (yield* rpc(emu, "getCompressedMintTokenHolders", { mint: s.compressedTokenMint, limit: 2 })).json
      expect(Object.keys(holders.result).sort()).toEqual(["context", "value"])
      expect(typeof holders.result.context.slot).toBe("number")
      expect(Object.keys(holders.result.value.items[0]).sort()).toEqual(["balance", "owner"])
      expect(typeof holders.result.value.cursor).toBe("string")

      const accounts = (yield* rpc(emu, "getCompressedTokenAccountsByOwner", { owner: s["compressedTokenOwner"] })).json
      const item = accounts.result.value.items[0]
      expect(Object.keys(item.account).sort()).toEqual(
        ["address", "data", "hash", "lamports", "leafIndex", "owner", "seq", "slotCreated", "tree"]
      )
      expect(Object.keys(item.account.data).sort()).toEqual(["data", "dataHash", "discriminator"])
      expect(Object.keys(item.tokenData).sort()).toEqual(["amount", "delegate", "mint", "owner", "state", "tlv"])
      expect(accounts.result.value.cursor).toBeNull()

      const balances =
        (yield* rpc(emu, "getCompressedTokenBalancesByOwnerV2", { owner: s["compressedTokenOwner"] })).json
      expect(Object.keys(balances.result.value.items[0]).sort()).toEqual(["balance", "mint"])

      const sigs = (yield* rpc(emu, "getCompressionSignaturesForTokenOwner", { owner: s["compressedTokenOwner"] })).json
      expect(Object.keys(sigs.result.value.items[0]).sort()).toEqual(["blockTime", "signature", "slot"])

      const latest = (yield* rpc(emu, "getLatestNonVotingSignatures", { limit: 3 })).json
      expect(Object.keys(latest.result.value)).toEqual(["items"])
      expect(Object.keys(latest.result.value.items[0]).sort()).toEqual(["blockTime", "error", "signature", "slot"])

      const tx = yield* rpc(emu, "getTransactionWithCompressionInfo", { signature: s["compressionSignature"] })
      expect(Object.keys(tx.json.result).sort()).toEqual(["compressionInfo", "transaction"])
      expect(tx.text).not.toContain("compression_info")
      expect(Object.keys(tx.json.result.compressionInfo).sort()).toEqual(["closedAccounts", "openedAccounts"])
      expect(tx.json.result.transaction.transaction[1]).toBe("base64")

      const proof = (yield* rpc(emu, "getValidityProof", { hashes: [s["compressedAccountHash"]] })).json.result.value
      expect([proof.compressedProof.a.length, proof.compressedProof.b.length, proof.compressedProof.c.length])
        .toEqual([32, 64, 32])
      expect(
        proof.compressedProof.b.every((x: unknown) => Number.isInteger(x) && (x as number) >= 0 && (x as number) < 256)
      )
        .toBe(true)
      expect(Object.keys(proof).sort()).toEqual([
        "compressedProof",
        "leafIndices",
        "leaves",
        "merkleTrees",
        "rootIndices",
        "roots"
      ])
    }))

  it.scopedLive("writes balances above 2^53 as bare JSON numbers with every digit", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const reply = yield* rpc(emu, "getCompressedMintTokenHolders", {
        mint: emu.samples.compressedTokenMint,
        limit: 1
      })
      const digits = /"balance":(\d+)/.exec(reply.text)![1]!
      expect(BigInt(digits) > 2n ** 53n).toBe(true)
      expect(reply.text).not.toContain(`"balance":"`)
    }))

  it.scopedLive("refuses bad params as Photon does: -32602 with serde-like messages", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const mint = emu.samples.compressedTokenMint
      const cases: ReadonlyArray<readonly [string, unknown, string]> = [
        ["getCompressedMintTokenHolders", { mint, limit: 1001 }, "expected a value less than or equal to 1000"],
        ["getCompressedMintTokenHolders", { mint, limit: 0 }, "invalid value: integer `0`"],
        ["getCompressedMintTokenHolders", { mint, limit: "10" }, "expected u64"],
        ["getCompressedMintTokenHolders", { mint, page: 2 }, "unknown field `page`"],
        ["getCompressedMintTokenHolders", {}, "missing field `mint`"],
        ["getCompressedMintTokenHolders", { mint: "abc" }, "public key"],
        ["getCompressedMintTokenHolders", { mint, cursor: "3J98t1WpEZ73CNm" }, "cursor"],
        ["getCompressedMintTokenHolders", [mint], "expected a map"],
        ["getLatestNonVotingSignatures", { limit: 5000 }, "less than or equal to 1000"],
        ["getTransactionWithCompressionInfo", { signature: NOBODY }, "64-byte signature"],
        ["getValidityProof", {}, "no hashes or new addresses"],
        ["getValidityProof", { hashes: ["x"] }, "32-byte hash"]
      ]
      for (const [method, params, message] of cases) {
        const { json } = yield* rpc(emu, method, params)
        expect(json.error?.code, `${method} ${JSON.stringify(params)}`).toBe(-32602)
        expect(json.error.message).toContain(message)
      }
      const notFound = (yield* rpc(emu, "getTransactionWithCompressionInfo", {
        signature: base58.encode(new Uint8Array(64).fill(7))
      })).json
      expect(notFound.error.code).toBe(-32000)
      expect(notFound.error.message).toContain("Record Not Found")
    }))

  it.scopedLive("cursors are opaque base58; paging loses and repeats nothing", () =>
    Effect.gen(function*() {
      const emu = yield* start({ sizes: { "compression.mintHolders": 250 } })
      const mint = emu.samples.compressedTokenMint
      const owners: Array<string> = []
      const balances: Array<bigint> = []
      let cursor: string | null = null
      let pages = 0
      do {
        const reply: { text: string; json: any } = yield* rpc(emu, "getCompressedMintTokenHolders", {
          mint,
          limit: 100,
          ...(cursor === null ? {} : { cursor })
        })
        cursor = reply.json.result.value.cursor
        if (cursor !== null) {
          expect(() => base58.decode(cursor!)).not.toThrow()
          expect(cursor).not.toMatch(/^\d+$/)
        }
        for (const m of reply.text.matchAll(/"owner":"(\w+)","balance":(\d+)/g)) {
          owners.push(m[1]!)
          balances.push(BigInt(m[2]!))
        }
        pages++
      } while (cursor !== null)
      expect(pages).toBe(3)
      expect(owners).toHaveLength(250)
      expect(new Set(owners).size).toBe(250)
      expect(balances.every((b, i) => i === 0 || balances[i - 1]! > b)).toBe(true)
    }))

  it.scopedLive("a 1,000,000-signature address serves its first and last pages; its oldest transaction created the account", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const address = emu.samples["compressionAddress"]
      const first = (yield* rpc(emu, "getCompressionSignaturesForAddress", { address, limit: 1000 })).json.result.value
      const last = (yield* rpc(emu, "getCompressionSignaturesForAddress", {
        address,
        limit: 1000,
        // The emulator's cursors are bound to the method and its filters.
        cursor: Paging.encodeCursor(999_000, `getCompressionSignaturesForAddress|${address}`)
      })).json.result.value
      expect(first.items).toHaveLength(1000)
      expect(last.items).toHaveLength(1000)
      expect(last.cursor).toBeNull()
      expect(last.items.at(-1).slot).toBeLessThan(first.items[0].slot)
      const oldest = (yield* rpc(emu, "getTransactionWithCompressionInfo", { signature: last.items.at(-1).signature }))
        .json.result.compressionInfo
      expect(oldest.closedAccounts).toEqual([])
      expect(oldest.openedAccounts[0].account.address).toBe(address)
      expect(oldest.openedAccounts[0].account.seq).toBe(1)
    }))

  it.scopedLive("the data is deterministic per seed", () =>
    Effect.gen(function*() {
      const a = yield* start({ seed: 3 })
      const b = yield* start({ seed: 3 })
      const c = yield* start({ seed: 4 })
      expect(a.samples).toEqual(b.samples)
      expect(a.samples.compressedTokenMint).not.toBe(c.samples.compressedTokenMint)
      const page = (emu: Emulator.Emulator) =>
        Effect.map(
          rpc(emu, "getCompressedTokenAccountsByOwner", { owner: emu.samples["compressedTokenOwner"], limit: 5 }),
          (r) => r.json.result.value
        )
      expect(yield* page(a)).toEqual(yield* page(b))
    }))

  it.scopedLive("charges each call to category photon, 10 credits (100 for a validity proof)", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const before = emu.project()!.creditsUsed
      yield* rpc(emu, "getCompressedMintTokenHolders", { mint: emu.samples.compressedTokenMint, limit: 1 })
      yield* rpc(emu, "getValidityProof", { hashes: [emu.samples["compressedAccountHash"]] })
      expect(emu.project()!.creditsUsed - before).toBe(110)
      expect(emu.project()!.usage.photon).toBe(2)
    }))
})
