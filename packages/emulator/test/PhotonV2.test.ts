/**
 * Photon's V2 methods and the indexer status over raw JSON-RPC: each V2 result is its V1
 * counterpart's data in the V2 shape, every Poseidon value is below the BN254 modulus, and the
 * field names of each new method's result are those of the real bodies in ../shared/fixtures/real
 * (skipped visibly when ../shared is absent).
 */
import { describe, expect, it } from "@effect/vitest"
import * as RealFixtures from "@solfx/testing/RealFixtures"
import * as Effect from "effect/Effect"
import { readdirSync, readFileSync } from "node:fs"
import * as Emulator from "../src/Emulator.js"
import { rpc } from "./support/Http.js"

const BN254 = 21888242871839275222246405745257275088548364400416034343698204186575808495617n
const ADDRESS_TREE_V1 = "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"
// 32 bytes of value 1: an address nobody holds.
const NEW_ADDRESS = `${"1".repeat(31)}2`

const start = () => Emulator.make({ seed: 9, sizes: { "compression.bigAddressSignatures": 5_000 } })

const result = (emu: Emulator.Emulator, method: string, params: unknown) =>
  Effect.map(rpc(emu, method, params), (r) => {
    expect(r.status, r.text.slice(0, 300)).toBe(200)
    expect(r.json.error, JSON.stringify(r.json.error)).toBeUndefined()
    return r.json.result
  })

const toBig = (base58: string): bigint => {
  const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
  let v = 0n
  for (const c of base58) v = v * 58n + BigInt(alphabet.indexOf(c))
  return v
}

/** Every value the service computes as a Poseidon hash, wherever it sits in a result. */
const HASH_KEYS = new Set(["hash", "dataHash", "root", "nullifier", "txHash", "roots", "leaves"])
const poseidonValues = (value: unknown, key = "", out: Array<string> = []): Array<string> => {
  if (Array.isArray(value)) { for (const v of value) poseidonValues(v, key, out) }
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) if (k !== "transaction") poseidonValues(v, k, out)
  } else if (typeof value === "string" && HASH_KEYS.has(key)) out.push(value)
  return out
}

/** The V1 account of a V2 one: `merkleContext.tree` back in `tree`, no `proveByIndex`. */
const asV1 = ({ merkleContext, proveByIndex, ...account }: any) => {
  expect(proveByIndex).toBe(false)
  expect(merkleContext).toMatchObject({ treeType: 1, cpiContext: null, nextTreeContext: null })
  return { ...account, tree: merkleContext.tree }
}

/** Field names by path (arrays as `[]`), merged over every object at a path. */
const fieldNames = (value: unknown, path = "$", out = new Map<string, Set<string>>()) => {
  if (Array.isArray(value)) { for (const v of value) fieldNames(v, `${path}[]`, out) }
  else if (typeof value === "object" && value !== null) {
    const names = out.get(path) ?? new Set<string>()
    out.set(path, names)
    for (const [k, v] of Object.entries(value)) {
      names.add(k)
      // The Solana transaction inside is getTransaction's JSON, not Photon's shape.
      if (k !== "transaction") fieldNames(v, `${path}.${k}`, out)
    }
  }
  return out
}

/** A token transfer: a transaction of the featured owner that closed an account and opened one. */
const transferOf = (emu: Emulator.Emulator) =>
  Effect.gen(function*() {
    const owner = emu.samples["compressedTokenOwner"]
    const sigs = yield* result(emu, "getCompressionSignaturesForTokenOwner", { owner, limit: 20 })
    for (const { signature } of sigs.value.items) {
      const tx = yield* result(emu, "getTransactionWithCompressionInfoV2", { signature })
      if (tx.compressionInfo.closedAccounts.length > 0) return signature as string
    }
    throw new Error("no transfer among the owner's last 20 transactions")
  })

const fixtures = (method: string): Array<unknown> =>
  readdirSync(RealFixtures.path(method)).filter((f) => f.endsWith(".json")).map((f) => {
    const body = JSON.parse(readFileSync(RealFixtures.path(method, f), "utf8"))
    return "jsonrpc" in body ? body.result : body
  })

describe("Photon V2 and the indexer status (raw JSON-RPC)", () => {
  it.scopedLive("V2 results carry their V1 counterparts' data", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const owner = emu.samples["compressedTokenOwner"]
      const v1 = yield* result(emu, "getCompressedTokenAccountsByOwner", { owner, limit: 7 })
      const v2 = yield* result(emu, "getCompressedTokenAccountsByOwnerV2", { owner, limit: 7 })
      expect(v2.value.items.length).toBe(7)
      expect(v2.value.items.map((e: any) => ({ account: asV1(e.account), tokenData: e.tokenData })))
        .toEqual(v1.value.items)
      // One cursor pages both.
      const next = yield* result(emu, "getCompressedTokenAccountsByOwnerV2", { owner, cursor: v1.value.cursor })
      const nextV1 = yield* result(emu, "getCompressedTokenAccountsByOwner", { owner, cursor: v2.value.cursor })
      expect(next.value.items.map((e: any) => asV1(e.account))).toEqual(nextV1.value.items.map((e: any) => e.account))

      const hashes = v1.value.items.slice(0, 3).map((e: any) => e.account.hash)
      const many = yield* result(emu, "getMultipleCompressedAccountsV2", {
        hashes: [...hashes, emu.samples["compressedAccountHash"]]
      })
      expect(many.value.items.slice(0, 3).map(asV1)).toEqual(v1.value.items.slice(0, 3).map((e: any) => e.account))
      const byAddress = yield* result(emu, "getMultipleCompressedAccountsV2", {
        addresses: [emu.samples["compressionAddress"], NEW_ADDRESS]
      })
      expect(byAddress.value.items[0].address).toBe(emu.samples["compressionAddress"])
      expect(byAddress.value.items[1]).toBeNull()
      const both = yield* rpc(emu, "getMultipleCompressedAccountsV2", { hashes, addresses: [NEW_ADDRESS] })
      expect(both.json.error.code).toBe(-32000)

      const request = { hashes, newAddressesWithTrees: [{ address: NEW_ADDRESS, tree: ADDRESS_TREE_V1 }] }
      const p1 = (yield* result(emu, "getValidityProof", request)).value
      const p2 = (yield* result(emu, "getValidityProofV2", request)).value
      expect(p2.compressedProof).toEqual(p1.compressedProof)
      expect([...p2.accounts.map((a: any) => a.root), ...p2.addresses.map((a: any) => a.root)]).toEqual(p1.roots)
      expect(p2.accounts.map((a: any) => a.hash)).toEqual(hashes)
      expect(p2.accounts.map((a: any) => a.leafIndex)).toEqual(p1.leafIndices.slice(0, 3))
      expect([...p2.accounts.map((a: any) => a.rootIndex.rootIndex), ...p2.addresses.map((a: any) => a.rootIndex)])
        .toEqual(p1.rootIndices)
      expect([...p2.accounts, ...p2.addresses].map((a: any) => a.merkleContext.tree)).toEqual(p1.merkleTrees)
      expect(p2.addresses[0]).toMatchObject({ address: NEW_ADDRESS, merkleContext: { treeType: 2 } })

      const signature = yield* transferOf(emu)
      const t1 = yield* result(emu, "getTransactionWithCompressionInfo", { signature })
      const t2 = yield* result(emu, "getTransactionWithCompressionInfoV2", { signature })
      expect(t2.transaction).toEqual(t1.transaction)
      expect(t2.compressionInfo.openedAccounts.map((e: any) => ({ ...e, account: asV1(e.account) })))
        .toEqual(t1.compressionInfo.openedAccounts)
      expect(t2.compressionInfo.closedAccounts.length).toBeGreaterThan(0)
      expect(t2.compressionInfo.closedAccounts.map((e: any) => ({ ...e, account: asV1(e.account.account) })))
        .toEqual(t1.compressionInfo.closedAccounts)
    }))

  it.scopedLive("every account hash, data hash, root, leaf and nullifier is below the BN254 modulus", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const owner = emu.samples["compressedTokenOwner"]
      const results = [
        yield* result(emu, "getCompressedTokenAccountsByOwner", { owner }),
        yield* result(emu, "getCompressedTokenAccountsByOwnerV2", { owner })
      ]
      const hashes = results[0].value.items.slice(0, 4).map((e: any) => e.account.hash)
      const request = { hashes, newAddressesWithTrees: [{ address: NEW_ADDRESS, tree: ADDRESS_TREE_V1 }] }
      results.push(
        yield* result(emu, "getMultipleCompressedAccountsV2", { hashes }),
        yield* result(emu, "getValidityProof", request),
        yield* result(emu, "getValidityProofV2", request)
      )
      const signatures = yield* result(emu, "getCompressionSignaturesForOwner", {
        owner: emu.samples["compressionProgram"],
        limit: 20
      })
      for (const s of [emu.samples["compressionSignature"], ...signatures.value.items.map((i: any) => i.signature)]) {
        results.push(
          yield* result(emu, "getTransactionWithCompressionInfo", { signature: s }),
          yield* result(emu, "getTransactionWithCompressionInfoV2", { signature: s })
        )
      }
      const values = poseidonValues(results)
      expect(values.length).toBeGreaterThan(200)
      for (const v of values) expect(toBig(v) < BN254, v).toBe(true)
    }))

  it.scopedLive("getCompressionSignaturesForOwner: every signature of the owner's accounts once, newest first", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const owner = emu.samples["compressionProgram"]
      const seen: Array<any> = []
      let cursor: string | null = null
      for (let n = 0; n < 20; n++) {
        const page: any = yield* result(emu, "getCompressionSignaturesForOwner", { owner, limit: 1000, cursor })
        seen.push(...page.value.items)
        cursor = page.value.cursor
        if (cursor === null) break
      }
      expect(cursor).toBeNull()
      // The big address's 5,000 and every other address's own, each once.
      const perAddress = yield* result(emu, "getCompressionSignaturesForAddress", {
        address: emu.samples["compressionAddress"],
        limit: 1000
      })
      expect(seen.length).toBeGreaterThan(5_000)
      expect(new Set(seen.map((s) => s.signature)).size).toBe(seen.length)
      const slots = seen.map((s) => s.slot)
      expect(slots).toEqual([...slots].sort((a, b) => b - a))
      const mine = new Set(seen.map((s) => s.signature))
      expect(perAddress.value.items.every((s: any) => mine.has(s.signature))).toBe(true)
      const other = yield* result(emu, "getCompressionSignaturesForOwner", { owner: emu.samples.compressedTokenMint })
      expect(other.value).toEqual({ items: [], cursor: null })
    }))

  it.scopedLive("getIndexerSlot and getIndexerHealth: no params, a slot and \"ok\"", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const slot = yield* result(emu, "getIndexerSlot", [])
      expect(Number.isSafeInteger(slot)).toBe(true)
      const context = yield* result(emu, "getCompressedTokenAccountsByOwnerV2", {
        owner: emu.samples["compressedTokenOwner"],
        limit: 1
      })
      expect(context.context.slot).toBeGreaterThanOrEqual(slot)
      expect(yield* result(emu, "getIndexerHealth", [])).toBe("ok")
      expect(yield* result(emu, "getIndexerHealth", undefined)).toBe("ok")
      const bad = yield* rpc(emu, "getIndexerSlot", ["x"])
      expect(bad.json.error.code).toBe(-32602)
    }))

  const present = RealFixtures.present()
  describe.skipIf(!present)(`field names match the real bodies${present ? "" : ` (${RealFixtures.absent})`}`, () => {
    it.scopedLive("Photon V2 methods, getCompressionSignaturesForOwner and getAssetProof", () =>
      Effect.gen(function*() {
        const emu = yield* start()
        const owner = emu.samples["compressedTokenOwner"]
        const accounts = yield* result(emu, "getCompressedTokenAccountsByOwnerV2", { owner, limit: 2 })
        const hashes = accounts.value.items.map((e: any) => e.account.hash)
        const big = yield* Emulator.make({ seed: 9, sizes: { "das.bigAuthorityAssets": 500 } })
        const ours: Record<string, unknown> = {
          getCompressedTokenAccountsByOwnerV2: accounts,
          getValidityProofV2: [
            yield* result(emu, "getValidityProofV2", { hashes, newAddressesWithTrees: [] }),
            yield* result(emu, "getValidityProofV2", {
              hashes: [],
              newAddressesWithTrees: [{ address: NEW_ADDRESS, tree: ADDRESS_TREE_V1 }]
            })
          ],
          getTransactionWithCompressionInfoV2: yield* result(emu, "getTransactionWithCompressionInfoV2", {
            signature: yield* transferOf(emu)
          }),
          getCompressionSignaturesForOwner: yield* result(emu, "getCompressionSignaturesForOwner", {
            owner: emu.samples["compressionProgram"],
            limit: 3
          }),
          getAssetProof: yield* result(big, "getAssetProof", { id: big.samples.compressedNft })
        }
        for (const [method, value] of Object.entries(ours)) {
          const real = fieldNames(
            fixtures(method).map((f: any) =>
              // The service's docs page nests getAssetProof's proof one level too deep: names only.
              method === "getAssetProof" ? { ...f, proof: [] } : f
            )
          )
          const mine = fieldNames(Array.isArray(value) ? value : [value])
          for (const [path, names] of real) {
            expect(mine.get(path) ?? new Set(), `${method} ${path}`).toEqual(
              method === "getAssetProof" && path === "$[]"
                // Ours is the batch entry, which also says whether the asset is burnt.
                ? new Set([...names, "burnt"])
                : names
            )
          }
        }
      }))
  })
})
