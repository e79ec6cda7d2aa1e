/**
 * The compiled fast path of `Decode.decodeWith` gives exactly what the
 * interpretive Schema decoder gives: the same value on every input Schema
 * accepts, a fallback (never a different value) on every input it rejects, and
 * through `decodeWith` the same DecodeError, path included. Checked on every real
 * fixture against every response schema of core, on mutations of real bodies,
 * and on fast-check values of schemas that use every kind of node.
 */
import { beforeEach, describe, expect, it } from "@effect/vitest"
import { base58 } from "@scure/base"
import * as AssetProof from "@solfx/core/AssetProof"
import * as AssetQuery from "@solfx/core/AssetQuery"
import * as AssetSearch from "@solfx/core/AssetSearch"
import * as AssetSignature from "@solfx/core/AssetSignature"
import * as Bundle from "@solfx/core/Bundle"
import * as CompressedAccount from "@solfx/core/CompressedAccount"
import * as CompressedAccountV2 from "@solfx/core/CompressedAccountV2"
import * as CompressionSignature from "@solfx/core/CompressionSignature"
import * as CompressionTransaction from "@solfx/core/CompressionTransaction"
import * as CompressionTransactionV2 from "@solfx/core/CompressionTransactionV2"
import * as Decode from "@solfx/core/Decode"
import * as DigitalAsset from "@solfx/core/DigitalAsset"
import * as Endpoints from "@solfx/core/Endpoints"
import * as IndexerStatus from "@solfx/core/IndexerStatus"
import * as Json from "@solfx/core/Json"
import * as NftEdition from "@solfx/core/NftEdition"
import * as Primitives from "@solfx/core/Primitives"
import * as ProjectUsage from "@solfx/core/ProjectUsage"
import * as SlotContext from "@solfx/core/SlotContext"
import * as TokenAccount from "@solfx/core/TokenAccount"
import * as TokenMetadata from "@solfx/core/TokenMetadataRecord"
import * as ValidityProof from "@solfx/core/ValidityProof"
import * as ValidityProofV2 from "@solfx/core/ValidityProofV2"
import * as WalletRecords from "@solfx/core/WalletRecords"
import * as Webhook from "@solfx/core/Webhook"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import * as RealFixtures from "@solfx/testing/RealFixtures"
import * as Arbitrary from "effect/Arbitrary"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { BAIL, fallbacks, makeCompiler } from "../src/internal/fastDecoder.js"

const ROOT = RealFixtures.root
const present = RealFixtures.present()

const modules = {
  AssetProof,
  AssetQuery,
  AssetSearch,
  AssetSignature,
  Bundle,
  CompressedAccount,
  CompressedAccountV2,
  CompressionSignature,
  CompressionTransaction,
  CompressionTransactionV2,
  DigitalAsset,
  IndexerStatus,
  NftEdition,
  ProjectUsage,
  SlotContext,
  TokenAccount,
  TokenMetadata,
  ValidityProof,
  ValidityProofV2,
  WalletRecords,
  Webhook,
  WebhookDelivery
}

/** Every schema core exports from its resource modules, by name. */
const schemas: ReadonlyArray<readonly [string, Schema.Schema<any, any>]> = Object.entries(modules).flatMap(
  ([module, exports]) =>
    Object.entries(exports as Record<string, unknown>)
      .filter((entry): entry is [string, Schema.Schema<any, any>] => Schema.isSchema(entry[1]))
      .map(([name, schema]) => [`${module}.${name}`, schema] as const)
)

const closures = makeCompiler(false)

const schemaDecode = (schema: Schema.Schema<any, any>, input: unknown) =>
  Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore", errors: "first" })(input)

/**
 * The property every test checks: the fast path agrees with Schema. Returns
 * whether the fast path produced the value itself (it may fall back instead).
 */
const agrees = (name: string, schema: Schema.Schema<any, any>, input: unknown): boolean => {
  const fast = Decode.decodeFast(schema, input)
  const slow = schemaDecode(schema, input)
  if (Option.isSome(fast)) {
    if (Either.isLeft(slow)) expect.fail(`${name}: the fast path accepted what Schema rejects`)
    expect(fast.value, name).toStrictEqual(slow.right)
  }
  // The closure compiler (used where code cannot be generated) decides the same way.
  const viaClosures = closures(schema.ast)(input)
  expect(viaClosures !== BAIL, `${name}: closures and generated code disagree`).toBe(Option.isSome(fast))
  if (viaClosures !== BAIL && Either.isRight(slow)) expect(viaClosures, name).toStrictEqual(slow.right)
  // Through decodeWith: the value or the very DecodeError Schema's path gives.
  const exit = Effect.runSyncExit(Decode.decodeWith(schema, "op", input, "$.result"))
  if (Either.isRight(slow)) {
    expect(Exit.isSuccess(exit), name).toBe(true)
    if (Exit.isSuccess(exit)) expect(exit.value, name).toStrictEqual(slow.right)
  } else {
    expect(exit, name).toStrictEqual(Exit.fail(Decode.toDecodeError("op", slow.left, "$.result")))
  }
  return Option.isSome(fast)
}

/** The values of a fixture file a schema might describe: the body, and the `result` of an envelope. */
const candidates = (body: unknown): Array<unknown> =>
  typeof body === "object" && body !== null && "result" in body ? [body, (body as { result: unknown }).result] : [body]

const fixtures = (): Array<readonly [string, unknown]> =>
  readdirSync(ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(ROOT, d.name))
        .filter((f) => f.endsWith(".json"))
        .map((f) => [`${d.name}/${f}`, Json.parse(readFileSync(join(ROOT, d.name, f), "utf8"))] as const)
    )

describe("fast path on the real fixtures", () => {
  beforeEach((ctx) => ctx.skip(!present, RealFixtures.absent))
  it("every fixture against every core schema: Schema's value, or Schema's DecodeError", async () => {
    let accepted = 0
    let fastAccepted = 0
    for (const [file, body] of fixtures()) {
      await turn()
      for (const value of candidates(body)) {
        for (const [name, schema] of schemas) {
          const ok = Either.isRight(schemaDecode(schema, value))
          const fast = agrees(`${name} on ${file}`, schema, value)
          if (ok) accepted++
          if (fast) fastAccepted++
          // On JSON the compiled path never needs Schema for a valid input.
          if (ok) expect(fast, `${name} on ${file}: the fast path fell back on a valid body`).toBe(true)
        }
      }
    }
    // The cross product is meaningful: many pairs decode, many do not.
    expect(accepted).toBeGreaterThan(60)
    expect(fastAccepted).toBe(accepted)
  })

  it("mutations of real bodies: one value changed, removed or added anywhere", () => {
    const bodies = fixtures().filter(([file]) =>
      ["getAssetsByAuthority", "getTokenAccounts", "getCompressedMintTokenHolders", "token-metadata", "wallet-history"]
        .some((m) => file.startsWith(`${m}/`))
    )
    const targets: Record<string, Schema.Schema<any, any>> = {
      getAssetsByAuthority: DigitalAsset.DigitalAssetList,
      getTokenAccounts: TokenAccount.TokenAccountList,
      getCompressedMintTokenHolders: CompressedAccount.TokenHoldersResult,
      "token-metadata": TokenMetadata.TokenMetadataResponse,
      "wallet-history": WalletRecords.HistoryPage
    }
    const replacement = fc.oneof(
      fc.constant(null),
      fc.constant("not base58 0OIl"),
      fc.constant(base58.encode(new Uint8Array(33).fill(7))),
      fc.constant(base58.encode(new Uint8Array(32).fill(9))),
      fc.constant("18446744073709551616"),
      fc.constant("12345"),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.string(),
      fc.constant([]),
      fc.constant({}),
      fc.constant(REMOVE)
    )
    const seen = { accepted: 0, rejected: 0 }
    fc.assert(
      fc.property(fc.nat(bodies.length - 1), fc.nat(), fc.boolean(), replacement, (b, at, excess, next) => {
        const [file, body] = bodies[b]!
        const schema = targets[file.split("/")[0]!]!
        for (const value of candidates(body)) {
          if (Either.isLeft(schemaDecode(schema, value))) continue
          const mutated = mutate(structuredClone(value), at, excess, next)
          if (agrees(`${file} mutated`, schema, mutated)) seen.accepted++
          else seen.rejected++
        }
      }),
      { numRuns: 1000 }
    )
    // Both outcomes are exercised: mutations the schema tolerates, and mutations it rejects.
    expect(seen.accepted).toBeGreaterThan(100)
    expect(seen.rejected).toBeGreaterThan(100)
  })
})

const REMOVE = Symbol("remove")

/** Replaces, removes, or adds next to it as an excess key, the `at`-th node (modulo their count) of a depth-first walk. */
const mutate = (root: unknown, at: number, excess: boolean, next: unknown): unknown => {
  const slots: Array<[Record<PropertyKey, unknown> | Array<unknown>, PropertyKey]> = []
  const walk = (v: unknown) => {
    if (typeof v !== "object" || v === null) return
    for (const k of Object.keys(v)) {
      const key = Array.isArray(v) ? Number(k) : k
      slots.push([v as Record<PropertyKey, unknown>, key])
      walk((v as Record<string, unknown>)[k])
    }
  }
  walk(root)
  if (slots.length === 0) return next === REMOVE ? root : next
  const [parent, key] = slots[at % slots.length]!
  if (next === REMOVE) {
    if (Array.isArray(parent)) parent.splice(key as number, 1)
    else delete parent[key]
  } else if (excess && !Array.isArray(parent)) {
    parent["solfx_excess"] = next
  } else {
    ;(parent as Record<PropertyKey, unknown>)[key] = next
  }
  return root
}

// -- fast-check values of schemas that use every kind of node ----------------------

const Base58Address = Primitives.Address.annotations({
  arbitrary: () => (fc) =>
    fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => base58.encode(b) as Primitives.Address)
})

class Point extends Schema.Class<Point>("Point")({ x: Schema.Number, y: Schema.Number }) {}

interface Tree {
  readonly label: string
  readonly children: ReadonlyArray<Tree>
}
const Tree: Schema.Schema<Tree> = Schema.Struct({
  label: Schema.String,
  children: Schema.Array(Schema.suspend(() => Tree))
})

const Kitchen = Schema.Struct({
  id: Base58Address,
  name: Schema.String,
  count: Schema.Number.pipe(Schema.int(), Schema.between(0, 1000)),
  flag: Schema.Boolean,
  kind: Schema.Literal("a", "b", "c"),
  nothing: Schema.Literal(null),
  maybe: Schema.NullOr(Schema.String),
  maybeAddress: Schema.optional(Schema.NullOr(Base58Address)),
  either: Schema.Union(Schema.Number, Schema.String),
  amount: Primitives.U64,
  numeric: Schema.NumberFromString,
  tags: Schema.Array(Schema.String),
  nested: Schema.Array(Schema.Struct({ a: Schema.Number, b: Schema.optional(Schema.String) })),
  record: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  numbers: Schema.Record({ key: Schema.String, value: Schema.Number }),
  tagged: Schema.Union(
    Schema.Struct({ type: Schema.Literal("x"), x: Schema.Number }),
    Schema.Struct({ type: Schema.Literal("y"), y: Schema.String })
  ),
  defaulted: Schema.optionalWith(Schema.String, { default: () => "none" }),
  point: Schema.optional(Point),
  tree: Tree,
  unknown: Schema.optional(Schema.Unknown),
  tuple: Schema.Tuple(Schema.String, Schema.Number),
  pair: Schema.Tuple(Base58Address, Schema.String),
  nullableDefault: Schema.optionalWith(Schema.Number, { nullable: true, default: () => 7 }),
  nullableOption: Schema.optionalWith(Schema.String, { nullable: true, as: "Option" }),
  renamed: Schema.propertySignature(Schema.String).pipe(Schema.fromKey("renamed_on_wire")),
  arrays: Schema.Union(Schema.Array(Schema.String), Schema.Array(Schema.Array(Schema.String))),
  bytes: Schema.optional(Schema.Uint8Array),
  price: Schema.optionalWith(Schema.NullOr(WalletRecords.Decimal), { default: () => null })
})

/**
 * One turn of the event loop. The slowest properties below take tens of seconds of
 * CPU; they yield between runs so that vitest's worker can answer its main process,
 * which ends the run when it gets no answer for 60 s (a loaded machine gets there).
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A value as it arrives: encoded, then through JSON and the lossless parser. */
const wireOf = <A, I>(schema: Schema.Schema<A, I>, value: A): unknown =>
  Json.parse(Json.stringify(Schema.encodeSync(schema)(value)))

describe("nothing falls back wholesale", () => {
  it("every result schema of the endpoint table compiles without handing a node to Schema", () => {
    const report = Endpoints.all.flatMap((e) =>
      fallbacks(e.result.ast).map((f) => `${e.name}: ${f.reason} (${f.node})`)
    )
    expect(report).toEqual([])
  })

  it("the report names a node the compiler leaves to Schema", () => {
    const s = Schema.Struct({ a: Schema.Tuple([Schema.String], Schema.Number, Schema.String) })
    expect(fallbacks(s.ast).map((f) => f.reason)).toEqual(["tuple with optional elements or elements after a rest"])
    expect(fallbacks(Kitchen.ast)).toEqual([])
  })
})

describe("fast path on generated values", () => {
  it("valid values of a schema with every kind of node decode to Schema's value, without falling back", async () => {
    // Effect's Arbitrary is built on its own copy of fast-check: run it with that copy.
    const arb = Arbitrary.make(Kitchen).filter((v) => v.amount >= 0n && v.amount <= 0xffffffffffffffffn)
    let valid = 0
    await FastCheck.assert(
      FastCheck.asyncProperty(arb, async (value) => {
        await turn()
        const wire = wireOf(Kitchen, value)
        // A double of 2^53 or more comes back from the lossless parser as digits, which Number rejects.
        const ok = Either.isRight(schemaDecode(Kitchen, wire))
        const fast = agrees("Kitchen", Kitchen, wire)
        if (ok) {
          valid++
          expect(fast, "the fast path fell back on a valid value").toBe(true)
        }
      }),
      { numRuns: 300 }
    )
    expect(valid).toBeGreaterThan(100)
  })

  it("arbitrary JSON against every schema: Schema's value or Schema's DecodeError", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(schemas.length), (json, i) => {
        const [name, schema] = i === schemas.length ? ["Kitchen", Kitchen] : schemas[i]!
        agrees(name, schema, json)
      }),
      { numRuns: 2000 }
    )
  })

  it("the digital-asset list decodes generated pages exactly as Schema does", () => {
    const page = fc.record({
      total: fc.nat(1000),
      limit: fc.integer({ min: 1, max: 1000 }),
      page: fc.integer({ min: 1, max: 100 }),
      items: fc.array(asset, { maxLength: 8 })
    })
    let fast = 0
    fc.assert(
      fc.property(page, (p) => {
        // As it comes off the wire: plain objects, no undefined members.
        if (agrees("DigitalAssetList", DigitalAsset.DigitalAssetList, Json.parse(JSON.stringify(p)))) fast++
      }),
      { numRuns: 300 }
    )
    expect(fast).toBeGreaterThan(50)
  })

  it("a metadata record holding a `__proto__` key decodes as Schema decodes it", () => {
    // fast-check found this once (seed 1461004777): JSON.parse makes an own `__proto__` key, which Schema's
    // record decoding assigns as the prototype; the fast path gives such a record to Schema.
    const text = JSON.stringify({ total: 1, limit: 1, page: 1, items: [{ ...sampleAsset, content: { metadata: {} } }] })
      .replace("\"metadata\":{}", "\"metadata\":{\"__proto__\":{\"name\":\"x\"},\"symbol\":\"S\"}")
    const input = JSON.parse(text)
    expect(Object.keys(input.items[0].content.metadata)).toEqual(["__proto__", "symbol"])
    agrees("DigitalAssetList", DigitalAsset.DigitalAssetList, input)
  })

  it("a failure reports the path of the first bad field, as before", () => {
    const input = {
      total: 1,
      limit: 1,
      page: 1,
      items: [{ ...sampleAsset, ownership: { ...sampleAsset.ownership, owner: "0OIl" } }]
    }
    const slow = schemaDecode(DigitalAsset.DigitalAssetList, input)
    if (Either.isRight(slow)) return expect.fail("Schema accepted an invalid owner")
    const exit = Effect.runSyncExit(
      Decode.decodeWith(DigitalAsset.DigitalAssetList, "getAssetsByAuthority", input, "$.result")
    )
    expect(exit).toStrictEqual(Exit.fail(Decode.toDecodeError("getAssetsByAuthority", slow.left, "$.result")))
    expect(exit).toMatchObject({ cause: { error: { path: "$.result.items[0].ownership.owner" } } })
  })

  it("a value repeated row after row is checked as every row's own: a bad one fails wherever it repeats", () => {
    const good = Primitives.encodeBase58(new Uint8Array(32).fill(9))
    // Base58, but 33 bytes: only the byte-length check rejects it.
    const bad = Primitives.encodeBase58(new Uint8Array(33).fill(9))
    const schema = Schema.Struct({ rows: Schema.Array(Schema.Struct({ owner: Primitives.Address })) })
    const page = (owners: ReadonlyArray<string>) => ({ rows: owners.map((owner) => ({ owner })) })
    for (
      const owners of [[good, good, good], [good, bad, bad], [bad, bad], [good, bad, good, bad], [bad, good, good]]
    ) {
      const fast = Decode.decodeFast(schema, page(owners))
      const reference = Schema.decodeUnknownEither(schema)(page(owners))
      expect(fast._tag === "Some", owners.join()).toBe(reference._tag === "Right")
      if (fast._tag === "Some" && reference._tag === "Right") expect(fast.value).toStrictEqual(reference.right)
    }
  })

  it("excess keys are dropped, and unchanged objects are shared with the input", () => {
    const input = { total: 1, limit: 1, page: 1, items: [{ ...sampleAsset, extra: 1 }], grand_total: 5, junk: true }
    const fast = Decode.decodeFast(DigitalAsset.DigitalAssetList, input)
    expect(Option.isSome(fast)).toBe(true)
    if (Option.isSome(fast)) {
      expect(fast.value).toStrictEqual(Either.getOrThrow(schemaDecode(DigitalAsset.DigitalAssetList, input)))
      expect("extra" in fast.value.items[0]!).toBe(false)
      expect("junk" in fast.value).toBe(false)
      expect(fast.value.items[0]!.ownership).toBe(input.items[0]!.ownership)
    }
  })
})

describe("token metadata's zero-value authorities stay on the fast path", () => {
  // `Literal("") | Null | Address` to `OptionFromSelf(Address)`: the `""` member stopped every address
  // (then the whole 100-mint answer went to Schema), and the Option side went through ParseResult.
  const authority = TokenMetadata.MintInfo.fields.mintAuthority
  const schema = Schema.Struct({ mintAuthority: authority })
  it("an address, \"\", null and an absent field each decode as Schema decodes them, without falling back", () => {
    const some = base58.encode(new Uint8Array(32).fill(7))
    for (const input of [{ mintAuthority: some }, { mintAuthority: "" }, { mintAuthority: null }, {}]) {
      const fast = Decode.decodeFast(schema, input)
      expect(Option.isSome(fast), JSON.stringify(input)).toBe(true)
      expect(Option.getOrThrow(fast)).toStrictEqual(Either.getOrThrow(schemaDecode(schema, input)))
    }
    expect(Option.isNone(Decode.decodeFast(schema, { mintAuthority: "not an address" }))).toBe(true)
    const reasons: Array<string> = []
    makeCompiler(true, (_, reason) => reasons.push(reason))(schema.ast)
    expect(reasons).toEqual([])
  })
})

const address = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => base58.encode(b))
const nearAddress = fc.oneof(
  { weight: 40, arbitrary: address },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 31, maxLength: 33 }).map((b) => base58.encode(b)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 45 }) }
)

const sampleAsset = {
  interface: "V1_NFT",
  id: base58.encode(new Uint8Array(32).fill(1)),
  authorities: [{ address: base58.encode(new Uint8Array(32).fill(2)), scopes: ["full"] }],
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
    percent: 0.05,
    basis_points: 500,
    primary_sale_happened: true,
    locked: false
  },
  creators: [],
  ownership: {
    frozen: false,
    delegated: false,
    delegate: null,
    ownership_model: "single",
    owner: base58.encode(new Uint8Array(32).fill(3))
  }
}

const asset = fc.record({
  interface: fc.constantFrom("V1_NFT", "ProgrammableNFT", "MplCoreAsset"),
  id: nearAddress,
  content: fc.option(
    fc.record({
      json_uri: fc.string(),
      files: fc.array(fc.record({ uri: fc.string(), mime: fc.string() }, { requiredKeys: [] }), { maxLength: 2 }),
      metadata: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 })
    }, { requiredKeys: [] }),
    { nil: undefined }
  ),
  authorities: fc.array(fc.record({ address: nearAddress, scopes: fc.array(fc.string(), { maxLength: 2 }) }), {
    maxLength: 2
  }),
  compression: fc.constant(sampleAsset.compression),
  grouping: fc.array(fc.record({ group_key: fc.string(), group_value: fc.option(fc.string(), { nil: null }) }), {
    maxLength: 2
  }),
  royalty: fc.constant(sampleAsset.royalty),
  creators: fc.array(fc.record({ address: nearAddress, share: fc.nat(100), verified: fc.boolean() }), { maxLength: 3 }),
  ownership: fc.record({
    frozen: fc.boolean(),
    delegated: fc.boolean(),
    delegate: fc.option(nearAddress, { nil: null }),
    ownership_model: fc.constant("single"),
    owner: nearAddress
  }),
  burnt: fc.option(fc.boolean(), { nil: undefined }),
  token_info: fc.option(
    fc.record({
      supply: fc.oneof(fc.nat(), fc.constant("18446744073709551615"), fc.constant(-1)),
      decimals: fc.nat(9)
    }),
    { nil: undefined }
  )
}, { requiredKeys: ["interface", "id", "authorities", "compression", "grouping", "royalty", "creators", "ownership"] })

// -- plain JSON.parse output with its text: the transport's path ---------------------

/**
 * What the transport does: JSON.parse (rounding), decode with the text as source.
 * It must give what decoding the lossless parse gives: the same value, or the same DecodeError.
 */
const roundedAgrees = (name: string, schema: Schema.Schema<any, any>, text: string, select = (b: unknown) => b) => {
  const viaSource = Effect.runSyncExit(
    Decode.decodeWith(schema, "op", select(JSON.parse(text)), "$.result", { text, select })
  )
  const viaLossless = Effect.runSyncExit(Decode.decodeWith(schema, "op", select(Json.parse(text)), "$.result"))
  expect(viaSource, name).toStrictEqual(viaLossless)
  const fast = Decode.decodeFast(schema, select(JSON.parse(text)), text)
  if (Option.isSome(fast)) expect(Exit.succeed(fast.value), name).toStrictEqual(viaLossless)
  return Option.isSome(fast)
}

describe("decoding JSON.parse output with its source text", () => {
  it("every fixture against every core schema gives what the lossless parse gives", async (ctx) => {
    ctx.skip(!present, RealFixtures.absent)
    for (const [file] of fixtures()) {
      await turn()
      const text = readFileSync(join(ROOT, file), "utf8")
      const body = JSON.parse(text) as unknown
      const selects = typeof body === "object" && body !== null && "result" in body
        ? [(b: unknown) => b, (b: unknown) => (b as { result: unknown }).result]
        : [(b: unknown) => b]
      for (const select of selects) {
        for (const [name, schema] of schemas) roundedAgrees(`${name} on ${file}`, schema, text, select)
      }
    }
  })

  it("pages whose supplies and amounts exceed 2^53 decode exactly, on the fast path", () => {
    const large = fc.oneof(fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 53n }))
    const page = fc.record({
      total: fc.nat(1000),
      limit: fc.integer({ min: 1, max: 1000 }),
      page: fc.integer({ min: 1, max: 100 }),
      items: fc.array(
        fc.record({
          ...Object.fromEntries(Object.entries(sampleAsset).map(([k, v]) => [k, fc.constant(v)])),
          id: address,
          supply: fc.record({ print_max_supply: large, print_current_supply: fc.option(large, { nil: null }) }),
          token_info: fc.record({ supply: large, balance: large, decimals: fc.nat(9) }),
          content: fc.record({
            metadata: fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(large, fc.string()), { maxKeys: 3 })
          })
        }),
        { maxLength: 6 }
      )
    })
    let fast = 0
    fc.assert(
      fc.property(page, (p) => {
        const text = Json.stringify({ jsonrpc: "2.0", id: "1", result: p })
        if (roundedAgrees("page", DigitalAsset.DigitalAssetList, text, (b) => (b as { result: unknown }).result)) fast++
      }),
      { numRuns: 300 }
    )
    expect(fast).toBeGreaterThan(250)
  })

  it("valid values of a schema with every kind of node, with u64 amounts of any size", async () => {
    const arb = Arbitrary.make(Kitchen).filter((v) => v.amount >= 0n && v.amount <= 0xffffffffffffffffn)
    await FastCheck.assert(
      FastCheck.asyncProperty(arb, async (value) => {
        await turn()
        roundedAgrees("Kitchen", Kitchen, Json.stringify(Schema.encodeSync(Kitchen)(value)))
      }),
      { numRuns: 300 }
    )
  })

  it("any document against every schema, large numbers written every way", async () => {
    await fc.assert(
      fc.asyncProperty(jsonText, fc.nat(schemas.length), async (text, i) => {
        await turn()
        const [name, schema] = i === schemas.length ? ["Kitchen", Kitchen] : schemas[i]!
        roundedAgrees(name, schema, text)
        roundedAgrees("Unknown", Schema.Unknown, text)
        roundedAgrees("Array(Unknown)", Schema.Array(Schema.Unknown), text)
        roundedAgrees(
          "Record(Number | String)",
          Schema.Record({ key: Schema.String, value: Schema.Union(Schema.Number, Schema.String) }),
          text
        )
      }),
      { numRuns: 2000 }
    )
  })
})

// -- the other two costs of a decode: the lossless parse and the address check ------

type Tree2 = bigint | number | string | boolean | null | ReadonlyArray<Tree2> | { readonly [k: string]: Tree2 }

/** JSON values whose integers have any size (as bigints), with digit runs inside strings too. */
const wide: fc.Arbitrary<Tree2> = fc.letrec<{ v: Tree2 }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    fc.bigInt({ min: 2n ** 53n - 3n, max: 2n ** 53n + 3n }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.stringMatching(/^[0-9a-z:,"\\]{0,30}$/),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie("v"), { maxKeys: 4 })
  )
})).v

/** What the lossless parser must give: safe integers as numbers, the others as their digits. */
const expected = (v: Tree2): unknown => {
  if (typeof v === "bigint") {
    return v >= -(2n ** 53n - 1n) && v <= 2n ** 53n - 1n ? Number(v) : v.toString()
  }
  if (Array.isArray(v)) return v.map(expected)
  if (typeof v === "object" && v !== null) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expected(x)]))
  }
  if (typeof v === "number") {
    // A double written without an exponent is an integer literal too: beyond 2^53 it stays digits.
    if (Number.isInteger(v) && !Number.isSafeInteger(v) && Math.abs(v) < 1e21) return JSON.stringify(v)
    // -0 goes through JSON as 0
    return Object.is(v, -0) ? 0 : v
  }
  return v
}

describe("Json.parse quotes unsafe integers in one regex pass", () => {
  it("keeps every unsafe integer literal exact, anywhere in a document", () => {
    fc.assert(
      fc.property(wide, (v) => {
        const text = Json.stringify(v)
        const parsed = Json.parse(text)
        expect(parsed).toStrictEqual(JSON.parse(JSON.stringify(expected(v))))
      }),
      { numRuns: 1000 }
    )
  })

  it("falls back to the quoting parser for huge doubles and exponents, as before", () => {
    expect(Json.parse("{\"a\":1e400,\"b\":12345678901234567890.5,\"c\":[90071992547409930]}")).toStrictEqual({
      a: Infinity,
      b: 12345678901234567890.5,
      c: ["90071992547409930"]
    })
  })

  it("parses deeply nested documents", () => {
    const depth = 20_000
    const text = "[".repeat(depth) + "18446744073709551615" + "]".repeat(depth)
    let v: unknown
    try {
      v = Json.parse(text)
    } catch (e) {
      // JSON.parse itself gave up: nothing to compare.
      expect(() => JSON.parse(text)).toThrow()
      return
    }
    for (let i = 0; i < depth; i++) v = (v as Array<unknown>)[0]
    expect(v).toBe("18446744073709551615")
  })
})

/** Json.parse as it was before the one-pass scan (commit cbf90d4), the reference of the differential test. */
const previousParse = (text: string): unknown => {
  if (!/\d{16}/.test(text)) return JSON.parse(text)
  const isDigit = (c: number) => c >= 48 && c <= 57
  let out = ""
  let last = 0
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      i++
      while (i < n) {
        const d = text.charCodeAt(i)
        if (d === 92) i += 2
        else if (d === 34) break
        else i++
      }
      i++
      continue
    }
    if (c === 45 || isDigit(c)) {
      const start = i
      i++
      while (i < n && isDigit(text.charCodeAt(i))) i++
      const next = i < n ? text.charCodeAt(i) : 0
      if (next !== 46 && next !== 101 && next !== 69) {
        const literal = text.slice(start, i)
        if (!Number.isSafeInteger(Number(literal))) {
          out += text.slice(last, start) + "\"" + literal + "\""
          last = i
        }
      } else {
        while (i < n && /[0-9eE+\-.]/.test(text[i]!)) i++
      }
      continue
    }
    i++
  }
  return JSON.parse(last === 0 ? text : out + text.slice(last))
}

const digits = (min: number, max: number) =>
  fc.tuple(
    fc.integer({ min: 1, max: 9 }),
    fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min - 1, maxLength: max - 1 })
  )
    .map(([d, rest]) => `${d}${rest}`)

/** A JSON number token: long integers, long fractions, exponents of every form, signs. */
const numberToken = fc.oneof(
  fc.tuple(fc.constantFrom("", "-"), fc.oneof(digits(1, 25), fc.constant("0"))).map(([s, d]) => s + d),
  fc.tuple(fc.constantFrom("", "-"), digits(1, 22), digits(1, 22)).map(([s, a, b]) => `${s}${a}.${b}`),
  fc.tuple(fc.constantFrom("", "-"), digits(1, 22), fc.constantFrom("e", "E", "e+", "e-", "E-"), digits(1, 20))
    .map(([s, a, e, x]) => `${s}${a}${e}${x}`),
  fc.tuple(digits(1, 20), digits(16, 20), fc.constantFrom("e", "e-"), digits(1, 3)).map(([a, b, e, x]) =>
    `${a}.${b}${e}${x}`
  )
)

/** A JSON string token whose content looks like numbers, with escapes and escaped quotes. */
const stringToken = fc.array(
  fc.oneof(digits(1, 22), fc.constantFrom("\\\"", "\\\\", ":", ",", "-", ".", "e", " ", "\\u0041", "[", "]")),
  { maxLength: 6 }
).map((parts) => `"${parts.join("")}"`)

const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    numberToken,
    stringToken,
    fc.constantFrom("true", "false", "null"),
    fc.array(tie("value"), { maxLength: 5 }).map((xs) => `[${xs.join(", ")}]`),
    fc.array(fc.tuple(stringToken, tie("value")), { maxLength: 4 })
      .map((kvs) => `{${kvs.map(([k, v]) => `${k}:${v}`).join(",")}}`)
  )
})).value

describe("Json.parse against the previous implementation", () => {
  it("gives the same value on any valid document", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(Json.parse(text)).toStrictEqual(previousParse(text))
      }),
      { numRuns: 3000 }
    )
  })

  it("gives the same value where large numbers do not line up with the value's order", () => {
    for (
      const text of [
        // a duplicate key: the first value is dropped, the second keeps its place
        "{\"a\":1,\"b\":18446744073709551615,\"a\":18446744073709551614}",
        "{\"a\":18446744073709551613,\"b\":5,\"a\":18446744073709551612}",
        "{\"a\":100000000000000000000,\"a\":0,\"b\":1e20}",
        // index-like keys come first in a JavaScript object, whatever the text order
        "{\"x\":18446744073709551615,\"1\":18446744073709551614,\"0\":[18446744073709551613]}",
        // equal doubles written differently
        "[18446744073709551615, 18446744073709551616, 1.8446744073709551616e19, 18446744073709551615]",
        // a bare number, exponents, negatives
        "18446744073709551615",
        "{\"x\":1e400,\"y\":-1.5e300,\"z\":-18446744073709551615,\"w\":12345678901234567.5}"
      ]
    ) {
      expect(Json.parse(text), text).toStrictEqual(previousParse(text))
    }
  })

  it("throws exactly when JSON.parse throws", () => {
    fc.assert(
      fc.property(
        jsonText,
        fc.nat(),
        fc.constantFrom("", "\"", "\\", "-", "}", ",", "12345678901234567890"),
        (text, at, insert) => {
          const broken = text.slice(0, at % (text.length + 1)) + insert + text.slice(at % (text.length + 1))
          let reference: "throws" | "parses"
          try {
            JSON.parse(broken)
            reference = "parses"
          } catch {
            reference = "throws"
          }
          if (reference === "throws") expect(() => Json.parse(broken)).toThrow(SyntaxError)
          else expect(() => Json.parse(broken)).not.toThrow()
        }
      ),
      { numRuns: 3000 }
    )
  })
})

/**
 * One large value written several ways: its digits, digits that round to the same double, its
 * digits split by a point with an exponent putting it back (short digit runs), and inside a string.
 */
const sameValueForms = fc.tuple(
  fc.oneof(
    fc.bigInt({ min: 2n ** 53n, max: 2n ** 72n }),
    // Round values, whose double has a short form (`1.8e+16`) with short digit runs.
    fc.tuple(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 14, max: 19 })).map(([m, z]) =>
      BigInt(m) * 10n ** BigInt(z)
    ).filter((n) => n >= 2n ** 53n)
  ),
  fc.integer({ min: -40, max: 40 }),
  fc.nat(),
  fc.constantFrom("e", "E", "e+", "E+")
).map(([n, delta, at, e]) => {
  const d = n.toString()
  const p = 1 + (at % (d.length - 1))
  const near = (n + BigInt(delta)).toString()
  return [
    d,
    near,
    `${d.slice(0, p)}.${d.slice(p)}${e}${d.length - p}`,
    Number(n).toExponential(),
    `"x${d}"`,
    `"${near}"`,
    `-${d}`
  ]
})

/** Pairs each large number of `JSON.parse(text)` with what `Json.parse(text)` has at its place. */
const largeAtTheirPlaces = (text: string): Array<readonly [number, unknown]> => {
  const out: Array<readonly [number, unknown]> = []
  const walk = (rounded: unknown, exact: unknown) => {
    if (typeof rounded === "number") {
      if (!(Math.abs(rounded) < 2 ** 53)) out.push([rounded, exact])
    } else if (typeof rounded === "object" && rounded !== null) {
      for (const k of Object.keys(rounded)) {
        walk((rounded as Record<string, unknown>)[k], (exact as Record<string, unknown>)[k])
      }
    }
  }
  walk(JSON.parse(text), Json.parse(text))
  return out
}

describe("Json.largeNumberLookup", () => {
  const agrees = (text: string) => {
    const lookup = Json.largeNumberLookup(text)
    const full = Json.largeNumbers(text)
    for (const [v, exact] of largeAtTheirPlaces(text)) {
      const e = lookup(v)
      // Never a value another place of the same number does not have; always one where the full scan has one.
      if (e !== undefined) expect(e, `${v} in ${text}`).toStrictEqual(exact)
      if (full !== undefined) expect(e, `${v} in ${text}`).toStrictEqual(full.get(v))
    }
  }

  it("answers as the lossless parse at every place of a large number, in any document", () => {
    fc.assert(fc.property(jsonText, agrees), { numRuns: 3000 })
  })

  it("answers nothing for a value written two ways, wherever the digits fall on its grid of probes", () => {
    fc.assert(
      fc.property(
        sameValueForms,
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        fc.string({ unit: fc.constantFrom("a", "1", " ", "."), maxLength: 40 }),
        (forms, picks, pad) => {
          const chosen = picks.map((i) => forms[i % forms.length]!)
          agrees(`[${JSON.stringify(pad)}, ${chosen.join(", ")}]`)
          agrees(`{"p":${JSON.stringify(pad)},"a":[${chosen.join(",")}],"b":${chosen[0]}}`)
        }
      ),
      { numRuns: 5000 }
    )
  })

  it("reads a large number at every offset of the text", () => {
    for (let pad = 0; pad < 40; pad++) {
      for (const literal of ["18446744073709551615", "9007199254740993", "123456789.0123456789e9", "1e400"]) {
        agrees(`[${JSON.stringify("1".repeat(pad))},${literal}]`)
        agrees(`${" ".repeat(pad)}[${literal}, "${literal}"]`)
      }
    }
    expect(Json.largeNumberLookup("[18446744073709551615]")(18446744073709551615)).toBe("18446744073709551615")
  })

  // Where the full scan gives nothing (another value is written two ways), only the sparse reading
  // can answer: these fail if it misses a literal that the full scan would have found.
  it("finds a literal of any form at every offset without the full scan", () => {
    const twoWays = "9007199254740993, 9007199254740993.0"
    expect(Json.largeNumbers(`[${twoWays}]`)).toBeUndefined()
    const forms: ReadonlyArray<readonly [string, string | number]> = [
      ["18446744073709551615", "18446744073709551615"],
      ["-9223372036854775809", "-9223372036854775809"],
      ["1.8446744073709551615e19", 1.8446744073709551615e19],
      ["184467440737.09551615E8", 184467440737.09551615e8],
      ["12345678901234567.5", 12345678901234567.5]
    ]
    for (let pad = 0; pad < 40; pad++) {
      for (const [literal, exact] of forms) {
        for (
          const text of [
            `[${JSON.stringify("1".repeat(pad))},${literal},${twoWays}]`,
            `{"a":${twoWays.split(",")[0]},${" ".repeat(pad)}"b":\n${literal}\t,"c":[${twoWays}]}`
          ]
        ) expect(Json.largeNumberLookup(text)(Number(literal)), text).toStrictEqual(exact)
      }
    }
  })

  it("takes no digits inside a string for a literal", () => {
    // The string's digits round to the same value: read as a literal, it would hide the real one.
    const text = `{"mint":"So11111111111111111111111111111111111111112","s":"18446744073709551614",` +
      `"a":18446744073709551615,"b":[9007199254740993,9007199254740993.0]}`
    expect(Json.largeNumberLookup(text)(18446744073709551615)).toBe("18446744073709551615")
  })
})

describe("the BN254 field check without decoding", () => {
  it("isBelowModulus58 answers as the decoded comparison on every 32-byte base58", () => {
    const M = Primitives.BN254_MODULUS
    const toBytes = (n: bigint) => {
      const b = new Uint8Array(32)
      for (let i = 31; i >= 0; i--) {
        b[i] = Number(n & 0xffn)
        n >>= 8n
      }
      return b
    }
    const value = fc.oneof(
      fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
      fc.bigInt({ min: M - 1000n, max: M + 1000n }),
      fc.bigInt({ min: 0n, max: 2n ** 64n })
    )
    fc.assert(
      fc.property(value, (n) => {
        const s = base58.encode(toBytes(n))
        expect(Primitives.isBelowModulus58(s), s).toBe(n < M)
      }),
      { numRuns: 20_000 }
    )
  })
})

describe("base64 without decoding", () => {
  it("isBase64 accepts exactly what decodeBase64 decodes", () => {
    const b64 = fc.oneof(
      fc.uint8Array({ maxLength: 40 }).map((b) => Primitives.encodeBase64(b)),
      fc.string({ unit: fc.constantFrom(..."ABQgwEIz09+/=a"), maxLength: 12 }),
      fc.string()
    )
    fc.assert(
      fc.property(b64, (s) => {
        expect(Primitives.isBase64(s), s).toBe(Primitives.decodeBase64(s) !== undefined)
      }),
      { numRuns: 20_000 }
    )
  })
})

describe("base58 byte length without decoding", () => {
  const reference = (s: string): number => {
    if (!/^[1-9A-HJ-NP-Za-km-z]+$/.test(s)) return -1
    try {
      return base58.decode(s).length
    } catch {
      return -1
    }
  }
  const ALPHABET = [..."123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"]
  const agreesWithScure = (s: string) => {
    const r = reference(s)
    expect(Primitives.base58ByteLength(s)).toBe(r)
    for (const n of [0, 1, 31, 32, 33, 63, 64, 65]) {
      expect(Primitives.isBase58OfLength(s, n), `${s} of ${n}`).toBe(r === n)
    }
  }

  it("agrees with @scure/base on encodings of any bytes, leading zeros included", () => {
    fc.assert(
      fc.property(fc.nat(40), fc.uint8Array({ maxLength: 96 }), (zeros, bytes) => {
        const s = base58.encode(new Uint8Array([...new Uint8Array(zeros), ...bytes]))
        if (s !== "") agreesWithScure(s)
      }),
      { numRuns: 3000 }
    )
  })

  it("agrees at the bounds themselves: the smallest and largest number of each byte length, and their neighbours", () => {
    const toBytes = (v: bigint, length: number) => {
      const out = new Uint8Array(length)
      for (let i = length - 1; i >= 0; i--, v >>= 8n) out[i] = Number(v & 0xffn)
      return out
    }
    for (const n of [32, 64]) {
      for (let k = 1; k <= n; k++) {
        const lo = 1n << BigInt(8 * (k - 1))
        const hi = (1n << BigInt(8 * k)) - 1n
        for (const v of [lo - 1n, lo, lo + 1n, hi - 1n, hi, hi + 1n]) {
          for (const zeros of [0, n - k, n - k + 1]) {
            const s = base58.encode(new Uint8Array([...new Uint8Array(zeros), ...toBytes(v, k + 1).subarray(1)]))
            if (s !== "") agreesWithScure(s)
          }
        }
      }
    }
  })

  it("agrees on strings around the length bounds of addresses and signatures, and on non-base58", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 42, maxLength: 46 }),
          fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 85, maxLength: 90 }),
          fc.string({ unit: fc.constantFrom(...ALPHABET, "0", "O", "I", "l", "+", "é"), maxLength: 140 })
        ),
        agreesWithScure
      ),
      { numRuns: 5000 }
    )
  })
})
