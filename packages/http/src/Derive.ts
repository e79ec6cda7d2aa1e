/**
 * The one derivation: from an `Endpoint` entry of the table to its methods. The
 * call validates the params with the entry's Schema (no I/O on bad input), sends
 * through the transport with the entry's retry rule, charges the entry's cost once
 * per attempt that the billing rule bills, and decodes with the result Schema.
 * Paged entries add `pages` and `stream` (one walk, `Walk.entryPages`, that always
 * ends); batch entries add `batch` (chunked, in order, bounded concurrency).
 *
 * @example
 * const holders = yield* Derive.client(Endpoints.getCompressedMintTokenHolders)
 * const first = yield* holders.call({ mint, limit: 100 })
 * const top = yield* holders.stream({ mint }).pipe(Stream.take(10), Stream.runCollect)
 * @since 0.1.0
 */

import * as RateLimiter from "@effect/experimental/RateLimiter"
import * as Billing from "@solfx/core/Billing"
import { validateInput } from "@solfx/core/Decode"
import * as Endpoint from "@solfx/core/Endpoint"
import { type ApiError, type HttpError, InvalidRequest, TransportError } from "@solfx/core/Errors"
import * as Pagination from "@solfx/core/Pagination"
import * as Arr from "effect/Array"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import type * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { type AttemptHooks, HttpTransport, type HttpTransportShape } from "./HttpTransport.js"
import { emptyParams, keyedWalk, requestOf, traced } from "./internal/wire.js"
import * as RateLimits from "./RateLimits.js"
import * as Walk from "./Walk.js"

/**
 * Options of a derived client.
 *
 * @since 0.1.0
 * @category models
 */
export interface ClientOptions {
  /** Credits per billed attempt, instead of the entry's cost (a caller's own price list). */
  readonly credits?: number | undefined
  /** Wraps every attempt, inside the transport's permit of the entry's bucket (`RateLimits`). */
  readonly aroundAttempt?: AttemptHooks["aroundAttempt"]
  /** The method's name in spans (`solfx.<area>.<name>`), instead of the entry's (a REST entry's is its route). */
  readonly name?: string | undefined
}

/**
 * Options of the interpreter (`interpret`): a derived client's, and what a service's operations
 * take beside their entry.
 *
 * @since 0.1.0
 * @category models
 */
export interface InterpretOptions extends ClientOptions {
  /** The field a keyed service takes first (`(wallet, options)`; see `Operations.Options`). */
  readonly key?: string | undefined
  /**
   * A walk's options beyond `start` and `concurrency`, checked with this Schema as `options`
   * (DAS: `mode`, and `start` as `{ page }` or `{ cursor }`).
   */
  readonly walkOptions?: Schema.Schema<any, any> | undefined
  /** Params a walk sets itself, refused in a walk's params (DAS: `page`, `cursor`, `before`, `after`). */
  readonly walkSets?: ReadonlyArray<string> | undefined
}

/**
 * Options of one call.
 *
 * @since 0.1.0
 * @category models
 */
export interface CallOptions {
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/**
 * Options of a page walk.
 *
 * @since 0.1.0
 * @category models
 */
export type PagesOptions<Position> = Walk.Options<Position>

/**
 * A page of a derived walk: its items, the position after it, and the answer it came from.
 *
 * @since 0.1.0
 * @category models
 */
export type ResultPage<Item, Position, A> = Walk.EntryPage<Item, Position, A>

/**
 * A derived client.
 *
 * @since 0.1.0
 * @category models
 */
export interface Client<P, A, Item, PI> {
  readonly entry: Endpoint.Endpoint<P, A, Item, PI>
  /** The params Schema, failing with `InvalidRequest` (redacted) naming the field and the rule. */
  readonly validate: (input: unknown) => Effect.Effect<P, InvalidRequest>
  /** Sends params already validated. */
  readonly send: (params: P, options?: CallOptions) => Effect.Effect<A, ApiError>
  /** Validates, then sends. */
  readonly call: (input: PI, options?: CallOptions) => Effect.Effect<A, ApiError | InvalidRequest>
  /** Validates, then sends; a 404 the entry documents as an answer is `Option.none()`. */
  readonly callOption: (input: PI) => Effect.Effect<Option.Option<A>, ApiError | InvalidRequest>
  /** Pages from the first (or `start`), each with the position that resumes after it, and its whole answer. */
  readonly pages: <Position = string | number>(
    input: PI,
    options?: PagesOptions<Position>
  ) => Stream.Stream<ResultPage<Item, Position, A>, ApiError | InvalidRequest>
  /** The items of `pages`, lazily: `Stream.take(n)` stops fetching. */
  readonly stream: <Position = string | number>(
    input: PI,
    options?: PagesOptions<Position>
  ) => Stream.Stream<Item, ApiError | InvalidRequest>
  /**
   * `items` split into requests of at most the entry's batch size (or `size`), each
   * with `rest` as its other params, at most `concurrency` in flight; results in order.
   */
  readonly batch: <I>(
    items: ReadonlyArray<I>,
    rest?: Partial<P> | undefined,
    options?: { readonly size?: number | undefined; readonly concurrency?: number | undefined }
  ) => Effect.Effect<ReadonlyArray<{ readonly items: ReadonlyArray<I>; readonly result: A }>, ApiError>
}

/**
 * The methods of `entry` over the transport `t`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromTransport = <P, A, Item, PI>(
  t: HttpTransportShape,
  entry: Endpoint.Endpoint<P, A, Item, PI>,
  options: ClientOptions = {}
): Client<P, A, Item, PI> => interpret(t, entry, options) as unknown as Client<P, A, Item, PI>

/**
 * The one interpreter of the table: an entry's call is `execute(requestOf(entry, validated))`
 * (`send`), and its pages are `Walk.entryPages` over that same `send`, the params validated once.
 * `Operations` hands these functions out as the operations themselves (no wrapper in between);
 * `key` gives them a keyed service's arguments (`(wallet, options)`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const interpret = (
  t: HttpTransportShape,
  entry: Endpoint.Endpoint,
  options: InterpretOptions = {}
) => {
  const hooks = attemptHooks(t, entry, options)
  const validate = validateInput(entry.params, "", t.redactor.redact)
  const spanName = `solfx.${entry.area}.${options.name ?? entry.name}`
  const isRest = entry._tag === "Rest"
  const key = options.key
  const walkSets = options.walkSets
  const validateWalk = options.walkOptions && validateInput(options.walkOptions, "options", t.redactor.redact)
  // What an operation called without params sends: `[]` for positional params, `{}` otherwise.
  const empty = emptyParams(entry)

  // The one attempt of either wire format. Only ever run inside a running effect (a span, a flatMap),
  // so the request is built as the call runs: a JSON-RPC id per run.
  const execute = (params: unknown, headers: CallOptions["headers"]) =>
    t.execute(requestOf(entry, params, headers === undefined ? hooks : { ...hooks, headers }), entry.result)
  // A 404 is an answer only where the entry documents it so (REST): a JSON-RPC 404 stays an error.
  const executeOption = (params: unknown) =>
    Effect.catchIf(
      Effect.asSome(execute(params, undefined)),
      (e): e is HttpError => isRest && e._tag === "HttpError" && e.status === 404,
      () => Effect.succeedNone
    )
  // Already-validated params (a page, a service that checks its own input): `.send`, in its own span.
  const send = traced(`${spanName}.send`, (params: unknown, call?: CallOptions) => execute(params, call?.headers))
  // One span for the call: the transport's span of the request sits right under it.
  const call = key === undefined
    ? traced(
      `${spanName}.call`,
      (input?: unknown, call?: CallOptions) =>
        Effect.flatMap(validate(input ?? empty), (params) => execute(params, call?.headers))
    )
    : traced(
      `${spanName}.call`,
      (value: unknown, rest?: unknown) =>
        Effect.flatMap(validate({ ...(rest as object), [key]: value }), (params) => execute(params, undefined))
    )
  const callOption = key === undefined
    ? traced(`${spanName}.call`, (input?: unknown) => Effect.flatMap(validate(input ?? empty), executeOption))
    : traced(
      `${spanName}.call`,
      (value: unknown, rest?: unknown) => Effect.flatMap(validate({ ...(rest as object), [key]: value }), executeOption)
    )

  // The params validated once, with the entry's largest page unless they name one; a keyed walk's one
  // options object holds the walk's own `start` and `concurrency` beside the params. A service's own
  // walk options and the params its walk sets are checked first (DAS), in that order.
  const pages = (
    a?: unknown,
    b?: unknown
  ): Stream.Stream<Pagination.Page<unknown, unknown>, ApiError | InvalidRequest> => {
    const [input, o] = key === undefined ? [a ?? empty, (b ?? {}) as PagesOptions<unknown>] : keyedWalk(key, a, b)
    const walk = (o: PagesOptions<unknown>) =>
      Effect.map(validate(withLimit(entry.paging, input)), (params) => Walk.entryPages(entry, params, send, o))
    if (walkSets === undefined && validateWalk === undefined) return Stream.unwrap(walk(o))
    const set = walkSets?.find((k) => Predicate.isRecord(input) && input[k] !== undefined)
    if (set !== undefined) {
      return Stream.fail(new InvalidRequest({ field: set, rule: "is set by the stream: pass options.start to resume" }))
    }
    return Stream.unwrap(validateWalk === undefined ? walk(o) : Effect.flatMap(validateWalk(o), walk))
  }

  const batch = <I>(
    items: ReadonlyArray<I>,
    rest?: unknown,
    o?: { readonly size?: number | undefined; readonly concurrency?: number | undefined }
  ) => {
    const rule = entry.batch ?? { field: 0, size: items.length || 1, concurrency: 1 }
    const chunks = Arr.chunksOf(items, Math.max(1, o?.size ?? rule.size))
    const paramsOf = (chunk: ReadonlyArray<I>) =>
      typeof rule.field === "number"
        ? Object.assign([...(Array.isArray(rest) ? rest : [])], { [rule.field]: chunk })
        : { ...(rest as object), [rule.field]: chunk }
    return traced(
      `${spanName}.batch`,
      () =>
        Effect.forEach(
          chunks,
          (chunk) => Effect.map(execute(paramsOf(chunk), undefined), (result) => ({ items: chunk, result })),
          { concurrency: o?.concurrency ?? rule.concurrency }
        )
    )()
  }

  return {
    entry,
    validate,
    send,
    call,
    callOption,
    pages,
    stream: (a?: unknown, b?: unknown) => Pagination.flattenPages(pages(a, b)),
    batch
  }
}

/**
 * The hooks of every attempt of `entry`: the permit of its bucket and its credits (`RateLimits`),
 * and its billing outcome counted once per attempt in the transport's ledger. Every derived call
 * takes them; a client that sends an entry's requests itself (`HttpTransportShape.executeRaw`) passes them too.
 *
 * @since 0.1.0
 * @category constructors
 */
export const attemptHooks = (
  t: HttpTransportShape,
  entry: Endpoint.Endpoint,
  options: ClientOptions = {}
): AttemptHooks => {
  const credits = options.credits ?? entry.cost.credits
  const notFoundIsAnswer = entry._tag === "Rest" && entry.notFound === "answer"
  const permit = t.limits.aroundAttempt(entry.bucket, credits)
  const own = options.aroundAttempt
  return {
    // Every attempt, retries included, takes its bucket's start slot and its credits from the budget.
    // Nothing to take (no plan, no budget, no hook of the caller's): no wrapper, the attempt stays as it is.
    aroundAttempt: permit === RateLimits.passThrough && own === undefined ?
      undefined :
      (attempt) =>
        permit(own === undefined ? attempt : own(attempt)).pipe(
          Effect.catchIf(
            (e): e is RateLimiter.RateLimitStoreError => e instanceof RateLimiter.RateLimitStoreError,
            (e) =>
              Effect.fail(
                new TransportError({
                  operation: entry.name,
                  reason: "connect",
                  detail: `the rate-limit store could not be reached: ${t.redactor.redact(e.message)}`,
                  sent: false
                })
              )
          )
        ),
    // Once per attempt, inside the retry: a retried request counts again exactly when it is billed again.
    // The budget is a ceiling, so only an answer that was not billed (a 429, a 5xx) hands its credits back:
    // with no answer (reset, timeout, or cut off in flight by an interruption) the server may have billed
    // it, and they stay spent. (A store error keeps them spent too.)
    onAttempt: (outcome) =>
      Billing.billed(outcome, { notFoundIsAnswer })
        ? t.credits.add(entry.area, entry.name, credits)
        : outcome._tag === "Answered"
        ? Effect.ignore(t.limits.refund(credits))
        : Effect.void
  }
}

/** The input with the entry's largest page size, unless it names one: a walk takes as few requests as it can. */
const withLimit = <PI>(paging: Endpoint.Paging<any, any>, input: PI): PI =>
  paging._tag === "None" || !Predicate.isRecord(input) || input[paging.limitParam] !== undefined
    ? input
    : {
      ...input,
      [paging.limitParam]: (paging._tag === "Cursor" ? paging.maxLimitOf?.(input) : undefined) ?? paging.maxLimit
    } as PI

/**
 * The methods of `entry` over the `HttpTransport` in context.
 *
 * @since 0.1.0
 * @category constructors
 */
export const client = <P, A, Item, PI>(
  entry: Endpoint.Endpoint<P, A, Item, PI>,
  options?: ClientOptions
): Effect.Effect<Client<P, A, Item, PI>, never, HttpTransport> =>
  Effect.map(HttpTransport, (t) => fromTransport(t, entry, options))
