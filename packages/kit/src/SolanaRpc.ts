/**
 * @solana/kit's RPC through solfx's transport. Every request kit makes goes through the one
 * `HttpTransport` as any solfx call does: the plan's rate limit of the method's bucket (`rpc`,
 * `sendTransaction`, `getProgramAccounts`: `Endpoints.standardRpcMethod`) and its credits,
 * from the same store (in memory, or Redis shared among processes: `RateLimits`), the same retry
 * and `Retry-After` policy, the sealed key, the same spans (`solfx.<area>.<method>.call`, then
 * `solfx <method>`) and the `solfx.credits` counter. So kit's calls and solfx's compete for the
 * plan's limit knowingly, and a credit budget counts both.
 *
 * - `rpc`: kit's fully typed `Rpc<SolanaRpcApi>` over that transport.
 * - `call(rpc.getBalance(a))`: the pending request as an Effect whose failures are solfx's tagged
 *   errors (`JsonRpcError` with the server's code, message and data, `RateLimited`,
 *   `TransportError`, ...; kit refusing the request before it is sent: `InvalidRequest`).
 *   Interrupting it aborts the request.
 * - `transport`: kit's plain `RpcTransport`, for `createSolanaRpcFromTransport` in code not written
 *   in Effect: a JSON-RPC error reaches kit as its envelope (kit throws its own `SolanaError`, as
 *   over its default transport); any other failure rejects with solfx's tagged error.
 *   `createTransport(layer)` builds one from a Layer, for a program with no Effect runtime of its own.
 * - `send(method, params)`: any method by name, as an Effect of its result.
 *
 * @example
 * const solana = yield* SolanaRpc.SolanaRpc
 * const { value: lamports } = yield* solana.call(solana.rpc.getBalance(address))
 * // Provide it with SolanaRpc.layer over an HttpTransport (e.g. Solfx.layer({ apiKey, rateLimits: { plan: "developer" } }))
 * @since 0.1.0
 */
import type { Commitment, PendingRpcRequest, Rpc, RpcTransport, SolanaRpcApi } from "@solana/kit"
import { createRpc, createSolanaRpcApi, DEFAULT_RPC_CONFIG, isJsonRpcPayload, isSolanaError } from "@solana/kit"
import type * as Endpoint from "@solfx/core/Endpoint"
import * as Endpoints from "@solfx/core/Endpoints"
import { type ApiError, InvalidRequest, JsonRpcError } from "@solfx/core/Errors"
import * as Derive from "@solfx/http/Derive"
import { HttpTransport, type HttpTransportShape } from "@solfx/http/HttpTransport"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Runtime from "effect/Runtime"
import { exactValue } from "./internal/json.js"

/**
 * What a call can fail with: a failure of the API (solfx's tagged errors), or a request kit or the
 * transport refused before sending it.
 *
 * @since 0.1.0
 * @category errors
 */
export type SolanaRpcError = ApiError | InvalidRequest

/**
 * The service.
 *
 * @since 0.1.0
 * @category models
 */
export interface SolanaRpcShape {
  /** kit's typed RPC over solfx's transport: give its pending requests to `call`, or `.send()` them. */
  readonly rpc: Rpc<SolanaRpcApi>
  /** A pending request of kit's (of `rpc`, or of any RPC over `transport`) as an Effect; interruption aborts it. */
  readonly call: <T>(request: PendingRpcRequest<T>) => Effect.Effect<T, SolanaRpcError>
  /**
   * A standard RPC method by name, its params as the RPC takes them (`[address, { commitment }]`):
   * its `result` as JSON, integers of 2^53 and beyond as exact `bigint`s.
   */
  readonly send: (method: string, params: unknown) => Effect.Effect<unknown, SolanaRpcError>
  /** kit's plain transport over solfx's (see the module). */
  readonly transport: RpcTransport
}

/**
 * The service's tag.
 *
 * @since 0.1.0
 * @category tags
 */
export class SolanaRpc extends Context.Tag("@solfx/kit/SolanaRpc")<SolanaRpc, SolanaRpcShape>() {}

/**
 * Options of the service.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The commitment kit puts in a request that names none (kit's default: `confirmed`). */
  readonly defaultCommitment?: Commitment | undefined
}

/** What a method's requests carry: its entry's hooks (permit, credits, billing) and span name. */
interface Method {
  readonly entry: Endpoint.Rpc
  readonly hooks: ReturnType<typeof Derive.attemptHooks>
  readonly span: string
}

/**
 * The runtime of the `call` running now, set only while kit's `send` runs synchronously up to the
 * transport (an async function runs to its first `await` at once): its request then runs in the
 * caller's fiber context (its span, its services) and fails with the tagged error itself.
 * A module-level slot, not an argument: kit hands its transport nothing but the payload and a signal.
 */
let calling: Runtime.Runtime<never> | undefined

/** Failures `call` hands on as they are: the transport rejected with them. */
const tagged = new WeakSet<object>()

/** The one path of a request: `t.rpcRaw` with its method's entry's hooks, in its span. */
const makeSender = (t: HttpTransportShape) => {
  const methods = new Map<string, Method>()
  const methodOf = (name: string): Method => {
    let m = methods.get(name)
    if (m === undefined) {
      const entry = Endpoints.standardRpcMethod(name)
      m = { entry, hooks: Derive.attemptHooks(t, entry), span: `solfx.${entry.area}.${name}.call` }
      methods.set(name, m)
    }
    return m
  }
  return (method: string, params: unknown): Effect.Effect<unknown, SolanaRpcError> => {
    const m = methodOf(method)
    return Effect.withSpan(
      Effect.map(
        t.rpcRaw(method, params, { ...m.hooks, idempotent: m.entry.idempotent }),
        (answer) => exactValue(answer.text, answer.value, (body) => body.result)
      ),
      m.span,
      { captureStackTrace: false }
    )
  }
}

/** kit's transport over `send`, its requests run on `runtime` unless a `call` runs them. */
const makeTransport = (
  send: ReturnType<typeof makeSender>,
  runtime: Runtime.Runtime<never>
): RpcTransport =>
  (async ({ payload, signal }: { readonly payload: unknown; readonly signal?: AbortSignal }) => {
    const typed = calling
    const id = (payload as { id?: unknown } | null)?.id ?? null
    const exit = isJsonRpcPayload(payload)
      ? await Runtime.runPromiseExit(
        typed ?? runtime,
        send(payload.method, payload.params),
        signal === undefined ? undefined : { signal }
      )
      : Exit.fail(new InvalidRequest({ field: "payload", rule: "a JSON-RPC 2.0 request" }))
    if (Exit.isSuccess(exit)) return { jsonrpc: "2.0", id, result: exit.value }
    const failure = Cause.failureOption(exit.cause)
    if (failure._tag === "Some") {
      const e = failure.value
      if (typed === undefined && e._tag === "JsonRpcError") {
        // kit reads the envelope and throws its own error, as over its default transport.
        return { jsonrpc: "2.0", id, error: { code: e.code, message: e.detail, data: e.data ?? null } }
      }
      tagged.add(e)
      throw e
    }
    if (Cause.isInterruptedOnly(exit.cause)) throw signal?.reason ?? new Error("interrupted")
    throw Cause.squash(exit.cause)
  }) as RpcTransport

/** A rejection of kit's as a typed failure: solfx's own as it is, kit's errors as what they say. */
const classify = (e: unknown): Effect.Effect<never, SolanaRpcError> => {
  if (typeof e === "object" && e !== null && tagged.has(e)) return Effect.fail(e as SolanaRpcError)
  if (isSolanaError(e)) {
    const code = e.context.__code
    // JSON-RPC codes are negative (kit's own errors are positive): a server's answer over some other transport.
    if (typeof code === "number" && code < 0) {
      return Effect.fail(new JsonRpcError({ method: "kit", code, detail: e.message, data: e.context }))
    }
    // kit refused to build the request (e.g. an integer too large for the RPC): nothing was sent.
    return Effect.fail(new InvalidRequest({ field: "params", rule: e.message }))
  }
  return Effect.die(e)
}

/**
 * Builds the service over the `HttpTransport`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<SolanaRpcShape, never, HttpTransport> =>
  Effect.gen(function*() {
    const send = makeSender(yield* HttpTransport)
    const transport = makeTransport(send, yield* Effect.runtime<never>())
    const rpc = createRpc({
      api: createSolanaRpcApi<SolanaRpcApi>({
        ...DEFAULT_RPC_CONFIG,
        ...(options.defaultCommitment === undefined ? {} : { defaultCommitment: options.defaultCommitment })
      }),
      transport
    })
    // `Effect.async`, not `tryPromise`: an interruption waits for the request to be aborted and its
    // fiber to end, so nothing of it outlives the call.
    const call = <T>(request: PendingRpcRequest<T>): Effect.Effect<T, SolanaRpcError> =>
      Effect.flatMap(Effect.runtime<never>(), (runtime) =>
        Effect.async<T, SolanaRpcError>((resume) => {
          const controller = new AbortController()
          calling = runtime
          let sent: Promise<T>
          try {
            sent = request.send({ abortSignal: controller.signal })
          } finally {
            calling = undefined
          }
          sent.then((value) => resume(Effect.succeed(value)), (e: unknown) => resume(classify(e)))
          return Effect.promise(() => {
            controller.abort()
            return sent.then(() => undefined, () => undefined)
          })
        }))
    return { rpc, call, send, transport }
  })

/**
 * The service. Provide `HttpTransport`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<SolanaRpc, never, HttpTransport> = Layer.effect(SolanaRpc, make())

/**
 * The service with options.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWith = (options: Options): Layer.Layer<SolanaRpc, never, HttpTransport> =>
  Layer.effect(SolanaRpc, make(options))

/**
 * kit's transport over the `HttpTransport` of the context (see the module).
 *
 * @since 0.1.0
 * @category constructors
 */
export const transport: Effect.Effect<RpcTransport, never, HttpTransport> = Effect.map(make(), (s) => s.transport)

/**
 * A kit transport for a program with no Effect runtime of its own: the `HttpTransport` of `layer`
 * (e.g. `Solfx.layer({ apiKey, rateLimits })`), built at the first request; `dispose` releases it.
 *
 * @example
 * const transport = SolanaRpc.createTransport(Solfx.layer({ apiKey }))
 * const rpc = createSolanaRpcFromTransport(transport)
 * const { value } = await rpc.getBalance(address).send()
 * await transport.dispose()
 * @since 0.1.0
 * @category constructors
 */
export const createTransport = <E>(
  layer: Layer.Layer<HttpTransport, E>
): RpcTransport & { readonly dispose: () => Promise<void> } => {
  const runtime = ManagedRuntime.make(layer)
  let built: Promise<RpcTransport> | undefined
  const run: RpcTransport = (config) => (built ??= runtime.runPromise(transport)).then((t) => t(config))
  return Object.assign(run, { dispose: () => runtime.dispose() })
}
