/**
 * The deprecated TokenMetadata service over a fake HTTP client: chunks of at most
 * 100 mints, input order, per-part errors as values, validation before any I/O.
 */
import { describe, expect, it } from "@effect/vitest"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { encodeBase58 } from "@solfx/core/Primitives"
import type * as TokenMetadataCore from "@solfx/core/TokenMetadataRecord"
import { HttpTesting } from "@solfx/http"
import * as TokenMetadata from "@solfx/rpc/TokenMetadata"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { readFileSync } from "node:fs"

const addr = (n: number) => encodeBase58(keccak_256(new Uint8Array([n & 255, n >> 8, 9])))
const OWNER = addr(60000)

interface Body {
  readonly mintAccounts: ReadonlyArray<string>
  readonly includeOffChain?: boolean
  readonly disableCache?: boolean
}

const record = (mint: string, i: number) => ({
  account: mint,
  onChainAccountInfo: {
    accountInfo: {
      key: mint,
      isSigner: false,
      isWritable: false,
      lamports: 1461600,
      data: {
        parsed: { info: { decimals: 6, supply: "1000", isInitialized: true }, type: "mint" },
        program: "spl-token",
        space: 82
      },
      owner: OWNER,
      executable: false,
      rentEpoch: 361
    },
    error: ""
  },
  // every seventh mint has no metadata account
  onChainMetadata: i % 7 === 3
    ? { metadata: null, error: "EMPTY_ACCOUNT" }
    : {
      metadata: {
        key: "MetadataV1",
        mint,
        updateAuthority: OWNER,
        data: {
          name: `Token ${i}`,
          symbol: "TK",
          uri: "https://x.test/t.json",
          sellerFeeBasisPoints: 0,
          creators: null
        }
      },
      error: ""
    },
  offChainMetadata: { metadata: { name: `Token ${i}` }, uri: "https://x.test/t.json", error: "" },
  legacyMetadata: null
})

/** Answers every chunk with its records in reverse order, to prove the service restores input order. */
const handler: HttpTesting.Handler = (req) => {
  const body = req.body as Body
  return Response.json(body.mintAccounts.map((m) => record(m, mints.indexOf(m))).reverse())
}

const mints = Array.from({ length: 250 }, (_, i) => addr(i))

const run = <A, E>(h: HttpTesting.Handler, f: (svc: TokenMetadata.TokenMetadataShape) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const svc = yield* TokenMetadata.TokenMetadata
    const log = yield* HttpTesting.RequestLog
    const exit = yield* Effect.exit(f(svc))
    return { exit, count: yield* log.count, requests: yield* log.requests }
  }).pipe(Effect.provide(TokenMetadata.layer.pipe(Layer.provideMerge(HttpTesting.layerTransport(h)))))

const failure = (exit: any) => (exit._tag === "Failure" ? exit.cause.error : undefined)

describe("TokenMetadata (unit)", () => {
  it.effect("zero values are absent: an empty authority is Option.none(), a part with an error is that error", () =>
    Effect.gen(function*() {
      // The service fills absent values with zero values: "" authorities, and "" / 0 beside a part's error.
      const text = readFileSync(new URL("./fixtures/token-metadata-zero-values.json", import.meta.url), "utf8")
      const fixture: ReadonlyArray<{ readonly account: string }> = JSON.parse(text)
      const r = yield* run(
        () => new Response(text, { headers: { "content-type": "application/json" } }),
        (svc) => svc.getTokenMetadata({ mintAccounts: fixture.map((f) => f.account), includeOffChain: true })
      )
      expect(r.exit._tag).toBe("Success")
      if (r.exit._tag !== "Success") return
      const [usdc, failed] = r.exit.value
      // No freeze or mint authority: the supply and decimals are kept.
      expect(usdc!.onChainAccountInfo).toMatchObject({ _tag: "Right" })
      const info = Either.getOrThrow(usdc!.onChainAccountInfo).accountInfo.data?.parsed?.info
      expect(info?.supply).toBe(9388258122463014n)
      expect(info?.decimals).toBe(6)
      expect(info?.freezeAuthority).toEqual(Option.none())
      expect(info?.mintAuthority).toEqual(Option.none())
      // Each part with an error is that part's MetadataPartError carrying the service's message.
      const errorOf = <A>(part: Either.Either<A, TokenMetadataCore.MetadataPartError> | undefined) =>
        part !== undefined && Either.isLeft(part) ? part.left : undefined
      expect(errorOf(failed!.onChainAccountInfo)).toMatchObject({
        _tag: "MetadataPartError",
        part: "onChainAccountInfo",
        mint: fixture[1]!.account,
        message: "failed to get account info: rpc timeout"
      })
      expect(errorOf(failed!.onChainMetadata)?.message).toBe("EMPTY_ACCOUNT")
      expect(errorOf(failed!.offChainMetadata)?.message).toBe("EMPTY_URI")
    }))

  it.effect("a part that does not decode, whatever the field, is that record's part error with its path", () =>
    Effect.gen(function*() {
      const few = mints.slice(0, 3)
      const r = yield* run((req) => {
        const body = req.body as Body
        return Response.json(body.mintAccounts.map((m, i) => {
          const rec = record(m, i)
          if (i === 1) {
            // A number where the name is a string, and an account info that is not an object.
            return {
              ...rec,
              onChainMetadata: {
                ...rec.onChainMetadata,
                metadata: { ...rec.onChainMetadata.metadata, data: { name: 7 } }
              },
              onChainAccountInfo: { accountInfo: "garbage", error: "" }
            }
          }
          return rec
        }))
      }, (svc) => svc.getTokenMetadata({ mintAccounts: few, includeOffChain: true }))
      expect(r.count).toBe(1)
      expect(r.exit._tag).toBe("Success")
      if (r.exit._tag !== "Success") return
      const [a, b, c] = r.exit.value
      expect(Either.isRight(a!.onChainMetadata) && Either.isRight(c!.onChainMetadata)).toBe(true)
      expect(Either.isRight(b!.offChainMetadata!)).toBe(true)
      const meta = Either.isLeft(b!.onChainMetadata) ? b!.onChainMetadata.left : undefined
      expect(meta).toMatchObject({ part: "onChainMetadata", mint: few[1] })
      expect(meta?.message).toContain("$[chunk 0][1].onChainMetadata.metadata.data")
      const info = Either.isLeft(b!.onChainAccountInfo) ? b!.onChainAccountInfo.left : undefined
      expect(info?.message).toContain("$[chunk 0][1].onChainAccountInfo.accountInfo")
    }))

  it.effect("250 mints: 3 POSTs of ≤ 100 to /v0/token-metadata, results in input order, part errors as values", () =>
    Effect.gen(function*() {
      const r = yield* run(
        handler,
        (svc) => svc.getTokenMetadata({ mintAccounts: mints, includeOffChain: true, disableCache: true })
      )
      expect(r.count).toBe(3)
      expect(r.requests.map((q) => [q.method, q.url.pathname, (q.body as Body).mintAccounts.length])).toEqual([
        ["POST", "/v0/token-metadata", 100],
        ["POST", "/v0/token-metadata", 100],
        ["POST", "/v0/token-metadata", 50]
      ])
      expect(r.requests[0]!.body).toMatchObject({ includeOffChain: true, disableCache: true })
      expect(r.exit._tag).toBe("Success")
      if (r.exit._tag !== "Success") return
      const records = r.exit.value
      expect(records.map((x) => x.account)).toEqual(mints)
      const bad = records[3]!
      expect(Either.isLeft(bad.onChainMetadata)).toBe(true)
      expect(Either.flip(bad.onChainMetadata).pipe(Either.getOrThrow)).toMatchObject({
        mint: mints[3],
        part: "onChainMetadata",
        message: "EMPTY_ACCOUNT"
      })
      expect(Either.isRight(bad.onChainAccountInfo)).toBe(true)
      expect(Either.getOrThrow(records[4]!.onChainMetadata).metadata.data.name).toBe("Token 4")
      expect(records.filter((x) => Either.isLeft(x.onChainMetadata)).length).toBe(36)
      expect(records.every((x) => x.offChainMetadata !== undefined && Either.isRight(x.offChainMetadata))).toBe(true)
    }))

  it.effect("offChainMetadata is absent unless includeOffChain; flags not set are not sent", () =>
    Effect.gen(function*() {
      const r = yield* run(handler, (svc) => svc.getTokenMetadata({ mintAccounts: mints.slice(0, 3) }))
      expect(r.requests[0]!.body).toEqual({ mintAccounts: mints.slice(0, 3) })
      const records = r.exit._tag === "Success" ? r.exit.value : []
      expect(records.length).toBe(3)
      expect(records.some((x) => "offChainMetadata" in x)).toBe(false)
    }))

  it.effect("a repeated mint is fetched once and returned at each of its positions", () =>
    Effect.gen(function*() {
      const input = [mints[0]!, mints[1]!, mints[0]!]
      const r = yield* run(handler, (svc) => svc.getTokenMetadata({ mintAccounts: input }))
      expect((r.requests[0]!.body as Body).mintAccounts).toEqual([mints[0], mints[1]])
      expect(r.exit._tag === "Success" && r.exit.value.map((x) => x.account)).toEqual(input)
    }))

  it.effect("batchSize and concurrency are honoured; invalid input sends nothing", () =>
    Effect.gen(function*() {
      const r = yield* run(handler, (svc) =>
        svc.getTokenMetadata({ mintAccounts: mints }, { batchSize: 30, concurrency: 2 }))
      expect(r.count).toBe(9)
      for (
        const [call, field] of [
          [
            (svc: TokenMetadata.TokenMetadataShape) =>
              svc.getTokenMetadata({ mintAccounts: [mints[0]!, "0OIl"] }),
            "mintAccounts[1]"
          ],
          [
            (svc: TokenMetadata.TokenMetadataShape) =>
              svc.getTokenMetadata({ mintAccounts: mints }, { batchSize: 101 }),
            "options.batchSize"
          ]
        ] as const
      ) {
        const bad = yield* run(handler, call)
        expect([failure(bad.exit)?._tag, failure(bad.exit)?.field, bad.count]).toEqual(["InvalidRequest", field, 0])
      }
      const empty = yield* run(handler, (svc) => svc.getTokenMetadata({ mintAccounts: [] }))
      expect([empty.exit._tag, empty.count]).toEqual(["Success", 0])
    }))

  it.effect("a record missing from the response is a DecodeError naming the mint", () =>
    Effect.gen(function*() {
      const r = yield* run(
        (req) => Response.json((req.body as Body).mintAccounts.slice(1).map((m, i) => record(m, i))),
        (svc) => svc.getTokenMetadata({ mintAccounts: mints.slice(0, 2) })
      )
      expect(failure(r.exit)).toMatchObject({ _tag: "DecodeError" })
      expect(failure(r.exit)?.expected).toContain(mints[0])
    }))
})
