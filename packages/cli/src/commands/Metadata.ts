/**
 * `solfx metadata <mint...> [--off-chain] [--no-cache]`: token metadata (the
 * deprecated endpoint), in requests of 100 mints. Without mints it reads them
 * from stdin (whitespace- or comma-separated). Per-part errors are shown, never fatal.
 *
 * @since 0.1.0
 */

import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import type { TokenMetadata as Record } from "@solfx/core/TokenMetadataRecord"
import { TokenMetadata } from "@solfx/rpc/TokenMetadata"
import * as Arr from "effect/Array"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { text } from "node:stream/consumers"
import { UsageError } from "../Failure.js"
import * as Format from "../Format.js"
import { values, withServices } from "../Handler.js"
import { Output } from "../Output.js"

/** Mints per request: the endpoint's maximum. */
const CHUNK = 100

/**
 * The supply of a record's mint, with its decimals, when the account info has it.
 *
 * @since 0.1.0
 * @category rendering
 */
export const supplyOf = (r: Record): string =>
  Either.match(r.onChainAccountInfo, {
    onLeft: () => "-",
    onRight: ({ accountInfo }) => {
      const info = accountInfo.data?.parsed?.info
      return info?.supply === undefined ? "-" : Format.amount(info.supply, info.decimals ?? 0)
    }
  })

/**
 * The parts of a record that failed, as `part: message`.
 *
 * @since 0.1.0
 * @category rendering
 */
export const partErrors = (r: Record): ReadonlyArray<string> =>
  [
    Either.getLeft(r.onChainAccountInfo),
    Either.getLeft(r.onChainMetadata),
    r.offChainMetadata === undefined ? Option.none() : Either.getLeft(r.offChainMetadata)
  ].flatMap((e) => Option.isSome(e) ? [`${e.value.part}: ${e.value.message}`] : [])

/**
 * The metadata table's columns.
 *
 * @since 0.1.0
 * @category columns
 */
export const metadataColumns: ReadonlyArray<Format.Column<Record>> = [
  { header: "mint", cell: (r) => r.account },
  {
    header: "name",
    cell: (r) => Either.match(r.onChainMetadata, { onLeft: () => "-", onRight: (m) => m.metadata.data.name })
  },
  {
    header: "symbol",
    cell: (r) => Either.match(r.onChainMetadata, { onLeft: () => "-", onRight: (m) => m.metadata.data.symbol })
  },
  { header: "supply", cell: supplyOf, align: "right" },
  { header: "errors", cell: (r) => partErrors(r).join("; ") || "-" }
]

const readStdin = Effect.gen(function*() {
  if (process.stdin.isTTY) {
    return yield* new UsageError({ message: "give mints as arguments, or pipe them on stdin" })
  }
  const input = yield* Effect.promise(() => text(process.stdin))
  return input.split(/[\s,]+/).filter((m) => m !== "")
})

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "metadata",
  {
    mints: values("mint", "Mint accounts (default: read from stdin)", 0),
    offChain: Options.boolean("off-chain").pipe(Options.withDescription("Also fetch the off-chain JSON (uri)")),
    noCache: Options.boolean("no-cache").pipe(Options.withDescription("Bypass the service's cache"))
  },
  (o) =>
    withServices(Effect.gen(function*() {
      const mints = o.mints.length > 0 ? o.mints : yield* readStdin
      if (mints.length === 0) return yield* new UsageError({ message: "no mints given (as arguments or on stdin)" })
      const service = yield* TokenMetadata
      const request = { includeOffChain: o.offChain || undefined, disableCache: o.noCache || undefined }
      // Chunks of 100 go out 4 at a time and come back in order: one request each, as the SDK would send.
      const records = Stream.fromIterable(Arr.chunksOf(mints, CHUNK)).pipe(
        Stream.mapEffect((chunk) => service.getTokenMetadata({ mintAccounts: chunk, ...request }), { concurrency: 4 }),
        Stream.flatMap(Stream.fromIterable)
      )
      let failed = 0
      yield* (yield* Output).rows(
        records.pipe(Stream.tap((r) => Effect.sync(() => void (failed += partErrors(r).length > 0 ? 1 : 0)))),
        {
          columns: metadataColumns,
          progress: mints.length > CHUNK ? "metadata" : undefined,
          total: mints.length,
          footer: (n) => `${n} mint(s), ${failed} with part errors`
        }
      )
    }))
).pipe(Command.withDescription("Token metadata of mints (deprecated endpoint; see das); reads stdin without mints"))
