// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
declare const address: string
// #region readme
import { AddressHistory, EnhancedTransactions, PriorityFees } from "@solfx/sdk"
import { Effect, Stream } from "effect"

const program = Effect.gen(function*() {
  const fees = yield* PriorityFees.PriorityFees
  const { priorityFeeLevels } = yield* fees.getPriorityFeeEstimate({
    accountKeys: [address], // or `transaction`: exactly one of them, else InvalidRequest, unsent
    options: { includeAllPriorityFeeLevels: true, lookbackSlots: 150 }
  })
  const history = yield* AddressHistory.AddressHistory
  // 100 credits a page: signatures (up to 1,000) or full transactions (up to 100), walked by paginationToken.
  const failed = yield* history.getTransactionsForAddress
    .stream({ address, filters: { status: "failed", slot: { gte: 300_000_000 } } })
    .pipe(Stream.take(50), Stream.runCollect)
  const enhanced = yield* EnhancedTransactions.EnhancedTransactions
  const signatures = Array.from(failed).flatMap((t) => ("signature" in t ? [t.signature] : []))
  const parsed = yield* enhanced.parseTransactions(signatures) // 100 a request
  const transfers = yield* enhanced.addressTransactions(address, { type: "TRANSFER", limit: 20 })
  console.log(priorityFeeLevels?.medium, failed.length, parsed.length, transfers.length)
})
// #endregion readme

export { program }
