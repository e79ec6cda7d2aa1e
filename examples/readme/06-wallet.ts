// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
declare const address: string
// #region readme
import * as Wallet from "@solfx/wallet/Wallet"
import { Effect, Option, Stream } from "effect"

const program = Effect.gen(function*() {
  const wallet = yield* Wallet.Wallet
  const identity = yield* wallet.identity(address) // Option: an unknown wallet is none, not an error
  const balances = yield* wallet.balancesStream(address).pipe(Stream.runCollect) // every page
  const usd = yield* wallet.portfolioUsdValue(address) // totalUsdValue of the service covers one page only
  const transfers = yield* wallet.transfersStream(address, { limit: 100 }).pipe(Stream.take(500), Stream.runCollect)
  console.log(Option.map(identity, (i) => i.name), balances.length, usd, transfers.length, yield* wallet.creditsUsed)
})
// #endregion readme

export { program }
