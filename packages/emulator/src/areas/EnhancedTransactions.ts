/**
 * The enhanced transactions API over the one ledger, built by the builder enhanced webhooks use
 * (`EnhancedTransactions.enhancedOf`):
 * - `POST /v0/transactions` `{ transactions }` (1 to 100 signatures): each one the ledger knows, in
 *   order (landed since start, or a seeded wallet's entry); an unknown one is left out.
 * - `GET /v0/addresses/{address}/transactions`: the address's history, the list getSignaturesForAddress
 *   and the Wallet API read (`WalletSignatures.signaturesOf`), newest first (`sort-order=asc`: oldest first),
 *   `limit` 1..100 (default 100), bounded by `before-signature` / `after-signature` (the older
 *   `before` / `until` too), narrowed by `type`, `source`, `gt-slot` … `lte-time`.
 *
 * Both take `commitment` (default `finalized`, as the service: a transaction shows once it reached
 * it). Bad input is a 400 `{"error": …}` naming the parameter, before charging.
 *
 * @since 0.1.0
 */

import * as Endpoints from "@solfx/core/Endpoints"
import * as EnhancedTransactionParams from "@solfx/core/EnhancedTransactionParams"
import { base58ByteLength } from "@solfx/core/Primitives"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import * as Effect from "effect/Effect"
import type { Area, AreaContext, RestRequest } from "../Area.js"
import { RestFailure, restRoute } from "../Area.js"
import * as EnhancedTransactions from "../EnhancedTransactions.js"
import type * as Events from "../Events.js"
import * as WalletSignatures from "../seed/WalletSignatures.js"
import * as World from "../World.js"
import { confirmationOf } from "./Bundles.js"

const bad = (message: string) => Effect.fail(new RestFailure(400, message))

const isSignature = (s: unknown): s is string => typeof s === "string" && base58ByteLength(s) === 64
const isAddress = (s: string) => /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(s) && base58ByteLength(s) === 32
const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/

/** Whether the transaction reached the commitment asked (default finalized; processed is not served). */
const reached = (ctx: AreaContext, slot: number, commitment: string) => {
  const status = confirmationOf(ctx, slot).status
  return status === "finalized" || (commitment === "confirmed" && status === "confirmed")
}

const commitmentOf = (query: URLSearchParams) => query.get("commitment") ?? "finalized"

const checkCommitment = (query: URLSearchParams) => {
  const c = query.get("commitment")
  return c === null || c === "confirmed" || c === "finalized"
    ? Effect.void
    : bad("commitment must be confirmed or finalized")
}

const encode = (txs: ReadonlyArray<Events.LandedTransaction>) =>
  WebhookDelivery.encode(txs.map(EnhancedTransactions.enhancedOf))

const transactionsOf = (body: unknown): ReadonlyArray<unknown> | undefined => {
  const list = typeof body === "object" && body !== null ? (body as { transactions?: unknown }).transactions : undefined
  return Array.isArray(list) ? list : undefined
}

const parse = restRoute(Endpoints.parseTransactions, {
  precheck: (request) =>
    Effect.gen(function*() {
      yield* checkCommitment(request.query)
      const list = transactionsOf(request.body)
      if (list === undefined) return yield* bad("body must be {\"transactions\": string[]}")
      if (list.length === 0 || list.length > EnhancedTransactionParams.MAX_PARSE) {
        return yield* bad(`transactions must hold 1 to ${EnhancedTransactionParams.MAX_PARSE} signatures`)
      }
      const invalid = list.findIndex((s) => !isSignature(s))
      if (invalid >= 0) yield* bad(`transactions[${invalid}] is not a transaction signature`)
    }),
  handle: (request, ctx) =>
    Effect.sync(() => {
      const commitment = commitmentOf(request.query)
      const found = (transactionsOf(request.body) as ReadonlyArray<string>).flatMap((signature) => {
        const tx = EnhancedTransactions.ledgerTransaction(ctx, signature, WalletSignatures.seededSignature)
        return tx === undefined || !reached(ctx, tx.slot, commitment) ? [] : [tx]
      })
      return encode(found)
    })
})

/** A query parameter under its current name or its older one. */
const param = (query: URLSearchParams, name: string, older?: string) =>
  query.get(name) ?? (older === undefined ? null : query.get(older))

const RANGES = ["gt-slot", "gte-slot", "lt-slot", "lte-slot", "gt-time", "gte-time", "lt-time", "lte-time"] as const

const numberOf = (raw: string | null) => raw === null ? undefined : /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN

const inRanges = (query: URLSearchParams, slot: number, time: number) =>
  RANGES.every((name) => {
    const bound = numberOf(query.get(name))
    if (bound === undefined) return true
    const value = name.endsWith("slot") ? slot : time
    return name.startsWith("gte") ?
      value >= bound
      : name.startsWith("gt") ?
      value > bound
      : name.startsWith("lte") ?
      value <= bound
      : value < bound
  })

const byAddress = restRoute(Endpoints.addressTransactions, {
  precheck: (request) =>
    Effect.gen(function*() {
      const q = request.query
      if (!isAddress(request.params["address"] ?? "")) yield* bad("address must be a base58 address of 32 bytes")
      yield* checkCommitment(q)
      const limit = numberOf(q.get("limit"))
      if (
        limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= EnhancedTransactionParams.MAX_LIMIT)
      ) {
        yield* bad(`limit must be an integer between 1 and ${EnhancedTransactionParams.MAX_LIMIT}`)
      }
      for (const [name, older] of [["before-signature", "before"], ["after-signature", "until"]] as const) {
        const v = param(q, name, older)
        if (v !== null && !isSignature(v)) yield* bad(`${name} must be a transaction signature`)
      }
      for (const name of ["type", "source"]) {
        const v = q.get(name)
        if (v !== null && !UPPER_SNAKE.test(v)) yield* bad(`${name} must be an UPPER_SNAKE_CASE name`)
      }
      const order = q.get("sort-order")
      if (order !== null && order !== "asc" && order !== "desc") yield* bad("sort-order must be asc or desc")
      for (const name of RANGES) {
        if (Number.isNaN(numberOf(q.get(name)) ?? 0)) yield* bad(`${name} must be a non-negative integer`)
      }
    }),
  handle: (request: RestRequest, ctx: AreaContext) =>
    Effect.suspend(() => {
      const q = request.query
      const address = request.params["address"]!
      const list = WalletSignatures.signaturesOf(ctx, address)
      const world = World.of(ctx.state)
      const positionOf = (name: string, older: string) => {
        const v = param(q, name, older)
        return v === null ? null : list.indexOf(v)
      }
      const before = positionOf("before-signature", "before")
      const after = positionOf("after-signature", "until")
      if (before === undefined) return bad("before-signature is not a transaction of this address")
      if (after === undefined) return bad("after-signature is not a transaction of this address")
      // Newest first: strictly older than `before`, strictly newer than `after`.
      const first = before === null ? 0 : before + 1
      const end = after === null ? list.length : after
      const asc = q.get("sort-order") === "asc"
      const limit = numberOf(q.get("limit")) ?? EnhancedTransactionParams.MAX_LIMIT
      const commitment = commitmentOf(q)
      const type = q.get("type")
      const source = q.get("source")
      const out: Array<Events.LandedTransaction> = []
      for (let step = 0; step < end - first && out.length < limit; step++) {
        const x = asc ? end - 1 - step : first + step
        const s = list.get(x)
        if (!reached(ctx, s.slot, commitment) || !inRanges(q, s.slot, s.blockTime ?? 0)) continue
        const tx = world.transaction(s.signature) ?? EnhancedTransactions.seededLanded(s)
        if (tx === undefined || (type !== null && type !== "ANY" && tx.type !== type)) continue
        if (source !== null && EnhancedTransactions.enhancedOf(tx).source !== source) continue
        out.push(tx)
      }
      return Effect.succeed(encode(out))
    })
})

/**
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "enhanced",
  routes: [parse, byAddress]
}
