/**
 * getTransactionsForAddress, from the one ledger: an address's transactions are exactly the list
 * getSignaturesForAddress and its Wallet API history read (`WalletSignatures.signaturesOf`: what landed
 * since start, newest first, then a seeded wallet's seeded activity), in (slot, position in the
 * slot) order, newest first or (`sortOrder: "asc"`) oldest first. `paginationToken` is
 * `"slot:position"` of a page's last transaction; the next page starts strictly after it, so a
 * walk resumes correctly even when transactions land meanwhile.
 *
 * `commitment` (default `finalized`) keeps the transactions that reached it (`Bundles.confirmationOf`,
 * the rule of every status); `processed` is refused. `full` answers a landed transaction whole, as
 * getTransaction answers it in the same `encoding` (`json` by default, `jsonParsed`, `base64`,
 * `base58`; one builder, `TransactionView`), a v0 transaction only with
 * `maxSupportedTransactionVersion` (else -32015, as getTransaction). A seeded entry, dated before
 * the emulator's first slot, has its message rebuilt from the wallet's history in that encoding and
 * no status meta (`meta: null`: only its balance changes are known, and getTransaction does not
 * know it). Params are checked with core's schema, so the emulator refuses what the SDK refuses
 * (-32602, naming the field and the rule).
 *
 * `filters.tokenAccounts`: `none` (default) keeps what names the address itself; `balanceChanged`
 * adds the transactions that changed a token account it owns; `all` every transaction of its
 * token accounts. Seeded entries are the wallet's own activity and are always kept.
 *
 * @since 0.1.0
 */

import * as AddressTransactions from "@solfx/core/AddressTransactions"
import { validateInput } from "@solfx/core/Decode"
import * as Endpoints from "@solfx/core/Endpoints"
import * as Effect from "effect/Effect"
import type { Area, AreaContext } from "../Area.js"
import { RpcFailure, rpcOf } from "../Area.js"
import * as EnhancedTransactions from "../EnhancedTransactions.js"
import type * as Events from "../Events.js"
import * as TransactionView from "../internal/TransactionView.js"
import * as WalletSignatures from "../seed/WalletSignatures.js"
import * as World from "../World.js"
import { confirmationOf } from "./Bundles.js"

const invalid = (message: string) => new RpcFailure(-32602, `Invalid params: ${message}`)

const validate = validateInput(AddressTransactions.GetTransactionsForAddressParams)

type Params = typeof AddressTransactions.GetTransactionsForAddressParams.Type

/** A place in the history: slot, then position in the slot. */
type Key = readonly [number, number]

const compare = (a: Key, b: Key) => a[0] - b[0] || a[1] - b[1]

/** Whether a landed transaction belongs to the address's history under `tokenAccounts`. */
const kept = (tx: Events.LandedTransaction, address: string, mode: string): boolean => {
  if (mode === "all") return true
  const named = tx.feePayer === address || tx.programs.includes(address) ||
    tx.accounts.some((a) => a.address === address || a.token?.mint === address) ||
    tx.tokenTransfers.some((t) => t.mint === address)
  if (named) return true
  return mode === "balanceChanged" &&
    tx.accounts.some((a) => a.token?.owner === address && a.token.amountAfter !== a.token.amountBefore)
}

interface Range {
  readonly gte?: number | undefined
  readonly gt?: number | undefined
  readonly lte?: number | undefined
  readonly lt?: number | undefined
  readonly eq?: number | undefined
}

const inRange = (value: number, range: Range) =>
  (range.gte === undefined || value >= range.gte) && (range.gt === undefined || value > range.gt) &&
  (range.lte === undefined || value <= range.lte) && (range.lt === undefined || value < range.lt) &&
  (range.eq === undefined || value === range.eq)

const getTransactionsForAddress = (params: unknown, ctx: AreaContext) =>
  Effect.gen(function*() {
    if (!Array.isArray(params) || params.length < 1 || params.length > 2) {
      return yield* Effect.fail(invalid("params must be [address, config]"))
    }
    const config = params[1] ?? {}
    if (typeof config !== "object" || Array.isArray(config)) {
      return yield* Effect.fail(invalid("params[1] must be a config object"))
    }
    if ((config as { commitment?: unknown }).commitment === "processed") {
      return yield* Effect.fail(invalid("commitment: processed is not supported"))
    }
    const p: Params = yield* Effect.mapError(
      validate({ ...config, address: params[0] }),
      (e) => invalid(`${e.field === "" ? "params" : e.field}: ${e.rule}`)
    )
    if (p.minContextSlot !== undefined && p.minContextSlot > ctx.slot()) {
      return yield* Effect.fail(new RpcFailure(-32016, "Minimum context slot has not been reached"))
    }
    const full = p.transactionDetails === "full"
    const encoding = p.encoding ?? "json"
    const world = World.of(ctx.state)
    const view = (tx: Events.LandedTransaction) =>
      TransactionView.confirmed(tx, {
        encoding,
        withVersion: p.maxSupportedTransactionVersion !== undefined,
        blockhashOf: (slot) => world.bank.blockhash(slot).blockhash,
        lamportsOf: (address) => world.bank.account(address)?.lamports ?? 0n
      })
    const list = WalletSignatures.signaturesOf(ctx, p.address)
    const landed = (s: WalletSignatures.SignedTransaction) =>
      s.seeded === undefined ? world.transaction(s.signature) : undefined
    // Newest first; the position in the slot: a landed transaction's own, else counted among its slot's.
    const keyAt = (x: number): Key => {
      const s = list.get(x)
      const tx = landed(s)
      if (tx !== undefined) return [s.slot, tx.index]
      let n = 0
      while (x + n + 1 < list.length && list.get(x + n + 1).slot === s.slot) n++
      return [s.slot, n]
    }
    const filters = p.filters ?? {}
    const bounds: Array<[keyof NonNullable<typeof filters.signature>, Key]> = []
    for (const [op, signature] of Object.entries(filters.signature ?? {})) {
      if (signature === undefined) continue
      const x = list.indexOf(signature)
      if (x === undefined) {
        return yield* Effect.fail(invalid(`filters.signature.${op}: not a transaction of this address`))
      }
      bounds.push([op as "gte", keyAt(x)])
    }
    const token: Key | undefined = p.paginationToken === undefined
      ? undefined
      : (p.paginationToken.split(":").map(Number) as unknown as Key)
    const asc = p.sortOrder === "asc"
    const limit = p.limit ?? AddressTransactions.maxLimitOf(p)
    const commitment = p.commitment ?? "finalized"
    const status = filters.status ?? "any"
    const mode = filters.tokenAccounts ?? "none"
    const data: Array<unknown> = []
    let last: Key | undefined
    let more = false
    // The list is newest first: the first entry older than the token, by bisection.
    let older = 0
    if (token !== undefined) {
      let hi = list.length
      while (older < hi) {
        const mid = (older + hi) >>> 1
        if (compare(keyAt(mid), token) < 0) hi = mid
        else older = mid + 1
      }
    }
    // Newest first from the first older than the token; oldest first down to the last newer than it.
    // (Entries before `older` are the token's and newer ones: an ascending walk goes down from there.)
    const [from, to, by] = asc ? [(token === undefined ? list.length : older) - 1, -1, -1] : [older, list.length, 1]
    for (let x = from; x !== to; x += by) {
      const key = keyAt(x)
      if (token !== undefined && (asc ? compare(key, token) <= 0 : compare(key, token) >= 0)) continue
      const s = list.get(x)
      if (filters.slot !== undefined && !inRange(s.slot, filters.slot)) continue
      if (filters.blockTime !== undefined && (s.blockTime === null || !inRange(s.blockTime, filters.blockTime))) {
        continue
      }
      if (!bounds.every(([op, b]) => inRange(compare(key, b), { [op]: 0 }))) continue
      if (status === "succeeded" ? s.err !== null : status === "failed" ? s.err === null : false) continue
      const confirmation = confirmationOf(ctx, s.slot).status
      if (confirmation === "processed" || (commitment === "finalized" && confirmation !== "finalized")) continue
      const tx = landed(s)
      if (tx !== undefined && !kept(tx, p.address, mode)) continue
      if (data.length === limit) {
        more = true
        break
      }
      last = key
      if (!full) {
        data.push({
          signature: s.signature,
          slot: s.slot,
          transactionIndex: key[1],
          err: s.err,
          memo: null,
          blockTime: s.blockTime,
          confirmationStatus: confirmation
        })
      } else if (tx !== undefined) {
        // getTransaction's builder, in the encoding asked: a history item is that transaction whole.
        if (tx.wire?.version === 0 && p.maxSupportedTransactionVersion === undefined) {
          return yield* Effect.fail(new RpcFailure(-32015, TransactionView.UNSUPPORTED_VERSION))
        }
        const { blockTime, meta, slot, transaction, ...version } = view(tx)
        data.push({ slot, transactionIndex: key[1], blockTime, transaction, meta, ...version })
      } else {
        // A seeded entry: its message rebuilt in the encoding asked, no status meta (see above).
        const { transaction } = view(EnhancedTransactions.seededLanded(s, key[1])!)
        data.push({ slot: s.slot, transactionIndex: key[1], blockTime: s.blockTime, transaction, meta: null })
      }
    }
    return {
      data,
      paginationToken: more && last !== undefined ? `${last[0]}:${last[1]}` : null
    }
  })

/**
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "addressHistory",
  rpc: rpcOf(Endpoints.addressHistory, { getTransactionsForAddress: { handle: getTransactionsForAddress } })
}
