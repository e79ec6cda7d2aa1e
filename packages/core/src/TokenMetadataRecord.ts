/**
 * The schemas of one token-metadata record, of the deprecated `POST /v0/token-metadata`
 * (as the service documents); the service that calls it is `@solfx/rpc/TokenMetadata`.
 * Each record has three parts that resolve independently; a part that could not
 * be resolved carries a non-empty `error` string. `TokenMetadata` turns each part
 * into `Either<Part, MetadataPartError>`, so one bad part is a value, never a failure.
 *
 * @example
 * const [record] = yield* tokenMetadata.getTokenMetadata({ mintAccounts: [mint] })
 * Either.match(record.onChainMetadata, {
 *   onLeft: (error) => `unresolved: ${error.message}`,
 *   onRight: (part) => part.metadata.data.name
 * })
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Address, U64 } from "./Primitives.js"

/**
 * The most mints one token-metadata request may carry (as the service documents).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_MINTS = 100

/**
 * The body of one token-metadata request: 1 to 100 mint accounts.
 *
 * @since 0.1.0
 * @category params
 */
export const TokenMetadataParams = Schema.Struct({
  /** The mints, base58 addresses of 32 bytes: 1 to 100 a request. */
  mintAccounts: Schema.Array(Address).pipe(
    Schema.minItems(1, { message: () => "at least one mint account" }),
    Schema.maxItems(MAX_MINTS, { message: () => `at most ${MAX_MINTS} mint accounts per request` })
  ),
  /** Also fetch each mint's off-chain (URI) metadata (default false). */
  includeOffChain: Schema.optional(Schema.Boolean),
  /** Ask the service to read fresh data, not its cache (default false). */
  disableCache: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "TokenMetadataParams" })
/** A decoded `TokenMetadataParams`: the type of the schema of the same name. @since 0.1.0 @category params */
export type TokenMetadataParams = typeof TokenMetadataParams.Type

const NumberLike = Schema.Union(Schema.Number, Schema.NumberFromString)

/**
 * An authority that may be absent. The service fills absent values with zero values: a
 * mint with no freeze authority comes as `freezeAuthority: ""` (or `null`, or not at all).
 * Each is `Option.none()`, so the rest of the part (supply, decimals) still reads.
 *
 * @since 0.1.0
 * @category models
 */
export const OptionalAuthority = Schema.optionalWith(
  Schema.transform(
    Schema.Union(Schema.Literal(""), Schema.Null, Address),
    Schema.OptionFromSelf(Schema.typeSchema(Address)),
    {
      strict: true,
      decode: (a) => a === "" || a === null ? Option.none() : Option.some(a),
      encode: Option.getOrNull
    }
  ),
  { default: () => Option.none() }
)

/**
 * Parsed mint info inside `onChainAccountInfo.accountInfo.data`.
 *
 * @since 0.1.0
 * @category models
 */
export const MintInfo = Schema.Struct({
  decimals: Schema.optional(Schema.Number),
  freezeAuthority: OptionalAuthority,
  isInitialized: Schema.optional(Schema.Boolean),
  mintAuthority: OptionalAuthority,
  supply: Schema.optional(U64)
})

/**
 * The mint account as the node returns it (jsonParsed).
 *
 * @since 0.1.0
 * @category models
 */
export const AccountInfo = Schema.Struct({
  key: Address,
  isSigner: Schema.optional(Schema.Boolean),
  isWritable: Schema.optional(Schema.Boolean),
  lamports: U64,
  data: Schema.optional(Schema.Struct({
    parsed: Schema.optional(Schema.Struct({
      info: Schema.optional(MintInfo),
      type: Schema.optional(Schema.String)
    })),
    program: Schema.optional(Schema.String),
    space: Schema.optional(Schema.Number)
  })),
  owner: Address,
  executable: Schema.Boolean,
  /** u64: rent-exempt accounts report 18446744073709551615. */
  rentEpoch: U64
}).annotations({ identifier: "AccountInfo" })
/** A decoded `AccountInfo`: the type of the schema of the same name. @since 0.1.0 @category models */
export type AccountInfo = typeof AccountInfo.Type

/**
 * The Metaplex metadata account.
 *
 * @since 0.1.0
 * @category models
 */
export const OnChainMetadata = Schema.Struct({
  key: Schema.String,
  mint: Address,
  updateAuthority: Address,
  data: Schema.Struct({
    name: Schema.String,
    symbol: Schema.String,
    uri: Schema.String,
    sellerFeeBasisPoints: Schema.Number,
    creators: Schema.optional(Schema.NullOr(Schema.Array(Schema.Struct({
      address: Address,
      /** A string in the service's documentation, a number in practice: decoded to a number either way. */
      share: NumberLike,
      verified: Schema.Boolean
    }))))
  }),
  tokenStandard: Schema.optional(Schema.NullOr(Schema.String)),
  primarySaleHappened: Schema.optional(Schema.Boolean),
  isMutable: Schema.optional(Schema.Boolean),
  editionNonce: Schema.optional(Schema.NullOr(Schema.Number)),
  collection: Schema.optional(Schema.NullOr(Schema.Struct({ key: Address, verified: Schema.Boolean }))),
  collectionDetails: Schema.optional(Schema.NullOr(Schema.Struct({ size: NumberLike }))),
  uses: Schema.optional(Schema.NullOr(Schema.Struct({
    useMethod: Schema.String,
    remaining: NumberLike,
    total: NumberLike
  })))
}).annotations({ identifier: "OnChainMetadata" })
/** A decoded `OnChainMetadata`: the type of the schema of the same name. @since 0.1.0 @category models */
export type OnChainMetadata = typeof OnChainMetadata.Type

/**
 * The JSON document the metadata `uri` points to. It is free-form, so every field is optional.
 *
 * @since 0.1.0
 * @category models
 */
export const OffChainMetadata = Schema.Struct({
  name: Schema.optional(Schema.String),
  symbol: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  attributes: Schema.optional(Schema.Array(Schema.Struct({
    traitType: Schema.optional(Schema.String),
    value: Schema.optional(Schema.Union(Schema.String, Schema.Number, Schema.Boolean, Schema.Null))
  }))),
  sellerFeeBasisPoints: Schema.optional(Schema.Number),
  image: Schema.optional(Schema.String),
  properties: Schema.optional(Schema.Struct({
    category: Schema.optional(Schema.String),
    files: Schema.optional(Schema.Array(Schema.Struct({
      uri: Schema.optional(Schema.String),
      type: Schema.optional(Schema.String)
    }))),
    creators: Schema.optional(Schema.Array(Schema.Struct({
      address: Schema.String,
      share: NumberLike
    })))
  }))
}).annotations({ identifier: "OffChainMetadata" })
/** A decoded `OffChainMetadata`: the type of the schema of the same name. @since 0.1.0 @category models */
export type OffChainMetadata = typeof OffChainMetadata.Type

/**
 * The entry of the old token list.
 *
 * @since 0.1.0
 * @category models
 */
export const LegacyMetadata = Schema.Struct({
  chainId: Schema.optional(Schema.Number),
  address: Schema.optional(Schema.String),
  symbol: Schema.optional(Schema.String),
  name: Schema.optional(Schema.String),
  decimals: Schema.optional(Schema.Number),
  logoURI: Schema.optional(Schema.String),
  tags: Schema.optional(Schema.Array(Schema.String)),
  extensions: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
}).annotations({ identifier: "LegacyMetadata" })
/** A decoded `LegacyMetadata`: the type of the schema of the same name. @since 0.1.0 @category models */
export type LegacyMetadata = typeof LegacyMetadata.Type

const errorField = Schema.optionalWith(Schema.String, { default: () => "" })

/**
 * A token-metadata record as it is on the wire (as the service documents).
 *
 * @since 0.1.0
 * @category wire
 */
export const TokenMetadataWire = Schema.Struct({
  account: Address,
  onChainAccountInfo: Schema.optional(Schema.NullOr(Schema.Struct({
    accountInfo: Schema.optional(Schema.NullOr(AccountInfo)),
    error: errorField
  }))),
  onChainMetadata: Schema.optional(Schema.NullOr(Schema.Struct({
    metadata: Schema.optional(Schema.NullOr(OnChainMetadata)),
    error: errorField
  }))),
  offChainMetadata: Schema.optional(Schema.NullOr(Schema.Struct({
    metadata: Schema.optional(Schema.NullOr(OffChainMetadata)),
    uri: Schema.optional(Schema.String),
    error: errorField
  }))),
  legacyMetadata: Schema.optional(Schema.NullOr(LegacyMetadata))
}).annotations({ identifier: "TokenMetadataWire" })
/** A decoded `TokenMetadataWire`: the type of the schema of the same name. @since 0.1.0 @category wire */
export type TokenMetadataWire = typeof TokenMetadataWire.Type

/**
 * The part names of a record.
 *
 * @since 0.1.0
 * @category models
 */
export const PartName = Schema.Literal("onChainAccountInfo", "onChainMetadata", "offChainMetadata")
/** A decoded `PartName`: the type of the schema of the same name. @since 0.1.0 @category models */
export type PartName = typeof PartName.Type

/**
 * A part the service could not resolve: its `error` string, with the mint and
 * the part name. A part with neither data nor an error is reported the same way.
 *
 * @since 0.1.0
 * @category models
 */
export class MetadataPartError extends Schema.TaggedClass<MetadataPartError>("@solfx/MetadataPartError")(
  "MetadataPartError",
  {
    mint: Schema.String,
    part: PartName,
    message: Schema.String,
    /** The off-chain uri, when the service named it. */
    uri: Schema.optional(Schema.String)
  }
) {}

/**
 * The readable value of a mint's `accountInfo` part.
 *
 * @since 0.1.0
 * @category models
 */
export interface AccountInfoPart {
  readonly accountInfo: AccountInfo
}

/**
 * The readable value of a mint's on-chain metadata part.
 *
 * @since 0.1.0
 * @category models
 */
export interface OnChainMetadataPart {
  readonly metadata: OnChainMetadata
}

/**
 * The readable value of a mint's off-chain metadata part, and the uri it came from.
 *
 * @since 0.1.0
 * @category models
 */
export interface OffChainMetadataPart {
  readonly metadata: OffChainMetadata
  readonly uri: string
}

/**
 * A decoded record. `offChainMetadata` is present only when it was requested
 * (`includeOffChain`) and sent.
 *
 * @since 0.1.0
 * @category models
 */
export interface TokenMetadata {
  readonly account: Address
  readonly onChainAccountInfo: Either.Either<AccountInfoPart, MetadataPartError>
  readonly onChainMetadata: Either.Either<OnChainMetadataPart, MetadataPartError>
  readonly offChainMetadata?: Either.Either<OffChainMetadataPart, MetadataPartError>
  readonly legacyMetadata: LegacyMetadata | null
}

const MISSING = "the service sent neither data nor an error for this part"

// Fields typed by construction are not validated again: Schema's class constructor rebuilds the type
// side of its schema on every call, which was most of a 100-mint call's CPU when parts were absent.
const typedFields = { disableValidation: true } as const

const part = <A, P>(
  mint: string,
  name: PartName,
  wire: { readonly error: string; readonly uri?: string | undefined } | null | undefined,
  payload: A | null | undefined,
  build: (a: A) => P
): Either.Either<P, MetadataPartError> => {
  const uri = wire?.uri === undefined || wire.uri === "" ? {} : { uri: wire.uri }
  if (wire !== null && wire !== undefined && wire.error !== "") {
    return Either.left(new MetadataPartError({ mint, part: name, message: wire.error, ...uri }, typedFields))
  }
  return payload === null || payload === undefined
    ? Either.left(new MetadataPartError({ mint, part: name, message: MISSING, ...uri }, typedFields))
    : Either.right(build(payload))
}

/**
 * Turns a wire record into a `TokenMetadata`: an empty `error` string with data is
 * a success; a non-empty one (or no data at all) is a `MetadataPartError`.
 * `includeOffChain: false` leaves `offChainMetadata` out.
 *
 * @example
 * const record = fromWire(wire, { includeOffChain: true })
 * Either.isLeft(record.onChainMetadata) // the metadata account could not be read
 * @since 0.1.0
 * @category constructors
 */
export const fromWire = (
  wire: TokenMetadataWire,
  options: { readonly includeOffChain: boolean }
): TokenMetadata => {
  const mint = wire.account
  const record: TokenMetadata = {
    account: wire.account,
    onChainAccountInfo: part(
      mint,
      "onChainAccountInfo",
      wire.onChainAccountInfo,
      wire.onChainAccountInfo?.accountInfo,
      (accountInfo) => ({ accountInfo })
    ),
    onChainMetadata: part(
      mint,
      "onChainMetadata",
      wire.onChainMetadata,
      wire.onChainMetadata?.metadata,
      (metadata) => ({ metadata })
    ),
    legacyMetadata: wire.legacyMetadata ?? null
  }
  if (!options.includeOffChain) return record
  const off = wire.offChainMetadata
  return {
    ...record,
    offChainMetadata: part(mint, "offChainMetadata", off, off?.metadata, (metadata) => ({
      metadata,
      uri: off?.uri ?? ""
    }))
  }
}

/**
 * The response of one token-metadata request: a JSON array of records.
 *
 * @since 0.1.0
 * @category wire
 */
export const TokenMetadataResponse = Schema.Array(TokenMetadataWire).annotations({
  identifier: "TokenMetadataResponse"
})
