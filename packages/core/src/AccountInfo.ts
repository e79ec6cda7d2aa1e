/**
 * The standard Solana RPC's account reads: getAccountInfo, getMultipleAccounts, getBalance,
 * getProgramAccounts, getTokenAccountsByOwner and getTokenAccountsByDelegate. Their params (the
 * SDK takes named fields; on the wire the first ones are positional, `Endpoint.wireParams`) and
 * the account as the RPC encodes it (`Account`): lamports and rent epoch as exact u64 (the rent
 * epoch of a rent-exempt account is `2^64 - 1`), data as `[text, encoding]`, or as the program's
 * parsed JSON (`jsonParsed`), or, from getProgramAccounts without an encoding, a bare base58 string.
 *
 * @example
 * const info = Schema.decodeUnknownSync(AccountInfo.AccountInfo)(result)
 * info.value?.lamports // bigint
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { Count } from "./internal/schema.js"
import { Address, U64 } from "./Primitives.js"
import { Commitment } from "./SignatureStatus.js"
import { withContext } from "./SlotContext.js"

/**
 * The most addresses getMultipleAccounts takes in one request.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_MULTIPLE_ACCOUNTS = 100

/**
 * How an account's data is sent: `base58` (slow; data up to 128 bytes), `base64`, `base64+zstd`
 * (compressed), or `jsonParsed` (the program's parsed state where the RPC knows the program, else base64).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Encoding = Schema.Literal("base58", "base64", "base64+zstd", "jsonParsed").annotations({
  identifier: "AccountEncoding",
  message: () => "base58, base64, base64+zstd or jsonParsed"
})

/**
 * A decoded `Encoding`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type Encoding = typeof Encoding.Type

/**
 * A window of the data to return: `length` bytes from `offset` (not for `jsonParsed`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const DataSlice = Schema.Struct({
  /** First byte of the window. */
  offset: Count,
  /** Bytes in the window (fewer when the data ends first). */
  length: Count
}).annotations({ identifier: "DataSlice" })

/**
 * A getProgramAccounts filter: the data's size, or bytes the data holds at an offset
 * (`bytes` in base58 unless `encoding` says base64; at most 128 bytes decoded).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Filter = Schema.Union(
  Schema.Struct({
    /** The data's length in bytes. */
    dataSize: Count
  }),
  Schema.Struct({
    memcmp: Schema.Struct({
      /** Where the bytes sit in the data. */
      offset: Count,
      /** The bytes, base58 (or base64 with `encoding`). */
      bytes: Schema.String,
      /** How `bytes` is written (default base58). */
      encoding: Schema.optional(Schema.Literal("base58", "base64"))
    })
  })
).annotations({ identifier: "AccountFilter", message: () => "{ dataSize } or { memcmp: { offset, bytes } }" })

/**
 * A decoded `Filter`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type Filter = typeof Filter.Type

const slotFloor = Schema.Number.pipe(
  Schema.int(),
  Schema.nonNegative({ message: () => "a slot (a non-negative integer)" })
)

/** The config every read takes: the bank's commitment and the lowest slot it may be read at. */
const readConfig = {
  /** The commitment of the bank read (default `finalized`). */
  commitment: Schema.optional(Commitment),
  /** The lowest slot the read may be answered at; a node behind it answers -32016. */
  minContextSlot: Schema.optional(slotFloor)
}

/** The config of a read that returns accounts. */
const accountConfig = {
  ...readConfig,
  /** How data is sent (default `base64`; getProgramAccounts without one sends bare base58). */
  encoding: Schema.optional(Encoding),
  /** A window of the data (not with `jsonParsed`). */
  dataSlice: Schema.optional(DataSlice)
}

/**
 * Params of getAccountInfo: `[address, { commitment, encoding, dataSlice, minContextSlot }]`.
 *
 * @since 0.1.0
 * @category params
 */
export const GetAccountInfoParams = Schema.Struct({
  /** The account's address. */
  address: Address,
  ...accountConfig
}).annotations({ identifier: "GetAccountInfoParams" })

/**
 * `GetAccountInfoParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type GetAccountInfoParams = typeof GetAccountInfoParams.Encoded

/**
 * Params of getMultipleAccounts: `[addresses, config]`, 1 to 100 addresses.
 *
 * @since 0.1.0
 * @category params
 */
export const GetMultipleAccountsParams = Schema.Struct({
  /** The accounts' addresses, answered in this order. */
  addresses: Schema.Array(Address).pipe(
    Schema.maxItems(MAX_MULTIPLE_ACCOUNTS, { message: () => `at most ${MAX_MULTIPLE_ACCOUNTS} addresses` })
  ),
  ...accountConfig
}).annotations({ identifier: "GetMultipleAccountsParams" })

/**
 * `GetMultipleAccountsParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type GetMultipleAccountsParams = typeof GetMultipleAccountsParams.Encoded

/**
 * Params of getBalance: `[address, { commitment, minContextSlot }]`.
 *
 * @since 0.1.0
 * @category params
 */
export const GetBalanceParams = Schema.Struct({
  /** The account's address. */
  address: Address,
  ...readConfig
}).annotations({ identifier: "GetBalanceParams" })

/**
 * `GetBalanceParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type GetBalanceParams = typeof GetBalanceParams.Encoded

/**
 * Params of getProgramAccounts: `[program, { filters, withContext, encoding, dataSlice, … }]`.
 *
 * @since 0.1.0
 * @category params
 */
export const GetProgramAccountsParams = Schema.Struct({
  /** The owner program. */
  program: Address,
  ...accountConfig,
  /** Every filter must hold (up to 4). */
  filters: Schema.optional(
    Schema.Array(Filter).pipe(Schema.maxItems(4, { message: () => "at most 4 filters" }))
  ),
  /** Answer `{ context, value }` instead of the bare list. */
  withContext: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "GetProgramAccountsParams" })

/**
 * `GetProgramAccountsParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type GetProgramAccountsParams = typeof GetProgramAccountsParams.Encoded

/**
 * Which token accounts: those of one mint, or every one of a token program.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenAccountsFilter = Schema.Union(
  Schema.Struct({
    /** Token accounts of this mint. */
    mint: Address
  }),
  Schema.Struct({
    /** Token accounts of this token program (SPL Token or Token-2022). */
    programId: Address
  })
).annotations({ identifier: "TokenAccountsFilter", message: () => "{ mint } or { programId }" })

/**
 * Params of getTokenAccountsByOwner: `[owner, { mint } | { programId }, config]`.
 *
 * @since 0.1.0
 * @category params
 */
export const GetTokenAccountsByOwnerParams = Schema.Struct({
  /** The wallet owning the token accounts. */
  owner: Address,
  /** Which token accounts. */
  filter: TokenAccountsFilter,
  ...accountConfig
}).annotations({ identifier: "GetTokenAccountsByOwnerParams" })

/**
 * `GetTokenAccountsByOwnerParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type GetTokenAccountsByOwnerParams = typeof GetTokenAccountsByOwnerParams.Encoded

/**
 * Params of getTokenAccountsByDelegate: `[delegate, { mint } | { programId }, config]`.
 *
 * @since 0.1.0
 * @category params
 */
export const GetTokenAccountsByDelegateParams = Schema.Struct({
  /** The delegate of the token accounts. */
  delegate: Address,
  /** Which token accounts. */
  filter: TokenAccountsFilter,
  ...accountConfig
}).annotations({ identifier: "GetTokenAccountsByDelegateParams" })

/**
 * `GetTokenAccountsByDelegateParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type GetTokenAccountsByDelegateParams = typeof GetTokenAccountsByDelegateParams.Encoded

/**
 * An account's data as parsed by the RPC for a program it knows (`jsonParsed`): the program's
 * name (`spl-token`, `spl-token-2022`, `nonce`, …), its parsed state (`{ type, info }`) and the
 * data's size in bytes.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ParsedData = Schema.Struct({
  /** The parsing program's name. */
  program: Schema.String,
  /** The parsed state: `{ type: "account" | "mint" | …, info: { … } }`. */
  parsed: Schema.Unknown,
  /** The data's length in bytes. Older nodes leave it out. */
  space: Schema.optional(Count)
}).annotations({ identifier: "ParsedAccountData" })

/**
 * An account's data on the wire: `[text, encoding]`, the parsed JSON, or (getProgramAccounts
 * without an encoding, the legacy binary form) a bare base58 string.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountData = Schema.Union(
  Schema.Tuple(Schema.String, Schema.Literal("base58", "base64", "base64+zstd")),
  ParsedData,
  Schema.String
).annotations({ identifier: "AccountData" })

/**
 * An account as the RPC encodes it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Account = Schema.Struct({
  /** Lamports held (u64, exact). */
  lamports: U64,
  /** The owner program. */
  owner: Address,
  /** The data, encoded as asked. */
  data: AccountData,
  /** Whether the account is a loaded program. */
  executable: Schema.Boolean,
  /** The epoch its rent is next due (u64, exact): `2^64 - 1` for a rent-exempt account. */
  rentEpoch: U64,
  /** The data's length in bytes (before any `dataSlice`). Older nodes leave it out. */
  space: Schema.optional(Count)
}).annotations({ identifier: "Account" })

/**
 * A decoded `Account`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type Account = typeof Account.Type

/**
 * An account with its address, as the list reads answer it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const KeyedAccount = Schema.Struct({
  /** The account's address. */
  pubkey: Address,
  /** The account. */
  account: Account
}).annotations({ identifier: "KeyedAccount" })

/**
 * A decoded `KeyedAccount`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type KeyedAccount = typeof KeyedAccount.Type

/**
 * getAccountInfo's result: the account, or `null` when there is none.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountInfo = withContext(Schema.NullOr(Account)).annotations({ identifier: "AccountInfo" })

/**
 * A decoded `AccountInfo`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type AccountInfo = typeof AccountInfo.Type

/**
 * getMultipleAccounts' result: one entry per address asked, in order, `null` where there is none.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MultipleAccounts = withContext(Schema.Array(Schema.NullOr(Account))).annotations({
  identifier: "MultipleAccounts"
})

/**
 * A decoded `MultipleAccounts`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type MultipleAccounts = typeof MultipleAccounts.Type

/**
 * getBalance's result: lamports (u64, exact).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Balance = withContext(U64).annotations({ identifier: "Balance" })

/**
 * A decoded `Balance`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type Balance = typeof Balance.Type

/**
 * getProgramAccounts' result: the bare list, or `{ context, value }` with `withContext`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ProgramAccounts = Schema.Union(
  Schema.Array(KeyedAccount),
  withContext(Schema.Array(KeyedAccount))
).annotations({ identifier: "ProgramAccounts" })

/**
 * A decoded `ProgramAccounts`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type ProgramAccounts = typeof ProgramAccounts.Type

/**
 * getTokenAccountsByOwner's and getTokenAccountsByDelegate's result.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenAccounts = withContext(Schema.Array(KeyedAccount)).annotations({ identifier: "TokenAccounts" })

/**
 * A decoded `TokenAccounts`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TokenAccounts = typeof TokenAccounts.Type
