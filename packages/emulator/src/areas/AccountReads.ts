/**
 * The standard Solana RPC's reads of accounts (`Endpoints.accountReads`), from the world's
 * accounts as the chain holds them (`Accounts`: the bank's writes, then the world, then the
 * seed): the same lamports the Wallet API shows, the same mints, owners and amounts as DAS's
 * getTokenAccounts, in their real byte layouts, encoded as the RPC encodes them (no encoding: a
 * bare base58 string; base58, base64, base64+zstd where this Node has zstd, jsonParsed for SPL
 * Token and Token-2022; `dataSlice`).
 *
 * getProgramAccounts visits at most `Accounts.SCAN_BOUND` accounts: a larger program (either
 * token program: every seeded token account and mint) is refused unless a `memcmp` filter of an
 * owner (offset 32) or a mint (offset 0) narrows it through an index, as providers refuse
 * unfiltered scans of large programs.
 *
 * @since 0.1.0
 */

import type * as AccountInfo from "@solfx/core/AccountInfo"
import * as Endpoints from "@solfx/core/Endpoints"
import { decodeBase58 } from "@solfx/core/Primitives"
import * as TokenAmount from "@solfx/core/TokenAmount"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Accounts from "../Accounts.js"
import type { Area, AreaContext } from "../Area.js"
import { RpcFailure, rpcOf } from "../Area.js"
import * as Layout from "../internal/AccountLayout.js"
import {
  checkEncoding,
  decimalsOf,
  encodeAccount,
  encodeAll,
  invalid,
  paramsOf,
  readAt,
  uiTokenAmount
} from "../internal/StandardRpc.js"
import * as AssetSeed from "../seed/DigitalAssets.js"
import * as DasTokenAccounts from "./digitalAssets/TokenAccounts.js"

const e = Endpoints.accountReads

/** The RPC's own words for what a token read cannot find (-32602). */
const param = (message: string) => new RpcFailure(-32602, `Invalid param: ${message}`)

type Config = {
  readonly encoding?: AccountInfo.Encoding | undefined
  readonly dataSlice?: { readonly offset: number; readonly length: number } | undefined
}

const encoder = (ctx: AreaContext, config: Config) => (account: Accounts.Account) =>
  encodeAccount(ctx.accounts, account, config.encoding, config.dataSlice)

/** The keyed accounts of a list of addresses, each read once, encoded. */
const keyed = (ctx: AreaContext, addresses: ReadonlyArray<string>, config: Config) =>
  Effect.map(
    encodeAll(addresses.map((a) => [a, ctx.accounts.get(a)] as const), encoder(ctx, config)),
    (items) => items.filter(([, account]) => account !== null).map(([pubkey, account]) => ({ pubkey, account }))
  )

const tooMany = (what: string, count: number, hint: string) =>
  new RpcFailure(
    -32010,
    `${what} would scan ${count} accounts, more than the emulator's bound of ${Accounts.SCAN_BOUND}: ${hint}`
  )

/** The bytes a memcmp filter compares (base58 unless base64), at most 128 decoded. */
const memcmpBytes = (memcmp: { readonly bytes: string; readonly encoding?: string | undefined }, i: number) => {
  const bytes = memcmp.encoding === "base64" ? Buffer.from(memcmp.bytes, "base64") : decodeBase58(memcmp.bytes)
  if (bytes === undefined) return Either.left(invalid(`filters[${i}].memcmp.bytes: not ${memcmp.encoding ?? "base58"}`))
  if (bytes.length > 128) return Either.left(invalid(`filters[${i}].memcmp.bytes: more than 128 bytes`))
  return Either.right(new Uint8Array(bytes))
}

const sameBytes = (data: Uint8Array, offset: number, bytes: Uint8Array) => {
  if (offset + bytes.length > data.length) return false
  for (let i = 0; i < bytes.length; i++) if (data[offset + i] !== bytes[i]) return false
  return true
}

/** Token accounts by owner or delegate, narrowed to a mint or a token program as the filter asks. */
const tokenAccountsBy = (
  ctx: AreaContext,
  list: ReadonlyArray<string> | Accounts.TooMany,
  filter: AccountInfo.GetTokenAccountsByOwnerParams["filter"],
  what: string
) =>
  Effect.gen(function*() {
    let program: string | undefined
    let mint: string | undefined
    if ("programId" in filter) {
      if (Layout.tokenProgramOf(filter.programId) === undefined) {
        return yield* Effect.fail(param("unrecognized Token program id"))
      }
      program = filter.programId
    } else {
      const account = ctx.accounts.get(filter.mint)
      if (account === undefined || Layout.tokenProgramOf(account.owner) === undefined) {
        return yield* Effect.fail(param("could not find mint"))
      }
      mint = filter.mint
      program = account.owner
    }
    if (!Array.isArray(list)) {
      return yield* Effect.fail(
        tooMany(what, (list as Accounts.TooMany).count, "use DAS getTokenAccounts, which pages")
      )
    }
    return (list as ReadonlyArray<string>).filter((address) => {
      const account = ctx.accounts.get(address)
      if (account === undefined || account.owner !== program) return false
      return mint === undefined || Layout.decodeTokenAccount(account.data, account.owner)?.mint === mint
    })
  })

/** A token account and its mint's decimals, or the RPC's refusal. */
const tokenAccountOf = (ctx: AreaContext, address: string) => {
  const account = ctx.accounts.get(address)
  if (account === undefined) return Either.left(param("could not find account"))
  const token = Layout.tokenProgramOf(account.owner) === undefined
    ? undefined
    : Layout.decodeTokenAccount(account.data, account.owner)
  if (token === undefined) return Either.left(param("not a Token account"))
  const decimals = decimalsOf(ctx.accounts, token.mint)
  if (decimals === undefined) return Either.left(param("could not find mint"))
  return Either.right({ token, decimals })
}

/** A mint account's fields, or the RPC's refusal. */
const mintOf = (ctx: AreaContext, address: string) => {
  const account = ctx.accounts.get(address)
  if (account === undefined) return Either.left(param("could not find account"))
  const mint = Layout.tokenProgramOf(account.owner) === undefined
    ? undefined
    : Layout.decodeMint(account.data, account.owner)
  return mint === undefined ? Either.left(param("not a Token mint")) : Either.right(mint)
}

/**
 * @since 0.1.0
 * @category handlers
 */
export const handlers = {
  getBalance: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.gen(function*() {
        const p = yield* paramsOf(e.getBalance, raw)
        const { context } = yield* readAt(ctx, p)
        return { context, value: ctx.accounts.get(p.address)?.lamports ?? 0n }
      })
  },
  getAccountInfo: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.gen(function*() {
        const p = yield* paramsOf(e.getAccountInfo, raw)
        yield* checkEncoding(p.encoding)
        const { context } = yield* readAt(ctx, p)
        const [[, value]] = yield* encodeAll([[p.address, ctx.accounts.get(p.address)]], encoder(ctx, p))
        return { context, value }
      })
  },
  getMultipleAccounts: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.gen(function*() {
        const p = yield* paramsOf(e.getMultipleAccounts, raw)
        yield* checkEncoding(p.encoding)
        const { context } = yield* readAt(ctx, p)
        const items = yield* encodeAll(p.addresses.map((a) => [a, ctx.accounts.get(a)] as const), encoder(ctx, p))
        return { context, value: items.map(([, v]) => v) }
      })
  },
  getProgramAccounts: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.gen(function*() {
        const p = yield* paramsOf(e.getProgramAccounts, raw)
        yield* checkEncoding(p.encoding)
        const { context } = yield* readAt(ctx, p)
        const memcmp: Array<{ readonly offset: number; readonly bytes: Uint8Array }> = []
        const sizes: Array<number> = []
        for (const [i, f] of (p.filters ?? []).entries()) {
          if ("dataSize" in f) {
            sizes.push(f.dataSize)
            continue
          }
          const bytes = memcmpBytes(f.memcmp, i)
          if (Either.isLeft(bytes)) return yield* Effect.fail(bytes.left)
          memcmp.push({ offset: f.memcmp.offset, bytes: bytes.right })
        }
        const found = ctx.accounts.byOwnerProgram(p.program, { memcmp })
        if (!Array.isArray(found)) {
          return yield* Effect.fail(
            tooMany(
              `getProgramAccounts of ${p.program}`,
              (found as Accounts.TooMany).count,
              "add a memcmp filter of the owner (offset 32) or the mint (offset 0), or use getTokenAccountsByOwner"
            )
          )
        }
        const matching = (found as ReadonlyArray<string>).filter((address) => {
          const data = ctx.accounts.get(address)?.data
          return data !== undefined && sizes.every((n) => data.length === n) &&
            memcmp.every((m) => sameBytes(data, m.offset, m.bytes))
        })
        const value = yield* keyed(ctx, matching, p)
        return p.withContext === true ? { context, value } : value
      })
  },
  getTokenAccountsByOwner: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.gen(function*() {
        const p = yield* paramsOf(e.getTokenAccountsByOwner, raw)
        yield* checkEncoding(p.encoding)
        const { context } = yield* readAt(ctx, p)
        const list = yield* tokenAccountsBy(
          ctx,
          ctx.accounts.tokenAccountsByOwner(p.owner),
          p.filter,
          `getTokenAccountsByOwner of ${p.owner}`
        )
        return { context, value: yield* keyed(ctx, list, p) }
      })
  },
  getTokenAccountsByDelegate: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.gen(function*() {
        const p = yield* paramsOf(e.getTokenAccountsByDelegate, raw)
        yield* checkEncoding(p.encoding)
        const { context } = yield* readAt(ctx, p)
        const list = yield* tokenAccountsBy(
          ctx,
          ctx.accounts.tokenAccountsByDelegate(p.delegate),
          p.filter,
          `getTokenAccountsByDelegate of ${p.delegate}`
        )
        return { context, value: yield* keyed(ctx, list, p) }
      })
  },
  getTokenAccountBalance: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.gen(function*() {
        const p = yield* paramsOf(e.getTokenAccountBalance, raw)
        const { context } = yield* readAt(ctx, p)
        const found = tokenAccountOf(ctx, p.account)
        if (Either.isLeft(found)) return yield* Effect.fail(found.left)
        return { context, value: uiTokenAmount(found.right.token.amount, found.right.decimals) }
      })
  },
  getTokenSupply: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.gen(function*() {
        const p = yield* paramsOf(e.getTokenSupply, raw)
        const { context } = yield* readAt(ctx, p)
        const mint = mintOf(ctx, p.mint)
        if (Either.isLeft(mint)) return yield* Effect.fail(mint.left)
        return { context, value: uiTokenAmount(mint.right.supply, mint.right.decimals) }
      })
  },
  getTokenLargestAccounts: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.gen(function*() {
        const p = yield* paramsOf(e.getTokenLargestAccounts, raw)
        const { context } = yield* readAt(ctx, p)
        const mint = mintOf(ctx, p.mint)
        if (Either.isLeft(mint)) return yield* Effect.fail(mint.left)
        const list = ctx.accounts.tokenAccountsOfMint(p.mint)
        if (!Array.isArray(list)) {
          return yield* Effect.fail(
            tooMany(
              `getTokenLargestAccounts of ${p.mint}`,
              (list as Accounts.TooMany).count,
              "use DAS getTokenAccounts"
            )
          )
        }
        const amounts = (list as ReadonlyArray<string>).flatMap((address) => {
          const account = ctx.accounts.get(address)
          const token = account === undefined ? undefined : Layout.decodeTokenAccount(account.data, account.owner)
          return token === undefined ? [] : [{ address, amount: token.amount }]
        })
        // Largest first; equal amounts by address, so the order is total.
        amounts.sort((a, b) =>
          a.amount > b.amount
            ? -1
            : a.amount < b.amount
            ? 1
            : a.address < b.address
            ? -1
            : a.address > b.address
            ? 1
            : 0
        )
        return {
          context,
          value: amounts.slice(0, TokenAmount.MAX_LARGEST_ACCOUNTS).map((t) => ({
            address: t.address,
            ...uiTokenAmount(t.amount, mint.right.decimals)
          }))
        }
      })
  }
}

/**
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "account-reads",
  rpc: rpcOf(e, handlers),
  samples: (ds) => {
    // A token account of the sample owner (a DAS one: getTokenAccounts lists it) and its mint.
    const account = DasTokenAccounts.ownerAccounts(ds, AssetSeed.sampleOwner(ds)).at(1)
    return { rpcTokenAccount: account.address, rpcMint: account.mint }
  }
}
