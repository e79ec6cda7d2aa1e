/**
 * Bundles: the bundle id, tip detection, the checks a bundle must pass, and the
 * schemas of `sendBundle` / `getBundleStatuses`. Pure, so the SDK's pre-flight and
 * the emulator apply the same rules.
 *
 * @example
 * const checked = Bundle.check([payment, tip], "base64") // Either<CheckedBundle, BundleViolation>
 * if (Either.isLeft(checked)) console.log(Bundle.describe(checked.left).rule)
 * const id = Bundle.bundleId(firstSignatures) // hex SHA-256, as the service computes it
 * @since 0.1.0
 */

import { sha256 } from "@noble/hashes/sha2.js"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { MalformedTransaction } from "./Errors.js"
import type { Address } from "./Primitives.js"
import { BundleId, Signature } from "./Primitives.js"
import * as Transaction from "./Transaction.js"

/**
 * The most transactions a bundle may hold.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_BUNDLE_SIZE = 5

/**
 * The most bundle ids one `getBundleStatuses` call takes.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_STATUS_IDS = 5

/**
 * The smallest tip the block engine accepts, in lamports.
 *
 * @since 0.1.0
 * @category constants
 */
export const MIN_TIP_LAMPORTS = 1000n

/**
 * The 8 mainnet Jito tip accounts (the live list comes from the block engine's `getTipAccounts`).
 *
 * @since 0.1.0
 * @category constants
 */
export const JITO_TIP_ACCOUNTS: ReadonlyArray<Address> = [
  "96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5",
  "HFqU5x63VTqvQss8hp11i4wVV8bD44PvwucfZ2bU7gRe",
  "Cw8CFyM9FkoMi7K7Crf6HNQqf4uEMzpKw6QNghXLvLkY",
  "ADaUMid9yfUytqMBgopwjb2DTLSokTSzL1zt6iGPaS49",
  "DfXygSm4jCyNCybVYYK6DwvWqjKee8pbDmJGcLWNDXjh",
  "ADuUkR4vqLUMWXxW9gh6D6L8pMSawimctcNZ5pGwDcEt",
  "DttWaMuVvTiduZRnguLF7jNxTgiMBZ1hyAumKUiL2KRL",
  "3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT"
].map((a) => a as Address)

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"))

/**
 * The bundle id: lowercase hex SHA-256 of the UTF-8 bytes of each transaction's
 * first signature (base58), in bundle order, joined with ",".
 *
 * @example
 * bundleId(["5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"])
 * @since 0.1.0
 * @category bundle id
 */
export const bundleId = (firstSignatures: ReadonlyArray<string>): BundleId => {
  const digest = sha256(new TextEncoder().encode(firstSignatures.join(",")))
  let hex = ""
  for (const b of digest) hex += HEX[b]
  return hex as BundleId
}

/**
 * The bundle id of parsed transactions. A transaction without signatures contributes "".
 *
 * @since 0.1.0
 * @category bundle id
 */
export const bundleIdOf = (transactions: ReadonlyArray<Transaction.ParsedTransaction>): BundleId =>
  bundleId(transactions.map((tx) => tx.signatures[0] ?? ""))

/**
 * Where a tip may go and how small it may be.
 *
 * @since 0.1.0
 * @category tips
 */
export interface TipOptions {
  /** Default: the 8 Jito tip accounts. */
  readonly tipAccounts?: Iterable<string> | undefined
  /** Default: 1000 lamports. */
  readonly minTip?: bigint | undefined
}

/**
 * A top-level System transfer to a tip account.
 *
 * @since 0.1.0
 * @category tips
 */
export interface Tip {
  /** Position of the transaction in the bundle. */
  readonly transaction: number
  readonly instruction: number
  readonly account: Address
  readonly lamports: bigint
}

/**
 * The tips a transaction pays: top-level System transfers to a tip account that is
 * a writable static key, of any amount. What this cannot see: tips paid by another
 * program through CPI, and tip accounts loaded from a lookup table (the block
 * engine requires tip accounts to be static keys anyway).
 *
 * @since 0.1.0
 * @category tips
 */
export const tipsOf = (
  tx: Transaction.ParsedTransaction,
  options?: TipOptions,
  transaction = 0
): ReadonlyArray<Tip> => {
  const accounts = new Set<string>(options?.tipAccounts ?? JITO_TIP_ACCOUNTS)
  const tips: Array<Tip> = []
  for (const t of tx.transfers) {
    if (t.to._tag === "Static" && t.to.writable && accounts.has(t.to.address)) {
      tips.push({ transaction, instruction: t.instruction, account: t.to.address, lamports: t.lamports })
    }
  }
  return tips
}

/**
 * Why a bundle fails its offline checks. `transaction` is the position in the bundle.
 *
 * @since 0.1.0
 * @category checks
 */
export type BundleViolation =
  | { readonly _tag: "Empty" }
  | { readonly _tag: "TooMany"; readonly count: number }
  | { readonly _tag: "Undecodable"; readonly transaction: number; readonly error: MalformedTransaction }
  | { readonly _tag: "Unsigned"; readonly transaction: number; readonly missing: ReadonlyArray<number> }
  | { readonly _tag: "BadSignature"; readonly transaction: number; readonly signature: number }
  | {
    readonly _tag: "DuplicateSignature"
    readonly transaction: number
    readonly duplicateOf: number
    readonly signature: string
  }
  | { readonly _tag: "NoTip"; readonly largest: Tip | undefined; readonly minTip: bigint }

/**
 * A bundle that passed its checks.
 *
 * @since 0.1.0
 * @category checks
 */
export interface CheckedBundle {
  readonly id: BundleId
  readonly transactions: ReadonlyArray<Transaction.ParsedTransaction>
  readonly tips: ReadonlyArray<Tip>
}

/**
 * Options of `check`: the tip rules, and whether to verify signatures.
 *
 * @since 0.1.0
 * @category checks
 */
export interface CheckOptions extends TipOptions {
  /** Verify every Ed25519 signature (default true). */
  readonly verifySignatures?: boolean | undefined
}

/**
 * The offline checks of a bundle, in this order: 1 to 5 transactions; each decodes
 * with `encoding`; each is fully signed (and, by default, its signatures verify);
 * no signature appears twice; at least one tip of `minTip` lamports or more to a
 * tip account (top-level System transfers only: see `tipsOf`).
 *
 * @example
 * Bundle.check(transactions, "base64") // Either<CheckedBundle, BundleViolation>
 * @since 0.1.0
 * @category checks
 */
export const check = (
  transactions: ReadonlyArray<string>,
  encoding: Transaction.Encoding,
  options?: CheckOptions
): Either.Either<CheckedBundle, BundleViolation> => {
  if (transactions.length === 0) return Either.left({ _tag: "Empty" })
  if (transactions.length > MAX_BUNDLE_SIZE) return Either.left({ _tag: "TooMany", count: transactions.length })
  const parsed: Array<Transaction.ParsedTransaction> = []
  for (let i = 0; i < transactions.length; i++) {
    const result = Transaction.parseEither(transactions[i]!, encoding)
    if (Either.isLeft(result)) return Either.left({ _tag: "Undecodable", transaction: i, error: result.left })
    parsed.push(result.right)
  }
  for (let i = 0; i < parsed.length; i++) {
    const tx = parsed[i]!
    if (!tx.fullySigned) {
      const missing: Array<number> = []
      for (let s = 0; s < tx.header.numRequiredSignatures; s++) {
        const sig = tx.signatureBytes[s]
        if (sig === undefined || sig.every((b) => b === 0)) missing.push(s)
      }
      for (let s = tx.header.numRequiredSignatures; s < tx.signatureBytes.length; s++) missing.push(s)
      return Either.left({ _tag: "Unsigned", transaction: i, missing })
    }
    if (options?.verifySignatures !== false) {
      const bad = Transaction.invalidSignatures(tx)
      if (bad.length > 0) return Either.left({ _tag: "BadSignature", transaction: i, signature: bad[0]! })
    }
  }
  const seen = new Map<string, number>()
  for (let i = 0; i < parsed.length; i++) {
    for (const sig of parsed[i]!.signatures) {
      const first = seen.get(sig)
      if (first !== undefined) {
        return Either.left({ _tag: "DuplicateSignature", transaction: i, duplicateOf: first, signature: sig })
      }
      seen.set(sig, i)
    }
  }
  const minTip = options?.minTip ?? MIN_TIP_LAMPORTS
  const tips = parsed.flatMap((tx, i) => tipsOf(tx, options, i))
  if (!tips.some((t) => t.lamports >= minTip)) {
    const largest = tips.reduce<Tip | undefined>(
      (a, t) => (a === undefined || t.lamports > a.lamports ? t : a),
      undefined
    )
    return Either.left({ _tag: "NoTip", largest, minTip })
  }
  return Either.right({ id: bundleIdOf(parsed), transactions: parsed, tips })
}

/**
 * A violation in words, with the field it concerns (`transactions`, `transactions[2]`).
 *
 * @since 0.1.0
 * @category checks
 */
export const describe = (violation: BundleViolation): { readonly field: string; readonly rule: string } => {
  switch (violation._tag) {
    case "Empty":
      return { field: "transactions", rule: `a bundle holds 1 to ${MAX_BUNDLE_SIZE} transactions, got none` }
    case "TooMany":
      return {
        field: "transactions",
        rule: `a bundle holds 1 to ${MAX_BUNDLE_SIZE} transactions, got ${violation.count}`
      }
    case "Undecodable":
      return {
        field: `transactions[${violation.transaction}]`,
        rule: `a wire transaction in the declared encoding: ${violation.error.message}`
      }
    case "Unsigned":
      return {
        field: `transactions[${violation.transaction}]`,
        rule: `every transaction must be fully signed; missing signature(s) ${violation.missing.join(", ")}`
      }
    case "BadSignature":
      return {
        field: `transactions[${violation.transaction}]`,
        rule: `signature ${violation.signature} is not a valid Ed25519 signature of the message by its signer`
      }
    case "DuplicateSignature":
      return {
        field: `transactions[${violation.transaction}]`,
        rule:
          `no signature may appear twice in a bundle; ${violation.signature} is also in transactions[${violation.duplicateOf}]`
      }
    case "NoTip":
      return {
        field: "transactions",
        rule: `at least one transaction must transfer ${violation.minTip} lamports or more to a tip account ` +
          `(checked offline: top-level System transfers to a static key only)` +
          (violation.largest === undefined
            ? "; no tip found"
            : `; the largest tip found is ${violation.largest.lamports} lamports in transactions[${violation.largest.transaction}]`)
      }
  }
}

// -- schemas -----------------------------------------------------------------

/**
 * `sendBundle`'s result: the bundle id as the service wrote it (compared with the
 * local id by the SDK, so a foreign format surfaces as a mismatch, not a decode error).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SendBundleResult = Schema.String

/**
 * How far a landed bundle has got: `processed`, `confirmed` or `finalized`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ConfirmationStatus = Schema.Literal("processed", "confirmed", "finalized")
/** A decoded `ConfirmationStatus`: the type of the schema of the same name. @since 0.1.0 @category schemas */
export type ConfirmationStatus = typeof ConfirmationStatus.Type

const BundleStatusWire = Schema.Struct({
  bundle_id: BundleId,
  transactions: Schema.Array(Signature),
  slot: Schema.Number,
  confirmation_status: Schema.optional(ConfirmationStatus),
  confirmationStatus: Schema.optional(ConfirmationStatus),
  err: Schema.optional(Schema.Unknown)
})

const BundleStatusType = Schema.Struct({
  bundle_id: BundleId,
  transactions: Schema.Array(Signature),
  slot: Schema.Number,
  confirmation_status: ConfirmationStatus,
  /** `{ "Ok": null }` when the bundle succeeded. */
  err: Schema.Unknown
})

/**
 * A landed bundle's status. The wire spells the status `confirmation_status` (the
 * documented examples) or `confirmationStatus` (the prose): both decode to
 * `confirmation_status`, which is also what encoding writes.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BundleStatus = Schema.transformOrFail(BundleStatusWire, Schema.typeSchema(BundleStatusType), {
  strict: true,
  decode: (wire, _, ast) => {
    const status = wire.confirmation_status ?? wire.confirmationStatus
    return status === undefined
      ? ParseResult.fail(new ParseResult.Type(ast, wire, "confirmation_status (or confirmationStatus) is missing"))
      : ParseResult.succeed({
        bundle_id: wire.bundle_id,
        transactions: wire.transactions,
        slot: wire.slot,
        confirmation_status: status,
        err: wire.err ?? { Ok: null }
      })
  },
  encode: (status) => ParseResult.succeed(status)
}).annotations({ identifier: "BundleStatus" })
/** A decoded `BundleStatus`: the type of the schema of the same name. @since 0.1.0 @category schemas */
export type BundleStatus = typeof BundleStatus.Type

/**
 * `getBundleStatuses`' result: one entry per requested id, `null` for an unknown or
 * not-landed bundle (some proxies answer an empty `value` instead).
 *
 * @since 0.1.0
 * @category schemas
 */
export const BundleStatuses = Schema.Struct({
  context: Schema.Struct({ slot: Schema.Number }),
  value: Schema.Array(Schema.NullOr(BundleStatus))
}).annotations({ identifier: "BundleStatuses" })
/** A decoded `BundleStatuses`: the type of the schema of the same name. @since 0.1.0 @category schemas */
export type BundleStatuses = typeof BundleStatuses.Type

/**
 * Whether a status reports success: `err` absent, null or `{ "Ok": null }`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const succeeded = (status: BundleStatus): boolean => {
  const err = status.err
  if (err === null || err === undefined) return true
  return typeof err === "object" && !Array.isArray(err) && "Ok" in err && Object.keys(err).length === 1
}
