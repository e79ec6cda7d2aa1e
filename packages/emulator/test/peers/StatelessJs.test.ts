/**
 * Light's own client, `@lightprotocol/stateless.js` 0.23.3, pointed at the emulator over
 * loopback. It validates every Photon response (field sizes, tree infos, shapes), so a
 * method that decodes here is one a real user's code accepts.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Stateless from "@lightprotocol/stateless.js"
import { PublicKey } from "@solana/web3.js"
import * as Effect from "effect/Effect"
import * as Emulator from "../../src/Emulator.js"

// 0.23 defaults to V2 (methods suffixed V2, V2 trees); the spec's methods are V1's.
Stateless.featureFlags.version = "V1" as typeof Stateless.featureFlags.version

const BN254 = 21888242871839275222246405745257275088548364400416034343698204186575808495617n
const belowModulus = (bn: { toString: (base: number) => string }) => BigInt(`0x${bn.toString(16)}`) < BN254

const withRpc = <A>(f: (rpc: Stateless.Rpc, emu: Emulator.Emulator) => Promise<A>) =>
  Effect.gen(function*() {
    const emu = yield* Emulator.make({ seed: 5 })
    const url = `${emu.url}/?api-key=${emu.apiKey}`
    // stateless.js treats 127.0.0.1 as a local validator: it then knows the local test trees.
    return yield* Effect.promise(() => f(Stateless.createRpc(url, url, url), emu))
  })

describe("stateless.js 0.23.3 (V1) against the emulator", () => {
  it.scopedLive("decodes compressed token accounts, balances and holders", () =>
    withRpc(async (rpc, emu) => {
      const owner = new PublicKey(emu.samples["compressedTokenOwner"]!)
      const mint = new PublicKey(emu.samples.compressedTokenMint)
      const accounts = await rpc.getCompressedTokenAccountsByOwner(owner)
      expect(accounts.items.length).toBeGreaterThan(0)
      for (const a of accounts.items) {
        expect(a.parsed.owner.equals(owner)).toBe(true)
        expect(belowModulus(a.compressedAccount.hash as never)).toBe(true)
        expect(a.compressedAccount.treeInfo.tree.toBase58()).toBe("smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT")
      }
      const byMint = await rpc.getCompressedTokenAccountsByOwner(owner, { mint })
      expect(byMint.items.every((a) => a.parsed.mint.equals(mint))).toBe(true)

      const balances = await rpc.getCompressedTokenBalancesByOwnerV2(owner)
      expect(balances.value.items.length).toBeGreaterThan(0)

      const holders = await rpc.getCompressedMintTokenHolders(mint, { limit: Stateless.bn(10) })
      expect(holders.value.items).toHaveLength(10)
      expect(holders.value.cursor).not.toBeNull()
      const next = await rpc.getCompressedMintTokenHolders(mint, {
        limit: Stateless.bn(10),
        cursor: holders.value.cursor!
      })
      expect(next.value.items[0]!.owner.equals(holders.value.items[0]!.owner)).toBe(false)
    }))

  it.scopedLive("decodes signatures and a transaction with compression info", () =>
    withRpc(async (rpc, emu) => {
      const address = new PublicKey(emu.samples["compressionAddress"]!)
      const sigs = await rpc.getCompressionSignaturesForAddress(address, { limit: Stateless.bn(5) })
      expect(sigs.items).toHaveLength(5)
      const owner = new PublicKey(emu.samples["compressedTokenOwner"]!)
      const tokenSigs = await rpc.getCompressionSignaturesForTokenOwner(owner)
      expect(tokenSigs.items.length).toBeGreaterThan(0)
      const latest = await rpc.getLatestNonVotingSignatures(3)
      expect(latest.value.items).toHaveLength(3)
      const tx = await rpc.getTransactionWithCompressionInfo(emu.samples["compressionSignature"]!)
      expect(tx).not.toBeNull()
      expect(tx!.compressionInfo.openedAccounts.length).toBeGreaterThan(0)
    }))

  it.scopedLive("decodes a validity proof of accounts and of a new address", () =>
    withRpc(async (rpc, emu) => {
      const owner = new PublicKey(emu.samples["compressedTokenOwner"]!)
      const accounts = await rpc.getCompressedTokenAccountsByOwner(owner)
      // getValidityProofV0 is the client's direct call of the spec's getValidityProof (its
      // deprecated getValidityProof first calls getMultipleCompressedAccounts, not in the spec).
      const hashes = accounts.items.slice(0, 2).map((a) => ({
        hash: a.compressedAccount.hash,
        tree: a.compressedAccount.treeInfo.tree,
        queue: a.compressedAccount.treeInfo.queue
      }))
      const proof = await rpc.getValidityProofV0(hashes)
      expect(proof.treeInfos.map((t) => t.tree.toBase58())).toEqual(hashes.map((h) => h.tree.toBase58()))
      expect(proof.compressedProof?.a).toHaveLength(32)
      expect(proof.roots.every((r) => belowModulus(r as never))).toBe(true)
      expect(proof.leaves.every((l) => belowModulus(l as never))).toBe(true)

      const seed = Stateless.deriveAddressSeed([Buffer.from("solfx")], new PublicKey(emu.samples.assetAuthority))
      const tree = Stateless.getDefaultAddressTreeInfo()
      const address = Stateless.deriveAddress(seed, tree.tree)
      const fresh = await rpc.getValidityProofV0([], [{
        address: Stateless.bn(address.toBytes()),
        tree: tree.tree,
        queue: tree.queue
      }])
      expect(fresh.roots).toHaveLength(1)
      expect(fresh.leaves.every((l) => belowModulus(l as never))).toBe(true)
    }))
})
