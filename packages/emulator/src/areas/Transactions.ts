/**
 * The standard RPC's transaction methods, executed by the world's bank (a real SVM, `Bank`):
 * sendTransaction (a preflight failure is -32002 "Transaction simulation failed: …" with the
 * simulation as data, a bad signature -32003, as the RPC answers), simulateTransaction (the
 * runtime's error, logs, compute units, accounts after, return data; nothing kept),
 * requestAirdrop (lamports from the world's faucet, as a local validator serves it) and
 * getTransaction (`json`, `jsonParsed`, `base64`, `base58`; a v0 transaction only with
 * `maxSupportedTransactionVersion`, else -32015). A sent transaction lands in the current slot
 * and is processed, then confirmed, then finalized as slots pass (the world's one rule).
 *
 * The preflight and the send are one run: the bank executes the transaction once, and when the
 * preflight would have failed it puts back what the run changed (its fee) and answers -32002.
 * The preflight runs on the latest (processed) state whatever `preflightCommitment` says: the
 * emulator keeps no bank per commitment.
 *
 * @since 0.1.0
 */

import * as Endpoints from "@solfx/core/Endpoints"
import { base58ByteLength } from "@solfx/core/Primitives"
import * as Transaction from "@solfx/core/Transaction"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Predicate from "effect/Predicate"
import type { Area, AreaContext } from "../Area.js"
import { RpcFailure, rpcOf } from "../Area.js"
import type * as Bank from "../Bank.js"
import * as TransactionError from "../internal/TransactionError.js"
import * as TransactionView from "../internal/TransactionView.js"
import * as World from "../World.js"

const invalid = (message: string) => Effect.fail(new RpcFailure(-32602, `Invalid params: ${message}`))

const COMMITMENTS: ReadonlySet<unknown> = new Set(["processed", "confirmed", "finalized"])

/** `params[at]`, the config object, when it is one (or absent). */
const configAt = (params: ReadonlyArray<unknown>, at: number): Record<string, unknown> | undefined =>
  params[at] === undefined || params[at] === null ? {} : Predicate.isRecord(params[at]) ? params[at] : undefined

/** The -32016 of a `minContextSlot` the node has not reached, or undefined. */
const minContext = (config: Record<string, unknown>, ctx: AreaContext): RpcFailure | string | undefined => {
  const min = config["minContextSlot"]
  if (min === undefined) return undefined
  if (!Number.isSafeInteger(min) || (min as number) < 0) return "minContextSlot must be a slot"
  return (min as number) > ctx.slot() ? new RpcFailure(-32016, "Minimum context slot has not been reached") : undefined
}

/** The encoded transaction of `params[0]`, parsed, or the RPC's error. */
const decodeTransaction = (
  params: ReadonlyArray<unknown>,
  config: Record<string, unknown>
): Either.Either<Transaction.ParsedTransaction, RpcFailure> => {
  const encoding = config["encoding"] ?? "base58"
  if (encoding !== "base58" && encoding !== "base64") {
    return Either.left(
      new RpcFailure(
        -32602,
        `Invalid params: unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`
      )
    )
  }
  const text = params[0]
  if (typeof text !== "string") {
    return Either.left(new RpcFailure(-32602, "Invalid params: params[0] must be an encoded transaction"))
  }
  return Either.mapLeft(
    Transaction.parseEither(text, encoding),
    (e) =>
      new RpcFailure(
        -32602,
        `failed to deserialize solana_transaction::versioned::VersionedTransaction: ${e.message}`
      )
  )
}

/** A simulation's value as the RPC writes it. */
const simulationValue = (
  run: Bank.Executed & { readonly replacementBlockhash?: Bank.Blockhash | undefined },
  accounts: ReadonlyArray<unknown> | null,
  innerInstructions: boolean
) => ({
  accounts,
  err: run.err,
  innerInstructions: innerInstructions ? TransactionView.innerInstructions(run.innerInstructions) : null,
  logs: run.logs,
  replacementBlockhash: run.replacementBlockhash === undefined ? null : {
    blockhash: run.replacementBlockhash.blockhash,
    lastValidBlockHeight: run.replacementBlockhash.lastValidBlockHeight
  },
  returnData: run.returnData === null ? null : {
    programId: run.returnData.programId,
    data: [Buffer.from(run.returnData.data).toString("base64"), "base64"]
  },
  unitsConsumed: run.unitsConsumed
})

const sendTransaction = (params: unknown, ctx: AreaContext) =>
  Effect.suspend(() => {
    if (!Array.isArray(params) || params.length === 0) {
      return invalid("params[0] must be an encoded transaction")
    }
    const config = configAt(params, 1)
    if (config === undefined) return invalid("params[1] must be a config object")
    const skip = config["skipPreflight"] ?? false
    if (typeof skip !== "boolean") return invalid("skipPreflight must be a boolean")
    if (config["preflightCommitment"] !== undefined && !COMMITMENTS.has(config["preflightCommitment"])) {
      return invalid("preflightCommitment must be processed, confirmed or finalized")
    }
    const retries = config["maxRetries"]
    if (retries !== undefined && (!Number.isSafeInteger(retries) || (retries as number) < 0)) {
      return invalid("maxRetries must be a non-negative integer")
    }
    const min = minContext(config, ctx)
    if (typeof min === "string") return invalid(min)
    if (min !== undefined) return Effect.fail(min)
    const decoded = decodeTransaction(params, config)
    if (Either.isLeft(decoded)) return Effect.fail(decoded.left)
    const tx = decoded.right
    const world = World.of(ctx.state)
    const signature = tx.signatures[0]!
    const preflightFailed = (run: Bank.Executed) =>
      new RpcFailure(
        -32002,
        `Transaction simulation failed: ${TransactionError.display(run.err!)}`,
        200,
        simulationValue(run, null, false)
      )
    if (world.landed(signature)) {
      // The validator drops a transaction it has processed; the preflight says so.
      if (skip) return Effect.succeed(signature)
      return Effect.fail(preflightFailed({ ...emptyRun(signature), err: "AlreadyProcessed" }))
    }
    const run = world.bank.execute(tx)
    // The RPC verifies signatures before anything else, preflight or not.
    if (run.err === "SignatureFailure") {
      return Effect.fail(new RpcFailure(-32003, "Transaction signature verification failure"))
    }
    if (run.err !== null && !skip) {
      // The preflight failed: nothing was sent, so what the run changed (its fee) is put back.
      if (run.landed) world.bank.restore(writtenBefore(run))
      return Effect.fail(preflightFailed(run))
    }
    // Without a preflight, a transaction refused before execution is dropped: its signature
    // comes back and never lands, as from a validator.
    if (run.landed) world.landExecuted([{ wire: tx, run }])
    return Effect.succeed(signature)
  })

/** A run that did nothing (a refusal before execution). */
const emptyRun = (signature: string): Bank.Executed => ({
  signature,
  err: null,
  landed: false,
  logs: [],
  unitsConsumed: 0n,
  fee: 0n,
  innerInstructions: [],
  returnData: null,
  keys: [],
  loaded: { writable: [], readonly: [] },
  writable: [],
  signer: [],
  pre: [],
  post: [],
  slot: 0
})

/** The state before a run of every account it could write. */
const writtenBefore = (run: Bank.Executed): ReadonlyMap<string, Bank.RawAccount | undefined> =>
  new Map(run.keys.flatMap((k, i) => run.writable[i] ? [[k, run.pre[i]] as const] : []))

const simulateTransaction = (params: unknown, ctx: AreaContext) =>
  Effect.suspend(() => {
    if (!Array.isArray(params) || params.length === 0) {
      return invalid("params[0] must be an encoded transaction")
    }
    const config = configAt(params, 1)
    if (config === undefined) return invalid("params[1] must be a config object")
    const sigVerify = config["sigVerify"] ?? false
    const replace = config["replaceRecentBlockhash"] ?? false
    const inner = config["innerInstructions"] ?? false
    if (typeof sigVerify !== "boolean") return invalid("sigVerify must be a boolean")
    if (typeof replace !== "boolean") return invalid("replaceRecentBlockhash must be a boolean")
    if (typeof inner !== "boolean") return invalid("innerInstructions must be a boolean")
    if (sigVerify && replace) return invalid("sigVerify may not be used with replaceRecentBlockhash")
    if (config["commitment"] !== undefined && !COMMITMENTS.has(config["commitment"])) {
      return invalid("commitment must be processed, confirmed or finalized")
    }
    const min = minContext(config, ctx)
    if (typeof min === "string") return invalid(min)
    if (min !== undefined) return Effect.fail(min)
    const wanted = config["accounts"]
    let addresses: ReadonlyArray<string> | undefined
    let accountEncoding = "base64"
    if (wanted !== undefined && wanted !== null) {
      if (!Predicate.isRecord(wanted)) return invalid("accounts must be { encoding, addresses }")
      const list = wanted["addresses"]
      if (!Array.isArray(list) || !list.every((a) => typeof a === "string" && base58ByteLength(a) === 32)) {
        return invalid("accounts.addresses must be an array of base58 addresses")
      }
      const encoding = wanted["encoding"] ?? "base64"
      if (encoding !== "base64" && encoding !== "base58" && encoding !== "jsonParsed" && encoding !== "base64+zstd") {
        return invalid("accounts.encoding must be base64, base58, base64+zstd or jsonParsed")
      }
      if (encoding === "base58" || encoding === "base64+zstd") {
        // As the RPC: simulation accounts come in base64 or jsonParsed.
        return invalid(`Encoding ${encoding} is not supported`)
      }
      addresses = list as ReadonlyArray<string>
      accountEncoding = encoding
    }
    const decoded = decodeTransaction(params, config)
    if (Either.isLeft(decoded)) return Effect.fail(decoded.left)
    const world = World.of(ctx.state)
    const run = world.bank.simulate(decoded.right, { sigVerify, replaceRecentBlockhash: replace })
    if (sigVerify && run.err === "SignatureFailure") {
      return Effect.fail(new RpcFailure(-32003, "Transaction signature verification failure"))
    }
    const accounts = addresses === undefined || run.logs.length === 0 && run.unitsConsumed === 0n && run.err !== null
      ? null
      : addresses.map((address) => {
        const i = run.keys.indexOf(address)
        const state = i >= 0 ? run.post[i] : world.bank.account(address)
        return state === undefined ? null : TransactionView.encodeAccount(state, accountEncoding)
      })
    return Effect.succeed({ context: { slot: run.slot }, value: simulationValue(run, accounts, inner) })
  })

const requestAirdrop = (params: unknown, ctx: AreaContext) =>
  Effect.suspend(() => {
    if (!Array.isArray(params) || typeof params[0] !== "string" || base58ByteLength(params[0]) !== 32) {
      return invalid("params[0] must be a base58 address (32 bytes)")
    }
    const lamports = params[1]
    if (!Number.isSafeInteger(lamports) || (lamports as number) <= 0) {
      return invalid("params[1] must be a number of lamports (a positive integer)")
    }
    const config = configAt(params, 2)
    if (config === undefined) return invalid("params[2] must be a config object")
    if (config["commitment"] !== undefined && !COMMITMENTS.has(config["commitment"])) {
      return invalid("commitment must be processed, confirmed or finalized")
    }
    try {
      const receipt = World.of(ctx.state).api.fund({ address: params[0], lamports: lamports as number })
      return Effect.succeed(receipt.signature)
    } catch (e) {
      if (e instanceof World.WorldInputError) return invalid(e.message)
      throw e
    }
  })

const getTransaction = (params: unknown, ctx: AreaContext) =>
  Effect.suspend(() => {
    if (!Array.isArray(params) || typeof params[0] !== "string" || base58ByteLength(params[0]) !== 64) {
      return invalid("params[0] must be a base58 signature (64 bytes)")
    }
    // The second param may be the encoding alone (the RPC's older form).
    const config = typeof params[1] === "string" ? { encoding: params[1] } : configAt(params, 1)
    if (config === undefined) return invalid("params[1] must be a config object")
    const encoding = config["encoding"] ?? "json"
    if (encoding !== "json" && encoding !== "jsonParsed" && encoding !== "base64" && encoding !== "base58") {
      return invalid(`unsupported encoding: ${String(encoding)}`)
    }
    const commitment = config["commitment"] ?? "finalized"
    if (commitment === "processed") {
      return invalid("Method does not support commitment below `confirmed`")
    }
    if (commitment !== "confirmed" && commitment !== "finalized") {
      return invalid("commitment must be confirmed or finalized")
    }
    const max = config["maxSupportedTransactionVersion"]
    if (max !== undefined && max !== 0) return invalid("maxSupportedTransactionVersion must be 0")
    const world = World.of(ctx.state)
    const tx = world.transaction(params[0])
    if (tx === undefined) return Effect.succeed(null)
    const status = world.confirmation(tx.slot).status
    if (status === "processed" || (commitment === "finalized" && status !== "finalized")) return Effect.succeed(null)
    const version = tx.wire?.version ?? "legacy"
    if (version === 0 && max === undefined) {
      return Effect.fail(
        new RpcFailure(-32015, TransactionView.UNSUPPORTED_VERSION)
      )
    }
    return Effect.succeed(
      TransactionView.confirmed(tx, {
        encoding,
        withVersion: max !== undefined,
        blockhashOf: (slot) => world.bank.blockhash(slot).blockhash,
        lamportsOf: (address) => world.bank.account(address)?.lamports ?? 0n
      })
    )
  })

/**
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "transactions",
  rpc: rpcOf(Endpoints.transactions, {
    sendTransaction: { handle: sendTransaction },
    simulateTransaction: { handle: simulateTransaction },
    requestAirdrop: { handle: requestAirdrop },
    getTransaction: { handle: getTransaction }
  })
}
