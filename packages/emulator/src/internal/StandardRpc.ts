/**
 * What every standard RPC read of the emulator shares: its params read from the wire by its
 * entry (positional fields, then the config, checked by core's Schema: -32602 naming the param),
 * the slot a commitment reads at and `minContextSlot` (-32016), the `context` of an answer, and
 * an account encoded as the RPC encodes it (base58, base64, base64+zstd, jsonParsed, dataSlice).
 *
 * @internal
 */
import type * as AccountInfo from "@solfx/core/AccountInfo"
import { fieldPath } from "@solfx/core/Decode"
import * as Endpoint from "@solfx/core/Endpoint"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Zlib from "node:zlib"
import type { Account, Accounts } from "../Accounts.js"
import type { AreaContext } from "../Area.js"
import { RpcFailure } from "../Area.js"
import * as Layout from "./AccountLayout.js"
import * as Base58 from "./Base58.js"

/** The node version the emulator reports (getVersion, and `apiVersion` in every context). */
export const VERSION = "2.3.13"

/** -32602 with the param and the rule. */
export const invalid = (message: string): RpcFailure => new RpcFailure(-32602, `Invalid params: ${message}`)

/**
 * An entry's params from the wire, decoded by its Schema (unknown config fields are ignored, as
 * the RPC ignores them).
 */
export const paramsOf = <P, PI>(
  entry: Endpoint.Rpc<P, any, any, PI>,
  wire: unknown
): Effect.Effect<P, RpcFailure> => {
  const named = Endpoint.namedParams(entry, wire)
  if (Either.isLeft(named)) return Effect.fail(invalid(named.left))
  const decoded = Schema.decodeUnknownEither(entry.params, { errors: "first" })(named.right)
  if (Either.isRight(decoded)) return Effect.succeed(decoded.right)
  const issue = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)[0]
  const field = issue === undefined || issue.path.length === 0 ? "params" : fieldPath(issue.path)
  return Effect.fail(invalid(`${field}: ${issue?.message ?? "invalid"}`))
}

/** Depths of the commitments: the slot a read at each commitment sees (`Bundles.confirmationOf`'s rule). */
export const slotAt = (ctx: AreaContext, commitment: string | undefined): number => {
  const now = ctx.slot()
  return commitment === "processed"
    ? now
    : commitment === "confirmed"
    ? now - ctx.dataset.size("bundles.confirmDepth", 1)
    : now - ctx.dataset.size("bundles.finalizeDepth", 32)
}

/**
 * The slot of a read and its `context`: the commitment's slot, refused below `minContextSlot`
 * as a node behind it refuses (-32016).
 */
export const readAt = (
  ctx: AreaContext,
  config: { readonly commitment?: string | undefined; readonly minContextSlot?: number | undefined }
): Effect.Effect<
  { readonly slot: number; readonly context: { readonly apiVersion: string; readonly slot: number } },
  RpcFailure
> => {
  const slot = slotAt(ctx, config.commitment)
  if (config.minContextSlot !== undefined && config.minContextSlot > slot) {
    return Effect.fail(new RpcFailure(-32016, "Minimum context slot has not been reached", 200))
  }
  return Effect.succeed({ slot, context: { apiVersion: VERSION, slot } })
}

/** Data longer than this is refused in base58 (the RPC's `MAX_BASE58_BYTES`). */
const MAX_BASE58_BYTES = 128

/** Whether this Node has zstd (Node 22.15 and later): base64+zstd is served only then. */
const zstd = (Zlib as unknown as { zstdCompressSync?: (data: Uint8Array) => Buffer }).zstdCompressSync

/** Whether `base64+zstd` can be served here. */
export const hasZstd = zstd !== undefined

/** The encoding refused before any account is read: base64+zstd without zstd, a slice with jsonParsed is ignored. */
export const checkEncoding = (encoding: AccountInfo.Encoding | undefined): Effect.Effect<void, RpcFailure> =>
  encoding === "base64+zstd" && zstd === undefined
    ? Effect.fail(
      invalid(
        "encoding: base64+zstd is not available in this emulator (its Node has no zstd; Node 22.15+ has): use base64"
      )
    )
    : Effect.void

/** The RPC's decimal text of a raw amount: whole tokens, trailing zeros (and the point) dropped. */
export const uiAmountString = (amount: bigint, decimals: number): string => {
  if (decimals === 0) return amount.toString()
  const digits = amount.toString().padStart(decimals + 1, "0")
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "")
  return fraction === "" ? whole : `${whole}.${fraction}`
}

/** A token amount as the RPC writes it (`uiAmount` a double, computed as the RPC does: `amount as f64 / 10^decimals`). */
export const uiTokenAmount = (amount: bigint, decimals: number) => ({
  amount: amount.toString(),
  decimals,
  uiAmount: Number(amount) / 10 ** decimals,
  uiAmountString: uiAmountString(amount, decimals)
})

/** The decimals of a mint account, for a token account's amounts. */
export const decimalsOf = (accounts: Accounts, mint: string): number | undefined => {
  const account = accounts.get(mint)
  if (account === undefined || Layout.tokenProgramOf(account.owner) === undefined) return undefined
  return Layout.decodeMint(account.data, account.owner)?.decimals
}

const extensionsOf = (extensions: ReadonlyArray<Layout.Extension> | undefined) =>
  extensions === undefined || extensions.length === 0
    ? {}
    : {
      extensions: extensions.map((e) => ({
        extension: e.extension,
        ...(e.state === undefined ? {} : { state: e.state })
      }))
    }

/**
 * The jsonParsed data of an account the RPC parses (SPL Token and Token-2022 mints and token
 * accounts), or undefined: the RPC then sends it base64.
 */
const parsed = (accounts: Accounts, account: Account) => {
  const program = Layout.tokenProgramOf(account.owner)
  if (program === undefined) return undefined
  const space = account.data.length
  const mint = Layout.decodeMint(account.data, account.owner)
  if (mint !== undefined) {
    return {
      program,
      parsed: {
        type: "mint",
        info: {
          mintAuthority: mint.mintAuthority,
          supply: mint.supply.toString(),
          decimals: mint.decimals,
          isInitialized: mint.isInitialized,
          freezeAuthority: mint.freezeAuthority,
          ...extensionsOf(mint.extensions)
        }
      },
      space
    }
  }
  const token = Layout.decodeTokenAccount(account.data, account.owner)
  if (token === undefined) return undefined
  // The RPC reads the mint for the decimals; without it the account is sent base64.
  const decimals = decimalsOf(accounts, token.mint)
  if (decimals === undefined) return undefined
  return {
    program,
    parsed: {
      type: "account",
      info: {
        mint: token.mint,
        owner: token.owner,
        tokenAmount: uiTokenAmount(token.amount, decimals),
        ...(token.delegate === null ? {} : { delegate: token.delegate }),
        state: token.state,
        isNative: token.isNative !== null,
        ...(token.isNative === null ? {} : { rentExemptReserve: uiTokenAmount(token.isNative, decimals) }),
        ...(token.delegate === null ? {} : { delegatedAmount: uiTokenAmount(token.delegatedAmount, decimals) }),
        ...(token.closeAuthority === null ? {} : { closeAuthority: token.closeAuthority }),
        ...extensionsOf(token.extensions)
      }
    },
    space
  }
}

/**
 * An account as the RPC encodes it. No encoding is the legacy binary form (a bare base58
 * string), as the RPC's default; base58 and the binary form refuse data past 128 bytes (-32600).
 */
export const encodeAccount = (
  accounts: Accounts,
  account: Account,
  encoding: AccountInfo.Encoding | undefined,
  slice: { readonly offset: number; readonly length: number } | undefined
): Either.Either<unknown, RpcFailure> => {
  const json = encoding === "jsonParsed" ? parsed(accounts, account) : undefined
  const bytes = json !== undefined || slice === undefined
    ? account.data
    : account.data.subarray(Math.min(slice.offset, account.data.length), slice.offset + slice.length)
  let data: unknown = json
  if (data === undefined) {
    if (encoding === undefined || encoding === "base58") {
      if (bytes.length > MAX_BASE58_BYTES) {
        return Either.left(
          new RpcFailure(
            -32600,
            `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`
          )
        )
      }
      const text = Base58.encode(bytes)
      data = encoding === undefined ? text : [text, "base58"]
    } else if (encoding === "base64+zstd") {
      data = [Buffer.from(zstd!(bytes)).toString("base64"), "base64+zstd"]
    } else {
      data = [Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"), "base64"]
    }
  }
  return Either.right({
    lamports: account.lamports,
    owner: account.owner,
    data,
    executable: account.executable,
    rentEpoch: account.rentEpoch,
    space: account.data.length
  })
}

/** Encodes each account, or the first refusal. */
export const encodeAll = <K>(
  items: ReadonlyArray<readonly [K, Account | undefined]>,
  encode: (account: Account) => Either.Either<unknown, RpcFailure>
): Effect.Effect<ReadonlyArray<readonly [K, unknown]>, RpcFailure> => {
  const out: Array<readonly [K, unknown]> = []
  for (const [k, account] of items) {
    if (account === undefined) {
      out.push([k, null])
      continue
    }
    const e = encode(account)
    if (Either.isLeft(e)) return Effect.fail(e.left)
    out.push([k, e.right])
  }
  return Effect.succeed(out)
}
