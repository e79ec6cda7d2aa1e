/**
 * The compression (ZK, Photon) methods the service documents, over seeded compressed state.
 *
 * Data, all derived from the dataset, nothing stored:
 * - `compression.mints` (default 12) token mints. Mint 0 has `compression.mintHolders`
 *   (default 5,000) holders, the others 4..63. Holders are generated in descending
 *   balance order; the top holder of mint 0 holds more than 2^60 (exact as a bigint).
 * - Four featured owners are the top four holders of every mint (in rotation). Every
 *   other holder is an owner of its own. A holder's balance is split over one to three
 *   compressed token accounts, so accounts, balances and holders agree.
 * - `compression.addresses` (default 8) compressed accounts with an address. Address 0
 *   has `compression.bigAddressSignatures` (default 1,000,000) signatures, the others
 *   1..40. Each signature is the transaction that opened one version of the account
 *   and closed the version before.
 * - Token transactions: the first account of a holder was minted together with a
 *   "previous" version of each other account; each later transaction closed one
 *   previous version and opened the current account (same owner, mint and amount).
 *
 * - What the world compressed since start (`World.WorldApi.compress` of tokens): each compressed
 *   token account it opened follows its owner's seeded ones in the account and balance lists, and
 *   its transaction heads the owner's and the token program's signature lists (it is the newest).
 *
 * Ids carry their own coordinates (`seal`): an owner, a mint, an account hash or a
 * signature decodes back to the entry it names in O(1), so a list of a million
 * signatures never needs an index. To a client they look like random base58.
 *
 * Requests are checked as Photon checks them: unknown params, missing or malformed
 * fields and a limit above 1000 answer -32602 with serde-like messages. Cursors are
 * the emulator's opaque base58 (`Paging`). Charged by each method's entry
 * of core's `Endpoints`.
 *
 * @since 0.1.0
 */

import * as Endpoints from "@solfx/core/Endpoints"
import * as Effect from "effect/Effect"
import type { Area } from "../Area.js"
import { RpcFailure, rpcOf } from "../Area.js"
import { accountCount, addressAt, featuredOwner, Kind, mintAt, programOwner, seal } from "../seed/CompressedState.js"
import {
  getCompressedAccountsByOwnerV2,
  getCompressedMintTokenHolders,
  getCompressedTokenAccountsByOwner,
  getCompressedTokenAccountsByOwnerV2,
  getCompressedTokenBalancesByOwnerV2,
  getMultipleCompressedAccountsV2
} from "./compression/Accounts.js"
import type { Handle } from "./compression/Params.js"
import { invalid } from "./compression/Params.js"
import { getValidityProof, getValidityProofV2 } from "./compression/Proofs.js"
import {
  getCompressionSignaturesForAddress,
  getCompressionSignaturesForOwner,
  getCompressionSignaturesForTokenOwner,
  getLatestNonVotingSignatures
} from "./compression/Signatures.js"
import { getTransactionWithCompressionInfo, getTransactionWithCompressionInfoV2 } from "./compression/Transactions.js"

/** Photon's status methods take no params: stateless.js sends `[]`. */
const noParams = (raw: unknown): Effect.Effect<void, RpcFailure> =>
  raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0) ||
    (typeof raw === "object" && !Array.isArray(raw) && Object.keys(raw).length === 0)
    ? Effect.void
    : Effect.fail(invalid("this method takes no params"))

const getIndexerSlot: Handle = (raw, ctx) => Effect.as(noParams(raw), ctx.slot())

const getIndexerHealth: Handle = (raw) => Effect.as(noParams(raw), "ok")

/**
 * The compression area.
 *
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "compression",
  // Typed by the table: a method of `Endpoints.compression` without a handler does not compile.
  rpc: rpcOf(Endpoints.compression, {
    getCompressionSignaturesForAddress: { handle: getCompressionSignaturesForAddress },
    getCompressedMintTokenHolders: { handle: getCompressedMintTokenHolders },
    getLatestNonVotingSignatures: { handle: getLatestNonVotingSignatures },
    getCompressedTokenAccountsByOwner: { handle: getCompressedTokenAccountsByOwner },
    getValidityProof: { handle: getValidityProof },
    getCompressedTokenBalancesByOwnerV2: { handle: getCompressedTokenBalancesByOwnerV2 },
    getCompressionSignaturesForTokenOwner: { handle: getCompressionSignaturesForTokenOwner },
    getTransactionWithCompressionInfo: { handle: getTransactionWithCompressionInfo },
    getCompressionSignaturesForOwner: { handle: getCompressionSignaturesForOwner },
    getCompressedTokenAccountsByOwnerV2: { handle: getCompressedTokenAccountsByOwnerV2 },
    getCompressedAccountsByOwnerV2: { handle: getCompressedAccountsByOwnerV2 },
    getMultipleCompressedAccountsV2: { handle: getMultipleCompressedAccountsV2 },
    getValidityProofV2: { handle: getValidityProofV2 },
    getTransactionWithCompressionInfoV2: { handle: getTransactionWithCompressionInfoV2 },
    getIndexerSlot: { handle: getIndexerSlot },
    getIndexerHealth: { handle: getIndexerHealth }
  }),
  samples: (ds) => {
    const owner = featuredOwner(ds, 0)
    // Featured owner 0 is the top holder of mint 0; its last account there was opened by a transfer.
    const last = accountCount(ds, 0, 0) - 1
    return {
      // 5,000 holders by default, the top one above 2^53.
      compressedMint: mintAt(ds, 0),
      // Token accounts in every mint, balances, token signatures.
      compressedTokenOwner: owner,
      // 1,000,000 signatures by default.
      compressionAddress: addressAt(ds, 0),
      compressionSignature: seal(ds, 64, Kind.tokenTx, 0, 0, last),
      compressedAccountHash: seal(ds, 32, Kind.tokenAccount, 0, 0, 0),
      // Owns every address account: its signatures (getCompressionSignaturesForOwner) are all of theirs.
      compressionProgram: programOwner(ds)
    }
  }
}
