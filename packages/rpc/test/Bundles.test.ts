import { describe, expect, it } from "@effect/vitest"
import * as Bundle from "@solfx/core/Bundle"
import { HttpTesting } from "@solfx/http"
import { Bundles } from "@solfx/rpc"
import { build, bundleIdOf as idOf, LOOKUP_TABLE, memo, signer, TIP, TIP2, transfer } from "@solfx/testing/Kit"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"
import { createHash } from "node:crypto"

const SENDER_TIP = "4ACfpUFoaSD9bfPdeu6DBt89gB6ENTeHBXCAi87NhDEE" as any // a Helius Sender account, not a Jito one

/** Real transactions, built once with @solana/kit. */
const fixtures = (async () => {
  const payer = await signer()
  const other = await signer()
  const [swap, tipped, tipped58, small, noTip, senderTip, lutTip, partial, unsigned, v1, swap2] = await Promise.all([
    build({ version: 0, payer, instructions: [memo("swap"), transfer(payer, other.address, 10n)] }),
    build({ version: "legacy", payer, instructions: [transfer(payer, TIP, 10_000n)] }),
    build({ version: 0, payer: other, instructions: [transfer(other, TIP2, 1000n)] }),
    build({ version: 0, payer, instructions: [transfer(payer, TIP, 999n)] }),
    build({ version: "legacy", payer, instructions: [memo("no tip")] }),
    build({ version: "legacy", payer, instructions: [transfer(payer, SENDER_TIP, 50_000n)] }),
    build({
      version: 0,
      payer,
      instructions: [transfer(payer, TIP, 50_000n)],
      lookupTables: { [LOOKUP_TABLE]: [TIP] }
    }),
    build({ version: 0, payer, instructions: [transfer(other, TIP, 5000n)], signWith: [payer] }),
    build({ version: 0, payer, instructions: [transfer(payer, TIP, 5000n)], signWith: [] }),
    build({ version: 1, payer, instructions: [transfer(payer, TIP, 5000n)] }),
    build({ version: "legacy", payer: other, instructions: [memo("second")] })
  ])
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")
  const tampered = tipped.bytes.slice()
  tampered[tampered.length - 1] ^= 1
  const nonMinimal = Uint8Array.from([0x80, 0x00, ...tipped.bytes.subarray(1)])
  return {
    swap,
    swap2,
    tipped,
    tipped58,
    small,
    noTip,
    senderTip,
    lutTip,
    partial,
    unsigned,
    v1,
    forged: b64(tampered),
    oversized: b64(new Uint8Array(1300)),
    trailing: b64(Uint8Array.from([...tipped.bytes, 0])),
    truncated: b64(tipped.bytes.subarray(0, tipped.bytes.length - 5)),
    nonMinimal: b64(nonMinimal)
  }
})()
const kit = Effect.promise(() => fixtures)

const run = <A, E>(
  handler: HttpTesting.Handler,
  f: (b: Bundles.BundlesShape) => Effect.Effect<A, E>,
  options?: Bundles.Options
) =>
  Effect.gen(function*() {
    const bundles = yield* Bundles.Bundles
    const log = yield* HttpTesting.RequestLog
    const exit = yield* Effect.exit(f(bundles))
    return { exit, count: yield* log.count, requests: yield* log.requests }
  }).pipe(
    Effect.provide(Bundles.layerWith(options ?? {}).pipe(Layer.provideMerge(HttpTesting.layerTransport(handler))))
  )

const failure = (exit: Exit.Exit<unknown, unknown>): any =>
  Exit.isFailure(exit) ? Option.getOrUndefined(Cause.failureOption(exit.cause)) : undefined

const never: HttpTesting.Handler = () => {
  throw new Error("no request may be sent")
}

describe("sendBundle pre-flight", () => {
  it.effect("refuses every bad bundle with InvalidRequest naming the field and the rule, sending nothing", () =>
    Effect.gen(function*() {
      const k = yield* kit
      type Row = [
        name: string,
        txs: ReadonlyArray<any>,
        options: Bundles.SendOptions | undefined,
        field: string,
        rule: RegExp
      ]
      const table: Array<Row> = [
        ["empty bundle", [], undefined, "transactions", /1 to 5 transactions, got none/],
        ["six transactions", Array(6).fill(k.tipped.base64), undefined, "transactions", /1 to 5 transactions, got 6/],
        ["not an array", "abc" as any, undefined, "transactions", /array/i],
        ["a number among strings", [k.tipped.base64, 123], undefined, "transactions[1]", /string/],
        [
          "bad base64 character",
          [k.tipped.base64, "AAAA$AAA"],
          undefined,
          "transactions[1]",
          /character 4: invalid base64 character "\$"/
        ],
        [
          "base64 declared as base58",
          [k.tipped.base64],
          { encoding: "base58" },
          "transactions[0]",
          /invalid base58 character/
        ],
        [
          "base58 declared as base64",
          [k.tipped.base58],
          { encoding: "base64" },
          "transactions[0]",
          /declared encoding/
        ],
        [
          "oversized",
          [k.tipped.base64, k.oversized],
          undefined,
          "transactions[1]",
          /oversized: 1300 bytes, the maximum is 1232/
        ],
        [
          "trailing byte",
          [k.swap.base64, k.tipped.base64, k.trailing],
          undefined,
          "transactions[2]",
          /1 trailing byte/
        ],
        ["truncated", [k.truncated], undefined, "transactions[0]", /truncated/],
        [
          "non-minimal compact-u16",
          [k.nonMinimal],
          undefined,
          "transactions[0]",
          /byte 1: non-minimal compact-u16 \(signature count\)/
        ],
        ["v1 transaction", [k.tipped.base64, k.v1.base64], undefined, "transactions[1]", /0x81/],
        [
          "partially signed",
          [k.tipped.base64, k.partial.base64],
          undefined,
          "transactions[1]",
          /fully signed; missing signature\(s\) 1/
        ],
        ["unsigned", [k.unsigned.base64], undefined, "transactions[0]", /missing signature\(s\) 0/],
        ["forged signature", [k.forged], undefined, "transactions[0]", /not a valid Ed25519 signature/],
        [
          "duplicate transaction",
          [k.swap.base64, k.tipped.base64, k.swap.base64],
          undefined,
          "transactions[2]",
          /appear twice.*transactions\[0\]/
        ],
        [
          "no tip at all",
          [k.swap.base64, k.noTip.base64],
          undefined,
          "transactions",
          /1000 lamports .*tip account.*no tip found/
        ],
        [
          "tip below the minimum",
          [k.swap.base64, k.small.base64],
          undefined,
          "transactions",
          /largest tip found is 999 lamports in transactions\[1\]/
        ],
        ["tip to a non-tip account", [k.senderTip.base64], undefined, "transactions", /no tip found/],
        ["tip account in a lookup table", [k.lutTip.base64], undefined, "transactions", /static key only/],
        ["unknown region", [k.tipped.base64], { region: "eu" as any }, "region", /ams/],
        ["unknown encoding", [k.tipped.base64], { encoding: "hex" as any }, "encoding", /base64/],
        [
          "base58 text declared base64 (v0 tipped)",
          [k.tipped58.base58],
          undefined,
          "transactions[0]",
          /declared encoding/
        ]
      ]
      expect(table.length).toBeGreaterThanOrEqual(15)
      for (const [name, txs, options, field, rule] of table) {
        const r = yield* run(never, (b) => b.sendBundle(txs, options))
        const error = failure(r.exit)
        expect({ name, tag: error?._tag, field: error?.field, count: r.count }).toEqual({
          name,
          tag: "InvalidRequest",
          field,
          count: 0
        })
        expect(error.message, name).toMatch(rule)
      }
    }))

  it.effect("honours configured tip accounts and minimum", () =>
    Effect.gen(function*() {
      const k = yield* kit
      const r = yield* run(never, (b) => b.sendBundle([k.tipped.base64]), { tipAccounts: [SENDER_TIP] })
      expect(failure(r.exit)).toMatchObject({ _tag: "InvalidRequest", field: "transactions" })
      const ok = yield* run(
        (req) => HttpTesting.rpcResult(req, idOf([k.senderTip.signatures[0]!])),
        (b) => b.sendBundle([k.senderTip.base64]),
        { tipAccounts: [SENDER_TIP], minTip: 50_000 }
      )
      expect(ok.exit).toEqual(Exit.succeed(idOf([k.senderTip.signatures[0]!])))
    }))
})

describe("sendBundle over the wire", () => {
  it.effect("sends the spec's body with a numeric id and the region header, and checks the id", () =>
    Effect.gen(function*() {
      const k = yield* kit
      const txs = [k.swap.base64, k.tipped.base64, k.swap2.base64]
      const expected = idOf([k.swap.signatures[0]!, k.tipped.signatures[0]!, k.swap2.signatures[0]!])
      const r = yield* run((req) => HttpTesting.rpcResult(req, expected), (b) => b.sendBundle(txs, { region: "fra" }))
      expect(r.exit).toEqual(Exit.succeed(expected))
      expect(r.count).toBe(1)
      const req = r.requests[0]!
      expect(req.method).toBe("POST")
      expect(req.headers["relay-region"]).toBe("fra")
      expect(req.body).toMatchObject({ jsonrpc: "2.0", method: "sendBundle", params: [txs, { encoding: "base64" }] })
      expect(typeof (req.body as any).id).toBe("number")

      const b58 = yield* run(
        (req) => HttpTesting.rpcResult(req, idOf([k.tipped58.signatures[0]!])),
        (b) => b.sendBundle([k.tipped58.base58], { encoding: "base58" })
      )
      expect(b58.exit).toEqual(Exit.succeed(idOf([k.tipped58.signatures[0]!])))
      expect(b58.requests[0]!.headers["relay-region"]).toBeUndefined()
      expect((b58.requests[0]!.body as any).params[1]).toEqual({ encoding: "base58" })
    }))

  it.effect("a different id from the service is BundleIdMismatch", () =>
    Effect.gen(function*() {
      const k = yield* kit
      // as in the preview docs' example: a transaction signature instead of the hex id
      const r = yield* run((req) => HttpTesting.rpcResult(req, k.tipped.signatures[0]), (b) =>
        b.sendBundle([k.tipped.base64]))
      expect(failure(r.exit)).toMatchObject({
        _tag: "BundleIdMismatch",
        expected: idOf([k.tipped.signatures[0]!]),
        received: k.tipped.signatures[0]
      })
    }))

  it.effect("the block engine's rejection surfaces as JsonRpcError", () =>
    Effect.gen(function*() {
      const k = yield* kit
      const message = "Bundles must write lock at least one tip account to be eligible for the auction."
      const r = yield* run(
        (req) => HttpTesting.rpcError(req, -32602, message, { status: 400 }),
        (b) => b.sendBundle([k.tipped.base64])
      )
      expect(failure(r.exit)).toMatchObject({ _tag: "JsonRpcError", code: -32602, detail: message })
      expect(r.count).toBe(1)
    }))

  it.effect("retries only what was certainly not processed: refused connections and 429", () =>
    Effect.gen(function*() {
      const k = yield* kit
      const id = idOf([k.tipped.signatures[0]!])
      const attempt = (
        first: (req: HttpTesting.RecordedRequest) => Response | Effect.Effect<Response, "reset" | "refused">
      ) =>
        Effect.gen(function*() {
          const fiber = yield* Effect.fork(run(
            (req, i) => (i === 0 ? first(req) : HttpTesting.rpcResult(req, id)),
            (b) => b.sendBundle([k.tipped.base64])
          ))
          yield* TestClock.adjust("1 minute")
          return yield* Fiber.join(fiber)
        })
      const congested = yield* attempt((req) =>
        HttpTesting.rpcError(req, -32097, "Network congested. Endpoint is globally rate limited.", { status: 429 })
      )
      expect([congested.count, congested.exit]).toEqual([2, Exit.succeed(id)])
      const refused = yield* attempt(() => Effect.fail("refused" as const))
      expect([refused.count, refused.exit]).toEqual([2, Exit.succeed(id)])

      const reset = yield* attempt(() => Effect.fail("reset" as const))
      expect([reset.count, failure(reset.exit)?._tag]).toEqual([1, "TransportError"])
      const busy = yield* attempt(() => new Response("busy", { status: 503 }))
      expect([busy.count, failure(busy.exit)?._tag]).toEqual([1, "HttpError"])
      const broken = yield* attempt((req) => HttpTesting.rpcError(req, -32603, "Internal error", { status: 500 }))
      expect([broken.count, failure(broken.exit)?._tag]).toEqual([1, "HttpError"])
    }))
})

const statusOf = (id: string, confirmation_status: string, slot = 100, err: unknown = { Ok: null }) => ({
  bundle_id: id,
  transactions: ["3bC2M9fiACSjkTXZDgeNAuQ4ScTsdKGwR42ytFdhUvikqTmBheUxfsR1fDVsM5ADCMMspuwGkdm1uKbU246x5aE3"],
  slot,
  confirmation_status,
  err
})
const hexId = (n: number) => createHash("sha256").update(`bundle-${n}`).digest("hex")

describe("getBundleStatuses", () => {
  it.effect("chunks by 5 and answers in input order, none for null and missing entries", () =>
    Effect.gen(function*() {
      const ids = Array.from({ length: 12 }, (_, i) => hexId(i))
      const landed = new Set([ids[0], ids[6], ids[11]])
      const r = yield* run((req) => {
        const asked = (req.body as any).params[0] as Array<string>
        // reversed, unknown ones as null, and one unknown one left out entirely
        const value = asked.map((id) => (landed.has(id) ? statusOf(id, "finalized") : null)).reverse()
        value.splice(value.indexOf(null), 1)
        return HttpTesting.rpcResult(req, { context: { slot: 5 }, value })
      }, (b) => b.getBundleStatuses(ids))
      expect(r.requests.map((q) => (q.body as any).params[0].length)).toEqual([5, 5, 2])
      expect(r.requests.flatMap((q) => (q.body as any).params[0])).toEqual(ids)
      const statuses = Exit.isSuccess(r.exit) ? r.exit.value : []
      expect(statuses.map((s) => Option.map(s, (x) => x.bundle_id))).toEqual(
        ids.map((id) => (landed.has(id) ? Option.some(id) : Option.none()))
      )
    }))

  it.effect("validates ids before any request; no ids, no request", () =>
    Effect.gen(function*() {
      const bad = yield* run(never, (b) => b.getBundleStatuses([hexId(1), hexId(2), hexId(3), "NOT-HEX"]))
      expect([failure(bad.exit)?._tag, failure(bad.exit)?.field, bad.count]).toEqual(["InvalidRequest", "ids[3]", 0])
      const none = yield* run(never, (b) => b.getBundleStatuses([]))
      expect([none.exit, none.count]).toEqual([Exit.succeed([]), 0])
    }))
})

describe("awaitBundle", () => {
  const script = (steps: ReadonlyArray<unknown>): HttpTesting.Handler => (req, i) =>
    HttpTesting.rpcResult(req, { context: { slot: 100 + i }, value: [steps[Math.min(i, steps.length - 1)] ?? null] })

  it.effect("polls on its interval until the commitment is reached", () =>
    Effect.gen(function*() {
      const id = hexId(7)
      const steps = [
        null,
        null,
        statusOf(id, "processed", 90),
        statusOf(id, "confirmed", 90),
        statusOf(id, "finalized", 90)
      ]
      const fiber = yield* Effect.fork(run(script(steps), (b) => b.awaitBundle(id, { interval: "2 seconds" })))
      yield* TestClock.adjust("5 seconds")
      expect(fiber.unsafePoll()).toBeNull() // third poll (t = 4 s) saw `processed`
      yield* TestClock.adjust("1 second")
      const r = yield* Fiber.join(fiber)
      expect(r.count).toBe(4)
      expect(Exit.map(r.exit, (o) => [o._tag, (o as any).status, (o as any).slot])).toEqual(
        Exit.succeed(["Landed", "confirmed", 90])
      )

      const fin = yield* Effect.fork(run(
        script(steps),
        (b) => b.awaitBundle(id, { interval: "1 second", commitment: "finalized" })
      ))
      yield* TestClock.adjust("10 seconds")
      const f = yield* Fiber.join(fin)
      expect([f.count, Exit.map(f.exit, (o) => (o as any).status)]).toEqual([5, Exit.succeed("finalized")])
    }))

  it.effect("times out with the last status seen, and reports a failed bundle", () =>
    Effect.gen(function*() {
      const id = hexId(8)
      const stuck = yield* Effect.fork(run(
        script([null, statusOf(id, "processed", 42)]),
        (b) => b.awaitBundle(id, { timeout: "5 seconds", interval: "1 second", commitment: "finalized" })
      ))
      yield* TestClock.adjust("6 seconds")
      const s = yield* Fiber.join(stuck)
      const outcome = Exit.isSuccess(s.exit) ? s.exit.value : undefined
      expect(outcome?._tag).toBe("TimedOut")
      if (outcome?._tag === "TimedOut") {
        expect(Option.map(outcome.last, (x) => x.confirmation_status)).toEqual(Option.some("processed"))
      }

      const err = { Err: { InstructionError: [0, { Custom: 1 }] } }
      const failed = yield* run(script([statusOf(id, "processed", 7, err)]), (b) => b.awaitBundle(id))
      expect(Exit.map(failed.exit, (o) => Bundles.BundleOutcome.$is("Failed")(o) && o.err)).toEqual(Exit.succeed(err))

      const bad = yield* run(never, (b) => b.awaitBundle("abc"))
      expect([failure(bad.exit)?.field, bad.count]).toEqual(["id", 0])
      const badTimeout = yield* run(never, (b) => b.awaitBundle(id, { timeout: "soon" as any }))
      expect([failure(badTimeout.exit)?.field, badTimeout.count]).toEqual(["timeout", 0])
    }))

  it("the documented status decodes through the service's schema", () => {
    expect(Bundle.succeeded(statusOf(hexId(1), "finalized") as any)).toBe(true)
  })
})
