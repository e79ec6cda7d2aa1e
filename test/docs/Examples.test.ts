/**
 * Every `@example` of the shipped packages compiles: each, made a complete program (`support/Examples.ts`),
 * is type-checked against the packages' public entry points in one TypeScript program. The count is printed;
 * the few that do not compile yet are listed in `EXCEPTIONS`, each with its reason.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { program, publicModules, readExamples } from "./support/Examples.js"

/**
 * The examples that do not compile yet, each with why (`file#n`: the n-th `@example` of the file). Every other
 * example must compile, and each of these must still fail (fixed: take it off the list).
 */
const EXCEPTIONS: Record<string, string> = {
  "packages/cli/src/Format.ts#1": "a fragment: `rows` is the caller's data, its row type unnamed",
  "packages/cli/src/Format.ts#6": "a fragment: `rows` is the caller's data, its row type unnamed",
  "packages/cli/src/Output.ts#1": "a fragment: `assets` and `assetColumns` are a command's",
  "packages/cli/src/Services.ts#1": "a fragment: `globals` are the parsed global flags of a command",
  "packages/cli/src/WireTransaction.ts#2": "a fragment: `payer` is a Keypair here (the prelude's is an address)",
  "packages/cli/src/commands/Bundle.ts#1": "names `inspect`, internal to the command module",
  "packages/core/src/AddressTransactions.ts#1":
    "wrong: with the default transactionDetails an item has no top-level `signature` (the full item's is under transaction)",
  "packages/core/src/ConfirmedTransaction.ts#1":
    "no solfx service calls getTransaction (the emulator serves it; @solana/kit calls it)",
  "packages/core/src/Simulation.ts#1":
    "no solfx service calls simulateTransaction (the emulator serves it; @solana/kit calls it)",
  "packages/core/src/TransactionSubmission.ts#1":
    "no solfx service calls sendTransaction/requestAirdrop (the emulator serves them; @solana/kit calls them)",
  "packages/core/src/Decode.ts#2": "names `Params`, a module that is gone (WalletParams)",
  "packages/core/src/Endpoint.ts#1":
    "a table entry written from scratch: `Address`, `Cursor`, `Limit`, `SignaturesResult` unimported",
  "packages/core/src/Pagination.ts#1": "a fragment: `entry`, `answer`, `cursor` are an interpreter's",
  "packages/core/src/SlotContext.ts#1": "names `TokenHolder`, a schema of another module",
  "packages/core/src/SlotContext.ts#2": "names `TokenHolder`, a schema of another module",
  "packages/core/src/TokenMetadataRecord.ts#2":
    "a fragment: `wire` is a decoded wire record here (the prelude's is a transaction)",
  "packages/core/src/Webhook.ts#4": "accountAddresses take branded Addresses; `other` is a string",
  "packages/emulator/src/Area.ts#2": "a fragment: `handlers` are an area's",
  "packages/emulator/src/Bank.ts#1":
    "a fragment of the world's wiring (dataset, world, baseSlot, source); Bank.Options also wants blockHeight",
  "packages/emulator/src/EnhancedTransactions.ts#1":
    "resolves `EnhancedTransactions` to the rpc service's module, not the emulator's",
  "packages/emulator/src/Events.ts#1": "a fragment: `queue` and `ticks` are the subscriber's",
  "packages/emulator/src/Events.ts#2": "a fragment: `queue` is the subscriber's",
  "packages/emulator/src/Events.ts#3": "a fragment: `queue` is the subscriber's",
  "packages/emulator/src/Manifest.ts#1": "a fragment: `areas` are the emulator's",
  "packages/emulator/src/Paging.ts#1": "a fragment of an area's handler: `params`, `holderAt`",
  "packages/emulator/src/Paging.ts#3": "a fragment of an area's handler: `params`",
  "packages/emulator/src/RecentFees.ts#1": "a fragment of the world's wiring: `dataset`, `world`",
  "packages/emulator/src/Server.ts#1": "a fragment: `instance` is what Emulator.make builds",
  "packages/emulator/src/Wire.ts#1": "a fragment: `pageKey`, `ids`, `build` are an area's",
  "packages/emulator/src/bin.ts#1": "a shell command, not TypeScript",
  "packages/http/src/RateLimits.ts#1": "a fragment: `sendOnce` is the transport's",
  "packages/http/src/Retry.ts#1": "a fragment: `attempt`, `policy`, `deadline`, `retryAfterCap` are the transport's",
  "packages/http/src/Walk.ts#2": "a fragment: `fetchPage` is the caller's",
  "packages/kit/src/SendAndConfirm.ts#1": "a fragment: `message` is a @solana/kit transaction message",
  "packages/kit/src/SendAndConfirm.ts#2":
    "a fragment: `payment` and `tip` are @solana/kit signed transactions (the prelude's are base64 wire strings)",
  "packages/kit/src/SolanaRpc.ts#1": "@solana/kit wants its branded Address; the prelude's `address` is a string",
  "packages/kit/src/SolanaRpc.ts#2": "top-level await and @solana/kit's createSolanaRpcFromTransport, not imported",
  "packages/kit/src/index.ts#1": "@solana/kit wants its branded Address; the prelude's `address` is a string"
}

const root = fileURLToPath(new URL("../..", import.meta.url))
const prelude = fs.readFileSync(fileURLToPath(new URL("support/prelude.txt", import.meta.url)), "utf8")

describe("the @example blocks of the shipped declarations", () => {
  it("they type-check as programs of the public API", async () => {
    const examples = readExamples(root)
    const modules = publicModules(root)
    const dir = path.join(root, "test/docs/build/examples")
    const seen = new Map<string, number>()
    const keys = examples.map((example) => {
      const n = (seen.get(example.file) ?? 0) + 1
      seen.set(example.file, n)
      return `${example.file}#${n}`
    })
    const files = new Map(examples.map((example, i) => [
      path.join(dir, `${String(i).padStart(3, "0")}-${path.basename(example.file, ".ts")}.ts`),
      { example, key: keys[i]!, text: program(example, modules, prelude, root) }
    ]))
    // The check runs in a child `tsc`, not in this worker: a synchronous check of a few hundred programs
    // holds the worker's event loop past vitest's 60 s RPC timeout on a loaded machine ("Timeout calling
    // onTaskUpdate", an unhandled error that fails the run).
    fs.rmSync(dir, { recursive: true, force: true })
    fs.mkdirSync(dir, { recursive: true })
    for (const [name, { text }] of files) fs.writeFileSync(name, text)
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: "../../tsconfig.json",
        compilerOptions: {
          rootDir: ".",
          composite: false,
          incremental: false,
          noEmit: true,
          noUnusedLocals: false,
          noUnusedParameters: false,
          declaration: false,
          emitDeclarationOnly: false
        },
        include: ["*.ts"]
      })
    )
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [fileURLToPath(new URL("support/check-programs.mjs", import.meta.url)), dir],
        { maxBuffer: 64 * 1024 * 1024 },
        (error, stdout) => error === null ? resolve(stdout) : reject(error)
      )
    )
    const checked = JSON.parse(output) as {
      readonly files: Record<string, ReadonlyArray<string>>
      readonly options: ReadonlyArray<string>
    }
    // A wrong configuration would otherwise pass unseen.
    expect(checked.options).toEqual([])
    const failures: Array<string> = []
    const failing = new Set<string>()
    for (const [name, { example, key, text }] of files) {
      const found = checked.files[name]
      if (found === undefined) continue
      failing.add(key)
      if (EXCEPTIONS[key] !== undefined) continue
      failures.push(
        `${example.file}:${example.line}: ${found.join("; ")}\n${
          process.env.SOLFX_EXAMPLES_VERBOSE === "1" ? text : example.code
        }`
      )
    }
    const compiled = examples.length - failing.size
    console.log(
      `@example blocks type-checked: ${compiled} of ${examples.length}; ` +
        `${Object.keys(EXCEPTIONS).length} listed exceptions (EXCEPTIONS, each with its reason)`
    )
    if (failures.length > 0) {
      console.log(
        process.env.SOLFX_EXAMPLES_VERBOSE === "1"
          ? failures.join("\n\n")
          : failures.map((f) => f.split("\n")[0]).join("\n")
      )
    }
    // Every example compiles but the listed ones, and each listed one still fails (a fixed one leaves the list).
    expect(failures.map((f) => f.split("\n")[0])).toEqual([])
    expect(Object.keys(EXCEPTIONS).filter((key) => !failing.has(key))).toEqual([])
  })
})
