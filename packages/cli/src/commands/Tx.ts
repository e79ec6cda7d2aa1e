/**
 * `solfx tx history <address>`: an address's transactions (getTransactionsForAddress), with its
 * filters, `--limit` and `--all` (every page, with progress); `solfx tx parse <signature...>`:
 * enhanced transactions (`POST /v0/transactions`, 100 a request).
 *
 * @since 0.1.0
 */

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import type * as AddressTransactions from "@solfx/core/AddressTransactions"
import { AddressHistory } from "@solfx/rpc/AddressHistory"
import { EnhancedTransactions } from "@solfx/rpc/EnhancedTransactions"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Format from "../Format.js"
import { all, firstOrAll, limit, opt, values, withServices } from "../Handler.js"
import { Output } from "../Output.js"

const int = (name: string, description: string) =>
  Options.integer(name).pipe(Options.withDescription(description), Options.optional)

const range = (gte: Option.Option<number>, lte: Option.Option<number>) =>
  Option.isNone(gte) && Option.isNone(lte) ? undefined : { gte: opt(gte), lte: opt(lte) }

const history = Command.make(
  "history",
  {
    address: Args.text({ name: "address" }).pipe(Args.withDescription("The address (base58)")),
    all,
    limit,
    order: Options.choice("order", ["desc", "asc"]).pipe(
      Options.withDescription("desc (default): newest first; asc: oldest first"),
      Options.optional
    ),
    status: Options.choice("status", ["any", "succeeded", "failed"]).pipe(
      Options.withDescription("Keep only succeeded or failed transactions"),
      Options.optional
    ),
    tokenAccounts: Options.choice("token-accounts", ["none", "balanceChanged", "all"]).pipe(
      Options.withDescription("Also transactions of the token accounts it owns"),
      Options.optional
    ),
    fromSlot: int("from-slot", "At or after this slot"),
    toSlot: int("to-slot", "At or before this slot"),
    since: int("since", "At or after this block time (unix seconds)"),
    until: int("until", "At or before this block time (unix seconds)")
  },
  (o) =>
    withServices(Effect.gen(function*() {
      const service = yield* AddressHistory
      const params = {
        address: o.address,
        limit: opt(o.limit),
        sortOrder: opt(o.order),
        filters: {
          status: opt(o.status),
          tokenAccounts: opt(o.tokenAccounts),
          slot: range(o.fromSlot, o.toSlot),
          blockTime: range(o.since, o.until)
        }
      }
      const rows = firstOrAll(
        o,
        Effect.map(service.getTransactionsForAddress(params), (p) => ({
          items: p.data,
          more: p.paginationToken !== null
        })),
        service.getTransactionsForAddress.stream(params)
      ) as Stream.Stream<AddressTransactions.SignatureItem, never>
      yield* (yield* Output).rows(rows, {
        progress: o.all ? "transactions" : undefined,
        columns: [
          { header: "time", cell: (t) => Format.time(t.blockTime) },
          { header: "slot", cell: (t) => String(t.slot), align: "right" },
          { header: "status", cell: (t) => t.err === null ? "ok" : "failed" },
          { header: "commitment", cell: (t) => t.confirmationStatus ?? "-" },
          { header: "signature", cell: (t) => t.signature }
        ]
      })
    }))
).pipe(Command.withDescription("An address's transactions (getTransactionsForAddress), newest first"))

const parse = Command.make(
  "parse",
  { signatures: values("signature", "Transaction signatures (base58)", 1) },
  (o) =>
    withServices(Effect.gen(function*() {
      const parsed = yield* (yield* EnhancedTransactions).parseTransactions(o.signatures)
      yield* (yield* Output).rows(Stream.fromIterable(parsed), {
        columns: [
          { header: "time", cell: (t) => Format.time(t.timestamp) },
          { header: "type", cell: (t) => t.type },
          { header: "source", cell: (t) => t.source },
          { header: "fee", cell: (t) => Format.sol(t.fee), align: "right" },
          {
            header: "status",
            cell: (t) => t.transactionError === null || t.transactionError === undefined ? "ok" : "failed"
          },
          { header: "signature", cell: (t) => t.signature },
          { header: "description", cell: (t) => t.description || "-" }
        ],
        footer: (n) => `${n} of ${o.signatures.length} transaction(s) parsed`
      })
    }))
).pipe(Command.withDescription("Enhanced transactions of signatures (100 a request)"))

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("tx").pipe(
  Command.withDescription("Transactions: an address's history, enhanced parsing"),
  Command.withSubcommands([history, parse])
)
