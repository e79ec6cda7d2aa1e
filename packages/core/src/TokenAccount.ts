/**
 * Token accounts (getTokenAccounts): the request
 * params, one account, and the list wrapper. Amounts are exact `bigint`s.
 *
 * @example
 * const page = yield* das.getTokenAccounts({ owner, limit: 100 })
 * for (const account of page.token_accounts) console.log(account.mint, account.amount) // amount: bigint
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { listFields, onePagingStyle, pagingFields } from "./DasParams.js"
import type * as Endpoint from "./Endpoint.js"
import { withAliases } from "./internal/schema.js"
import { Address, U64 } from "./Primitives.js"

/**
 * The display options of getTokenAccounts.
 *
 * @since 0.1.0
 * @category params
 */
export const TokenAccountsOptions = Schema.Struct({
  /** Include accounts with a zero balance (default false). */
  showZeroBalance: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "TokenAccountsOptions" })

/**
 * The params of getTokenAccounts: `owner` and/or `mint`, pagination (page or
 * cursor/before/after, one style per query), `limit` ≤ 1000 and `options`. The
 * names Metaplex's client sends (`ownerAddress`, `mintAddress`, `displayOptions`)
 * are accepted too and decode to these.
 *
 * @example
 * Decode.validateInput(GetTokenAccountsParams)({ owner, page: 1, limit: 100 })
 * @since 0.1.0
 * @category params
 */
export const GetTokenAccountsParams = withAliases({
  /** The accounts' owner: a base58 address of 32 bytes. `owner` or `mint` is required. Alias: `ownerAddress`. */
  owner: Schema.optional(Address),
  /** The accounts' mint: a base58 address of 32 bytes. `owner` or `mint` is required. Alias: `mintAddress`. */
  mint: Schema.optional(Address),
  ...pagingFields,
  /** `{ showZeroBalance }`: include empty accounts (default false). Alias: `displayOptions`. */
  options: Schema.optional(TokenAccountsOptions)
}, { ownerAddress: "owner", mintAddress: "mint", displayOptions: "options" }).pipe(
  Schema.filter((p) =>
    p.owner === undefined && p.mint === undefined
      ? { path: ["owner"], message: "owner or mint is required" }
      : onePagingStyle(p)
  ),
  Schema.annotations({ identifier: "GetTokenAccountsParams" })
)
/** A decoded `GetTokenAccountsParams`: the type of the schema of the same name. @since 0.1.0 @category params */
export type GetTokenAccountsParams = typeof GetTokenAccountsParams.Type
/** The input of the call, as callers write it: the encoded side of `GetTokenAccountsParams`. @since 0.1.0 @category params */
export type GetTokenAccountsInput = Endpoint.InputOf<typeof GetTokenAccountsParams>

/**
 * A token account. `delegate`, `close_authority` and `extensions` come from the
 * reference implementation; `burnt` and `token_extensions` from the Helius SDK types.
 *
 * @since 0.1.0
 * @category models
 */
export const TokenAccount = Schema.Struct({
  address: Address,
  mint: Address,
  owner: Address,
  amount: U64,
  delegated_amount: Schema.optionalWith(U64, { default: () => 0n }),
  frozen: Schema.Boolean,
  burnt: Schema.optional(Schema.Boolean),
  delegate: Schema.optional(Schema.NullOr(Address)),
  close_authority: Schema.optional(Schema.NullOr(Address)),
  extensions: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown }))),
  token_extensions: Schema.optional(Schema.Unknown)
}).annotations({ identifier: "TokenAccount" })
/** A decoded `TokenAccount`: the type of the schema of the same name. @since 0.1.0 @category models */
export type TokenAccount = typeof TokenAccount.Type

/**
 * The result of getTokenAccounts.
 *
 * @since 0.1.0
 * @category models
 */
export const TokenAccountList = Schema.Struct({
  ...listFields,
  token_accounts: Schema.Array(TokenAccount)
}).annotations({ identifier: "TokenAccountList" })
/** A decoded `TokenAccountList`: the type of the schema of the same name. @since 0.1.0 @category models */
export type TokenAccountList = typeof TokenAccountList.Type
