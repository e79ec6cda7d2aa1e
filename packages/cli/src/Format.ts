/**
 * Human formatting: amounts with their decimals, aligned tables, JSON-ready values.
 *
 * @example
 * Format.amount(1234567891n, 6) // "1,234.567891"
 * Format.table([{ header: "mint", cell: (r) => r.mint }], rows).join("\n")
 * @since 0.1.0
 */

import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import * as Redacted from "effect/Redacted"
import { escapeControl } from "./Terminal.js"

/**
 * A raw integer amount shown with its decimals, digits grouped by thousands.
 *
 * @example
 * amount(1234567891n, 6) // "1,234.567891"
 * @since 0.1.0
 * @category amounts
 */
export const amount = (raw: bigint, decimals: number): string => {
  const negative = raw < 0n
  const digits = (negative ? -raw : raw).toString().padStart(decimals + 1, "0")
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = decimals > 0 ? "." + digits.slice(digits.length - decimals) : ""
  return (negative ? "-" : "") + group(whole) + fraction
}

/**
 * An amount already in token units (the Wallet API's `balance`), shown with `decimals` places.
 *
 * @example
 * uiAmount(12.5, 2) // "12.50"
 * @since 0.1.0
 * @category amounts
 */
export const uiAmount = (value: number, decimals: number): string => {
  const places = Math.max(0, Math.min(decimals, 20))
  const [whole = "0", fraction] = Math.abs(value).toFixed(places).split(".")
  return (value < 0 ? "-" : "") + group(whole) + (fraction === undefined ? "" : "." + fraction)
}

/**
 * Lamports as SOL (9 decimals).
 *
 * @example
 * sol(1_500_000_000n) // "1.500000000 SOL"
 * @since 0.1.0
 * @category amounts
 */
export const sol = (lamports: bigint): string => `${amount(lamports, 9)} SOL`

/**
 * A US dollar value.
 *
 * @example
 * usd(1234.5) // "$1,234.50"
 * @since 0.1.0
 * @category amounts
 */
export const usd = (value: number | null | undefined): string =>
  value === null || value === undefined ? "-" : `${value < 0 ? "-" : ""}$${uiAmount(Math.abs(value), 2)}`

/**
 * An integer with grouped digits.
 *
 * @since 0.1.0
 * @category amounts
 */
export const integer = (value: number | bigint): string =>
  (value < 0 ? "-" : "") + group((value < 0 ? -value : value).toString())

const group = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",")

/**
 * A Unix time (seconds) as an ISO date-time, or "-".
 *
 * @since 0.1.0
 * @category dates
 */
export const time = (seconds: number | null | undefined): string =>
  seconds === null || seconds === undefined ? "-" : new Date(seconds * 1000).toISOString().replace(".000Z", "Z")

/**
 * A column of a table.
 *
 * @since 0.1.0
 * @category tables
 */
export interface Column<A> {
  readonly header: string
  readonly cell: (row: A) => string
  /** Numbers read best right-aligned. */
  readonly align?: "left" | "right" | undefined
}

/**
 * Column widths that fit the headers and `rows`.
 *
 * @since 0.1.0
 * @category tables
 */
export const widths = <A>(columns: ReadonlyArray<Column<A>>, rows: ReadonlyArray<A>): ReadonlyArray<number> =>
  columns.map((c) => rows.reduce((w, row) => Math.max(w, escapeControl(c.cell(row)).length), c.header.length))

/**
 * One line of a table with the given widths. The last left-aligned column is not padded.
 * Cells hold service data: their control characters are shown escaped, never obeyed.
 *
 * @since 0.1.0
 * @category tables
 */
export const line = (
  cells: ReadonlyArray<string>,
  widths: ReadonlyArray<number>,
  aligns: ReadonlyArray<"left" | "right">
) =>
  cells.map((raw, i) => {
    const cell = escapeControl(raw)
    const width = widths[i] ?? 0
    if (aligns[i] === "right") return cell.padStart(width)
    return i === cells.length - 1 ? cell : cell.padEnd(width)
  }).join("  ")

/**
 * An aligned table: a header line, then one line per row.
 *
 * @example
 * table([{ header: "mint", cell: (r) => r.mint }], rows).join("\n")
 * @since 0.1.0
 * @category tables
 */
export const table = <A>(
  columns: ReadonlyArray<Column<A>>,
  rows: ReadonlyArray<A>,
  fixedWidths?: ReadonlyArray<number>
): ReadonlyArray<string> => {
  const w = fixedWidths ?? widths(columns, rows)
  const aligns = columns.map((c) => c.align ?? "left")
  return [
    line(columns.map((c) => c.header.toUpperCase()), w, aligns),
    ...rows.map((row) => line(columns.map((c) => c.cell(row)), w, aligns))
  ]
}

/**
 * Label/value lines, labels padded to one width.
 *
 * @example
 * fields([["url", "http://127.0.0.1:8899"], ["projectId", id]])
 * @since 0.1.0
 * @category tables
 */
export const fields = (pairs: ReadonlyArray<readonly [string, string]>, indent = ""): ReadonlyArray<string> => {
  const width = pairs.reduce((w, [k]) => Math.max(w, k.length), 0)
  return pairs.map(([k, v]) => `${indent}${(k + ":").padEnd(width + 1)} ${escapeControl(v)}`)
}

/**
 * A value made ready for `Json.stringify`: `Option` becomes its value or null,
 * `Either` its right or `{error}`, `Redacted` stays hidden, bytes become base64,
 * bigints stay bigints (printed with all their digits).
 *
 * @since 0.1.0
 * @category json
 */
export const toJson = (value: unknown): unknown => {
  if (value === null || value === undefined) return value ?? null
  if (typeof value !== "object") return value
  if (Redacted.isRedacted(value)) return "<redacted>"
  if (Option.isOption(value)) return Option.isSome(value) ? toJson(value.value) : null
  if (Either.isEither(value)) return Either.isRight(value) ? toJson(value.right) : { error: toJson(value.left) }
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64")
  if (value instanceof Date) return value.toISOString()
  if (Array.isArray(value)) return value.map(toJson)
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), toJson(v)]))
  if (value instanceof Error && !Predicate.hasProperty(value, "_tag")) return { message: value.message }
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toJson(v)
  return out
}
