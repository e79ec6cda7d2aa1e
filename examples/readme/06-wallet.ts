// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
declare const address: string
// #region readme
import * as Wallet from "@solfx/wallet/Wallet"
import { Effect, Option, Stream } from "effect"

const program = Effect.gen(function*() {
  const wallet = yield* Wallet.Wallet
  const identity = yield* wallet.identity(address) // Option: an unknown wallet is none, not an error
  const balances = yield* wallet.balances.stream(address).pipe(Stream.runCollect) // every page
  const usd = yield* wallet.portfolioUsdValue(address) // totalUsdValue of the service covers one page only
  const page = yield* wallet.history(address, { limit: 100 }) // one page; .pages and .stream walk them all
  // Each page of .pages carries `next`: a walk given { start: next } resumes after that page.
  const transfers = yield* wallet.transfers.stream(address, { limit: 100 }).pipe(Stream.take(500), Stream.runCollect)
  console.log(Option.map(identity, (i) => i.name), balances.length, usd, page.data.length, transfers.length)
  console.log(yield* wallet.creditsUsed) // 100 credits a request, as the service documents
})
// #endregion readme

export { program }
