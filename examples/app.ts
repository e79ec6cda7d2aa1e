/**
 * Example 5 (the app under test, see `app.test.ts`): the biggest holders of a
 * compressed mint, with their names where the service knows them.
 *
 * Run: node --conditions=@solfx/source --import tsx examples/app.ts
 */
import { Compression, Wallet } from "@solfx/sdk"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { isMain, runExample } from "./support/run.js"

/** A top holder. */
export interface Whale {
  readonly owner: string
  readonly balance: bigint
  readonly name: Option.Option<string>
}

/** The `n` biggest holders, richest first: one page of holders (the stream stops there) and one identity batch. */
export const whales = (mint: string, n: number) =>
  Effect.gen(function*() {
    const compression = yield* Compression.Compression
    const wallet = yield* Wallet.Wallet
    const top = yield* compression.getCompressedMintTokenHoldersStream({ mint, limit: Math.min(n, 1000) }).pipe(
      Stream.take(n),
      Stream.runCollect
    )
    const holders = [...top]
    const names = yield* wallet.batchIdentity(holders.map((h) => h.owner))
    return holders.map((h, i): Whale => ({ ...h, name: Option.map(names[i]!, (id) => id.name) }))
  })

export const main = (mint: string, n = 10) =>
  Effect.flatMap(
    whales(mint, n),
    (list) => Effect.forEach(list, (w) => Console.log(`${w.owner} ${w.balance} ${Option.getOrElse(w.name, () => "")}`))
  )

if (isMain(import.meta.url)) {
  runExample((emulator) => main(emulator.samples.compressedTokenMint))
}
