/**
 * `solfx das ...`: the digital-asset (DAS) methods.
 *
 * @since 0.1.0
 */

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import type { AssetProof } from "@solfx/core/AssetProof"
import type { DigitalAsset, DigitalAssetList } from "@solfx/core/DigitalAsset"
import type { ApiError, InvalidRequest } from "@solfx/core/Errors"
import * as MerkleProof from "@solfx/core/MerkleProof"
import { DigitalAssets, type StreamOptions } from "@solfx/rpc/DigitalAssets"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Format from "../Format.js"
import { all, firstOrAllPages, fullPage, limit, opt, values, withServices } from "../Handler.js"
import { Output, type RowsPage } from "../Output.js"

const paging = (o: { readonly limit: Option.Option<number> }) => {
  const l = opt(o.limit)
  return l === undefined ? {} : { limit: l }
}

const tokenAccounts = Command.make(
  "token-accounts",
  {
    owner: Args.text({ name: "owner" }).pipe(Args.withDescription("The owner")),
    mint: Options.text("mint").pipe(Options.withDescription("Only this mint"), Options.optional),
    all,
    limit
  },
  (o) =>
    withServices(Effect.gen(function*() {
      const das = yield* DigitalAssets
      const mint = opt(o.mint)
      const params = { owner: o.owner, ...(mint === undefined ? {} : { mint }), ...paging(o) }
      const pages = firstOrAllPages(
        o,
        Effect.map(das.getTokenAccounts({ ...params, page: 1 }), (r) => ({
          items: r.token_accounts,
          more: fullPage(r, r.token_accounts)
        })),
        das.getTokenAccounts.pages(params)
      )
      yield* (yield* Output).pages(pages, {
        progress: o.all ? "token accounts" : undefined,
        columns: [
          { header: "address", cell: (a) => a.address },
          { header: "mint", cell: (a) => a.mint },
          { header: "amount (raw)", cell: (a) => Format.integer(a.amount), align: "right" },
          { header: "frozen", cell: (a) => a.frozen ? "yes" : "no" }
        ]
      })
    }))
).pipe(Command.withDescription("Token accounts of an owner"))

/**
 * The asset table's columns.
 *
 * @since 0.1.0
 * @category columns
 */
export const assetColumns: ReadonlyArray<Format.Column<DigitalAsset>> = [
  { header: "id", cell: (a) => a.id },
  { header: "interface", cell: (a) => a.interface },
  { header: "compressed", cell: (a) => a.compression.compressed ? "yes" : "no" },
  { header: "owner", cell: (a) => a.ownership.owner }
]

/** `--sort`, `--direction` and `--concurrency`, shared by the asset lists. */
const listOptions = {
  sort: Options.choice("sort", ["created", "recent_action", "updated", "none"]).pipe(
    Options.withDescription("Sort field"),
    Options.optional
  ),
  direction: Options.choice("direction", ["asc", "desc"]).pipe(
    Options.withDescription("Sort direction"),
    Options.optional
  ),
  concurrency: Options.integer("concurrency").pipe(
    Options.withDescription("Pages in flight at once with --all (default 4)"),
    Options.optional
  ),
  all,
  limit
}

type ListOptions = Command.Command.ParseConfig<typeof listOptions>

/** The params every asset list shares: page size and sort. */
const listParams = (o: ListOptions) => {
  const sort = opt(o.sort)
  const direction = opt(o.direction)
  return {
    ...paging(o),
    ...(sort === undefined && direction === undefined
      ? {}
      : { sortBy: { sortBy: sort ?? "created", ...(direction === undefined ? {} : { sortDirection: direction }) } })
  }
}

/** An asset list by `<key>Address`: its first page, or with `--all` every page (`--concurrency` at a time), as asset rows. */
const assetList = <K extends string, P>(
  name: string,
  key: K,
  describe: string,
  methods: (das: Context.Tag.Service<typeof DigitalAssets>) => {
    readonly page: (params: P) => Effect.Effect<DigitalAssetList, ApiError | InvalidRequest>
    readonly pages: (
      params: P,
      options: StreamOptions
    ) => Stream.Stream<RowsPage<DigitalAsset>, ApiError | InvalidRequest>
  }
) =>
  Command.make(
    name,
    { key: Args.text({ name: key }).pipe(Args.withDescription(`The ${key} address`)), ...listOptions },
    (o) =>
      withServices(Effect.gen(function*() {
        const m = methods(yield* DigitalAssets)
        const params = { [`${key}Address`]: o.key, ...listParams(o) } as P
        const concurrency = opt(o.concurrency)
        const pages = firstOrAllPages(
          o,
          Effect.map(m.page({ ...params, page: 1 }), (r) => ({ items: r.items, more: fullPage(r, r.items) })),
          m.pages(params, concurrency === undefined ? {} : { concurrency })
        )
        yield* (yield* Output).pages(pages, { columns: assetColumns, progress: o.all ? "assets" : undefined })
      }))
  ).pipe(Command.withDescription(describe))

const assetsByAuthority = assetList(
  "assets-by-authority",
  "authority",
  "Assets (NFTs, compressed NFTs, tokens) an authority controls",
  (das) => ({ page: das.getAssetsByAuthority, pages: das.getAssetsByAuthority.pages })
)

const assetsByOwner = assetList(
  "assets-by-owner",
  "owner",
  "Assets an owner holds",
  (das) => ({ page: das.getAssetsByOwner, pages: das.getAssetsByOwner.pages })
)

const asset = Command.make(
  "asset",
  { id: Args.text({ name: "id" }).pipe(Args.withDescription("The asset id")) },
  (o) =>
    withServices(Effect.gen(function*() {
      const found = yield* (yield* DigitalAssets).getAsset({ id: o.id })
      yield* (yield* Output).rows(Stream.make(found), {
        columns: [...assetColumns, { header: "name", cell: (a) => String(a.content?.metadata?.["name"] ?? "") }]
      })
    }))
).pipe(Command.withDescription("One asset by id (--json: the whole record)"))

const search = Command.make(
  "search",
  {
    owner: Options.text("owner").pipe(Options.withDescription("Held by this owner"), Options.optional),
    creator: Options.text("creator").pipe(Options.withDescription("Listing this creator"), Options.optional),
    authority: Options.text("authority").pipe(
      Options.withDescription("Controlled by this authority"),
      Options.optional
    ),
    collection: Options.text("collection").pipe(Options.withDescription("In this collection"), Options.optional),
    compressed: Options.boolean("compressed").pipe(Options.withDescription("Only compressed assets")),
    ...listOptions
  },
  (o) =>
    withServices(Effect.gen(function*() {
      const das = yield* DigitalAssets
      const filters = Object.fromEntries(
        Object.entries({
          ownerAddress: opt(o.owner),
          creatorAddress: opt(o.creator),
          authorityAddress: opt(o.authority),
          grouping: Option.getOrUndefined(Option.map(o.collection, (c) => ["collection", c] as const)),
          compressed: o.compressed ? true : undefined
        }).filter(([, v]) => v !== undefined)
      )
      const params = { ...filters, ...listParams(o) }
      const concurrency = opt(o.concurrency)
      const pages = firstOrAllPages(
        o,
        Effect.map(das.searchAssets({ ...params, page: 1 }), (r) => ({ items: r.items, more: fullPage(r, r.items) })),
        das.searchAssets.pages(params, concurrency === undefined ? {} : { concurrency })
      )
      yield* (yield* Output).pages(pages, { columns: assetColumns, progress: o.all ? "assets" : undefined })
    }))
).pipe(Command.withDescription("Assets matching every filter given (--owner, --creator, --compressed, ...)"))

const assetSignatures = Command.make(
  "asset-signatures",
  { id: Args.text({ name: "id" }).pipe(Args.withDescription("The asset id")), all, limit },
  (o) =>
    withServices(Effect.gen(function*() {
      const das = yield* DigitalAssets
      const params = { id: o.id, ...paging(o) }
      const pages = firstOrAllPages(
        o,
        Effect.map(
          das.getSignaturesForAsset({ ...params, page: 1 }),
          (r) => ({ items: r.items, more: fullPage(r, r.items) })
        ),
        das.getSignaturesForAsset.pages(params)
      )
      yield* (yield* Output).pages(pages, {
        progress: o.all ? "signatures" : undefined,
        columns: [
          { header: "kind", cell: (s) => s.kind },
          { header: "signature", cell: (s) => s.signature }
        ]
      })
    }))
).pipe(Command.withDescription("Transaction signatures of an asset"))

/**
 * One row of `das proofs`: the id, its proof (absent when the service has none)
 * and, with `--verify`, whether it hashes to its root.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProofRow {
  readonly id: string
  readonly proof: Option.Option<AssetProof>
  readonly verified?: boolean | undefined
  readonly reason?: string | undefined
}

/**
 * A proof row with its verification.
 *
 * @since 0.1.0
 * @category verification
 */
export const verifyRow = (id: string, proof: Option.Option<AssetProof>): ProofRow => {
  if (Option.isNone(proof)) return { id, proof, verified: false, reason: "no proof" }
  const v = MerkleProof.verify(proof.value)
  return v.valid ? { id, proof, verified: true } : { id, proof, verified: false, reason: v.reason }
}

const proofs = Command.make(
  "proofs",
  {
    ids: values("id", "Asset ids", 1),
    verify: Options.boolean("verify").pipe(
      Options.withDescription("Check each proof hashes to its root (adds verified)")
    )
  },
  (o) =>
    withServices(Effect.gen(function*() {
      const batch = yield* (yield* DigitalAssets).getAssetProofBatch(o.ids)
      const rows: Array<ProofRow> = o.ids.map((id) => {
        const proof = batch.get(id) ?? Option.none()
        return o.verify ? verifyRow(id, proof) : { id, proof }
      })
      yield* (yield* Output).rows(Stream.fromIterable(rows), {
        json: (r) =>
          Option.match(r.proof, {
            onNone: () => ({ id: r.id, proof: null, ...(o.verify ? { verified: false } : {}) }),
            onSome: (p) => ({ id: r.id, ...p, ...(o.verify ? { verified: r.verified } : {}) })
          }),
        columns: [
          { header: "id", cell: (r) => r.id },
          ...(o.verify
            ? [{ header: "verified", cell: (r: ProofRow) => r.verified ? "yes" : `NO (${r.reason})` }]
            : []),
          {
            header: "depth",
            cell: (r) => Option.match(r.proof, { onNone: () => "-", onSome: (p) => String(p.proof.length) }),
            align: "right"
          },
          {
            header: "tree",
            cell: (r) => Option.match(r.proof, { onNone: () => "(no proof)", onSome: (p) => p.tree_id })
          },
          { header: "root", cell: (r) => Option.match(r.proof, { onNone: () => "-", onSome: (p) => p.root }) }
        ]
      })
    }))
).pipe(Command.withDescription("Merkle proofs of compressed assets, batched; --verify checks each one"))

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("das").pipe(
  Command.withDescription(
    "Digital assets (DAS): assets by id, owner, authority and search; token accounts, signatures, proofs"
  ),
  Command.withSubcommands([asset, assetsByOwner, assetsByAuthority, search, tokenAccounts, assetSignatures, proofs])
)
