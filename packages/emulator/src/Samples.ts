/**
 * The emulator's samples: addresses of the seeded world with data, each field named for
 * what it has. They are printed on the start line (`samples`), under these names and,
 * for existing scripts, under the older ones (`legacyNames`).
 *
 * @example
 * const emu = yield* Emulator.EmulatorHandle
 * yield* das.getAssetsByOwner({ ownerAddress: emu.samples.nftOwner }) // 100,000 assets
 * yield* das.getTokenAccounts({ owner: emu.samples.tokenAccountOwner }) // 2,500 token accounts
 * @since 0.1.0
 */

/**
 * Every sample, by what it has (default sizes; the size knobs in parentheses change them).
 *
 * @since 0.1.0
 * @category models
 */
export interface Samples {
  /** Wallet API: an identity, a funding source, 250 tokens over 3 pages, NFTs, 1,234 transfers (`wallet.bigTransfers`). */
  readonly wallet: string
  /** The `.sol` domain of `wallet`. */
  readonly walletDomain: string
  /** A valid address the seed holds nothing for: empty everywhere, identity and funded-by 404. */
  readonly unknownAddress: string
  /** DAS: owns 100,000 assets (`das.bigAuthorityAssets`), the big authority's. */
  readonly nftOwner: string
  /** DAS: creator of 100,000 assets. */
  readonly nftCreator: string
  /** DAS: a collection of 100,000 assets. */
  readonly nftCollection: string
  /** DAS: owns about ten assets of `assetAuthority`. */
  readonly smallNftOwner: string
  /** DAS: update authority of 10,000 assets (`das.authorityAssets`), one in four compressed. */
  readonly assetAuthority: string
  /** DAS: update authority of 100,000 assets (`das.bigAuthorityAssets`), for benchmarks. */
  readonly bigAssetAuthority: string
  /** DAS: the batch job's authorities, 20 (`das.batchAuthorities`) × 5,000 assets (`das.batchAuthorityAssets`). */
  readonly batchAssetAuthorities: ReadonlyArray<string>
  /** DAS: a master edition with its prints (getNftEditions). */
  readonly masterEdition: string
  /** DAS: a compressed NFT in a depth-14 tree, with 2,000 signatures (`das.assetSignatures`). */
  readonly compressedNft: string
  /** DAS: an uncompressed NFT. */
  readonly uncompressedNft: string
  /** getTokenAccounts: owns 2,500 token accounts (`das.ownerTokenAccounts`), one in ten empty; no assets. */
  readonly tokenAccountOwner: string
  /** getTokenAccounts: a mint with 1,500 token accounts (`das.mintHolders`). */
  readonly tokenAccountMint: string
  /** Token metadata: a mint whose every part resolves. */
  readonly metadataMint: string
  /** Token metadata: its metadata account is missing (`onChainMetadata.error` "EMPTY_ACCOUNT"). */
  readonly metadataBrokenMint: string
  /** Token metadata: its supply grows each slot (shows whether `disableCache` bypassed the cache). */
  readonly metadataLiveMint: string
  /** Token metadata: `dataset.address(label + i)` is seeded mint i. */
  readonly metadataMintLabel: string
  /** Photon: a compressed token mint with 5,000 holders, the top one above 2^53. */
  readonly compressedTokenMint: string
  /** Photon: compressed token accounts in every mint, balances, token signatures. */
  readonly compressedTokenOwner: string
  /** Photon: an address with 1,000,000 signatures. */
  readonly compressionAddress: string
  /** Photon: a signature of `compressedTokenOwner`'s. */
  readonly compressionSignature: string
  /** Photon: a compressed account's hash. */
  readonly compressedAccountHash: string
  /** Photon: the program owning every address account (getCompressionSignaturesForOwner gives all of theirs). */
  readonly compressionProgram: string
  /** Priority fees: the busiest account of the cluster's seeded traffic (getPriorityFeeEstimate). */
  readonly feeAccount: string
}

/**
 * The older name of each sample (the areas' keys), still printed on the start line.
 *
 * @since 0.1.0
 * @category constants
 */
export const legacyNames: { readonly [K in keyof Samples]?: string } = {
  unknownAddress: "walletUnknown",
  nftOwner: "dasAssetOwner",
  nftCreator: "dasCreator",
  nftCollection: "dasCollection",
  smallNftOwner: "dasSmallOwner",
  assetAuthority: "dasAuthority",
  bigAssetAuthority: "dasBigAuthority",
  batchAssetAuthorities: "dasBatchAuthorities",
  masterEdition: "dasMasterEdition",
  compressedNft: "dasCompressedAsset",
  uncompressedNft: "dasUncompressedAsset",
  tokenAccountOwner: "dasOwner",
  tokenAccountMint: "dasMint",
  metadataMint: "tokenMetadataMint",
  metadataBrokenMint: "tokenMetadataBrokenMint",
  metadataLiveMint: "tokenMetadataLiveMint",
  metadataMintLabel: "tokenMetadataMintLabel",
  compressedTokenMint: "compressedMint"
}

/**
 * The typed samples from the areas' records (keyed by the older names).
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromAreas = (byArea: Readonly<Record<string, string>>): Samples => {
  const at = (name: keyof Samples): string => byArea[legacyNames[name] ?? name] ?? ""
  return {
    wallet: at("wallet"),
    walletDomain: at("walletDomain"),
    unknownAddress: at("unknownAddress"),
    nftOwner: at("nftOwner"),
    nftCreator: at("nftCreator"),
    nftCollection: at("nftCollection"),
    smallNftOwner: at("smallNftOwner"),
    assetAuthority: at("assetAuthority"),
    bigAssetAuthority: at("bigAssetAuthority"),
    batchAssetAuthorities: at("batchAssetAuthorities").split(",").filter((s) => s !== ""),
    masterEdition: at("masterEdition"),
    compressedNft: at("compressedNft"),
    uncompressedNft: at("uncompressedNft"),
    tokenAccountOwner: at("tokenAccountOwner"),
    tokenAccountMint: at("tokenAccountMint"),
    metadataMint: at("metadataMint"),
    metadataBrokenMint: at("metadataBrokenMint"),
    metadataLiveMint: at("metadataLiveMint"),
    metadataMintLabel: at("metadataMintLabel"),
    compressedTokenMint: at("compressedTokenMint"),
    compressedTokenOwner: at("compressedTokenOwner"),
    compressionAddress: at("compressionAddress"),
    compressionSignature: at("compressionSignature"),
    compressedAccountHash: at("compressedAccountHash"),
    compressionProgram: at("compressionProgram"),
    feeAccount: at("feeAccount")
  }
}

/**
 * The start line's `samples`: every sample under its name (the batch authorities comma-separated)
 * and under its older name, plus what extra areas add.
 *
 * @since 0.1.0
 * @category constructors
 */
export const startLineRecord = (
  samples: Samples,
  byArea: Readonly<Record<string, string>>
): Readonly<Record<string, string>> => {
  const out: Record<string, string> = { ...byArea }
  for (const [name, value] of Object.entries(samples)) {
    out[name] = Array.isArray(value) ? value.join(",") : value as string
  }
  return out
}
