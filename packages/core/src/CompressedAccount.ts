/**
 * Compressed accounts and compressed token data (as the service documents), with the shapes the
 * real indexer (Photon) sends: `address`, `data`, `seq`, `delegate` and `tlv` may be
 * `null`, and `state` is `initialized` or `frozen`. Amounts, balances, lamports and
 * discriminators are u64 on chain: they decode to exact `bigint`s (see `U64`).
 *
 * @example
 * const page = yield* compression.getCompressedTokenAccountsByOwner({ owner, limit: 100 })
 * for (const { account, tokenData } of page.value.items) console.log(account.hash, tokenData.amount) // bigint
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { Count, nullable } from "./internal/schema.js"
import { Address, Base64String, Hash32, U64 } from "./Primitives.js"
import { cursorPage, withContext } from "./SlotContext.js"

/**
 * The data of a compressed account. `discriminator` is the u64 that tells the account's type.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CompressedAccountData = Schema.Struct({
  discriminator: U64,
  data: Base64String,
  dataHash: Hash32
}).annotations({ identifier: "CompressedAccountData" })

/**
 * A decoded `CompressedAccountData`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type CompressedAccountData = typeof CompressedAccountData.Type

/**
 * A compressed account: a leaf of a state tree.
 *
 * - `address` is `null` for accounts without an address (every token account).
 * - `seq` is `null` for an account of a V2 tree still in the output queue.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CompressedAccount = Schema.Struct({
  hash: Hash32,
  address: nullable(Address),
  data: nullable(CompressedAccountData),
  owner: Address,
  lamports: U64,
  tree: Address,
  leafIndex: Count,
  seq: nullable(Count),
  slotCreated: Count
}).annotations({ identifier: "CompressedAccount" })

/**
 * A decoded `CompressedAccount`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type CompressedAccount = typeof CompressedAccount.Type

/**
 * The state of a token account.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenState = Schema.Literal("initialized", "frozen").annotations({ identifier: "TokenState" })

/**
 * A decoded `TokenState`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TokenState = typeof TokenState.Type

/**
 * The token data of a compressed token account (`tokenData`; `optionalTokenData` in
 * transaction compression info).
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenData = Schema.Struct({
  mint: Address,
  owner: Address,
  amount: U64,
  delegate: nullable(Address),
  state: TokenState,
  tlv: nullable(Base64String)
}).annotations({ identifier: "TokenData" })

/**
 * A decoded `TokenData`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TokenData = typeof TokenData.Type

/**
 * An item of getCompressedTokenAccountsByOwner.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CompressedTokenAccount = Schema.Struct({
  account: CompressedAccount,
  tokenData: TokenData
}).annotations({ identifier: "CompressedTokenAccount" })

/**
 * A decoded `CompressedTokenAccount`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type CompressedTokenAccount = typeof CompressedTokenAccount.Type

/**
 * An item of getCompressedMintTokenHolders: an owner and its balance of the mint.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenHolder = Schema.Struct({
  owner: Address,
  balance: U64
}).annotations({ identifier: "TokenHolder" })

/**
 * A decoded `TokenHolder`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TokenHolder = typeof TokenHolder.Type

/**
 * An item of getCompressedTokenBalancesByOwnerV2: a mint and the owner's balance of it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenBalance = Schema.Struct({
  mint: Address,
  balance: U64
}).annotations({ identifier: "TokenBalance" })

/**
 * A decoded `TokenBalance`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TokenBalance = typeof TokenBalance.Type

/**
 * The result of getCompressedTokenAccountsByOwner.
 *
 * @since 0.1.0
 * @category results
 */
export const TokenAccountsResult = withContext(cursorPage(CompressedTokenAccount)).annotations({
  identifier: "TokenAccountsResult"
})

/**
 * The result of getCompressedMintTokenHolders. Items come in descending balance order.
 *
 * @since 0.1.0
 * @category results
 */
export const TokenHoldersResult = withContext(cursorPage(TokenHolder)).annotations({
  identifier: "TokenHoldersResult"
})

/**
 * The result of getCompressedTokenBalancesByOwnerV2.
 *
 * @since 0.1.0
 * @category results
 */
export const TokenBalancesResult = withContext(cursorPage(TokenBalance)).annotations({
  identifier: "TokenBalancesResult"
})

/**
 * The result of getCompressedTokenBalancesByOwner, the V1 method stateless.js still
 * offers (deprecated there): the items are under snake_case `token_balances`.
 *
 * @since 0.1.0
 * @category results
 */
export const TokenBalancesV1Result = withContext(
  Schema.Struct({ token_balances: Schema.Array(TokenBalance), cursor: nullable(Schema.String) })
).annotations({ identifier: "TokenBalancesV1Result" })
