import { describe, expect, it } from "@effect/vitest"
import { getTransferSolInstruction } from "@solana-program/system"
import {
  appendTransactionMessageInstruction,
  blockhash,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners
} from "@solana/kit"
import * as SolfxConfig from "@solfx/core/Config"
import * as HttpTesting from "@solfx/http/HttpTesting"
import * as HttpTransport from "@solfx/http/HttpTransport"
import { SendAndConfirm, SolanaRpc } from "@solfx/kit"
import { Subscriptions } from "@solfx/subscriptions/Subscriptions"
import * as Kit from "@solfx/testing/Kit"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"

const message = async (lastValidBlockHeight = 100n) => {
  const payer = await generateKeyPairSigner()
  return pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash(Kit.BLOCKHASH), lastValidBlockHeight }, m),
    (m) => appendTransactionMessageInstruction(Kit.memo(`t${Math.random()}`), m)
  )
}

/** A fake chain: what the RPC answers, from a little state the test sets. */
interface Chain {
  sends: number
  /** The send (1-based) from which the transaction is known, or never. */
  landsOnSend: number | undefined
  blockHeight: bigint
  err: unknown
  dropFirst: boolean
  preflightErr: unknown
  methods: Array<string>
  simulated: Array<unknown>
  sent: Array<string>
  configs: Array<{ readonly maxRetries?: number; readonly skipPreflight?: boolean }>
  /** getBlockHeight answers this many JSON-RPC errors first. */
  heightErrors: number
}

const chainOf = (o: Partial<Chain> = {}): Chain => ({
  sends: 0,
  landsOnSend: 1,
  blockHeight: 10n,
  err: null,
  dropFirst: false,
  preflightErr: undefined,
  methods: [],
  simulated: [],
  sent: [],
  configs: [],
  heightErrors: 0,
  ...o
})

const handlerOf = (chain: Chain): HttpTesting.Handler => (req) => {
  const body = req.body as { method: string; params: Array<any> }
  chain.methods.push(body.method)
  switch (body.method) {
    case "sendTransaction": {
      chain.sends++
      chain.sent.push(body.params[0])
      chain.configs.push(body.params[1])
      if (chain.dropFirst && chain.sends === 1) return Effect.fail("reset" as const)
      if (chain.preflightErr !== undefined && body.params[1].skipPreflight === false) {
        return Response.json({
          jsonrpc: "2.0",
          id: (req.body as { id: string }).id,
          error: {
            code: -32002,
            message: "Transaction simulation failed",
            data: { err: chain.preflightErr, logs: ["Program log: preflight says no"] }
          }
        })
      }
      return HttpTesting.rpcResult(req, "sig")
    }
    case "getSignatureStatuses": {
      const known = chain.landsOnSend !== undefined && chain.sends >= chain.landsOnSend
      return HttpTesting.rpcResult(req, {
        context: { slot: 50 },
        value: [known ? { slot: 49, confirmations: 1, err: chain.err, confirmationStatus: "confirmed" } : null]
      })
    }
    case "getBlockHeight":
      if (chain.heightErrors > 0) {
        chain.heightErrors--
        return HttpTesting.rpcError(req, -32600, "request timeout")
      }
      return HttpTesting.rpcResult(req, Number(chain.blockHeight))
    case "getTransaction":
      return HttpTesting.rpcResult(req, { slot: 49, meta: { err: chain.err, logMessages: ["Program log: boom"] } })
    case "simulateTransaction":
      chain.simulated.push(body.params)
      return HttpTesting.rpcResult(req, { context: { slot: 50 }, value: { err: null, logs: [], unitsConsumed: 1000 } })
    case "sendBundle":
      chain.sends++
      // Not the id of the transactions sent: a proxy's, or a wrong node's, answer.
      return HttpTesting.rpcResult(req, "f".repeat(64))
    case "getPriorityFeeEstimate":
      return HttpTesting.rpcResult(req, { priorityFeeEstimate: 1234.5 })
    default:
      return HttpTesting.rpcError(req, -32601, "Method not found")
  }
}

const layerOf = (chain: Chain) =>
  SolanaRpc.layer.pipe(Layer.provideMerge(
    HttpTransport.layer.pipe(
      Layer.provideMerge(HttpTesting.layer(handlerOf(chain))),
      Layer.provideMerge(Layer.succeed(
        SolfxConfig.SolfxConfig,
        SolfxConfig.make({
          apiKey: "test-key",
          baseUrl: "http://solfx.test",
          allowInsecureHttp: true,
          retry: { base: Duration.millis(1), maxDelay: Duration.millis(1) }
        })
      ))
    )
  ))

const fast = { rebroadcastEvery: "20 millis", pollEvery: "10 millis" } as const

const txOf = (m: Awaited<ReturnType<typeof message>>) => Effect.promise(() => signTransactionMessageWithSigners(m))

describe("SendAndConfirm (over a fake RPC)", () => {
  it.live("a first send that is dropped: confirmed by a rebroadcast, sent with maxRetries 0", () => {
    const chain = chainOf({ dropFirst: true, landsOnSend: 2 })
    return Effect.gen(function*() {
      const tx = yield* txOf(yield* Effect.promise(() => message()))
      const confirmed = yield* SendAndConfirm.sendAndConfirm(tx as never, fast)
      expect(confirmed.slot).toBe(49n)
      expect(confirmed.sends).toBeGreaterThanOrEqual(2)
      expect(chain.sends).toBeGreaterThanOrEqual(2)
      // every send: no retries by the node; the rebroadcasts skip preflight
      expect(chain.configs.every((c) => c.maxRetries === 0)).toBe(true)
      expect(chain.configs.map((c) => c.skipPreflight).slice(0, 2)).toEqual([false, true])
    }).pipe(Effect.provide(layerOf(chain)))
  })

  it.live("past lastValidBlockHeight without landing: BlockhashExpired, and the sends stop", () => {
    // Two polls fail first (a busy node): the next ones go on.
    const chain = chainOf({ landsOnSend: undefined, blockHeight: 101n, heightErrors: 2 })
    return Effect.gen(function*() {
      const tx = yield* txOf(yield* Effect.promise(() => message(100n)))
      const e = yield* Effect.flip(SendAndConfirm.sendAndConfirm(tx as never, fast))
      expect(e).toMatchObject({ _tag: "BlockhashExpired", lastValidBlockHeight: 100n, blockHeight: 101n })
      expect(chain.heightErrors).toBe(0)
      const after = chain.sends
      yield* Effect.sleep("100 millis")
      expect(chain.sends).toBe(after)
    }).pipe(Effect.provide(layerOf(chain)))
  })

  it.live("polls failing 5 times in a row: the confirmation ends with the last failure", () => {
    const chain = chainOf({ landsOnSend: undefined, heightErrors: 100 })
    return Effect.gen(function*() {
      const tx = yield* txOf(yield* Effect.promise(() => message()))
      const e = yield* Effect.flip(SendAndConfirm.sendAndConfirm(tx as never, fast))
      expect(e).toMatchObject({ _tag: "JsonRpcError", code: -32600 })
      expect(chain.heightErrors).toBe(95)
    }).pipe(Effect.provide(layerOf(chain)))
  })

  it.live("landed with an error: TransactionFailed with the error and the landed logs", () => {
    const chain = chainOf({ err: { InstructionError: [0, { Custom: 1 }] } })
    return Effect.gen(function*() {
      const tx = yield* txOf(yield* Effect.promise(() => message()))
      const e = yield* Effect.flip(SendAndConfirm.sendAndConfirm(tx as never, { ...fast, skipPreflight: true }))
      expect(e).toMatchObject({
        _tag: "TransactionFailed",
        slot: 49n,
        // as kit reads it: integers as bigints
        err: { InstructionError: [0n, { Custom: 1n }] },
        logs: ["Program log: boom"]
      })
    }).pipe(Effect.provide(layerOf(chain)))
  })

  it.live("a bundle whose sendBundle answers another id: BundleIdMismatch, sent once", () => {
    const chain = chainOf()
    return Effect.gen(function*() {
      const payer = yield* Effect.promise(() => generateKeyPairSigner())
      const tx = yield* Effect.promise(() =>
        signTransactionMessageWithSigners(pipe(
          createTransactionMessage({ version: 0 }),
          (m) => setTransactionMessageFeePayerSigner(payer, m),
          (m) =>
            setTransactionMessageLifetimeUsingBlockhash(
              { blockhash: blockhash(Kit.BLOCKHASH), lastValidBlockHeight: 100n },
              m
            ),
          (m) =>
            appendTransactionMessageInstruction(
              getTransferSolInstruction({ source: payer, destination: Kit.TIP, amount: 10_000n }),
              m
            )
        ))
      )
      const e = yield* Effect.flip(SendAndConfirm.sendAndConfirmBundle([tx] as never, fast))
      expect(e).toMatchObject({ _tag: "BundleIdMismatch", received: "f".repeat(64) })
      yield* Effect.sleep("60 millis")
      expect(chain.sends).toBe(1)
    }).pipe(Effect.provide(layerOf(chain)))
  })

  it.live("a preflight failure is SimulationFailed with its logs, sent once", () => {
    const chain = chainOf({ preflightErr: { InstructionError: [0, { Custom: 6 }] } })
    return Effect.gen(function*() {
      const tx = yield* txOf(yield* Effect.promise(() => message()))
      const e = yield* Effect.flip(SendAndConfirm.sendAndConfirm(tx as never, fast))
      expect(e).toMatchObject({ _tag: "SimulationFailed", logs: ["Program log: preflight says no"] })
      yield* Effect.sleep("60 millis")
      expect(chain.sends).toBe(1)
    }).pipe(Effect.provide(layerOf(chain)))
  })

  it.live("interrupted: no send after it", () => {
    const chain = chainOf({ landsOnSend: undefined })
    return Effect.gen(function*() {
      const tx = yield* txOf(yield* Effect.promise(() => message()))
      const fiber = yield* Effect.fork(SendAndConfirm.sendAndConfirm(tx as never, fast))
      for (let i = 0; i < 200 && chain.sends < 3; i++) yield* Effect.sleep("10 millis")
      expect(chain.sends).toBeGreaterThanOrEqual(3)
      yield* Fiber.interrupt(fiber)
      const after = chain.sends
      yield* Effect.sleep("100 millis")
      expect(chain.sends).toBe(after)
    }).pipe(Effect.provide(layerOf(chain)))
  })

  it.live("a message: priced at the estimate's level, its units simulated and set with the margin, then signed", () => {
    const chain = chainOf()
    return Effect.gen(function*() {
      const m = yield* Effect.promise(() => message())
      const confirmed = yield* SendAndConfirm.sendAndConfirm(m as never, {
        ...fast,
        priorityFee: "High",
        computeUnitLimit: "estimate"
      })
      expect(confirmed.priorityFee).toBe(1235n)
      expect(confirmed.computeUnitLimit).toBe(1100)
      expect(chain.methods.slice(0, 3)).toEqual(["getPriorityFeeEstimate", "simulateTransaction", "sendTransaction"])
      // The simulation ran with the largest limit, the blockhash replaced, no signature check.
      expect(chain.simulated[0]).toMatchObject([expect.any(String), {
        encoding: "base64",
        sigVerify: false,
        replaceRecentBlockhash: true
      }])
      // A signed transaction cannot be priced any more.
      const tx = yield* txOf(m)
      const e = yield* Effect.flip(SendAndConfirm.sendAndConfirm(tx as never, { priorityFee: "High" }))
      expect(e).toMatchObject({ _tag: "InvalidRequest", field: "priorityFee" })
      // What was sent carries both compute-budget instructions (program ComputeBudget111…).
      const sent = getTransactionDecoder().decode(getBase64Encoder().encode(chain.sent[0]!))
      const compiled = getCompiledTransactionMessageDecoder().decode(sent.messageBytes) as any
      const budget = compiled.staticAccounts.indexOf("ComputeBudget111111111111111111111111111111" as never)
      expect(budget).toBeGreaterThanOrEqual(0)
      const data = compiled.instructions.filter((i: any) => i.programAddressIndex === budget).map((
        i: any
      ) => [...i.data])
      expect(data).toContainEqual([2, 76, 4, 0, 0]) // SetComputeUnitLimit 1100
      expect(data).toContainEqual([3, 211, 4, 0, 0, 0, 0, 0, 0]) // SetComputeUnitPrice 1235
    }).pipe(Effect.provide(layerOf(chain)))
  })

  it.live("with Subscriptions: confirmed by the signature's notification while the polls see nothing yet", () => {
    const chain = chainOf({ landsOnSend: undefined })
    const subscribed: Array<readonly [string, unknown]> = []
    const subscriptions = Layer.succeed(Subscriptions, {
      signature: (signature: string, options: unknown) => {
        subscribed.push([signature, options])
        return Stream.make({
          _tag: "Notification" as const,
          slot: 60n,
          value: { context: { slot: 60n }, value: { err: null } }
        })
      }
    } as never)
    return Effect.gen(function*() {
      const tx = yield* txOf(yield* Effect.promise(() => message()))
      const confirmed = yield* SendAndConfirm.sendAndConfirm(tx as never, { ...fast, commitment: "finalized" })
      expect(confirmed.slot).toBe(60n)
      expect(subscribed).toEqual([[confirmed.signature, { commitment: "finalized" }]])
    }).pipe(Effect.provide(Layer.merge(layerOf(chain), subscriptions)))
  })
})
