/**
 * The deprecated `POST /v0/token-metadata`, as the service documents it, over seeded data.
 *
 * A mint of the world answers from the world's one record of it: a mint the world API
 * made (`World`), an uncompressed NFT of the asset index (the name, uri, authority and
 * creators of its `getAsset`), or a seeded mint (the seeded metadata mints, the mints
 * of seeded token accounts, whose supply is the sum of their accounts, and the
 * compressed token mints). Any other address is no mint account: every part of its
 * record is an error. Per-part errors of seeded mints, by a seeded draw
 * per mint: 5% have no metadata account (`onChainMetadata.error = "EMPTY_ACCOUNT"`,
 * and so nothing to fetch off chain), 5% have an off-chain document that fails
 * to load, 2% are not mint accounts at all (every part fails); the sample
 * `tokenMetadataBrokenMint` always lacks its metadata account. One mint in ten
 * has a legacy token-list entry. `offChainMetadata` is sent only with
 * `includeOffChain`.
 *
 * Cache: the first request for a mint caches the record as of the current slot;
 * later requests get the cached record until one sets `disableCache`, which
 * reads the current state and refreshes the cache. The sample
 * `tokenMetadataLiveMint` mints one token per slot, so its supply shows whether
 * an answer came from the cache.
 *
 * Invalid bodies (no `mintAccounts`, more than 100, an invalid address, unknown
 * keys) are HTTP 400 `{"error": …}` before any credits are charged. Each call is
 * charged by `Endpoints.tokenMetadata`.
 *
 * @since 0.1.0
 */

import * as Endpoints from "@solfx/core/Endpoints"
import * as TokenMetadataSchema from "@solfx/core/TokenMetadataRecord"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { Area, AreaContext } from "../Area.js"
import { RestFailure, restRoute } from "../Area.js"
import type * as Dataset from "../Dataset.js"
import * as CompressedState from "../seed/CompressedState.js"
import * as AssetSeed from "../seed/DigitalAssets.js"
import * as Wallets from "../seed/Wallets.js"
import * as World from "../World.js"
import * as DA from "./DigitalAssets.js"
import * as DasTokenAccounts from "./digitalAssets/TokenAccounts.js"

const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
const U64_MAX = 18446744073709551615n

/** The parsed mint account every record's `onChainAccountInfo` carries. */
const mintAccountInfo = (
  mint: string,
  info: {
    readonly decimals: number
    readonly supply: bigint | string
    readonly mintAuthority: string | null
    readonly freezeAuthority: string | null
  }
) => ({
  accountInfo: {
    key: mint,
    isSigner: false,
    isWritable: false,
    lamports: 1461600,
    data: {
      parsed: {
        info: {
          decimals: info.decimals,
          freezeAuthority: info.freezeAuthority,
          isInitialized: true,
          mintAuthority: info.mintAuthority,
          supply: info.supply.toString()
        },
        type: "mint"
      },
      program: "spl-token",
      space: 82
    },
    owner: TOKEN_PROGRAM,
    executable: false,
    rentEpoch: U64_MAX
  },
  error: ""
})

/**
 * A mint whose metadata account is always missing.
 *
 * @since 0.1.0
 * @category data
 */
export const brokenMint = (dataset: Dataset.Dataset): string => dataset.address("tm:mint:broken")

/**
 * A mint whose supply grows by one token per slot.
 *
 * @since 0.1.0
 * @category data
 */
export const liveMint = (dataset: Dataset.Dataset): string => dataset.address("tm:mint:live")

/**
 * Seeded mint `i` (any valid address works; these are handy lists).
 *
 * @since 0.1.0
 * @category data
 */
export const mintAt = (dataset: Dataset.Dataset, i: number): string => dataset.address(`tm:mint:${i}`)

/**
 * Which part fails for a mint, if any.
 *
 * @since 0.1.0
 * @category data
 */
export const failureOf = (dataset: Dataset.Dataset, mint: string): "none" | "metadata" | "offChain" | "account" => {
  if (mint === brokenMint(dataset)) return "metadata"
  const draw = dataset.int(`tm:${mint}:failure`, 100)
  // A mint that token accounts (or compressed holders) hold is a mint account: it never fails whole.
  const held = draw >= 10 && draw < 12 &&
    (isAccountMint(dataset, mint) || CompressedState.mintSupply(dataset, mint) !== undefined)
  return draw < 5 ? "metadata" : draw < 10 ? "offChain" : draw < 12 && !held ? "account" : "none"
}

/**
 * The first seeded mint whose parts all resolve.
 *
 * @since 0.1.0
 * @category data
 */
export const healthyMint = (dataset: Dataset.Dataset): string => {
  for (let i = 0;; i++) if (failureOf(dataset, mintAt(dataset, i)) === "none") return mintAt(dataset, i)
}

/** Seeded mints `tm:mint:<i>` below this are mint accounts (any other address is not). */
const SEEDED_MINTS = 1_000

const seededIndex = new WeakMap<Dataset.Dataset, ReadonlySet<string>>()

/**
 * Whether a mint account exists in the seeded world: a seeded metadata mint, a mint some seeded
 * token account (DAS, Wallet API) holds, or a compressed token mint. Any other address has none:
 * every part of its record is an error, as the service answers for an account that does not exist.
 */
const isSeededMint = (dataset: Dataset.Dataset, mint: string): boolean => {
  let set = seededIndex.get(dataset)
  if (set === undefined) {
    const all = new Set<string>([brokenMint(dataset), liveMint(dataset)])
    for (let i = 0; i < SEEDED_MINTS; i++) all.add(mintAt(dataset, i))
    for (let k = 0; k < CompressedState.mintCount(dataset); k++) all.add(CompressedState.mintAt(dataset, k))
    seededIndex.set(dataset, set = all)
  }
  return set.has(mint) || isAccountMint(dataset, mint)
}

/**
 * Whether a seeded mint account exists: a mint `isSeededMint` knows whose account token metadata
 * reads (it is not one of the 2% that are no mint). DAS serves each as an asset (`getAsset`), with
 * the facts of `seededMint`: token metadata's mints exist in DAS.
 *
 * @since 0.1.0
 * @category data
 */
export const isMintAccount = (dataset: Dataset.Dataset, mint: string): boolean =>
  isSeededMint(dataset, mint) && failureOf(dataset, mint) !== "account"

/** The fields in which one token-metadata record (a seeded NFT's, a world mint's) differs from another. */
interface MetadataFields {
  readonly mint: string
  readonly decimals: number
  readonly supply: bigint
  readonly mintAuthority: string | null
  readonly freezeAuthority: string | null
  readonly updateAuthority: string
  readonly name: string
  readonly symbol: string
  readonly uri: string
  readonly sellerFeeBasisPoints: number
  readonly creators: ReadonlyArray<{ readonly address: string; readonly share: number; readonly verified: boolean }>
  readonly tokenStandard: string
  readonly primarySaleHappened: boolean
  readonly isMutable: boolean
  readonly editionNonce: number | null
  readonly collection: string | null
  readonly image: string
}

/** A record with on-chain Metaplex metadata, and its off-chain JSON when asked for: one shape for every such mint. */
const metadataRecord = (f: MetadataFields, includeOffChain: boolean) => ({
  account: f.mint,
  onChainAccountInfo: mintAccountInfo(f.mint, {
    decimals: f.decimals,
    supply: f.supply,
    mintAuthority: f.mintAuthority,
    freezeAuthority: f.freezeAuthority
  }),
  onChainMetadata: {
    metadata: {
      key: "MetadataV1",
      mint: f.mint,
      updateAuthority: f.updateAuthority,
      data: {
        name: f.name,
        symbol: f.symbol,
        uri: f.uri,
        sellerFeeBasisPoints: f.sellerFeeBasisPoints,
        creators: f.creators
      },
      tokenStandard: f.tokenStandard,
      primarySaleHappened: f.primarySaleHappened,
      isMutable: f.isMutable,
      editionNonce: f.editionNonce,
      collection: f.collection === null ? null : { key: f.collection, verified: true },
      collectionDetails: null,
      uses: null
    },
    error: ""
  },
  ...(includeOffChain
    ? {
      offChainMetadata: {
        metadata: {
          name: f.name,
          symbol: f.symbol,
          attributes: [],
          sellerFeeBasisPoints: f.sellerFeeBasisPoints,
          image: f.image,
          properties: {
            category: "image",
            files: [],
            creators: f.creators.map(({ address, share }) => ({ address, share }))
          }
        },
        uri: f.uri,
        error: ""
      }
    }
    : {}),
  legacyMetadata: null
})

/** Token metadata of an uncompressed NFT of the asset index: the same name, uri, authority and creators as getAsset. */
const renderNft = (dataset: Dataset.Dataset, authority: string, index: number, includeOffChain: boolean) => {
  const asset = AssetSeed.assetJson(dataset, authority, index)
  // An MplCore asset is no SPL mint.
  if (asset.interface === "MplCoreAsset") return render(dataset, asset.id, 0, includeOffChain, false)
  return metadataRecord({
    mint: asset.id,
    decimals: 0,
    supply: 1n,
    mintAuthority: authority,
    freezeAuthority: authority,
    updateAuthority: authority,
    // The asset JSON types its metadata loosely; the emulator writes strings there.
    name: String(asset.content?.metadata?.name ?? ""),
    symbol: String(asset.content?.metadata?.symbol ?? ""),
    uri: asset.content?.json_uri ?? "",
    sellerFeeBasisPoints: asset.royalty?.basis_points ?? 0,
    creators: (asset.creators ?? []).map((c) => ({ address: c.address, share: c.share, verified: c.verified })),
    tokenStandard: asset.interface === "ProgrammableNFT" ? "ProgrammableNonFungible" : "NonFungible",
    primarySaleHappened: asset.royalty?.primary_sale_happened ?? false,
    isMutable: asset.mutable ?? true,
    editionNonce: 254,
    collection: asset.grouping?.find((g) => g.group_key === "collection")?.group_value ?? null,
    image: String(asset.content?.links?.["image"] ?? "")
  }, includeOffChain)
}

/**
 * The seeded token accounts of a mint beyond its DAS holder list (`DasTokenAccounts.mintHolderCount`), zero
 * balances included: the owners' accounts that list does not hold, and the seeded wallets'.
 * getTokenAccounts by mint lists them after the holders; with the holders they are its supply.
 *
 * @since 0.1.0
 * @category data
 */
export const seededAccountsOfMint = (dataset: Dataset.Dataset, mint: string) => [
  ...DasTokenAccounts.ownerAccountsOfMint(dataset, mint),
  ...Wallets.walletAccountsOfMint(dataset, mint)
]

/**
 * Whether seeded token accounts (DAS owners' or holders', seeded wallets') hold this mint.
 *
 * @since 0.1.0
 * @category data
 */
export const isAccountMint = (dataset: Dataset.Dataset, mint: string): boolean =>
  DasTokenAccounts.isAccountMint(dataset, mint) || Wallets.isWalletMint(dataset, mint)

/**
 * The raw supply of a mint that seeded token accounts hold: the sum of their amounts, or undefined
 * for a mint no seeded token account holds.
 *
 * @since 0.1.0
 * @category data
 */
export const accountsSupply = (dataset: Dataset.Dataset, mint: string): bigint | undefined => {
  const holders = DasTokenAccounts.mintSupply(dataset, mint)
  const others = seededAccountsOfMint(dataset, mint)
  if (holders === undefined && others.length === 0) return undefined
  return others.reduce((sum, t) => sum + t.amount, holders ?? 0n)
}

/**
 * The facts of a seeded mint that token metadata and DAS (`getAsset` of a mint) both show:
 * decimals, supply (the sum of its token accounts, or of its compressed holders' balances, when
 * they hold it), whether it is an NFT (supply 1 and no decimals, as the ledger says; any other
 * mint is fungible), authorities, name, symbol and uri. Computed here once for both.
 *
 * @since 0.1.0
 * @category data
 */
export const seededMint = (dataset: Dataset.Dataset, mint: string, slot: number) => {
  const label = `tm:${mint}`
  const decimals = DasTokenAccounts.mintDecimals(dataset, mint)
  const held = CompressedState.mintSupply(dataset, mint) ?? accountsSupply(dataset, mint)
  // A mint no account holds (a metadata-only mint): a seeded supply, one for a mint of no decimals.
  // A fractional part too, as real supplies have: a large supply is then not a round double.
  const dust = decimals === 0 ? 0n : BigInt(dataset.int(`${label}:dust`, 10 ** decimals))
  const baseSupply = decimals === 0
    ? 1n
    : BigInt(1 + dataset.int(`${label}:supply`, 1_000_000_000)) * 10n ** BigInt(decimals) + dust
  const supply = mint === liveMint(dataset)
    ? baseSupply + BigInt(slot) * 10n ** BigInt(decimals)
    : held ?? baseSupply
  const nft = decimals === 0 && supply === 1n
  return {
    nft,
    decimals,
    supply,
    mintAuthority: nft ? null : dataset.address(`${label}:mint-authority`),
    freezeAuthority: dataset.int(`${label}:freeze`, 3) === 0 ? dataset.address(`${label}:freeze-authority`) : null,
    updateAuthority: dataset.address(`${label}:update-authority`),
    name: nft ? `Seeded NFT ${mint.slice(0, 6)}` : `Seeded Token ${mint.slice(0, 6)}`,
    symbol: `S${mint.slice(0, 3).toUpperCase()}`,
    uri: `https://metadata.solfx.invalid/${mint}.json`
  }
}

const render = (dataset: Dataset.Dataset, mint: string, slot: number, includeOffChain: boolean, known = true) => {
  const label = `tm:${mint}`
  const failure = known ? failureOf(dataset, mint) : "account"
  const facts = seededMint(dataset, mint, slot)
  const { decimals, name, nft, supply, symbol, updateAuthority, uri } = facts
  const creator = dataset.address(`${label}:creator`)
  const sellerFeeBasisPoints = nft ? 500 : 0

  const onChainAccountInfo = failure === "account"
    ? { accountInfo: null, error: "Account does not exist or is not a mint" }
    : mintAccountInfo(mint, {
      decimals,
      supply,
      mintAuthority: facts.mintAuthority,
      freezeAuthority: facts.freezeAuthority
    })
  const hasMetadata = failure !== "metadata" && failure !== "account"
  const onChainMetadata = hasMetadata
    ? {
      metadata: {
        key: "MetadataV1",
        mint,
        updateAuthority,
        data: { name, symbol, uri, sellerFeeBasisPoints, creators: [{ address: creator, share: 100, verified: true }] },
        tokenStandard: nft ? "NonFungible" : "Fungible",
        primarySaleHappened: nft,
        isMutable: true,
        editionNonce: dataset.int(`${label}:nonce`, 256),
        collection: nft ? { key: dataset.address(`${label}:collection`), verified: true } : null,
        collectionDetails: null,
        uses: null
      },
      error: ""
    }
    : { metadata: null, error: failure === "account" ? "Account does not exist or is not a mint" : "EMPTY_ACCOUNT" }
  const offChainMetadata = failure === "offChain"
    ? { metadata: null, uri, error: "Failed to fetch off-chain metadata: HTTP 404" }
    : hasMetadata
    ? {
      metadata: {
        name,
        symbol,
        attributes: [{ traitType: "seed", value: String(dataset.int(`${label}:trait`, 1000)) }],
        sellerFeeBasisPoints,
        image: `https://metadata.solfx.invalid/${mint}.png`,
        properties: {
          category: "image",
          files: [{ uri: `https://metadata.solfx.invalid/${mint}.png`, type: "image/png" }],
          creators: [{ address: creator, share: 100 }]
        }
      },
      uri,
      error: ""
    }
    : { metadata: null, uri: "", error: "No metadata uri to fetch" }
  const legacyMetadata = !nft && dataset.int(`${label}:legacy`, 10) === 0
    ? {
      chainId: 101,
      address: mint,
      symbol,
      name,
      decimals,
      logoURI: `https://metadata.solfx.invalid/${mint}.png`,
      tags: ["seeded"],
      extensions: {}
    }
    : null
  return {
    account: mint,
    onChainAccountInfo,
    onChainMetadata,
    ...(includeOffChain ? { offChainMetadata } : {}),
    legacyMetadata
  }
}

/**
 * A mint the world made since start, from the same record DAS and the token accounts read: its
 * supply is the sum of its accounts, its name, uri and authority those of `getAsset`.
 */
const renderWorld = (mint: World.Mint, includeOffChain: boolean) => {
  const nft = mint.kind === "nft"
  return metadataRecord({
    mint: mint.address,
    decimals: mint.decimals,
    supply: mint.supply,
    mintAuthority: nft ? null : mint.authority,
    freezeAuthority: null,
    updateAuthority: mint.authority,
    name: mint.name,
    symbol: mint.symbol,
    uri: mint.uri,
    sellerFeeBasisPoints: 0,
    creators: nft ? [{ address: mint.authority, share: 100, verified: true }] : [],
    tokenStandard: mint.interface === "ProgrammableNFT" ? "ProgrammableNonFungible" : nft ? "NonFungible" : "Fungible",
    primarySaleHappened: false,
    isMutable: true,
    editionNonce: null,
    collection: mint.collection,
    image: ""
  }, includeOffChain)
}

const decodeBody = (body: unknown): Effect.Effect<TokenMetadataSchema.TokenMetadataParams, RestFailure> => {
  const result = Schema.decodeUnknownEither(TokenMetadataSchema.TokenMetadataParams, {
    errors: "first",
    onExcessProperty: "error"
  })(body ?? {})
  if (Either.isRight(result)) return Effect.succeed(result.right)
  const issue = ParseResult.ArrayFormatter.formatErrorSync(result.left)[0]
  const path = issue === undefined || issue.path.length === 0
    ? "body"
    : issue.path.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join("")
  return Effect.fail(new RestFailure(400, `${path}: ${issue?.message ?? "invalid"}`))
}

/** The slot each mint's cached record was read at. */
const cacheOf = (ctx: AreaContext) => ctx.state("token-metadata:cache", () => new Map<string, number>())

const route = restRoute(Endpoints.tokenMetadata, {
  precheck: (request) => Effect.asVoid(decodeBody(request.body)),
  handle: (request, ctx) =>
    Effect.gen(function*() {
      const params = yield* decodeBody(request.body)
      const cache = cacheOf(ctx)
      const now = ctx.slot()
      const world = World.of(ctx.state)
      const offChain = params.includeOffChain === true
      return params.mintAccounts.map((mint) => {
        const minted = world.mint(mint)
        if (minted !== undefined) return renderWorld(minted, offChain)
        // A mint of token accounts first: no asset index to search for it.
        const nft = isAccountMint(ctx.dataset, mint) ? undefined : DA.locate(ctx, mint, { uncompressedOnly: true })
        if (nft !== undefined) return renderNft(ctx.dataset, nft.authority, nft.index, offChain)
        const known = isSeededMint(ctx.dataset, mint)
        const cached = cache.get(mint)
        const slot = params.disableCache === true || cached === undefined ? now : cached
        cache.set(mint, slot)
        return render(ctx.dataset, mint, slot, offChain, known)
      })
    })
})

/**
 * The token-metadata area.
 *
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "token-metadata",
  routes: [route],
  samples: (dataset) => ({
    // The first seeded mint whose parts all resolve.
    tokenMetadataMint: healthyMint(dataset),
    // Its metadata account is missing: onChainMetadata carries "EMPTY_ACCOUNT".
    tokenMetadataBrokenMint: brokenMint(dataset),
    // Its supply grows each slot: shows whether disableCache bypassed the cache.
    tokenMetadataLiveMint: liveMint(dataset),
    // dataset.address(`tm:mint:${i}`) is seeded mint i (any valid address is served).
    tokenMetadataMintLabel: "tm:mint:"
  })
}
