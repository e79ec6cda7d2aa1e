/**
 * The body of a webhook delivery (as the service documents): an HTTP POST whose
 * body is a JSON array of transactions, enhanced (parsed, human-oriented) or raw
 * (the RPC's confirmed-transaction shape), depending on the webhook's type.
 *
 * Each item decodes into a union discriminated by `kind` ("enhanced" | "raw"),
 * which the wire does not carry: an object with a `transaction` object member is
 * raw, anything else is read as enhanced. Deciding first keeps decode errors
 * precise (`$[0].meta.fee`, not a union of two reports). Lamport and raw token
 * amounts are exact `bigint`s (signed where balances can fall); UI token amounts
 * with decimals stay numbers. Unknown extra fields are tolerated.
 *
 * @example
 * const items = Either.getOrThrow(WebhookDelivery.decode(Json.parse(text)))
 * items.map((item) => WebhookDelivery.signatureOf(item)) // raw or enhanced alike
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { toDecodeError } from "./Decode.js"
import { DecodeError } from "./Errors.js"
import { Address, Signature, U64 } from "./Primitives.js"
import { TransactionType } from "./Webhook.js"

const I64_MIN = -(2n ** 63n)
const I64_MAX = 2n ** 63n - 1n
const inI64 = (n: bigint) => n >= I64_MIN && n <= I64_MAX

/**
 * A signed 64-bit amount (a balance change): a JSON number, or a decimal string
 * when the lossless parser kept digits a double would round. Decodes to `bigint`.
 *
 * @since 0.1.0
 * @category primitives
 */
export const SignedAmount = Schema.transformOrFail(
  Schema.Union(Schema.Number, Schema.String).annotations({ identifier: "SignedAmountWire" }),
  Schema.BigIntFromSelf,
  {
    strict: true,
    decode: (wire, _, ast) => {
      if (typeof wire === "number") {
        return Number.isSafeInteger(wire)
          ? ParseResult.succeed(BigInt(wire))
          : ParseResult.fail(new ParseResult.Type(ast, wire, "an integer within 2^53, or a decimal string"))
      }
      return /^-?(0|[1-9][0-9]{0,18})$/.test(wire) && inI64(BigInt(wire))
        ? ParseResult.succeed(BigInt(wire))
        : ParseResult.fail(new ParseResult.Type(ast, wire, "a signed 64-bit decimal integer"))
    },
    encode: (n) =>
      ParseResult.succeed(
        n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(n) : n.toString()
      )
  }
).annotations({ identifier: "SignedAmount" })

/**
 * A signed 64-bit integer written as a decimal string on the wire (raw token amounts, `"-1"`).
 *
 * @since 0.1.0
 * @category primitives
 */
export const SignedAmountString = Schema.transformOrFail(Schema.String, Schema.BigIntFromSelf, {
  strict: true,
  decode: (wire, _, ast) =>
    /^-?(0|[1-9][0-9]{0,18})$/.test(wire) && inI64(BigInt(wire))
      ? ParseResult.succeed(BigInt(wire))
      : ParseResult.fail(new ParseResult.Type(ast, wire, "a signed 64-bit integer as a decimal string")),
  encode: (n) => ParseResult.succeed(n.toString())
}).annotations({ identifier: "SignedAmountString" })

/**
 * An unsigned 64-bit integer written as a decimal string (`uiTokenAmount.amount`).
 *
 * @since 0.1.0
 * @category primitives
 */
export const U64String = Schema.transformOrFail(Schema.String, Schema.BigIntFromSelf, {
  strict: true,
  decode: (wire, _, ast) =>
    /^(0|[1-9][0-9]{0,19})$/.test(wire) && BigInt(wire) <= 0xffffffffffffffffn
      ? ParseResult.succeed(BigInt(wire))
      : ParseResult.fail(new ParseResult.Type(ast, wire, "an unsigned 64-bit integer as a decimal string")),
  encode: (n) => ParseResult.succeed(n.toString())
}).annotations({ identifier: "U64String" })

/**
 * A user or token account in a transfer: an address, or `""` where the service
 * has none (the "from" of a mint, the "to" of a burn).
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountOrEmpty = Schema.Union(Address, Schema.Literal("")).annotations({ identifier: "AccountOrEmpty" })

const Int = Schema.Number.pipe(Schema.int())
const NonNegativeInt = Int.pipe(Schema.nonNegative())

// -- enhanced --------------------------------------------------------------------

/**
 * A lamport movement the service read from the transaction.
 *
 * @since 0.1.0
 * @category schemas
 */
export const NativeTransfer = Schema.Struct({
  fromUserAccount: AccountOrEmpty,
  toUserAccount: AccountOrEmpty,
  /** Lamports. */
  amount: U64
}).annotations({ identifier: "NativeTransfer" })

/**
 * A decoded `NativeTransfer`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type NativeTransfer = typeof NativeTransfer.Type

/**
 * A token movement. `tokenAmount` is the UI amount (decimals applied), so a number.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenTransfer = Schema.Struct({
  fromUserAccount: AccountOrEmpty,
  toUserAccount: AccountOrEmpty,
  fromTokenAccount: AccountOrEmpty,
  toTokenAccount: AccountOrEmpty,
  mint: Address,
  tokenAmount: Schema.Number,
  tokenStandard: Schema.optional(Schema.String)
}).annotations({ identifier: "TokenTransfer" })

/**
 * A decoded `TokenTransfer`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TokenTransfer = typeof TokenTransfer.Type

/**
 * A raw token amount: the integer amount (signed: a change can be negative) and its decimals.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RawTokenAmount = Schema.Struct({
  tokenAmount: SignedAmountString,
  decimals: NonNegativeInt
}).annotations({ identifier: "RawTokenAmount" })

/**
 * How one token account's balance changed in the transaction.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenBalanceChange = Schema.Struct({
  userAccount: AccountOrEmpty,
  tokenAccount: AccountOrEmpty,
  mint: Address,
  rawTokenAmount: RawTokenAmount
}).annotations({ identifier: "TokenBalanceChange" })

/**
 * A decoded `TokenBalanceChange`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TokenBalanceChange = typeof TokenBalanceChange.Type

/**
 * How one account's balances changed in the transaction.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountData = Schema.Struct({
  account: Address,
  /** Lamports, signed. */
  nativeBalanceChange: SignedAmount,
  tokenBalanceChanges: Schema.optionalWith(Schema.Array(TokenBalanceChange), { default: () => [] })
}).annotations({ identifier: "AccountData" })

/**
 * A decoded `AccountData`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type AccountData = typeof AccountData.Type

/**
 * An enhanced transaction, as enhanced webhooks deliver it. `events` (nft, swap,
 * compressed…) varies by type and protocol, so it is kept as plain JSON.
 *
 * @since 0.1.0
 * @category schemas
 */
export const EnhancedTransaction = Schema.Struct({
  signature: Signature,
  slot: NonNegativeInt,
  /** Unix seconds. */
  timestamp: Int,
  type: TransactionType,
  source: Schema.optionalWith(Schema.String, { default: () => "UNKNOWN" }),
  description: Schema.optionalWith(Schema.String, { default: () => "" }),
  /** Lamports. */
  fee: U64,
  feePayer: Address,
  nativeTransfers: Schema.optionalWith(Schema.Array(NativeTransfer), { default: () => [], nullable: true }),
  tokenTransfers: Schema.optionalWith(Schema.Array(TokenTransfer), { default: () => [], nullable: true }),
  accountData: Schema.optionalWith(Schema.Array(AccountData), { default: () => [], nullable: true }),
  events: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), {
    default: () => ({}),
    nullable: true
  }),
  /** Null on success (enhanced webhooks omit failed transactions). */
  transactionError: Schema.optional(Schema.Unknown),
  instructions: Schema.optional(Schema.Array(Schema.Unknown))
}).pipe(Schema.attachPropertySignature("kind", "enhanced")).annotations({ identifier: "EnhancedTransaction" })

/**
 * A decoded `EnhancedTransaction`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type EnhancedTransaction = typeof EnhancedTransaction.Type

// -- raw -------------------------------------------------------------------------

/**
 * A compiled instruction: account indices into `accountKeys` and base58 data.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CompiledInstruction = Schema.Struct({
  programIdIndex: NonNegativeInt,
  accounts: Schema.Array(NonNegativeInt),
  data: Schema.String,
  stackHeight: Schema.optional(Schema.NullOr(Int))
}).annotations({ identifier: "CompiledInstruction" })

/**
 * A decoded `CompiledInstruction`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type CompiledInstruction = typeof CompiledInstruction.Type

/**
 * The instructions a top-level instruction invoked (CPIs), by its `index`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const InnerInstructions = Schema.Struct({
  index: NonNegativeInt,
  instructions: Schema.Array(CompiledInstruction)
}).annotations({ identifier: "InnerInstructions" })

/**
 * A token balance of `meta.preTokenBalances` / `postTokenBalances`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenBalance = Schema.Struct({
  accountIndex: NonNegativeInt,
  mint: Address,
  owner: Schema.optional(Address),
  programId: Schema.optional(Address),
  uiTokenAmount: Schema.Struct({
    amount: U64String,
    decimals: NonNegativeInt,
    uiAmount: Schema.NullOr(Schema.Number),
    uiAmountString: Schema.optional(Schema.String)
  })
}).annotations({ identifier: "TokenBalance" })

/**
 * A decoded `TokenBalance`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TokenBalance = typeof TokenBalance.Type

/**
 * The status metadata of a raw transaction. Balances are lamports, exact.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionMeta = Schema.Struct({
  /** Null on success; the runtime's error object otherwise (raw webhooks include failed transactions). */
  err: Schema.NullOr(Schema.Unknown),
  fee: U64,
  preBalances: Schema.Array(U64),
  postBalances: Schema.Array(U64),
  innerInstructions: Schema.optionalWith(Schema.Array(InnerInstructions), { default: () => [], nullable: true }),
  loadedAddresses: Schema.optionalWith(
    Schema.Struct({ writable: Schema.Array(Address), readonly: Schema.Array(Address) }),
    { default: () => ({ writable: [], readonly: [] }), nullable: true }
  ),
  logMessages: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [], nullable: true }),
  preTokenBalances: Schema.optionalWith(Schema.Array(TokenBalance), { default: () => [], nullable: true }),
  postTokenBalances: Schema.optionalWith(Schema.Array(TokenBalance), { default: () => [], nullable: true }),
  rewards: Schema.optionalWith(Schema.Array(Schema.Unknown), { default: () => [], nullable: true }),
  computeUnitsConsumed: Schema.optional(NonNegativeInt)
}).annotations({ identifier: "TransactionMeta" })

/**
 * A decoded `TransactionMeta`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TransactionMeta = typeof TransactionMeta.Type

/**
 * A v0 lookup as the RPC renders it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MessageAddressTableLookup = Schema.Struct({
  accountKey: Address,
  writableIndexes: Schema.Array(NonNegativeInt),
  readonlyIndexes: Schema.Array(NonNegativeInt)
}).annotations({ identifier: "MessageAddressTableLookup" })

/**
 * The signed transaction of a raw item: message and signatures.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RawTransactionBody = Schema.Struct({
  message: Schema.Struct({
    accountKeys: Schema.Array(Address),
    header: Schema.Struct({
      numRequiredSignatures: NonNegativeInt,
      numReadonlySignedAccounts: NonNegativeInt,
      numReadonlyUnsignedAccounts: NonNegativeInt
    }),
    instructions: Schema.Array(CompiledInstruction),
    recentBlockhash: Schema.String,
    /** Null or absent for legacy messages. */
    addressTableLookups: Schema.optionalWith(Schema.Array(MessageAddressTableLookup), { nullable: true })
  }),
  signatures: Schema.NonEmptyArray(Signature)
}).annotations({ identifier: "RawTransactionBody" })

/**
 * A raw transaction, as raw webhooks deliver it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RawTransaction = Schema.Struct({
  slot: NonNegativeInt,
  /** Unix seconds; null when the node did not record it. */
  blockTime: Schema.optionalWith(Int, { as: "Option", nullable: true }),
  indexWithinBlock: Schema.optional(NonNegativeInt),
  meta: TransactionMeta,
  transaction: RawTransactionBody,
  version: Schema.optional(Schema.Union(Schema.Literal("legacy"), NonNegativeInt))
}).pipe(Schema.attachPropertySignature("kind", "raw")).annotations({ identifier: "RawTransaction" })

/**
 * A decoded `RawTransaction`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type RawTransaction = typeof RawTransaction.Type

// -- delivery --------------------------------------------------------------------

const isRawShape = (u: unknown): boolean =>
  typeof u === "object" && u !== null && !Array.isArray(u) &&
  typeof (u as Record<string, unknown>)["transaction"] === "object" &&
  (u as Record<string, unknown>)["transaction"] !== null

const ItemType = Schema.Union(Schema.typeSchema(EnhancedTransaction), Schema.typeSchema(RawTransaction))

/**
 * One delivered transaction: `kind` tells enhanced from raw.
 *
 * @example
 * const sig = item.kind === "raw" ? item.transaction.signatures[0] : item.signature
 * @since 0.1.0
 * @category schemas
 */
export const DeliveryItem = Schema.transformOrFail(
  Schema.Unknown,
  ItemType,
  {
    strict: true,
    decode: (u, options, ast) =>
      typeof u !== "object" || u === null || Array.isArray(u)
        ? ParseResult.fail(new ParseResult.Type(ast, u, "an enhanced or raw transaction object"))
        : isRawShape(u)
        ? ParseResult.decodeUnknown(RawTransaction)(u, options)
        : ParseResult.decodeUnknown(EnhancedTransaction)(u, options),
    encode: (item, options) =>
      item.kind === "raw"
        ? ParseResult.encodeUnknown(RawTransaction)(item, options)
        : ParseResult.encodeUnknown(EnhancedTransaction)(item, options)
  }
).annotations({ identifier: "DeliveryItem" })

/**
 * A decoded `DeliveryItem`: enhanced or raw, told apart by `kind`.
 *
 * @since 0.1.0
 * @category models
 */
export type DeliveryItem = EnhancedTransaction | RawTransaction

/**
 * A delivery body: a JSON array of transactions.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Delivery = Schema.Array(DeliveryItem).annotations({ identifier: "WebhookDelivery" })

/**
 * A decoded `Delivery`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type Delivery = ReadonlyArray<DeliveryItem>

/**
 * The transaction id of an item: `signature`, or the first of the raw transaction's signatures.
 *
 * @since 0.1.0
 * @category getters
 */
export const signatureOf = (item: DeliveryItem): Signature =>
  item.kind === "raw" ? item.transaction.signatures[0] : item.signature

/**
 * The slot of an item.
 *
 * @since 0.1.0
 * @category getters
 */
export const slotOf = (item: DeliveryItem): number => item.slot

/**
 * Decodes a parsed JSON body (use `Json.parse` so large integers stay exact).
 * A failure names the first bad path, e.g. `$[0].meta.fee`.
 *
 * @example
 * decode(Json.parse(text)) // Either<Delivery, DecodeError>
 * @since 0.1.0
 * @category decoding
 */
export const decode = (input: unknown): Either.Either<Delivery, DecodeError> => {
  const result = Schema.decodeUnknownEither(Delivery, { onExcessProperty: "ignore", errors: "first" })(input)
  return Either.mapLeft(result, (e) => toDecodeError("webhook delivery", e))
}

/**
 * Encodes items to the wire shape (bigints stay bigints: write with `Json.stringify`).
 *
 * @since 0.1.0
 * @category encoding
 */
export const encode = (items: Delivery): ReadonlyArray<unknown> => Schema.encodeSync(Delivery)(items)
