/**
 * The interpreter of the table (issue 39) against a checkout of the code before it, in one process:
 * `INTERP_OLD_ROOT=<checkout> node --conditions=@solfx/source --import tsx bench/interpreter.ts`
 * (e.g. `git worktree add --detach /tmp/interp-old 2819196`, then `cp -a node_modules /tmp/interp-old/`).
 * Both trees' services run over `HttpTesting` (no network, the same canned answers), alternated within each
 * repetition, in rotated order; client CPU (process user + system) per call and per page, medians.
 * Not part of `npm run bench`: it needs the second checkout.
 *
 * The tree loaded second runs slower in one process (by 20–40% on a loaded machine: both trees' copies of
 * Effect share V8's builtins and inline caches), so run it twice, the second time with `INTERP_SWAP=1` (the
 * checkout loaded second), and take the geometric mean of the two ratios.
 */
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const REPS = Number(process.env["BENCH_INTERP_REPS"] ?? 11)
const oldRoot = process.env["INTERP_OLD_ROOT"]
if (oldRoot === undefined) throw new Error("set INTERP_OLD_ROOT to a checkout of the code to compare against")
const newRoot = path.resolve(fileURLToPath(new URL("..", import.meta.url)))

/** One tree's contenders: a small call, a cursor walk (100 pages of 10), a DAS numbered walk (10 pages of 100). */
const load = async (root: string) => {
  const { Effect, ManagedRuntime, Layer, Stream } = await import(`${root}/node_modules/effect/dist/esm/index.js`)
  const { HttpTesting, HttpTransport, Operations } = await import(`${root}/packages/http/src/index.ts`)
  const Endpoints = await import(`${root}/packages/core/src/Endpoints.ts`)
  const { encodeBase58 } = await import(`${root}/packages/core/src/Primitives.ts`)
  const DigitalAssets = await import(`${root}/packages/rpc/src/DigitalAssets.ts`)
  const addr = (n: number) => encodeBase58(new Uint8Array(32).fill(n % 250 + 1)) as string
  const OWNER = addr(7)
  const sig = (n: number) => ({ signature: encodeBase58(new Uint8Array(64).fill(n % 250 + 1)), slot: n, blockTime: n })
  const sigPages = Array.from({ length: 100 }, (_, p) => Array.from({ length: 10 }, (_, k) => sig(p * 10 + k)))
  const asset = (i: number) => ({
    interface: "V1_NFT",
    id: addr(i),
    authorities: [{ address: OWNER, scopes: ["full"] }],
    compression: {
      eligible: false,
      compressed: false,
      data_hash: "",
      creator_hash: "",
      asset_hash: "",
      tree: "",
      seq: 0,
      leaf_id: 0
    },
    grouping: [],
    royalty: {
      royalty_model: "creators",
      target: null,
      percent: 0,
      basis_points: 0,
      primary_sale_happened: false,
      locked: false
    },
    creators: [],
    ownership: { frozen: false, delegated: false, delegate: null, ownership_model: "single", owner: OWNER },
    burnt: false
  })
  const assets = Array.from({ length: 1000 }, (_, i) => asset(i))
  const handler = (req: { body: any }) => {
    const { method, params } = req.body
    if (method === "getAssetsByAuthority") {
      const page = params.page ?? 1
      const items = assets.slice((page - 1) * params.limit, page * params.limit)
      return HttpTesting.rpcResult(req, { total: 1000, limit: params.limit, page, items })
    }
    const page = Number(params.cursor ?? 0)
    const items = params.limit === 2 ? sigPages[0]!.slice(0, 2) : sigPages[page]!
    return HttpTesting.rpcResult(req, {
      context: { slot: 1 },
      value: { items, cursor: params.limit === 2 || page >= 99 ? null : String(page + 1) }
    })
  }
  const runtime = ManagedRuntime.make(
    DigitalAssets.layer.pipe(Layer.provideMerge(HttpTesting.layerTransport(handler)))
  )
  const [zk, das] = await runtime.runPromise(Effect.all([
    Effect.map(HttpTransport.HttpTransport, (t: any) => Operations.make(t, Endpoints.compression)),
    DigitalAssets.DigitalAssets
  ]))
  const call = Effect.asVoid(zk.getCompressionSignaturesForOwner({ owner: OWNER, limit: 2 }))
  const cursor = Stream.runCount(zk.getCompressionSignaturesForOwner.stream({ owner: OWNER, limit: 10 }))
  const numbered = Stream.runCount(das.getAssetsByAuthority.stream({ authorityAddress: OWNER, limit: 100 }))
  if ((await runtime.runPromise(cursor)) !== 1000 || (await runtime.runPromise(numbered)) !== 1000) {
    throw new Error(`${root}: a walk did not give 1000 items`)
  }
  return {
    call: () => runtime.runPromise(call),
    cursor: () => runtime.runPromise(cursor),
    numbered: () => runtime.runPromise(numbered)
  }
}

const cpuMs = async (f: () => Promise<unknown>, n: number) => {
  const t0 = process.cpuUsage()
  for (let i = 0; i < n; i++) await f()
  const used = process.cpuUsage(t0)
  return (used.user + used.system) / 1000 / n
}
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const swap = process.env["INTERP_SWAP"] === "1"
// trees[0] is always the checkout, trees[1] this tree; `swap` only changes which is loaded first.
const trees = swap ? [await load(newRoot), await load(oldRoot)].reverse() : [await load(oldRoot), await load(newRoot)]
for (const t of trees) {
  for (let i = 0; i < 100; i++) await t.call()
  for (let i = 0; i < 3; i++) await t.cursor(), await t.numbered()
}
// Per call, per page (cursor: 100 pages), per page (numbered: 10 pages).
const kinds = [["call", 200, 1], ["cursor", 2, 100], ["numbered", 4, 10]] as const
const samples = trees.map(() => Object.fromEntries(kinds.map(([k]) => [k, [] as Array<number>])))
for (let r = 0; r < REPS; r++) {
  const order = r % 2 === 0 ? [0, 1] : [1, 0]
  for (const [kind, runs, per] of kinds) {
    for (const i of order) samples[i]![kind]!.push((await cpuMs(trees[i]![kind], runs)) / per)
  }
}
console.log(`loaded first: ${swap ? "this tree" : "the checkout"}`)
console.log(`| contender | before (${path.basename(oldRoot)}) | after | after / before |`)
console.log("|---|---|---|---|")
for (const [kind] of kinds) {
  const [before, after] = samples.map((s) => median(s[kind]!))
  const label = kind === "call"
    ? "a call (2 items)"
    : kind === "cursor"
    ? "a cursor page (10 items)"
    : "a numbered DAS page (100 assets)"
  console.log(
    `| ${label} | ${(before! * 1000).toFixed(0)} µs | ${(after! * 1000).toFixed(0)} µs | ${
      (after! / before!).toFixed(3)
    }× |`
  )
}
