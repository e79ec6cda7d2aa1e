/**
 * `solfx wallet identity|funded-by|balances|history|transfers <wallet>` and
 * `solfx wallet identities <wallet...>`: the Wallet API (beta).
 *
 * @since 0.1.0
 */

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import type * as WalletRecords from "@solfx/core/WalletRecords"
import { Wallet } from "@solfx/wallet/Wallet"
import * as Arr from "effect/Array"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Format from "../Format.js"
import { all, firstOrAll, limit, opt, values, withServices } from "../Handler.js"
import { Output } from "../Output.js"

const wallet = Args.text({ name: "wallet" }).pipe(
  Args.withDescription("A wallet address (or a name-service domain for identity)")
)

const identityLines = (id: WalletRecords.Identity): ReadonlyArray<string> =>
  Format.fields([
    ["address", id.address],
    ["name", id.name],
    ["type", id.type],
    ["category", id.category],
    ["tags", id.tags.join(", ") || "-"],
    ...(id.domainNames.length > 0 ? [["domains", id.domainNames.join(", ")] as const] : [])
  ])

const identity = Command.make("identity", { wallet }, ({ wallet }) =>
  withServices(Effect.gen(function*() {
    const found = yield* (yield* Wallet).identity(wallet)
    yield* (yield* Output).value(found, (o) =>
      Option.match(o, { onNone: () => `${wallet}: unknown wallet (no identity)`, onSome: identityLines }))
  }))).pipe(Command.withDescription("The identity of a wallet (absent when unknown)"))

const identities = Command.make(
  "identities",
  { wallets: values("wallet", "Wallet addresses or domains", 1) },
  ({ wallets }) =>
    withServices(Effect.gen(function*() {
      const found = yield* (yield* Wallet).batchIdentity(wallets)
      const rows = Arr.zip(wallets, found)
      yield* (yield* Output).rows(Stream.fromIterable(rows), {
        json: ([w, id]) => ({ wallet: w, identity: id }),
        columns: [
          { header: "wallet", cell: ([w]) => w },
          { header: "name", cell: ([, id]) => Option.match(id, { onNone: () => "(unknown)", onSome: (i) => i.name }) },
          { header: "type", cell: ([, id]) => Option.match(id, { onNone: () => "-", onSome: (i) => i.type }) },
          { header: "category", cell: ([, id]) => Option.match(id, { onNone: () => "-", onSome: (i) => i.category }) }
        ]
      })
    }))
).pipe(Command.withDescription("Identities of many wallets (batched by 100), in input order"))

const fundedBy = Command.make("funded-by", { wallet }, ({ wallet }) =>
  withServices(Effect.gen(function*() {
    const found = yield* (yield* Wallet).fundedBy(wallet)
    yield* (yield* Output).value(found, (o) =>
      Option.match(o, {
        onNone: () => `${wallet}: no funding transaction known`,
        onSome: (f) =>
          Format.fields([
            ["funder", f.funder + (f.funderName === null ? "" : ` (${f.funderName})`)],
            ["funderType", f.funderType ?? "-"],
            ["amount", `${Format.amount(f.amountRaw, f.decimals)} ${f.symbol ?? f.mint}`],
            ["signature", f.signature],
            ["date", f.date],
            ["slot", String(f.slot)]
          ])
      }))
  }))).pipe(Command.withDescription("The original funding transaction of a wallet"))

/**
 * The balance table's columns.
 *
 * @since 0.1.0
 * @category columns
 */
export const balanceColumns: ReadonlyArray<Format.Column<WalletRecords.Balance>> = [
  { header: "symbol", cell: (b) => b.symbol ?? "?" },
  { header: "balance", cell: (b) => Format.uiAmount(b.balance, b.decimals), align: "right" },
  { header: "usd", cell: (b) => Format.usd(b.usdValue), align: "right" },
  { header: "mint", cell: (b) => b.mint }
]

const balances = Command.make(
  "balances",
  {
    wallet,
    all,
    limit,
    showZeroBalance: Options.boolean("show-zero-balance").pipe(Options.withDescription("Include empty token accounts"))
  },
  (o) =>
    withServices(Effect.gen(function*() {
      const service = yield* Wallet
      const options = { limit: opt(o.limit), showZeroBalance: o.showZeroBalance || undefined }
      let usd = 0
      const rows = firstOrAll(
        o,
        Effect.map(service.balances(o.wallet, options), (p) => ({ items: p.balances, more: p.pagination.hasMore })),
        service.balances.stream(o.wallet, options)
      ).pipe(Stream.tap((b) => Effect.sync(() => void (usd += b.usdValue ?? 0))))
      yield* (yield* Output).rows(rows, {
        columns: balanceColumns,
        progress: o.all ? "balances" : undefined,
        footer: (n) =>
          `${n} balance(s), total ${Format.usd(usd)}${
            o.all ? " (whole portfolio)" : " (first page; --all for the portfolio)"
          }`
      })
    }))
).pipe(Command.withDescription("Token balances with their USD value; --all sums the whole portfolio"))

const history = Command.make("history", { wallet, all, limit }, (o) =>
  withServices(Effect.gen(function*() {
    const service = yield* Wallet
    const options = { limit: opt(o.limit) }
    const rows = firstOrAll(
      o,
      Effect.map(service.history(o.wallet, options), (p) => ({ items: p.data, more: p.pagination.hasMore })),
      service.history.stream(o.wallet, options)
    )
    yield* (yield* Output).rows(rows, {
      progress: o.all ? "history" : undefined,
      columns: [
        { header: "time", cell: (h) => Format.time(h.timestamp) },
        { header: "slot", cell: (h) => String(h.slot), align: "right" },
        { header: "fee (SOL)", cell: (h) => Format.uiAmount(h.fee, 9), align: "right" },
        { header: "changes", cell: (h) => String(h.balanceChanges.length), align: "right" },
        { header: "status", cell: (h) => h.error === null ? "ok" : "failed" },
        { header: "signature", cell: (h) => h.signature }
      ]
    })
  }))).pipe(Command.withDescription("Transaction history, newest first"))

const transfers = Command.make("transfers", { wallet, all, limit }, (o) =>
  withServices(Effect.gen(function*() {
    const service = yield* Wallet
    const options = { limit: opt(o.limit) }
    const rows = firstOrAll(
      o,
      Effect.map(service.transfers(o.wallet, options), (p) => ({ items: p.data, more: p.pagination.hasMore })),
      service.transfers.stream(o.wallet, options)
    )
    yield* (yield* Output).rows(rows, {
      progress: o.all ? "transfers" : undefined,
      columns: [
        { header: "time", cell: (t) => Format.time(t.timestamp) },
        { header: "dir", cell: (t) => t.direction },
        { header: "amount", cell: (t) => Format.amount(t.amountRaw, t.decimals), align: "right" },
        { header: "token", cell: (t) => t.symbol ?? t.mint.slice(0, 8) + "…" },
        { header: "counterparty", cell: (t) => t.counterparty },
        { header: "signature", cell: (t) => t.signature }
      ]
    })
  }))).pipe(Command.withDescription("Token transfers, newest first"))

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("wallet").pipe(
  Command.withDescription("Wallet API (beta): identity, balances, history, transfers, funding source"),
  Command.withSubcommands([identity, identities, fundedBy, balances, history, transfers])
)
