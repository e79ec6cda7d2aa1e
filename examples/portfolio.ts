/**
 * Example 2: a portfolio across many wallets. Identities in batches of 100
 * (3 requests for 300 wallets), each wallet's balances summed over every page,
 * at most 8 wallets at once, and the total USD value.
 *
 * Run: node --conditions=@solfx/source --import tsx examples/portfolio.ts
 */
import * as Wallets from "@solfx/emulator/seed/Wallets"
import { Wallet } from "@solfx/sdk"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { isMain, runExample } from "./support/run.js"

/** One wallet of the report. */
export interface Row {
  readonly wallet: string
  /** The identity's name, when the service knows the wallet. */
  readonly name: Option.Option<string>
  readonly usd: number
}

/** The report: a row per wallet, in input order, and the total. */
export interface Portfolio {
  readonly rows: ReadonlyArray<Row>
  readonly identified: number
  readonly totalUsd: number
}

export const main = (wallets: ReadonlyArray<string>, concurrency = 8) =>
  Effect.gen(function*() {
    const wallet = yield* Wallet.Wallet
    // Both run at once: the identities in 3 batch requests, the balances wallet by wallet.
    const [identities, values] = yield* Effect.all([
      wallet.batchIdentity(wallets, { concurrency: 2 }),
      Effect.forEach(wallets, (w) => wallet.portfolioUsdValue(w), { concurrency })
    ], { concurrency: 2 })
    const rows = wallets.map((w, i): Row => ({
      wallet: w,
      name: Option.map(identities[i]!, (id) => id.name),
      usd: values[i]!
    }))
    const portfolio: Portfolio = {
      rows,
      identified: rows.filter((r) => Option.isSome(r.name)).length,
      totalUsd: rows.reduce((total, r) => total + r.usd, 0)
    }
    const usd = (n: number) => n.toLocaleString("en-US", { style: "currency", currency: "USD" })
    for (const r of [...rows].sort((a, b) => b.usd - a.usd).slice(0, 5)) {
      yield* Console.log(`${r.wallet.padEnd(44)} ${Option.getOrElse(r.name, () => "?").padEnd(24)} ${usd(r.usd)}`)
    }
    yield* Console.log(`${rows.length} wallets, ${portfolio.identified} identified, total ${usd(portfolio.totalUsd)}`)
    return portfolio
  })

if (isMain(import.meta.url)) {
  // 300 of the emulator's seeded wallets; in an app, your own list.
  runExample((emulator) => main(Array.from({ length: 300 }, (_, i) => Wallets.walletAt(emulator.dataset, i))))
}
