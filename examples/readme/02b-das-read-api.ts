// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
declare const ownerAddress: string
declare const collection: string
declare const assetIds: ReadonlyArray<string>
// #region readme
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import { Effect, Option, Stream } from "effect"

const program = Effect.gen(function*() {
  const das = yield* DigitalAssets.DigitalAssets
  const asset = yield* das.getAsset({ id: assetIds[0]! }) // an unknown id fails with the service's error
  // Any number of ids, 1,000 per request, in order; an unknown id is Option.none() in its place.
  const batch = yield* das.getAssetBatch({ ids: assetIds })
  // Owner, group and creator lists page like getAssetsByAuthority: …Stream, …Pages, 8 pages in flight.
  const owned = yield* das.getAssetsByOwnerStream({ ownerAddress }, { concurrency: 8 }).pipe(Stream.runCount)
  const inCollection = yield* das.getAssetsByGroup({ groupKey: "collection", groupValue: collection, limit: 10 })
  // searchAssets takes the AssetSearch filters; every filter given must match.
  const cnfts = yield* das.searchAssetsStream({ ownerAddress, compressed: true }).pipe(
    Stream.take(100),
    Stream.runCollect
  )
  // getAssetProof calls run together go out as getAssetProofBatch requests of at most 1,000 ids.
  const proofs = yield* Effect.forEach(cnfts, (a) => das.getAssetProof({ id: a.id }), { batching: true })
  console.log(asset.id, batch.filter(Option.isSome).length, owned, inCollection.items.length, proofs.length)
})
// #endregion readme

export { program }
