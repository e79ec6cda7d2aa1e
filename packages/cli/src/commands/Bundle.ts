/**
 * `solfx bundle inspect|send|status`.
 *
 * `inspect` is offline (no config, no request): the bundle id, and per transaction
 * its signatures, whether it is signed (every required signature present and
 * valid), its top-level System transfers and its tips, or the typed error that
 * says why it cannot be read.
 *
 * @since 0.1.0
 */

import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Bundle from "@solfx/core/Bundle"
import type { MalformedTransaction } from "@solfx/core/Errors"
import * as Transaction from "@solfx/core/Transaction"
import { Bundles, Region } from "@solfx/rpc/Bundles"
import type { BundleOutcome } from "@solfx/rpc/Bundles"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Format from "../Format.js"
import { opt, values, withOutput, withServices } from "../Handler.js"
import { Output } from "../Output.js"

/**
 * `bundle send --wait` saw the bundle fail or time out. Exit code 1.
 *
 * @since 0.1.0
 * @category errors
 */
export class BundleNotLanded extends Data.TaggedError("BundleNotLanded")<{ readonly message: string }> {}

const encoding = Options.choice("encoding", ["base64", "base58"]).pipe(
  Options.withDescription("How the transactions are written"),
  Options.withDefault("base64" as const)
)

const transactions = values("tx", "Signed wire transactions", 1)

/**
 * What `bundle inspect` reports about one transaction.
 *
 * @since 0.1.0
 * @category models
 */
export type InspectedTransaction =
  | {
    readonly signatures: ReadonlyArray<string>
    readonly signed: boolean
    readonly version: "legacy" | 0
    readonly transfers: ReadonlyArray<{ readonly from: string; readonly to: string; readonly lamports: bigint }>
    readonly tips: ReadonlyArray<{ readonly to: string; readonly lamports: bigint }>
    readonly unresolvedAccounts: number
  }
  | { readonly error: MalformedTransaction }

/**
 * What `bundle inspect` reports.
 *
 * @since 0.1.0
 * @category models
 */
export interface Inspection {
  /** Null when a transaction cannot be read (its first signature is unknown). */
  readonly bundleId: string | null
  /** `"ok"`, or the rule the bundle breaks (the SDK's pre-flight check). */
  readonly preflight: string
  readonly transactions: ReadonlyArray<InspectedTransaction>
}

const accountName = (ref: Transaction.AccountRef): string =>
  Transaction.addressOf(ref) ?? `lookup#${ref._tag === "Lookup" ? ref.index : "?"}`

/**
 * Inspects a bundle without any request.
 *
 * @example
 * inspect([wire], "base64").bundleId // the id sendBundle will return
 * @since 0.1.0
 * @category inspection
 */
export const inspect = (wires: ReadonlyArray<string>, enc: Transaction.Encoding): Inspection => {
  const parsed = wires.map((w) => Transaction.parseEither(w, enc))
  const txs: Array<InspectedTransaction> = parsed.map((p, i) =>
    Either.match(p, {
      onLeft: (error) => ({ error }),
      onRight: (tx) => ({
        signatures: tx.signatures,
        signed: Transaction.isFullySigned(tx, { verify: true }),
        version: tx.version,
        transfers: tx.transfers.map((t) => ({
          from: accountName(t.from),
          to: accountName(t.to),
          lamports: t.lamports
        })),
        tips: Bundle.tipsOf(tx, undefined, i).map((t) => ({ to: t.account, lamports: t.lamports })),
        unresolvedAccounts: tx.unresolved.length
      })
    })
  )
  const all = parsed.flatMap((p) => Either.isRight(p) ? [p.right] : [])
  const check = Bundle.check(wires, enc)
  return {
    bundleId: all.length === parsed.length ? Bundle.bundleIdOf(all) : null,
    preflight: Either.match(check, {
      onLeft: (v) => `${Bundle.describe(v).field}: ${Bundle.describe(v).rule}`,
      onRight: () => "ok"
    }),
    transactions: txs
  }
}

const inspectionLines = (r: Inspection): ReadonlyArray<string> => [
  `bundleId:  ${r.bundleId ?? "(unknown: a transaction cannot be read)"}`,
  `preflight: ${r.preflight}`,
  ...r.transactions.flatMap((t, i) =>
    "error" in t
      ? [`transaction ${i}: ${t.error._tag}: ${t.error.message}`]
      : [
        `transaction ${i} (${t.version === "legacy" ? "legacy" : "v0"}):`,
        ...Format.fields([
          ["signatures", t.signatures.join(", ") || "(none)"],
          ["signed", t.signed ? "yes" : "no"],
          [
            "transfers",
            t.transfers.map((x) => `${Format.sol(x.lamports)} ${x.from} -> ${x.to}`).join("; ") || "(none)"
          ],
          ["tips", t.tips.map((x) => `${Format.integer(x.lamports)} lamports -> ${x.to}`).join("; ") || "(none)"]
        ], "  ")
      ]
  )
]

const inspectCommand = Command.make("inspect", { transactions, encoding }, (o) =>
  withOutput(Effect.gen(function*() {
    const report = inspect(o.transactions, o.encoding)
    yield* (yield* Output).value(report, inspectionLines)
    const failed = report.transactions.find((t): t is { readonly error: MalformedTransaction } => "error" in t)
    if (failed !== undefined) return yield* failed.error
  }))).pipe(Command.withDescription("Read a bundle offline: id, signatures, signed, transfers, tips (no request)"))

/**
 * An outcome of `awaitBundle` as lines.
 *
 * @since 0.1.0
 * @category rendering
 */
export const outcomeLine = (o: BundleOutcome): string => {
  switch (o._tag) {
    case "Landed":
      return `landed: ${o.status} at slot ${o.slot}`
    case "Failed":
      return `failed at slot ${o.slot}: ${JSON.stringify(o.err)}`
    case "TimedOut":
      return `timed out after ${Duration.format(o.after)}` +
        Option.match(o.last, { onNone: () => " (never seen)", onSome: (s) => ` (last seen ${s.confirmation_status})` })
  }
}

const sendCommand = Command.make(
  "send",
  {
    transactions,
    encoding,
    region: Options.choice("region", Region.literals).pipe(
      Options.withDescription("Block-engine region"),
      Options.optional
    ),
    wait: Options.boolean("wait").pipe(Options.withDescription("Wait until the bundle lands (or fails, or 60 s pass)"))
  },
  (o) =>
    withServices(Effect.gen(function*() {
      const bundles = yield* Bundles
      const out = yield* Output
      const region = opt(o.region)
      const id = yield* bundles.sendBundle(o.transactions, {
        encoding: o.encoding,
        ...(region === undefined ? {} : { region })
      })
      if (!o.wait) return yield* out.value({ bundleId: id }, () => `bundleId: ${id}`)
      const outcome = yield* bundles.awaitBundle(id, { commitment: "finalized" })
      yield* out.value({ bundleId: id, outcome }, () => [`bundleId: ${id}`, outcomeLine(outcome)])
      if (outcome._tag !== "Landed") {
        return yield* new BundleNotLanded({ message: `bundle ${id} ${outcomeLine(outcome)}` })
      }
    }))
).pipe(Command.withDescription("Send 1 to 5 signed transactions as an atomic bundle (checked before sending)"))

const statusCommand = Command.make(
  "status",
  { ids: values("id", "Bundle ids", 1) },
  (o) =>
    withServices(Effect.gen(function*() {
      const statuses = yield* (yield* Bundles).getBundleStatuses(o.ids)
      const rows = o.ids.map((id, i) => ({ id, status: statuses[i] ?? Option.none() }))
      yield* (yield* Output).rows(Stream.fromIterable(rows), {
        json: (r) => ({ bundleId: r.id, status: r.status }),
        columns: [
          { header: "bundle", cell: (r) => r.id },
          {
            header: "status",
            cell: (r) =>
              Option.match(r.status, { onNone: () => "unknown / not landed", onSome: (s) => s.confirmation_status })
          },
          {
            header: "slot",
            cell: (r) => Option.match(r.status, { onNone: () => "-", onSome: (s) => String(s.slot) }),
            align: "right"
          },
          {
            header: "result",
            cell: (r) =>
              Option.match(r.status, {
                onNone: () => "-",
                onSome: (s) => Bundle.succeeded(s) ? "ok" : JSON.stringify(s.err)
              })
          }
        ]
      })
    }))
).pipe(Command.withDescription("Statuses of bundles (5 ids per request)"))

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("bundle").pipe(
  Command.withDescription("Bundles: inspect offline, send, status"),
  Command.withSubcommands([inspectCommand, sendCommand, statusCommand])
)
