/**
 * Bad responses, property-tested with fast-check and a fixed seed. For every
 * response schema of the SDK:
 * - valid bodies, generated from the schema (`Arbitrary.make`, see
 *   support/Arbitraries.ts) and written with core `Json.stringify`, decode through
 *   the real transport (answered by `HttpTesting`);
 * - corrupted bodies (wrong types, missing fields, truncation, HTML error pages,
 *   empty bodies, huge numbers, deep nesting) end in a typed error, never a defect
 *   (a wrong type or a missing field may still be acceptable where the schema
 *   allows it: an unknown field, an optional one).
 */
import { describe, expect, it } from "@effect/vitest"
import * as AssetProof from "@solfx/core/AssetProof"
import * as AssetSignature from "@solfx/core/AssetSignature"
import * as Bundle from "@solfx/core/Bundle"
import * as CompressedAccount from "@solfx/core/CompressedAccount"
import * as CompressionSignature from "@solfx/core/CompressionSignature"
import * as CompressionTransaction from "@solfx/core/CompressionTransaction"
import * as DigitalAsset from "@solfx/core/DigitalAsset"
import * as Json from "@solfx/core/Json"
import * as ProjectUsage from "@solfx/core/ProjectUsage"
import * as TokenAccount from "@solfx/core/TokenAccount"
import * as TokenMetadata from "@solfx/core/TokenMetadataRecord"
import * as ValidityProof from "@solfx/core/ValidityProof"
import * as WalletRecords from "@solfx/core/WalletRecords"
import * as Webhook from "@solfx/core/Webhook"
import * as HttpTesting from "@solfx/http/HttpTesting"
import * as HttpTransport from "@solfx/http/HttpTransport"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FastCheck from "effect/FastCheck"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Schema from "effect/Schema"
import { arbitraryOf, jsonSafe } from "./support/Arbitraries.js"

/** Fixed, so that CI replays the same cases; change it to explore. */
const SEED = 20_240_611
const VALID_RUNS = 240
const CORRUPT_RUNS = 260

interface Target {
  readonly name: string
  readonly kind: "rpc" | "rest"
  readonly schema: Schema.Schema<any, any>
}

const targets: ReadonlyArray<Target> = [
  { name: "getAssetsByAuthority", kind: "rpc", schema: DigitalAsset.DigitalAssetList },
  { name: "getTokenAccounts", kind: "rpc", schema: TokenAccount.TokenAccountList },
  { name: "getSignaturesForAsset", kind: "rpc", schema: AssetSignature.AssetSignatureList },
  { name: "getAssetProofBatch", kind: "rpc", schema: AssetProof.AssetProofBatch },
  { name: "getCompressionSignaturesForAddress", kind: "rpc", schema: CompressionSignature.SignaturesResult },
  { name: "getLatestNonVotingSignatures", kind: "rpc", schema: CompressionSignature.NonVotingSignaturesResult },
  { name: "getCompressedMintTokenHolders", kind: "rpc", schema: CompressedAccount.TokenHoldersResult },
  { name: "getCompressedTokenAccountsByOwner", kind: "rpc", schema: CompressedAccount.TokenAccountsResult },
  { name: "getCompressedTokenBalancesByOwnerV2", kind: "rpc", schema: CompressedAccount.TokenBalancesResult },
  { name: "getValidityProof", kind: "rpc", schema: ValidityProof.ValidityProofResult },
  {
    name: "getTransactionWithCompressionInfo",
    kind: "rpc",
    schema: CompressionTransaction.TransactionWithCompressionInfo
  },
  { name: "getBundleStatuses", kind: "rpc", schema: Bundle.BundleStatuses },
  { name: "POST /v0/token-metadata", kind: "rest", schema: TokenMetadata.TokenMetadataResponse },
  { name: "GET /v1/wallet/{wallet}/identity", kind: "rest", schema: WalletRecords.Identity },
  { name: "POST /v1/wallet/batch-identity", kind: "rest", schema: WalletRecords.IdentityList },
  { name: "GET /v1/wallet/{wallet}/balances", kind: "rest", schema: WalletRecords.BalancesPage },
  { name: "GET /v1/wallet/{wallet}/history", kind: "rest", schema: WalletRecords.HistoryPage },
  { name: "GET /v1/wallet/{wallet}/transfers", kind: "rest", schema: WalletRecords.TransfersPage },
  { name: "GET /v1/wallet/{wallet}/funded-by", kind: "rest", schema: WalletRecords.FundedBy },
  { name: "GET /v0/admin/projects/{id}/usage", kind: "rest", schema: ProjectUsage.ProjectUsage },
  { name: "GET /v0/webhooks", kind: "rest", schema: Webhook.WebhookList }
]

// -- the server side: whatever the current case says -------------------------------------------

interface Answer {
  readonly status: number
  readonly contentType: string
  /** The body text, given the request's JSON-RPC id. */
  readonly text: (id: unknown) => string
}

let answer: Answer = { status: 200, contentType: "application/json", text: () => "{}" }

const runtime = ManagedRuntime.make(
  HttpTesting.layerTransport(
    (req) =>
      new Response(answer.text((req.body as { id?: unknown } | undefined)?.id), {
        status: answer.status,
        headers: { "content-type": answer.contentType }
      }),
    // One attempt: a 5xx page is reported as it is, at once.
    { retry: { times: 0 } }
  )
)

const call = (target: Target) =>
  Effect.flatMap(HttpTransport.HttpTransport, (t) =>
    target.kind === "rpc"
      ? t.rpc(target.name, {}, target.schema)
      : t.rest({ operation: target.name, host: "rest", method: "GET", path: "/fuzz", idempotent: true }, target.schema))

/** The body of a successful answer carrying `value`. */
const bodyOf = (target: Target, value: unknown) => (id: unknown) =>
  Json.stringify(target.kind === "rpc" ? { jsonrpc: "2.0", id, result: value } : value)

const API_ERRORS = new Set([
  "Unauthorized",
  "RateLimited",
  "CreditsExhausted",
  "JsonRpcError",
  "HttpError",
  "DecodeError",
  "TransportError"
])

type Outcome =
  | { readonly _tag: "Decoded"; readonly value: unknown }
  | { readonly _tag: "Typed"; readonly error: any }
  | {
    readonly _tag: "Defect"
    readonly cause: string
  }

const run = async (target: Target, next: Answer): Promise<Outcome> => {
  answer = next
  const exit = await runtime.runPromiseExit(call(target))
  if (Exit.isSuccess(exit)) return { _tag: "Decoded", value: exit.value }
  const failure = Cause.failureOption(exit.cause)
  if (failure._tag === "Some" && API_ERRORS.has((failure.value as { _tag: string })._tag)) {
    return { _tag: "Typed", error: failure.value }
  }
  return { _tag: "Defect", cause: Cause.pretty(exit.cause) }
}

// -- corruption -------------------------------------------------------------------------------

type Path = ReadonlyArray<string | number>

const paths = (value: unknown, at: Path = [], out: Array<Path> = []): Array<Path> => {
  out.push(at)
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out))
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out)
  }
  return out
}

const clone = (value: unknown): any => JSON.parse(JSON.stringify(value))

const setAt = (root: unknown, path: Path, f: (old: unknown) => unknown): unknown => {
  if (path.length === 0) return f(root)
  const copy = clone(root)
  let node = copy
  for (const key of path.slice(0, -1)) node = node[key]
  node[path.at(-1)!] = f(node[path.at(-1)!])
  return copy
}

/** A value of another JSON type than `old`. */
const otherType = (old: unknown, pick: number): unknown => {
  const candidates: Array<unknown> = [42, -1.5, "a string", true, null, [], {}, [1, "x"], { unexpected: 1 }]
  const differs = candidates.filter((c) =>
    (Array.isArray(c) ? "array" : c === null ? "null" : typeof c) !==
      (Array.isArray(old) ? "array" : old === null ? "null" : typeof old)
  )
  return differs[pick % differs.length]
}

/** Integers beyond 2^53, 2^64, 2^96, and doubles near the top of their range. */
const HUGE = [
  "123456789012345678901234567890",
  "18446744073709551616",
  "9007199254740993",
  "-9223372036854775809",
  "1.5e300",
  "-1.7976931348623157e308"
]
const DEEP_MARK = "\"__deep__\""
const deep = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth)
const HTML = (status: number) =>
  `<!DOCTYPE html><html><head><title>${status} Bad Gateway</title></head><body><center><h1>${status}</h1></center><hr><center>cloudflare</center></body></html>`

type Kind = "wrongType" | "missingField" | "truncation" | "html" | "empty" | "hugeNumber" | "deepNesting"
const KINDS: ReadonlyArray<Kind> = [
  "wrongType",
  "missingField",
  "truncation",
  "html",
  "empty",
  "hugeNumber",
  "deepNesting"
]

interface Corrupted {
  readonly kind: Kind
  readonly answer: Answer
  /** Whether the corruption can never be a valid answer (then a typed error is required). */
  readonly alwaysInvalid: boolean
}

const corrupt = (target: Target, wire: unknown, kind: Kind, a: number, b: number): Corrupted => {
  const json = (value: unknown, status = 200): Answer => ({
    status,
    contentType: "application/json",
    text: bodyOf(target, value)
  })
  const all = paths(wire)
  switch (kind) {
    case "wrongType": {
      const path = all[a % all.length]!
      return { kind, answer: json(setAt(wire, path, (old) => otherType(old, b))), alwaysInvalid: false }
    }
    case "missingField": {
      const objects = all.filter((p) => {
        let node: any = wire
        for (const k of p) node = node[k]
        return typeof node === "object" && node !== null && !Array.isArray(node) && Object.keys(node).length > 0
      })
      if (objects.length === 0) return corrupt(target, wire, "truncation", a, b)
      const path = objects[a % objects.length]!
      return {
        kind,
        answer: json(setAt(wire, path, (old: any) => {
          const keys = Object.keys(old)
          const { [keys[b % keys.length]!]: _, ...rest } = old
          return rest
        })),
        alwaysInvalid: false
      }
    }
    case "truncation": {
      const full = bodyOf(target, wire)
      return {
        kind,
        answer: {
          status: 200,
          contentType: "application/json",
          text: (id) => {
            const text = full(id)
            return text.slice(0, a % text.length)
          }
        },
        alwaysInvalid: true
      }
    }
    case "html": {
      const status = [200, 404, 500, 502, 503][b % 5]!
      return { kind, answer: { status, contentType: "text/html", text: () => HTML(status) }, alwaysInvalid: true }
    }
    case "empty": {
      const status = [200, 200, 500, 502][b % 4]!
      return { kind, answer: { status, contentType: "application/json", text: () => "" }, alwaysInvalid: true }
    }
    case "hugeNumber": {
      const path = all[a % all.length]!
      const MARK = "\"__huge__\""
      const marked = setAt(wire, path, () => "__huge__")
      const literal = HUGE[b % HUGE.length]!
      return {
        kind,
        answer: {
          status: 200,
          contentType: "application/json",
          text: (id) => bodyOf(target, marked)(id).replace(MARK, literal)
        },
        alwaysInvalid: false
      }
    }
    case "deepNesting": {
      // Deeper than any parser's recursion: at the root of the body, or in place of a value.
      const depth = 5_000 + (b % 4) * 20_000
      const [open, close] = b % 2 === 0 ? ["[", "]"] : ["{\"a\":", "}"]
      const nested = b % 2 === 0 ? deep(depth, open, close) : open.repeat(depth) + "1" + close.repeat(depth)
      if (a % 3 === 0) {
        return {
          kind,
          answer: {
            status: 200,
            contentType: "application/json",
            text: () => nested
          },
          alwaysInvalid: true
        }
      }
      const path = all[a % all.length]!
      const marked = setAt(wire, path, () => "__deep__")
      return {
        kind,
        answer: {
          status: 200,
          contentType: "application/json",
          text: (id) => bodyOf(target, marked)(id).replace(DEEP_MARK, nested)
        },
        alwaysInvalid: false
      }
    }
  }
}

// -- the properties ---------------------------------------------------------------------------

const counts = {
  valid: 0,
  corrupted: 0,
  rejected: 0,
  accepted: 0,
  byKind: {} as Record<string, { cases: number; rejected: number }>
}

/** Iterative: an accepted value may hold a deeply nested unknown field. */
const hasNonFinite = (root: unknown): boolean => {
  const stack: Array<unknown> = [root]
  while (stack.length > 0) {
    const u = stack.pop()
    if (typeof u === "number" && !Number.isFinite(u)) return true
    if (typeof u === "object" && u !== null) stack.push(...Object.values(u))
  }
  return false
}

describe("bad responses (fast-check, fixed seed)", () => {
  for (const target of targets) {
    const wireArb = arbitraryOf(target.schema).map((value) => jsonSafe(Schema.encodeSync(target.schema)(value)))

    it(`${target.name}: generated valid bodies decode`, async () => {
      await FastCheck.assert(
        FastCheck.asyncProperty(wireArb, async (wire) => {
          const outcome = await run(target, {
            status: 200,
            contentType: "application/json",
            text: bodyOf(target, wire)
          })
          counts.valid++
          if (outcome._tag !== "Decoded") {
            throw new Error(`not decoded: ${outcome._tag === "Typed" ? outcome.error.message : outcome.cause}`)
          }
        }),
        { seed: SEED, numRuns: VALID_RUNS, endOnFailure: true }
      )
    })

    it(`${target.name}: corrupted bodies give a typed error, never a defect`, async () => {
      await FastCheck.assert(
        FastCheck.asyncProperty(
          wireArb,
          FastCheck.constantFrom(...KINDS),
          FastCheck.nat(),
          FastCheck.nat(),
          async (wire, kind, a, b) => {
            const bad = corrupt(target, wire, kind, a, b)
            const outcome = await run(target, bad.answer)
            counts.corrupted++
            const tally = counts.byKind[bad.kind] ??= { cases: 0, rejected: 0 }
            tally.cases++
            if (outcome._tag === "Defect") throw new Error(`a defect for ${bad.kind}: ${outcome.cause}`)
            if (outcome._tag === "Typed") {
              counts.rejected++
              tally.rejected++
              const status = bad.answer.status
              // Every error names what went wrong: the 200 bodies are DecodeErrors, the others HttpErrors.
              if (bad.kind === "truncation" || bad.kind === "empty" || bad.kind === "html") {
                expect(outcome.error._tag).toBe(status === 200 ? "DecodeError" : "HttpError")
              }
              return
            }
            counts.accepted++
            if (bad.alwaysInvalid) throw new Error(`${bad.kind} was accepted as valid`)
            // Accepted only where the schema allows it, and never as a non-finite number.
            expect(hasNonFinite(outcome.value), `${bad.kind} decoded to a non-finite number`).toBe(false)
          }
        ),
        { seed: SEED, numRuns: CORRUPT_RUNS, endOnFailure: true }
      )
    })
  }

  // KNOWN GAP (reported, not fixed here: core Json.parse deliberately keeps JSON.parse's reading): a number
  // literal beyond the double range, such as 1e400, reads as Infinity, and a float field (a USD value, a
  // percentage, a fee) accepts it. `it.fails` passes while the gap exists; once fixed, turn it into `it`.
  it.fails("KNOWN GAP: a float literal beyond the double range (1e400) is rejected, not read as Infinity", async () => {
    const balances = targets.find((t) => t.name === "GET /v1/wallet/{wallet}/balances")!
    const page = {
      balances: [],
      nfts: [],
      totalUsdValue: "__huge__",
      pagination: { page: 1, limit: 100, hasMore: false }
    }
    const outcome = await run(balances, {
      status: 200,
      contentType: "application/json",
      text: () => Json.stringify(page).replace("\"__huge__\"", "1e400")
    })
    expect(outcome._tag === "Decoded" ? (outcome.value as { totalUsdValue: number }).totalUsdValue : "rejected").toBe(
      "rejected"
    )
  })

  it("ran at least 10,000 cases", async () => {
    await runtime.dispose()
    const total = counts.valid + counts.corrupted
    console.log(
      `[reliability] fuzz: seed=${SEED} cases=${total} valid=${counts.valid} corrupted=${counts.corrupted} ` +
        `typedErrors=${counts.rejected} acceptedAsValid=${counts.accepted} defects=0 byKind=${
          JSON.stringify(counts.byKind)
        }`
    )
    expect(total).toBeGreaterThanOrEqual(10_000)
  })
})
