/**
 * `solfx zk ...`: the compression (ZK) methods.
 *
 * @since 0.1.0
 */

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import type { CompressionSignature } from "@solfx/core/CompressionSignature"
import type { AccountWithOptionalTokenData } from "@solfx/core/CompressionTransaction"
import type { ValidityProof } from "@solfx/core/ValidityProof"
import { Compression } from "@solfx/rpc/Compression"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Format from "../Format.js"
import { all, firstOrAll, limit, opt, withServices } from "../Handler.js"
import { Output } from "../Output.js"

const address = (name: string, description: string) => Args.text({ name }).pipe(Args.withDescription(description))
const mintFilter = Options.text("mint").pipe(Options.withDescription("Only this mint"), Options.optional)

const signatureColumns: ReadonlyArray<Format.Column<CompressionSignature>> = [
  { header: "slot", cell: (s) => String(s.slot), align: "right" },
  { header: "time", cell: (s) => Format.time(s.blockTime) },
  { header: "signature", cell: (s) => s.signature }
]

const paging = (o: { readonly limit: import("effect/Option").Option<number> }) => {
  const l = opt(o.limit)
  return l === undefined ? {} : { limit: l }
}

const signaturesForAddress = Command.make(
  "signatures-for-address",
  { address: address("address", "A compressed account address"), all, limit },
  (o) =>
    withServices(Effect.gen(function*() {
      const zk = yield* Compression
      const params = { address: o.address, ...paging(o) }
      const rows = firstOrAll(
        o,
        Effect.map(
          zk.getCompressionSignaturesForAddress(params),
          (r) => ({ items: r.value.items, more: r.value.cursor !== null })
        ),
        zk.getCompressionSignaturesForAddress.stream(params)
      )
      yield* (yield* Output).rows(rows, { columns: signatureColumns, progress: o.all ? "signatures" : undefined })
    }))
).pipe(Command.withDescription("Signatures that opened or closed the compressed account"))

const mintHolders = Command.make(
  "mint-holders",
  { mint: address("mint", "A compressed token mint"), all, limit },
  (o) =>
    withServices(Effect.gen(function*() {
      const zk = yield* Compression
      const params = { mint: o.mint, ...paging(o) }
      const rows = firstOrAll(
        o,
        Effect.map(
          zk.getCompressedMintTokenHolders(params),
          (r) => ({ items: r.value.items, more: r.value.cursor !== null })
        ),
        zk.getCompressedMintTokenHolders.stream(params)
      )
      yield* (yield* Output).rows(rows, {
        progress: o.all ? "holders" : undefined,
        columns: [
          { header: "owner", cell: (h) => h.owner },
          { header: "balance (raw)", cell: (h) => Format.integer(h.balance), align: "right" }
        ]
      })
    }))
).pipe(Command.withDescription("Owners of a compressed mint, by descending balance"))

const tokenAccounts = Command.make(
  "token-accounts",
  { owner: address("owner", "The owner"), mint: mintFilter, all, limit },
  (o) =>
    withServices(Effect.gen(function*() {
      const zk = yield* Compression
      const mint = opt(o.mint)
      const params = { owner: o.owner, ...(mint === undefined ? {} : { mint }), ...paging(o) }
      const rows = firstOrAll(
        o,
        Effect.map(
          zk.getCompressedTokenAccountsByOwner(params),
          (r) => ({ items: r.value.items, more: r.value.cursor !== null })
        ),
        zk.getCompressedTokenAccountsByOwner.stream(params)
      )
      yield* (yield* Output).rows(rows, {
        progress: o.all ? "accounts" : undefined,
        columns: [
          { header: "mint", cell: (a) => a.tokenData.mint },
          { header: "amount (raw)", cell: (a) => Format.integer(a.tokenData.amount), align: "right" },
          { header: "state", cell: (a) => a.tokenData.state },
          { header: "hash", cell: (a) => a.account.hash }
        ]
      })
    }))
).pipe(Command.withDescription("Compressed token accounts of an owner"))

const tokenBalances = Command.make(
  "token-balances",
  { owner: address("owner", "The owner"), mint: mintFilter, all, limit },
  (o) =>
    withServices(Effect.gen(function*() {
      const zk = yield* Compression
      const mint = opt(o.mint)
      const params = { owner: o.owner, ...(mint === undefined ? {} : { mint }), ...paging(o) }
      const rows = firstOrAll(
        o,
        Effect.map(
          zk.getCompressedTokenBalancesByOwnerV2(params),
          (r) => ({ items: r.value.items, more: r.value.cursor !== null })
        ),
        zk.getCompressedTokenBalancesByOwnerV2.stream(params)
      )
      yield* (yield* Output).rows(rows, {
        progress: o.all ? "balances" : undefined,
        columns: [
          { header: "mint", cell: (b) => b.mint },
          { header: "balance (raw)", cell: (b) => Format.integer(b.balance), align: "right" }
        ]
      })
    }))
).pipe(Command.withDescription("Compressed token balance per mint of an owner (V2)"))

const tokenOwnerSignatures = Command.make(
  "token-owner-signatures",
  { owner: address("owner", "The token owner"), all, limit },
  (o) =>
    withServices(Effect.gen(function*() {
      const zk = yield* Compression
      const params = { owner: o.owner, ...paging(o) }
      const rows = firstOrAll(
        o,
        Effect.map(
          zk.getCompressionSignaturesForTokenOwner(params),
          (r) => ({ items: r.value.items, more: r.value.cursor !== null })
        ),
        zk.getCompressionSignaturesForTokenOwner.stream(params)
      )
      yield* (yield* Output).rows(rows, { columns: signatureColumns, progress: o.all ? "signatures" : undefined })
    }))
).pipe(Command.withDescription("Signatures touching the owner's compressed token accounts"))

const latestSignatures = Command.make("latest-signatures", { limit }, (o) =>
  withServices(Effect.gen(function*() {
    const result = yield* (yield* Compression).getLatestNonVotingSignatures(paging(o))
    yield* (yield* Output).rows(Stream.fromIterable(result.value.items), {
      columns: [
        { header: "slot", cell: (s) => String(s.slot), align: "right" },
        { header: "time", cell: (s) => Format.time(s.blockTime) },
        { header: "status", cell: (s) => s.error === null ? "ok" : `error: ${s.error}` },
        { header: "signature", cell: (s) => s.signature }
      ]
    })
  }))).pipe(Command.withDescription("The latest non-voting signatures (not paged)"))

const hex = (bytes: Uint8Array) => bytes.length === 0 ? "-" : Buffer.from(bytes).toString("hex")

/**
 * A validity proof as lines.
 *
 * @since 0.1.0
 * @category rendering
 */
export const proofLines = (p: ValidityProof, indent = ""): ReadonlyArray<string> =>
  Format.fields([
    ["proof a (32 B)", hex(p.compressedProof.a)],
    ["proof b (64 B)", hex(p.compressedProof.b)],
    ["proof c (32 B)", hex(p.compressedProof.c)],
    ["roots", p.roots.join(", ") || "-"],
    ["rootIndices", p.rootIndices.join(", ") || "-"],
    ["leafIndices", p.leafIndices.join(", ") || "-"],
    ["leaves", p.leaves.join(", ") || "-"],
    ["merkleTrees", p.merkleTrees.join(", ") || "-"]
  ], indent)

const parseNewAddress = (text: string) => {
  const [addr, tree, ...extra] = text.split(":")
  return addr && tree && extra.length === 0
    ? Effect.succeed({ address: addr, tree })
    : Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--new-address: expected ADDRESS:TREE, got "${text}"`)))
}

const newAddress = Options.text("new-address").pipe(
  Options.withDescription("A new address to prove creatable, as ADDRESS:TREE (repeatable)"),
  Options.repeated,
  Options.mapEffect((texts) => Effect.forEach(texts, parseNewAddress)),
  // Shown optional (in brackets) in the usage: a proof needs hashes, new addresses, or both.
  Options.withDefault([])
)

const validityProof = Command.make(
  "validity-proof",
  {
    hashes: Options.text("hash").pipe(
      Options.withDescription("An account hash to prove valid (repeatable)"),
      Options.repeated,
      Options.withDefault([])
    ),
    newAddresses: newAddress
  },
  (o) =>
    withServices(Effect.gen(function*() {
      const result = yield* (yield* Compression).getValidityProof({
        ...(o.hashes.length > 0 ? { hashes: o.hashes } : {}),
        ...(o.newAddresses.length > 0 ? { newAddressesWithTrees: o.newAddresses } : {})
      })
      yield* (yield* Output).value(
        result,
        (r) => [`validity proof at slot ${r.context.slot}`, ...proofLines(r.value, "  ")]
      )
    }))
).pipe(Command.withDescription("A validity proof for account hashes and new addresses"))

const accountRow: ReadonlyArray<Format.Column<readonly [string, AccountWithOptionalTokenData]>> = [
  { header: "", cell: ([kind]) => kind },
  { header: "hash", cell: ([, a]) => a.account.hash },
  { header: "lamports", cell: ([, a]) => Format.integer(a.account.lamports), align: "right" },
  { header: "token", cell: ([, a]) => a.optionalTokenData === null ? "-" : a.optionalTokenData.mint },
  {
    header: "amount (raw)",
    cell: ([, a]) => a.optionalTokenData === null ? "-" : Format.integer(a.optionalTokenData.amount),
    align: "right"
  }
]

const transaction = Command.make(
  "transaction",
  { signature: address("signature", "A transaction signature") },
  ({ signature }) =>
    withServices(Effect.gen(function*() {
      const tx = yield* (yield* Compression).getTransactionWithCompressionInfo({ signature })
      yield* (yield* Output).value(tx, (t) => [
        `transaction ${signature}${t.transaction.slot === undefined ? "" : ` (slot ${t.transaction.slot})`}`,
        ...Format.table(accountRow, [
          ...t.compressionInfo.closedAccounts.map((a) => ["closed", a] as const),
          ...t.compressionInfo.openedAccounts.map((a) => ["opened", a] as const)
        ]).map((l) => "  " + l)
      ])
    }))
).pipe(Command.withDescription("A transaction with the compressed accounts it closed and opened"))

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("zk").pipe(
  Command.withDescription("Compression (ZK) methods"),
  Command.withSubcommands([
    signaturesForAddress,
    mintHolders,
    tokenAccounts,
    tokenBalances,
    tokenOwnerSignatures,
    latestSignatures,
    validityProof,
    transaction
  ])
)
