/**
 * The cluster's one clock, as every area reads it: the slot (the world's), the block height and
 * block time of a slot, and the blockhashes transactions are built on. A blockhash is valid for
 * 150 blocks after its own, as the runtime's; `lastValidBlockHeight` says so.
 *
 * The blockhashes come from a source: by default one hash per slot, drawn from the seed; the bank
 * (LiteSVM, whose `latestBlockhash` is what its transactions are checked against) installs its
 * own with `useBlockhashes`, and from then on every area answers with the bank's.
 *
 * @example
 * const { blockhash, lastValidBlockHeight } = emulator.chain.latestBlockhash()
 * emulator.chain.isBlockhashValid(blockhash) // true for 150 blocks
 * @since 0.1.0
 */
import type { Dataset } from "./Dataset.js"
import * as Base58 from "./internal/Base58.js"
import type * as World from "./World.js"

/**
 * Blocks a blockhash stays valid for after its own (the runtime's `MAX_PROCESSING_AGE`).
 *
 * @since 0.1.0
 * @category constants
 */
export const BLOCKHASH_VALIDITY = 150

/**
 * Slots in an epoch (mainnet's, no warmup).
 *
 * @since 0.1.0
 * @category constants
 */
export const SLOTS_PER_EPOCH = 432_000

/**
 * A blockhash and the last block height it is valid at.
 *
 * @since 0.1.0
 * @category models
 */
export interface Blockhash {
  readonly blockhash: string
  readonly lastValidBlockHeight: number
}

/**
 * Where blockhashes come from (the bank's, once it runs).
 *
 * @since 0.1.0
 * @category models
 */
export interface BlockhashSource {
  readonly latest: () => Blockhash
  readonly isValid: (blockhash: string) => boolean
}

/**
 * The clock of one emulator instance.
 *
 * @since 0.1.0
 * @category models
 */
export interface Chain {
  /** The current slot (the world's). */
  readonly slot: () => number
  /** The block height of a slot (default: the current one). */
  readonly blockHeight: (slot?: number) => number
  /** Unix seconds of a slot's block. */
  readonly blockTime: (slot: number) => number
  /** The slot the first block of the emulator's history has: earlier slots have no block. */
  readonly firstSlot: number
  readonly latestBlockhash: () => Blockhash
  readonly isBlockhashValid: (blockhash: string) => boolean
  /** The bank's blockhashes replace the seeded ones. */
  readonly useBlockhashes: (source: BlockhashSource) => void
}

/**
 * The clock of a world.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: { readonly dataset: Dataset; readonly world: World.World }): Chain => {
  const { dataset, world } = options
  // Skipped slots: the height trails the slot (mainnet's is about 6% behind), and grows one a slot here.
  const heightOffset = Math.floor(world.baseSlot * 0.06) + dataset.int("chain:height", 1_000)
  const blockHeight = (slot = world.slot()) => slot - heightOffset
  const hashOf = (slot: number) => Base58.encode(dataset.bytes(`chain:blockhash:${slot}`))
  // Blockhashes handed out, by hash: validity is one lookup (pruned as they expire).
  const issued = new Map<string, number>()
  const seeded: BlockhashSource = {
    latest: () => {
      const slot = world.slot()
      const blockhash = hashOf(slot)
      if (!issued.has(blockhash)) {
        if (issued.size > 4 * BLOCKHASH_VALIDITY) {
          for (const [h, s] of issued) if (s < slot - BLOCKHASH_VALIDITY) issued.delete(h)
        }
        issued.set(blockhash, slot)
      }
      return { blockhash, lastValidBlockHeight: blockHeight(slot) + BLOCKHASH_VALIDITY }
    },
    isValid: (blockhash) => {
      const now = world.slot()
      const at = issued.get(blockhash)
      if (at !== undefined) return now - at <= BLOCKHASH_VALIDITY
      // Not handed out here (another client computed it for this seed): the recent slots' hashes.
      for (let s = now; s >= now - BLOCKHASH_VALIDITY; s--) if (hashOf(s) === blockhash) return true
      return false
    }
  }
  let source = seeded
  return {
    slot: world.slot,
    blockHeight,
    blockTime: world.blockTimeOf,
    firstSlot: world.baseSlot - dataset.size("chain.historySlots", 10_000_000),
    latestBlockhash: () => source.latest(),
    isBlockhashValid: (blockhash) => source.isValid(blockhash),
    useBlockhashes: (next) => {
      source = next
    }
  }
}
