/**
 * Example 1: export every holder of several compressed mints to one CSV file,
 * with a progress line per page and at most `concurrency` mints read at once.
 *
 * Run: node --conditions=@solfx/source --import tsx examples/holders-csv.ts [out.csv]
 * (default: solfx-holders.csv in the OS temp folder, so a run leaves nothing in the repository).
 */
import * as FileSystem from "@effect/platform/FileSystem"
import { Compression } from "@solfx/sdk"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { isMain, runExample } from "./support/run.js"

/** What the export wrote: the file, its data rows, and the holders of each mint. */
export interface Summary {
  readonly file: string
  readonly rows: number
  readonly holders: Readonly<Record<string, number>>
}

/** Writes `mint,owner,balance` for every holder of every mint; balances keep every digit. */
export const main = (mints: ReadonlyArray<string>, file: string, concurrency = 2) =>
  Effect.gen(function*() {
    const compression = yield* Compression.Compression
    const fs = yield* FileSystem.FileSystem
    const holders: Record<string, number> = Object.fromEntries(mints.map((mint) => [mint, 0]))

    const rows = Stream.fromIterable(mints).pipe(
      // Pages are fetched lazily, one mint's cursor after the other; `concurrency` mints at once.
      Stream.flatMap((mint) =>
        compression.getCompressedMintTokenHoldersPages({ mint, limit: 1000 }).pipe(
          Stream.tap((page) => {
            holders[mint]! += page.items.length
            return Console.log(`${mint.slice(0, 8)}… ${holders[mint]} holders (slot ${page.slot})`)
          }),
          Stream.mapConcat((page) => page.items.map((h) => `${mint},${h.owner},${h.balance}\n`))
        ), { concurrency })
    )
    yield* Stream.make("mint,owner,balance\n").pipe(
      Stream.concat(rows),
      Stream.encodeText,
      Stream.run(fs.sink(file))
    )
    const summary: Summary = { file, rows: Object.values(holders).reduce((a, b) => a + b, 0), holders }
    yield* Console.log(`wrote ${summary.rows} holders of ${mints.length} mints to ${file}`)
    return summary
  })

if (isMain(import.meta.url)) {
  runExample((emulator) =>
    Effect.gen(function*() {
      // Three compressed mints the sample owner holds (it holds every seeded mint).
      const compression = yield* Compression.Compression
      const mints = yield* compression.getCompressedTokenBalancesByOwnerV2Stream({
        owner: emulator.samples.compressedTokenOwner
      }).pipe(Stream.take(3), Stream.map((b) => b.mint), Stream.runCollect)
      return yield* main([...mints], process.argv[2] ?? join(tmpdir(), "solfx-holders.csv"))
    })
  )
}
