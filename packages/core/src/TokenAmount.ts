/**
 * The standard Solana RPC's token reads: getTokenAccountBalance, getTokenSupply and
 * getTokenLargestAccounts, whose values are token amounts as the RPC writes them
 * (`UiTokenAmount`): the raw amount as a decimal string (exact), the mint's decimals, and the
 * amount in whole tokens as a number (`uiAmount`, written as an integer or a decimal) and as
 * text (`uiAmountString`, exact).
 *
 * @example
 * const supply = Schema.decodeUnknownSync(TokenAmount.TokenSupply)(result)
 * supply.value.amount // "1000" (raw units)
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { Count } from "./internal/schema.js"
import { Address } from "./Primitives.js"
import { Commitment } from "./SignatureStatus.js"
import { withContext } from "./SlotContext.js"

/**
 * The most accounts getTokenLargestAccounts lists.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_LARGEST_ACCOUNTS = 20

/**
 * A token amount as the RPC writes it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const UiTokenAmount = Schema.Struct({
  /** The raw amount (u64), as a decimal string. */
  amount: Schema.String.pipe(Schema.pattern(/^\d{1,20}$/, { message: () => "a decimal u64" })),
  /** The mint's decimals. */
  decimals: Count,
  /** The amount in whole tokens, as a double (may round); `null` from nodes that leave it out. */
  uiAmount: Schema.NullOr(Schema.Number),
  /** The amount in whole tokens, exact, as text without trailing zeros. */
  uiAmountString: Schema.String
}).annotations({ identifier: "UiTokenAmount" })

/**
 * A decoded `UiTokenAmount`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type UiTokenAmount = typeof UiTokenAmount.Type

const commitment = {
  /** The commitment of the bank read (default `finalized`). */
  commitment: Schema.optional(Commitment)
}

/**
 * Params of getTokenAccountBalance: `[account, { commitment }]`.
 *
 * @since 0.1.0
 * @category params
 */
export const GetTokenAccountBalanceParams = Schema.Struct({
  /** The token account. */
  account: Address,
  ...commitment
}).annotations({ identifier: "GetTokenAccountBalanceParams" })

/**
 * `GetTokenAccountBalanceParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type GetTokenAccountBalanceParams = typeof GetTokenAccountBalanceParams.Encoded

/**
 * Params of getTokenSupply and getTokenLargestAccounts: `[mint, { commitment }]`.
 *
 * @since 0.1.0
 * @category params
 */
export const MintParams = Schema.Struct({
  /** The mint. */
  mint: Address,
  ...commitment
}).annotations({ identifier: "TokenMintParams" })

/**
 * `MintParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type MintParams = typeof MintParams.Encoded

/**
 * getTokenAccountBalance's result: the account's amount.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenAccountBalance = withContext(UiTokenAmount).annotations({ identifier: "TokenAccountBalance" })

/**
 * A decoded `TokenAccountBalance`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TokenAccountBalance = typeof TokenAccountBalance.Type

/**
 * getTokenSupply's result: the mint's supply.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenSupply = withContext(UiTokenAmount).annotations({ identifier: "TokenSupply" })

/**
 * A decoded `TokenSupply`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TokenSupply = typeof TokenSupply.Type

/**
 * One of a mint's largest accounts: its address and amount.
 *
 * @since 0.1.0
 * @category schemas
 */
export const LargestAccount = Schema.Struct({
  /** The token account. */
  address: Address,
  ...UiTokenAmount.fields
}).annotations({ identifier: "TokenLargestAccount" })

/**
 * getTokenLargestAccounts' result: up to 20 accounts, largest first.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenLargestAccounts = withContext(Schema.Array(LargestAccount)).annotations({
  identifier: "TokenLargestAccounts"
})

/**
 * A decoded `TokenLargestAccounts`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TokenLargestAccounts = typeof TokenLargestAccounts.Type
