/**
 * The standard Solana RPC reads over raw HTTP on loopback: every method of
 * `Endpoints.standardRpcReads` answers in the shape core's Schema of its entry decodes (the same
 * Schemas the real fixtures decode with), with the RPC's errors for bad params (-32602 naming the
 * param), `minContextSlot` (-32016), base58 past 128 bytes (-32600) and an unbounded scan (-32010);
 * filters, encodings and dataSlice as documented.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Endpoints from "@solfx/core/Endpoints"
import * as Json from "@solfx/core/Json"
import { decodeBase58 } from "@solfx/core/Primitives"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as DasTokenAccounts from "../src/areas/digitalAssets/TokenAccounts.js"
import * as Emulator from "../src/Emulator.js"
import * as Layout from "../src/internal/AccountLayout.js"
import * as AssetSeed from "../src/seed/DigitalAssets.js"
import * as WalletActivity from "../src/seed/WalletActivity.js"
import * as Wallets from "../src/seed/Wallets.js"
import { rpc } from "./support/Http.js"

const TOKEN = Layout.TOKEN_PROGRAM
const SYSTEM = Layout.SYSTEM_PROGRAM

/** The body, exact (u64 beyond 2^53 kept as digits). */
const call = (emu: Emulator.Emulator, method: string, params: unknown) =>
  Effect.map(rpc(emu, method, params), (r) => {
    expect(r.status, r.text).toBe(200)
    return Json.parse(r.text) as any
  })

/** The result, decoded by the Schema of the method's entry. */
const result = (emu: Emulator.Emulator, method: keyof typeof Endpoints.standardRpcReads, params: unknown) =>
  Effect.map(call(emu, method, params), (body) => {
    expect(body.error, `${method}: ${JSON.stringify(body.error)}`).toBeUndefined()
    const decoded = Schema.decodeUnknownEither(Endpoints.standardRpcReads[method].result as Schema.Schema<any, any>)(
      body.result
    )
    if (Either.isLeft(decoded)) expect.fail(`${method}: ${decoded.left.message}`)
    return body.result
  })

const failure = (emu: Emulator.Emulator, method: string, params: unknown) =>
  Effect.map(call(emu, method, params), (body) => {
    expect(body.error, `${method} answered ${JSON.stringify(body.result)?.slice(0, 200)}`).toBeDefined()
    return body.error as { code: number; message: string }
  })

describe("standard RPC reads", () => {
  it.scoped("every method answers in its Schema's shape, from the one clock", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed: 42, slotMs: 60_000 })
      const ds = emu.dataset
      const wallet = Wallets.walletAt(ds, 3)
      const account = DasTokenAccounts.ownerAccounts(ds, AssetSeed.sampleOwner(ds)).at(1)
      expect(yield* result(emu, "getHealth", [])).toBe("ok")
      expect(yield* result(emu, "getVersion", [])).toHaveProperty("solana-core")
      yield* result(emu, "getIdentity", [])
      yield* result(emu, "getGenesisHash", [])
      const slot = yield* result(emu, "getSlot", [{ commitment: "processed" }])
      expect(slot).toBe(emu.ledger.slot())
      // finalized (the default) trails processed by the bundle area's depth.
      expect(yield* result(emu, "getSlot", [])).toBe(slot - 32)
      const height = yield* result(emu, "getBlockHeight", [{ commitment: "processed" }])
      const epoch = yield* result(emu, "getEpochInfo", [{ commitment: "processed" }])
      expect(epoch).toMatchObject({ absoluteSlot: slot, blockHeight: height, slotsInEpoch: 432_000 })
      expect(epoch.epoch * 432_000 + epoch.slotIndex).toBe(slot)
      yield* result(emu, "getEpochSchedule", [])
      const latest = yield* result(emu, "getLatestBlockhash", [{ commitment: "processed" }])
      expect(latest.context.slot).toBe(slot)
      expect(latest.value.lastValidBlockHeight).toBe(height + 150)
      expect((yield* result(emu, "isBlockhashValid", [latest.value.blockhash])).value).toBe(true)
      expect((yield* result(emu, "isBlockhashValid", ["1".repeat(32)])).value).toBe(false)
      expect(yield* result(emu, "getMinimumBalanceForRentExemption", [165])).toBe(2_039_280)
      expect(yield* result(emu, "getBlockTime", [slot])).toBe(emu.ledger.blockTimeOf(slot))
      const fees = yield* result(emu, "getRecentPrioritizationFees", [])
      expect(fees.length).toBeGreaterThan(0)

      expect((yield* result(emu, "getBalance", [wallet])).value).toBe(Number(WalletActivity.seededLamports(ds, wallet)))
      const info = yield* result(emu, "getAccountInfo", [wallet, { encoding: "base64" }])
      expect(info.value).toMatchObject({ owner: SYSTEM, data: ["", "base64"], executable: false, space: 0 })
      // u64::MAX, exact on the wire.
      expect(BigInt(info.value.rentEpoch)).toBe(2n ** 64n - 1n)
      const many = yield* result(emu, "getMultipleAccounts", [[wallet, ds.address("nobody"), account.address], {
        encoding: "base64",
        dataSlice: { offset: 32, length: 32 }
      }])
      expect(many.value[1]).toBeNull()
      // The slice of a token account at 32: its owner.
      expect(Buffer.from(many.value[2].data[0], "base64")).toEqual(Buffer.from(decodeBase58(account.owner)!))
      expect(many.value[2].space).toBe(165)

      const parsed = yield* result(emu, "getAccountInfo", [account.address, { encoding: "jsonParsed" }])
      expect(parsed.value.data).toMatchObject({
        program: "spl-token",
        space: 165,
        parsed: { type: "account", info: { mint: account.mint, owner: account.owner, isNative: false } }
      })
      expect(parsed.value.data.parsed.info.tokenAmount.amount).toBe(account.amount.toString())
      const mint = yield* result(emu, "getAccountInfo", [account.mint, { encoding: "jsonParsed" }])
      expect(mint.value.data.parsed.type).toBe("mint")
      expect(mint.value.data.parsed.info.decimals).toBe(DasTokenAccounts.mintDecimals(ds, account.mint))
      const balance = yield* result(emu, "getTokenAccountBalance", [account.address])
      expect(balance.value).toEqual(parsed.value.data.parsed.info.tokenAmount)
      const supply = yield* result(emu, "getTokenSupply", [account.mint])
      expect(supply.value.amount).toBe(mint.value.data.parsed.info.supply)
      const largest = yield* result(emu, "getTokenLargestAccounts", [account.mint])
      expect(largest.value.map((a: any) => a.address)).toContain(account.address)
      const amounts = largest.value.map((a: any) => BigInt(a.amount))
      expect([...amounts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(amounts)

      const byOwner = yield* result(emu, "getTokenAccountsByOwner", [
        account.owner,
        { mint: account.mint },
        { encoding: "jsonParsed" }
      ])
      expect(byOwner.value.map((k: any) => k.pubkey)).toContain(account.address)
      const byProgram = yield* result(emu, "getTokenAccountsByOwner", [
        account.owner,
        { programId: TOKEN },
        { encoding: "base64" }
      ])
      expect(byProgram.value.length).toBeGreaterThan(byOwner.value.length)
      yield* result(emu, "getTokenAccountsByDelegate", [wallet, { programId: TOKEN }, { encoding: "base64" }])

      // getProgramAccounts: token accounts narrowed by owner (memcmp at 32) and size, with context.
      const program = yield* result(emu, "getProgramAccounts", [TOKEN, {
        encoding: "base64",
        withContext: true,
        filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: account.owner } }]
      }])
      expect(new Set(program.value.map((k: any) => k.pubkey))).toEqual(
        new Set(byProgram.value.map((k: any) => k.pubkey))
      )
      // Without withContext: the bare list; with a memcmp of the mint at 0.
      const ofMint = yield* result(emu, "getProgramAccounts", [TOKEN, {
        encoding: "base64",
        filters: [{ memcmp: { offset: 0, bytes: account.mint } }]
      }])
      expect(Array.isArray(ofMint) && ofMint.map((k: any) => k.pubkey)).toContain(account.address)
      // System accounts: the seeded wallets among them.
      const system = yield* result(emu, "getProgramAccounts", [SYSTEM, {
        encoding: "base64",
        filters: [{ dataSize: 0 }]
      }])
      expect(system.map((k: any) => k.pubkey)).toContain(wallet)
    }))

  it.scoped("the RPC's errors: bad params name the param, minContextSlot, base58 past 128 bytes, unbounded scans", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed: 7, slotMs: 60_000 })
      const account = DasTokenAccounts.ownerAccounts(emu.dataset, AssetSeed.sampleOwner(emu.dataset)).at(1)
      const wallet = Wallets.walletAt(emu.dataset, 1)
      const bad = [
        ["getAccountInfo", ["xyz"], "address"],
        ["getAccountInfo", [wallet, { encoding: "hex" }], "encoding"],
        ["getAccountInfo", [wallet, "base64"], "params[1]"],
        ["getAccountInfo", { address: wallet }, "params must be an array"],
        ["getMultipleAccounts", [Array.from({ length: 101 }, () => wallet)], "addresses"],
        ["getBalance", [wallet, { commitment: "recent" }], "commitment"],
        ["getProgramAccounts", [TOKEN, { filters: [{ memcmp: { offset: 0 } }] }], "filters[0]"],
        ["getTokenAccountsByOwner", [wallet], "filter"],
        ["getTokenAccountsByOwner", [wallet, { programId: SYSTEM }], "unrecognized Token program id"],
        ["getTokenAccountsByOwner", [wallet, { mint: wallet }], "could not find mint"],
        ["getTokenAccountBalance", [wallet], "not a Token account"],
        ["getTokenAccountBalance", [emu.dataset.address("nobody")], "could not find account"],
        ["getTokenSupply", [account.address], "not a Token mint"],
        ["getMinimumBalanceForRentExemption", [-1], "size"],
        ["getFeeForMessage", ["!!"], "message"],
        ["isBlockhashValid", [12], "blockhash"],
        ["getRecentPrioritizationFees", [["xyz"]], "addresses[0]"],
        ["getSlot", [{ minContextSlot: -1 }], "minContextSlot"],
        ["getHealth", [1, 2], "params"]
      ] as const
      for (const [method, params, named] of bad) {
        const error = yield* failure(emu, method, params)
        expect(error.code, `${method} ${JSON.stringify(params).slice(0, 80)}`).toBe(-32602)
        expect(error.message, method).toContain(named)
      }
      const slot = emu.ledger.slot()
      const late = yield* failure(emu, "getBalance", [wallet, { commitment: "processed", minContextSlot: slot + 100 }])
      expect(late).toEqual({ code: -32016, message: "Minimum context slot has not been reached" })
      // At finalized the context trails: a minContextSlot at the processed slot is not reached yet.
      expect((yield* failure(emu, "getSlot", [{ minContextSlot: slot }])).code).toBe(-32016)
      // The legacy default (no encoding) is base58, which refuses data past 128 bytes.
      const long = yield* failure(emu, "getAccountInfo", [account.address])
      expect(long.code).toBe(-32600)
      expect(long.message).toContain("128 bytes")
      const small = yield* result(emu, "getAccountInfo", [account.mint])
      expect(typeof small.value.data).toBe("string")
      // The mint's 82 bytes in base58 give back its bytes.
      expect(decodeBase58(small.value.data)?.length).toBe(82)
      const scan = yield* failure(emu, "getProgramAccounts", [TOKEN, { encoding: "base64" }])
      expect(scan.code).toBe(-32010)
      expect(scan.message).toContain("memcmp")
      const zstd = yield* call(emu, "getAccountInfo", [wallet, { encoding: "base64+zstd" }])
      // Served where this Node has zstd (22.15+); refused, naming the encoding, where it has none.
      if (zstd.error !== undefined) expect(zstd.error.message).toContain("base64+zstd")
      else expect(zstd.result.value.data[1]).toBe("base64+zstd")
      expect((yield* failure(emu, "getBlockTime", [slot + 1000])).code).toBe(-32004)
    }))
})
