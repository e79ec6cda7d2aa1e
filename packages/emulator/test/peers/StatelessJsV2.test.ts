/**
 * Light's `@lightprotocol/stateless.js` 0.23.3 in its DEFAULT mode (V2: `featureFlags.version` is
 * left as the published build sets it) against the emulator over loopback. Its superstruct
 * schemas check every response (field sizes, BN254 values, tree infos); the request log shows the
 * method names it sent, so a silent fall back to the V1 names would fail here.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Stateless from "@lightprotocol/stateless.js"
import { PublicKey } from "@solana/web3.js"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import * as Emulator from "../../src/Emulator.js"

const BN254 = 21888242871839275222246405745257275088548364400416034343698204186575808495617n
/** A BN254 value as stateless.js hands it back: a BN, or (V2 account hashes) big-endian bytes. */
const big = (v: unknown): bigint =>
  Array.isArray(v) ? BigInt(`0x${Buffer.from(v).toString("hex")}`) : BigInt(`0x${(v as any).toString(16)}`)
const belowModulus = (v: unknown) => big(v) < BN254

const withRpc = <A>(f: (rpc: Stateless.Rpc, emu: Emulator.Emulator) => Promise<A>) =>
  Effect.gen(function*() {
    const emu = yield* Emulator.make({ seed: 5 })
    const url = `${emu.url}/?api-key=${emu.apiKey}`
    // stateless.js treats 127.0.0.1 as a local validator: it then knows the local test trees.
    return yield* Effect.promise(() => f(Stateless.createRpc(url, url, url), emu))
  })

const sent = (emu: Emulator.Emulator) => emu.requests.map((r) => r.operation)

describe("stateless.js 0.23.3, default settings (V2), against the emulator", () => {
  it("is in V2 mode by default", () => {
    expect(Stateless.featureFlags.isV2()).toBe(true)
  })

  it.scopedLive("getCompressedTokenAccountsByOwner, getValidityProof and getTransactionWithCompressionInfo", () =>
    withRpc(async (rpc, emu) => {
      const owner = new PublicKey(emu.samples["compressedTokenOwner"]!)
      const accounts = await rpc.getCompressedTokenAccountsByOwner(owner)
      expect(accounts.items.length).toBeGreaterThan(1)
      for (const a of accounts.items) {
        expect(a.parsed.owner.equals(owner)).toBe(true)
        expect(belowModulus(a.compressedAccount.hash as never)).toBe(true)
        expect(a.compressedAccount.treeInfo.tree.toBase58()).toBe("smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT")
      }
      const hashes = accounts.items.slice(0, 2).map((a) => a.compressedAccount.hash)
      // The deprecated form: getMultipleCompressedAccountsV2 first, then getValidityProofV2.
      const proof = await rpc.getValidityProof(hashes)
      expect(proof.compressedProof?.a).toHaveLength(32)
      expect(proof.leaves.map(big)).toEqual(hashes.map(big))
      expect(proof.roots.every((r) => belowModulus(r as never))).toBe(true)
      expect(proof.treeInfos.map((t) => t.tree.toBase58())).toEqual(
        accounts.items.slice(0, 2).map((a) => a.compressedAccount.treeInfo.tree.toBase58())
      )

      const tx = await rpc.getTransactionWithCompressionInfo(emu.samples["compressionSignature"]!)
      expect(tx).not.toBeNull()
      expect(tx!.compressionInfo.openedAccounts.length).toBeGreaterThan(0)
      expect(tx!.compressionInfo.closedAccounts.length).toBeGreaterThan(0)
      for (const { account } of [...tx!.compressionInfo.openedAccounts, ...tx!.compressionInfo.closedAccounts]) {
        expect(belowModulus(account.hash as never)).toBe(true)
      }
      expect(sent(emu)).toEqual([
        "getCompressedTokenAccountsByOwnerV2",
        "getMultipleCompressedAccountsV2",
        "getValidityProofV2",
        "getTransactionWithCompressionInfoV2"
      ])
    }))

  it.scopedLive("getCompressionSignaturesForOwner pages; getIndexerSlot and getIndexerHealth answer", () =>
    withRpc(async (rpc, emu) => {
      const program = new PublicKey(emu.samples["compressionProgram"]!)
      const first = await rpc.getCompressionSignaturesForOwner(program, { limit: Stateless.bn(50) })
      expect(first.items).toHaveLength(50)
      expect(first.cursor).not.toBeNull()
      const second = await rpc.getCompressionSignaturesForOwner(program, {
        limit: Stateless.bn(50),
        cursor: first.cursor!
      })
      const slots = [...first.items, ...second.items].map((s) => s.slot)
      expect(slots).toEqual([...slots].sort((a, b) => b - a))
      expect(new Set([...first.items, ...second.items].map((s) => s.signature)).size).toBe(100)
      // Each signature names a transaction the emulator has.
      const tx = await rpc.getTransactionWithCompressionInfo(second.items[49]!.signature)
      expect(tx!.compressionInfo.openedAccounts).toHaveLength(1)
      const none = await rpc.getCompressionSignaturesForOwner(new PublicKey(emu.samples["compressedTokenOwner"]!))
      expect(none.items).toEqual([])

      const slot = await rpc.getIndexerSlot()
      expect(Number.isInteger(slot)).toBe(true)
      expect(slot).toBeGreaterThan(0)
      expect(await rpc.getIndexerHealth()).toBe("ok")
      expect(sent(emu)).toEqual([
        "getCompressionSignaturesForOwner",
        "getCompressionSignaturesForOwner",
        "getTransactionWithCompressionInfoV2",
        "getCompressionSignaturesForOwner",
        "getIndexerSlot",
        "getIndexerHealth"
      ])
    }))

  it.scopedLive("getValidityProofV0 with a new address in the V2 address tree", () =>
    withRpc(async (rpc, emu) => {
      const tree = new PublicKey("amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx")
      // A new address: any value below the modulus the dataset does not hold.
      const address = createHash("sha256").update("solfx").digest()
      address[0] = 0
      const fresh = await rpc.getValidityProofV0([], [{ address: Stateless.bn(address), tree, queue: tree }])
      expect(fresh.roots).toHaveLength(1)
      expect(fresh.treeInfos[0]!.tree.equals(tree)).toBe(true)
      expect(fresh.treeInfos[0]!.treeType).toBe(Stateless.TreeType.AddressV2)
      expect(sent(emu)).toEqual(["getValidityProofV2"])
    }))

  it.scopedLive("tokens the world API compressed: listed, proven and explained, as stateless.js decodes them", () =>
    withRpc(async (rpc, emu) => {
      const owner = emu.dataset.address("peers:compress")
      const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.orDie(effect))
      const { mint } = await run(emu.world.mintFungible({ owner, amount: 10n ** 13n, decimals: 6 }))
      const done = await run(emu.world.compress({ owner, mint, amount: 2n ** 40n }))
      const accounts = await rpc.getCompressedTokenAccountsByOwner(new PublicKey(owner))
      expect(accounts.items.map((a) => [a.parsed.mint.toBase58(), a.parsed.amount.toString()])).toEqual([
        [mint, (2n ** 40n).toString()]
      ])
      const hash = accounts.items[0]!.compressedAccount.hash
      expect(big(hash)).toBe(big(Array.from(new PublicKey(done.hash!).toBytes())))
      const proof = await rpc.getValidityProof([hash])
      expect(proof.leaves.map(big)).toEqual([big(hash)])
      const tx = await rpc.getTransactionWithCompressionInfo(done.signature)
      expect(tx!.compressionInfo.openedAccounts.map((o) => big(o.account.hash))).toEqual([big(hash)])
      expect(tx!.compressionInfo.closedAccounts).toEqual([])
      const signatures = await rpc.getCompressionSignaturesForTokenOwner(new PublicKey(owner))
      expect(signatures.items.map((i) => i.signature)).toEqual([done.signature])
    }))
})
