/**
 * The deprecated token-metadata endpoint, `POST {v0_url}/v0/token-metadata`,
 * as the service documents it. It takes any number of mints, sends them in chunks of at most 100
 * and returns the records in input order. A part the service could not resolve
 * is a `MetadataPartError` value inside the record: one bad part never fails the batch.
 *
 * @deprecated The service replaces this endpoint with the digital-asset methods:
 * use `DigitalAssets` (e.g. `getAssetsByAuthority`) for new code.
 * @example
 * const records = yield* (yield* TokenMetadata.TokenMetadata).getTokenMetadata({ mintAccounts: mints })
 * records.map((r) => Either.isRight(r.onChainMetadata))
 * @since 0.1.0
 */

import * as Decode from "@solfx/core/Decode"
import * as Endpoints from "@solfx/core/Endpoints"
import { type ApiError, DecodeError, type InvalidRequest } from "@solfx/core/Errors"
import { Address } from "@solfx/core/Primitives"
import * as Core from "@solfx/core/TokenMetadataRecord"
import * as Derive from "@solfx/http/Derive"
import { HttpTransport } from "@solfx/http/HttpTransport"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"

/** The operation name in errors: the entry's. */
const OPERATION = Endpoints.tokenMetadata.name

/**
 * The request: any number of mint accounts.
 *
 * @since 0.1.0
 * @category models
 */
export interface Request {
  readonly mintAccounts: ReadonlyArray<string>
  /** Also fetch the JSON the metadata uri points to (default false). */
  readonly includeOffChain?: boolean | undefined
  /** Bypass the service's cache, e.g. to watch metadata change (default false). */
  readonly disableCache?: boolean | undefined
}

/**
 * How the mints are chunked: mints per request and requests in flight.
 *
 * @since 0.1.0
 * @category models
 */
export interface BatchOptions {
  /** Mints per request, 1 to 100 (default 100). */
  readonly batchSize?: number | undefined
  /** Requests in flight at once (default 4). */
  readonly concurrency?: number | undefined
}

/**
 * Options of the service: the credits of one request, for the `solfx.credits` estimate.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Credits per request for the `solfx.credits` estimate (area `api`). */
  readonly cost?: number | undefined
}

/**
 * The token-metadata method.
 *
 * @deprecated Use `DigitalAssets`.
 * @since 0.1.0
 * @category models
 */
export interface TokenMetadataShape {
  /**
   * Metadata of every mint, in input order (a repeated mint is fetched once and repeated).
   *
   * @deprecated Use `DigitalAssets` methods.
   */
  readonly getTokenMetadata: (
    request: Request,
    options?: BatchOptions
  ) => Effect.Effect<ReadonlyArray<Core.TokenMetadata>, ApiError | InvalidRequest>
}

/**
 * The token-metadata service.
 *
 * @deprecated The endpoint is deprecated in favour of the digital-asset methods: use `DigitalAssets`.
 * @example
 * const records = yield* (yield* TokenMetadata).getTokenMetadata({ mintAccounts: mints, includeOffChain: true })
 * for (const r of records) Either.match(r.onChainMetadata, { onLeft: (e) => e.message, onRight: (p) => p.metadata.data.name })
 * @since 0.1.0
 * @category tags
 */
export class TokenMetadata extends Context.Tag("@solfx/rpc/TokenMetadata")<TokenMetadata, TokenMetadataShape>() {}

const RequestSchema = Schema.Struct({
  mintAccounts: Schema.Array(Address),
  includeOffChain: Schema.optional(Schema.Boolean),
  disableCache: Schema.optional(Schema.Boolean)
})

const BatchOptionsSchema = Schema.Struct({
  batchSize: Schema.optional(Schema.Number.pipe(
    Schema.int({ message: () => `an integer from 1 to ${Core.MAX_MINTS}` }),
    Schema.between(1, Core.MAX_MINTS, { message: () => `an integer from 1 to ${Core.MAX_MINTS}` })
  )),
  concurrency: Schema.optional(Schema.Number.pipe(
    Schema.int({ message: () => "an integer from 1 to 64" }),
    Schema.between(1, 64, { message: () => "an integer from 1 to 64" })
  ))
})

/**
 * Each part of a record as a one-field struct of the strict wire schema, read on its own: by the
 * compiled decoder (`Decode.decodeFast`, the same value), and by Schema only for a part it
 * cannot prove valid, for the error (a 100-record answer was most of a batch request's CPU).
 */
const parts = (["onChainAccountInfo", "onChainMetadata", "offChainMetadata", "legacyMetadata"] as const).map((
  name
) => {
  const schema = Core.TokenMetadataWire.pick(name)
  const slow = Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore" })
  return {
    name,
    decode: (input: unknown) => {
      const fast = Decode.decodeFast(schema, input)
      return Option.isSome(fast) ? Either.right(fast.value) : slow(input)
    }
  }
})

/** The part's non-empty `error` string, if it has one. */
const serviceError = (wire: unknown): string | undefined => {
  const error = typeof wire === "object" && wire !== null ? (wire as { error?: unknown }).error : undefined
  return typeof error === "string" && error !== "" ? error : undefined
}

type Lenient = typeof Endpoints.TokenMetadataRecords.Type[number]

/**
 * Builds the service from the transport.
 *
 * @deprecated Use `DigitalAssets`.
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<TokenMetadataShape, never, HttpTransport> =>
  Effect.gen(function*() {
    const transport = yield* HttpTransport
    const redact = transport.redactor.redact
    const client = Derive.fromTransport(transport, Endpoints.tokenMetadata, {
      credits: options.cost,
      name: "getTokenMetadata"
    })
    const validateRequest = Decode.validateInput(RequestSchema, "", redact)
    const validateOptions = Decode.validateInput(BatchOptionsSchema, "options", redact)

    /**
     * One record: each part decoded alone. A part that does not decode, whatever the
     * field, is that part's `MetadataPartError` naming the path; the other parts and
     * records stay as they are. A legacy block that does not decode reads as null.
     */
    const record = (raw: Lenient, at: string, includeOffChain: boolean): Core.TokenMetadata => {
      const broken: Array<Core.MetadataPartError> = []
      const decoded: Record<string, unknown> = { account: raw.account }
      for (const { decode, name } of parts) {
        // Not asked for: neither its value nor its error is kept (see `fromWire` and below), so it is not read.
        if (name === "offChainMetadata" && !includeOffChain) continue
        const wire = (raw as Record<string, unknown>)[name]
        // A part with an error is that error, whatever zero values the service left beside it.
        const error = name === "legacyMetadata" ? undefined : serviceError(wire)
        if (error !== undefined && name !== "legacyMetadata") {
          const uri = (wire as { uri?: unknown }).uri
          broken.push(
            new Core.MetadataPartError({
              mint: raw.account,
              part: name,
              message: redact(error),
              ...(typeof uri === "string" && uri !== "" ? { uri: redact(uri) } : {})
            }, { disableValidation: true }) // typed fields: see TokenMetadataRecord's `part`
          )
          continue
        }
        const result = decode({ [name]: wire })
        if (Either.isRight(result)) {
          Object.assign(decoded, result.right)
        } else if (name !== "legacyMetadata") {
          const error = Decode.toDecodeError(OPERATION, result.left, at)
          broken.push(
            new Core.MetadataPartError({
              mint: raw.account,
              part: name,
              message: redact(`does not decode at ${error.path}: ${error.expected}`)
            }, { disableValidation: true }) // typed fields: see TokenMetadataRecord's `part`
          )
        }
      }
      const value = Core.fromWire(decoded as Core.TokenMetadataWire, { includeOffChain })
      return broken.reduce<Core.TokenMetadata>(
        (acc, e) => e.part === "offChainMetadata" && !includeOffChain ? acc : { ...acc, [e.part]: Either.left(e) },
        value
      )
    }

    const getTokenMetadata = (request: Request, batch?: BatchOptions) =>
      Effect.gen(function*() {
        const valid = yield* validateRequest(request)
        const opts = yield* validateOptions(batch ?? {})
        const includeOffChain = valid.includeOffChain ?? false
        const { mintAccounts: _, ...rest } = valid
        const responses = yield* client.batch([...new Set(valid.mintAccounts)], rest, {
          size: opts.batchSize,
          concurrency: opts.concurrency
        })
        const byMint = new Map<string, Core.TokenMetadata>()
        responses.forEach(({ result }, c) =>
          result.forEach((raw, i) => byMint.set(raw.account, record(raw, `$[chunk ${c}][${i}]`, includeOffChain)))
        )
        const out: Array<Core.TokenMetadata> = []
        for (const [i, mint] of valid.mintAccounts.entries()) {
          const found = byMint.get(mint)
          if (found === undefined) {
            return yield* new DecodeError({
              operation: OPERATION,
              path: "$",
              expected: `a record for mintAccounts[${i}] (${mint})`
            })
          }
          out.push(found)
        }
        return out as ReadonlyArray<Core.TokenMetadata>
      })

    return TokenMetadata.of({ getTokenMetadata })
  })

/**
 * The service with the default cost. Requires `HttpTransport`.
 *
 * @deprecated Use `DigitalAssets.layer`.
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<TokenMetadata, never, HttpTransport> = Layer.effect(TokenMetadata, make())

/**
 * The service with options. Requires `HttpTransport`.
 *
 * @deprecated Use `DigitalAssets.layerWith`.
 * @since 0.1.0
 * @category layers
 */
export const layerWith = (options: Options): Layer.Layer<TokenMetadata, never, HttpTransport> =>
  Layer.effect(TokenMetadata, make(options))
