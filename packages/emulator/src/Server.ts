/**
 * The emulator's HTTP app: one port for every host of the spec. `POST /` is
 * JSON-RPC, dispatched on `method` to the areas' `rpc` tables; other requests
 * match the areas' REST routes by method and path pattern. Around every handler
 * the server does what the real gateway does: authentication, credit charging
 * (each method's entry of core's `Endpoints`, billed by core's `Billing` rule),
 * usage counting, fault injection and the request log.
 *
 * @example
 * const { app, routes } = Server.makeApp(instance) // Emulator.make builds the instance and serves `app`
 * routes.operations // every JSON-RPC method and REST route it answers
 * @since 0.1.0
 */

import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as HttpTraceContext from "@effect/platform/HttpTraceContext"
import * as Billing from "@solfx/core/Billing"
import type { UsageCategory } from "@solfx/core/Endpoint"
import * as Json from "@solfx/core/Json"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import type { Accounts } from "./Accounts.js"
import type { Area, AreaContext, Charged, RestRoute, RpcMethod } from "./Area.js"
import type { Chain } from "./Chain.js"
import type * as Cors from "./Cors.js"
import type { Dataset } from "./Dataset.js"
import type { FaultKind, Injector } from "./Faults.js"
import type { PlanLimits } from "./PlanLimits.js"
import * as Projects from "./Projects.js"
import type { RequestLog, RequestRecord } from "./RequestLog.js"
import * as Wire from "./Wire.js"

/**
 * Everything the app needs from its emulator instance.
 *
 * @since 0.1.0
 * @category models
 */
export interface Instance {
  readonly dataset: Dataset
  readonly areas: ReadonlyArray<Area>
  readonly accounts: ReadonlyArray<Projects.Account>
  /** Credits by operation name, overriding the endpoint table's costs. */
  readonly costs: Readonly<Record<string, number>>
  readonly faults: Injector
  readonly log: RequestLog
  /** Largest request body read, in bytes; larger ones get 413 before being read. */
  readonly maxBodyBytes: number
  /** Serialised items (assets) kept for the pages that serve them again. */
  readonly cache: Wire.ByteCache
  readonly latencyMs: () => number
  /** Epoch milliseconds (the runtime's Clock). */
  readonly now: () => number
  readonly slot: () => number
  /** The world's accounts as the chain holds them (`Accounts`). */
  readonly chainAccounts: Accounts
  /** The cluster's clock (`Chain`). */
  readonly chain: Chain
  readonly state: <S>(key: string, init: () => S) => S
  /** The plan's limits, when the emulator enforces one. */
  readonly planLimits?: PlanLimits | undefined
  /**
   * The emulator's own control path (`POST /emulator/...`, the world API): keyed like every
   * request, never charged, answered with the status and JSON body it returns.
   */
  readonly control?: ((path: string, body: unknown) => { readonly status: number; readonly body: unknown }) | undefined
  /** The emulator's own reads (`GET /emulator/...`, `GET /studio`), keyed like the control path, never charged. */
  readonly pages?:
    | ((
      path: string,
      query: URLSearchParams,
      project: Projects.Account["project"],
      host: string | undefined
    ) => Effect.Effect<HttpServerResponse.HttpServerResponse> | undefined)
    | undefined
  /** The cross-origin rule (`Cors`); without it, no CORS headers and no origin is refused. */
  readonly cors?: Cors.Cors | undefined
}

interface CompiledRoute {
  readonly route: RestRoute
  readonly operation: string
  readonly segments: ReadonlyArray<{ readonly literal: string } | { readonly param: string }>
  readonly statics: number
}

/**
 * The route table of a set of areas. Duplicate methods or routes are a programming error.
 *
 * @since 0.1.0
 * @category models
 */
export interface Routes {
  readonly rpc: ReadonlyMap<string, RpcMethod>
  readonly match: (
    method: string,
    pathname: string
  ) => { readonly route: RestRoute; readonly operation: string; readonly params: Record<string, string> } | undefined
  /** Every operation name: RPC methods and `"GET /v1/..."` route patterns. */
  readonly operations: ReadonlyArray<string>
}

const splitPath = (path: string): Array<string> => path.split("/").filter((s) => s !== "")

/**
 * The operation name of a route, as the request log and the `costs` option name it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const routeOperation = (route: Pick<RestRoute, "method" | "path">): string => `${route.method} ${route.path}`

/**
 * The routing table of a set of areas; a method or route declared twice throws.
 *
 * @since 0.1.0
 * @category constructors
 */
export const compileRoutes = (areas: ReadonlyArray<Area>): Routes => {
  const rpc = new Map<string, RpcMethod>()
  const routes: Array<CompiledRoute> = []
  for (const area of areas) {
    for (const [name, method] of Object.entries(area.rpc ?? {})) {
      if (rpc.has(name)) throw new Error(`emulator: JSON-RPC method ${name} is declared twice (area ${area.name})`)
      rpc.set(name, method)
    }
    for (const route of area.routes ?? []) {
      const operation = routeOperation(route)
      if (routes.some((r) => r.operation === operation)) {
        throw new Error(`emulator: route ${operation} is declared twice (area ${area.name})`)
      }
      const segments = splitPath(route.path).map((s) => (s.startsWith(":") ? { param: s.slice(1) } : { literal: s }))
      routes.push({ route, operation, segments, statics: segments.filter((s) => "literal" in s).length })
    }
  }
  // Literal segments win over parameters: `/v1/wallet/batch-identity` before `/v1/wallet/:wallet`.
  routes.sort((a, b) => b.statics - a.statics)
  return {
    rpc,
    operations: [...rpc.keys(), ...routes.map((r) => r.operation)],
    match: (method, pathname) => {
      let parts: Array<string>
      try {
        parts = splitPath(pathname).map(decodeURIComponent)
      } catch {
        return undefined
      }
      for (const r of routes) {
        if (r.route.method !== method || r.segments.length !== parts.length) continue
        const params: Record<string, string> = {}
        let ok = true
        for (let i = 0; i < parts.length && ok; i++) {
          const seg = r.segments[i]!
          if ("literal" in seg) ok = seg.literal === parts[i]
          else params[seg.param] = parts[i]!
        }
        if (ok) return { route: r.route, operation: r.operation, params }
      }
      return undefined
    }
  }
}

// Bytes, not text: cached item bytes are copied into the body as they are, never re-encoded.
const jsonResponse = (status: number, body: unknown, headers?: Record<string, string>) =>
  HttpServerResponse.uint8Array(Wire.encode(body), {
    status,
    contentType: "application/json",
    ...(headers === undefined ? {} : { headers })
  })

type Id = string | number | null

const BASE = "http://emulator.local"
/** How long a connection closed with a body unread stays half-open (see `closeAfter`). */
const LINGER_MS = 1000

const rpcErrorBody = (code: number, message: string, id: Id, data?: unknown) => ({
  jsonrpc: "2.0",
  error: data === undefined ? { code, message } : { code, message, data },
  id
})

// The gateway's answers to faults and limits, as the real service sends them.
const gatewayError = {
  "429": { status: 429, code: -32429, message: "rate limited" },
  "500": { status: 500, code: -32603, message: "Internal error" },
  "503": { status: 503, code: -32002, message: "Service unavailable" }
} as const

/** A mutable record filled while the request is handled, written to the log at the end. */
interface Draft {
  operation: string
  status: number
  fault?: FaultKind | undefined
  category?: UsageCategory
  credits: number
  projectId?: string
  rpcCode?: number
  aborted?: boolean
  /** The socket was destroyed on purpose (reset, truncate). */
  destroyed?: boolean
  /** The request carries a body the server has not read (rejected first): the connection closes after the answer. */
  bodyUnread: boolean
}

type Outcome = HttpServerResponse.HttpServerResponse | "destroyed"

const nodeObjects = (request: HttpServerRequest.HttpServerRequest) => {
  const res = NodeHttpServerRequest.toServerResponse(request)
  return { res, socket: res.socket ?? NodeHttpServerRequest.toIncomingMessage(request).socket }
}

/** Destroys the connection without a response, as a dropped connection looks to the client. */
const resetConnection = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<Outcome> =>
  Effect.sync(() => {
    const { res, socket } = nodeObjects(request)
    if (typeof socket.resetAndDestroy === "function") socket.resetAndDestroy()
    else socket.destroy()
    // Marks the response finished so the platform writes nothing and does not see a client abort.
    res.end()
    return "destroyed" as const
  })

/**
 * Announces more bytes than it sends, then closes: the client sees a transport
 * error mid-body, not a short valid document.
 */
const truncateResponse = (
  request: HttpServerRequest.HttpServerRequest,
  status: number,
  text: string
): Effect.Effect<Outcome> =>
  Effect.async<Outcome>((resume) => {
    const { res, socket } = nodeObjects(request)
    const bytes = Buffer.from(text, "utf8")
    const head = `HTTP/1.1 ${status} OK\r\nContent-Type: application/json\r\nContent-Length: ${
      bytes.length + 256
    }\r\nConnection: keep-alive\r\n\r\n`
    socket.write(Buffer.concat([Buffer.from(head, "latin1"), bytes.subarray(0, Math.floor(bytes.length / 2))]), () => {
      socket.destroy()
      res.end()
      resume(Effect.succeed("destroyed"))
    })
  })

/** What reading a body gave: its text, or why there is none. */
type Body = { readonly _tag: "Text"; readonly text: string } | { readonly _tag: "TooLarge" } | {
  readonly _tag: "Failed"
}

const declaredLength = (request: HttpServerRequest.HttpServerRequest): number | undefined => {
  const v = request.headers["content-length"]
  return v === undefined || !/^\d+$/.test(v) ? undefined : Number(v)
}

/** Whether a request has a body at all (declared length above 0, or chunked). */
const hasBody = (request: HttpServerRequest.HttpServerRequest): boolean =>
  (declaredLength(request) ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined

/**
 * Reads a body of at most `limit` bytes. A declared length above the limit is refused
 * before a byte is read; a chunked body stops being read at the chunk that crosses it.
 * Hand-written over the Node stream because the platform's reader, past its own limit,
 * destroys the socket (no 413 could be sent) and keeps the whole text on the way.
 */
const readBody = (request: HttpServerRequest.HttpServerRequest, limit: number): Effect.Effect<Body> => {
  const declared = declaredLength(request)
  if (declared !== undefined && declared > limit) return Effect.succeed({ _tag: "TooLarge" })
  return Effect.async<Body>((resume) => {
    const incoming = NodeHttpServerRequest.toIncomingMessage(request)
    const chunks: Array<Buffer> = []
    let size = 0
    const done = (body: Body) => {
      incoming.off("data", onData)
      incoming.off("end", onEnd)
      incoming.off("error", onError)
      incoming.off("aborted", onError)
      resume(Effect.succeed(body))
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        incoming.pause()
        return done({ _tag: "TooLarge" })
      }
      chunks.push(chunk)
    }
    const onEnd = () => done({ _tag: "Text", text: Buffer.concat(chunks, size).toString("utf8") })
    const onError = () => done({ _tag: "Failed" })
    if (incoming.readableEnded) return onEnd()
    incoming.on("data", onData)
    incoming.once("end", onEnd)
    incoming.once("error", onError)
    incoming.once("aborted", onError)
    return Effect.sync(() => done({ _tag: "Failed" }))
  })
}

/**
 * Answers without reading the rest of the body: `connection: close`, and the socket is
 * closed once the answer is written, so Node does not drain what the client still sends.
 */
const closeAfter = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse
): HttpServerResponse.HttpServerResponse => {
  const { res, socket } = nodeObjects(request)
  res.once("finish", () => {
    // Node has just ended the socket (connection: close) and destroys it once the end is
    // written. With the client's body still arriving, that close is a reset, which can reach
    // the client before it reads the answer. A lingering close instead: half-open, reading
    // nothing, for a moment.
    socket.removeListener("finish", socket.destroy)
    // Node resumes the request to drain it: every resume is paused again, so nothing more is read.
    const hold = () => socket.pause()
    socket.on("resume", hold)
    hold()
    setTimeout(() => socket.destroy(), LINGER_MS).unref()
  })
  return HttpServerResponse.setHeader(response, "connection", "close")
}

/**
 * The HTTP app of one emulator instance, and its route table. Throws on duplicate methods or routes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeApp = (instance: Instance) => {
  const routes = compileRoutes(instance.areas)
  return { routes, app: app(instance, routes) }
}

/** What a span may show of a request's URL: the `api-key` query parameter's value is redacted. */
const redactedUrl = (url: URL): string => {
  if (!url.searchParams.has("api-key")) return url.toString()
  const copy = new URL(url)
  copy.searchParams.set("api-key", "<redacted>")
  return copy.toString()
}

/**
 * The server span of a request, in place of the platform's (turned off where the app is served,
 * `Emulator.make`): the platform's puts the whole URL, the key in its query, in `url.full`. The
 * key's header is among the names the platform redacts, and no header is recorded here.
 */
const serverSpan =
  (request: HttpServerRequest.HttpServerRequest, url: URL | undefined) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withSpan(self, `http.server ${request.method}`, {
      kind: "server",
      captureStackTrace: false,
      parent: Option.getOrUndefined(HttpTraceContext.fromHeaders(request.headers)),
      attributes: {
        "http.request.method": request.method,
        ...(url === undefined ? {} : { "url.full": redactedUrl(url), "url.path": url.pathname })
      }
    })

const app = (instance: Instance, routes: Routes) => {
  const byKey = new Map(instance.accounts.map((a) => [a.apiKey, a]))
  const byId = new Map(instance.accounts.map((a) => [a.project.id, a.project]))

  const context = (
    account: Projects.Account,
    request: HttpServerRequest.HttpServerRequest
  ): AreaContext => ({
    dataset: instance.dataset,
    cache: instance.cache,
    project: account.project,
    apiKey: account.apiKey,
    slot: instance.slot,
    accounts: instance.chainAccounts,
    chain: instance.chain,
    state: instance.state,
    projectById: (id) => byId.get(id),
    header: (name) => {
      const v = request.headers[name.toLowerCase()]
      return Array.isArray(v) ? v[0] : v
    }
  })

  const authenticate = (
    request: HttpServerRequest.HttpServerRequest,
    url: URL,
    headerAuth: boolean
  ): Projects.Account | undefined => {
    const key = url.searchParams.get("api-key") ?? (headerAuth ? request.headers["x-api-key"] : undefined)
    return key === undefined || key === null ? undefined : byKey.get(key)
  }

  const cost = (operation: string, declared: number) => instance.costs[operation] ?? declared

  /**
   * Runs a handler under a credit reservation: the credits are taken before it runs (so
   * concurrent calls cannot overdraw), then core's Billing rule, fed with the status the
   * handler answered, keeps and counts them or gives them back (as for a client that left).
   * Undefined when the project cannot pay.
   */
  const charged = <A, E>(
    draft: Draft,
    account: Projects.Account,
    entry: Charged,
    handler: Effect.Effect<A, E>,
    statusOf: (exit: Exit.Exit<A, E>) => number
  ): Effect.Effect<Exit.Exit<A, E>> | undefined => {
    const project = account.project
    const receipt = Projects.charge(project, cost(draft.operation, entry.cost.credits))
    if (receipt === undefined) return undefined
    // Counted with the reservation, so the handler (the usage record) sees its own request.
    const usage = entry.cost.usage
    project.usage[usage] = (project.usage[usage] ?? 0) + 1
    const refund = Effect.sync(() => {
      Projects.refund(project, receipt)
      project.usage[usage] -= 1
    })
    return Effect.exit(handler).pipe(
      Effect.tap((exit) => {
        const outcome = { _tag: "Answered", status: statusOf(exit) } as const
        if (!Billing.billed(outcome, { notFoundIsAnswer: entry.notFound === "answer" })) return refund
        draft.category = usage
        draft.credits = receipt.regular + receipt.prepaid
        return Effect.void
      }),
      Effect.onInterrupt(() => refund)
    )
  }

  /** The status a handler's exit is answered with (a defect is a 500). */
  const statusOf = (success: number) => <A, E extends { readonly status: number }>(exit: Exit.Exit<A, E>) => {
    if (Exit.isSuccess(exit)) return success
    const failure = Cause.failureOption(exit.cause)
    return failure._tag === "Some" ? failure.value.status : 500
  }

  const sleep = (ms: number) => (ms > 0 ? Effect.sleep(ms) : Effect.void)

  const describeDefect = (cause: Cause.Cause<unknown>) => {
    const squashed = Cause.squash(cause)
    return squashed instanceof Error ? squashed.message : String(squashed)
  }

  /** Finishes a handled request: latency, then the body as the fault (if any) shapes it. */
  const deliver = (
    request: HttpServerRequest.HttpServerRequest,
    draft: Draft,
    status: number,
    body: unknown,
    headers?: Record<string, string>
  ): Effect.Effect<Outcome> =>
    Effect.gen(function*() {
      yield* sleep(instance.latencyMs())
      draft.status = status
      if (draft.fault === "truncate") {
        draft.destroyed = true
        return yield* truncateResponse(request, status, Wire.stringify(body))
      }
      if (draft.fault === "malformed") {
        const text = Wire.stringify(body)
        return HttpServerResponse.text(`${text.slice(0, Math.max(1, Math.floor(text.length / 2)))}\u0000{"`, {
          status,
          contentType: "application/json"
        })
      }
      return jsonResponse(status, body, headers)
    })

  /** Applies a fault decided before the handler; undefined when the request proceeds. */
  const preFault = (
    request: HttpServerRequest.HttpServerRequest,
    draft: Draft,
    errorBody: (code: number, message: string) => unknown
  ): Effect.Effect<Outcome | undefined> => {
    const fault = draft.fault
    if (fault === "429" || fault === "500" || fault === "503") {
      const g = gatewayError[fault]
      const headers: Record<string, string> = fault === "429"
        ? { "retry-after": String(instance.faults.options()?.retryAfterSeconds ?? 1) }
        : {}
      draft.rpcCode = g.code
      draft.status = g.status
      return Effect.zipRight(
        sleep(instance.latencyMs()),
        Effect.succeed(jsonResponse(g.status, errorBody(g.code, g.message), headers))
      )
    }
    if (fault === "reset") {
      draft.destroyed = true
      return resetConnection(request)
    }
    if (fault === "slow") return Effect.as(sleep(instance.faults.options()?.slowMs ?? 1000), undefined)
    return Effect.succeed(undefined)
  }

  const handleRpc = (request: HttpServerRequest.HttpServerRequest, url: URL, draft: Draft): Effect.Effect<Outcome> =>
    Effect.gen(function*() {
      const reject = (status: number, code: number, message: string) => {
        draft.rpcCode = code
        return deliver(request, draft, status, rpcErrorBody(code, message, null))
      }
      // The key and the size come before the body: a keyless or huge request costs no parsing.
      const account = authenticate(request, url, false)
      if (account === undefined) return yield* reject(401, -32401, "invalid api key provided")
      draft.projectId = account.project.id
      const read = yield* readBody(request, instance.maxBodyBytes)
      if (read._tag === "TooLarge") {
        return yield* reject(413, -32600, `request body too large: at most ${instance.maxBodyBytes} bytes`)
      }
      draft.bodyUnread = false
      const text = read._tag === "Text" ? read.text : ""
      let body: unknown
      let parsed = true
      try {
        body = Json.parse(text)
      } catch {
        parsed = false
      }
      const envelope = parsed && typeof body === "object" && body !== null && !Array.isArray(body)
        ? body as Record<string, unknown>
        : undefined
      const rawId = envelope?.["id"]
      const id: Id = typeof rawId === "string" || typeof rawId === "number" ? rawId : null
      if (typeof envelope?.["method"] === "string") draft.operation = envelope["method"]

      const fail = (status: number, code: number, message: string, data?: unknown) => {
        draft.rpcCode = code
        return deliver(request, draft, status, rpcErrorBody(code, message, id, data))
      }

      if (!parsed) return yield* fail(400, -32700, "Parse error")
      // The spec requires an id (string, or number for sendBundle): notifications are not served.
      if (
        envelope === undefined || envelope["jsonrpc"] !== "2.0" || typeof envelope["method"] !== "string" ||
        id === null
      ) {
        return yield* fail(400, -32600, "Invalid Request")
      }
      const params = envelope["params"]
      const method = routes.rpc.get(envelope["method"])
      if (method === undefined) return yield* fail(200, -32601, "Method not found")
      if (params !== undefined && (typeof params !== "object" || params === null)) {
        return yield* fail(400, -32602, "Invalid params")
      }

      const limited = instance.planLimits?.admit(account.project, method.entry.bucket, instance.now())
      if (limited !== undefined) {
        draft.rpcCode = gatewayError["429"].code
        return yield* deliver(request, draft, 429, rpcErrorBody(gatewayError["429"].code, "rate limited", id), {
          "retry-after": String(limited)
        })
      }
      draft.fault = instance.faults.decide(draft.operation)
      const early = yield* preFault(request, draft, (code, message) => rpcErrorBody(code, message, id))
      if (early !== undefined) return early

      const run = charged(draft, account, method.entry, method.handle(params, context(account, request)), statusOf(200))
      if (run === undefined) return yield* fail(429, -32429, "max usage reached")
      const exit = yield* run
      if (Exit.isSuccess(exit)) return yield* deliver(request, draft, 200, { jsonrpc: "2.0", result: exit.value, id })
      const failure = Cause.failureOption(exit.cause)
      if (failure._tag === "Some") {
        const e = failure.value
        return yield* fail(e.status, e.code, e.message, e.data)
      }
      if (Cause.isInterruptedOnly(exit.cause)) return yield* Effect.interrupt
      return yield* fail(500, -32603, "Internal error", describeDefect(exit.cause))
    })

  // A REST or control request's JSON body, read within the size bound: `empty` when it is blank, or
  // the 413 / 400 to answer. Marks the body read, so the connection can be kept.
  const readJsonBody = (request: HttpServerRequest.HttpServerRequest, draft: Draft, empty: unknown) =>
    Effect.map(
      readBody(request, instance.maxBodyBytes),
      (read): { readonly _tag: "Body"; readonly body: unknown } | {
        readonly _tag: "Rejected"
        readonly status: number
        readonly message: string
      } => {
        if (read._tag === "TooLarge") {
          return {
            _tag: "Rejected",
            status: 413,
            message: `request body too large: at most ${instance.maxBodyBytes} bytes`
          }
        }
        draft.bodyUnread = false
        const text = read._tag === "Text" ? read.text : ""
        if (text.trim() === "") return { _tag: "Body", body: empty }
        try {
          return { _tag: "Body", body: Json.parse(text) }
        } catch {
          return { _tag: "Rejected", status: 400, message: "invalid JSON body" }
        }
      }
    )

  const handleRest = (
    request: HttpServerRequest.HttpServerRequest,
    url: URL,
    draft: Draft,
    matched: NonNullable<ReturnType<Routes["match"]>>
  ): Effect.Effect<Outcome> =>
    Effect.gen(function*() {
      const { route } = matched
      const fail = (status: number, message: string, headers?: Readonly<Record<string, string>>) =>
        deliver(request, draft, status, { error: message }, headers === undefined ? undefined : { ...headers })
      const account = authenticate(request, url, route.headerAuth === true)
      if (account === undefined) return yield* fail(401, "invalid api key provided")
      draft.projectId = account.project.id

      let body: unknown = undefined
      if (route.method === "POST" || route.method === "PUT" || route.method === "PATCH") {
        const read = yield* readJsonBody(request, draft, undefined)
        if (read._tag === "Rejected") return yield* fail(read.status, read.message)
        body = read.body
      }

      const limited = instance.planLimits?.admit(account.project, route.entry.bucket, instance.now())
      if (limited !== undefined) return yield* fail(429, "rate limited", { "retry-after": String(limited) })
      draft.fault = instance.faults.decide(draft.operation)
      const early = yield* preFault(request, draft, (_code, message) => ({ error: message }))
      if (early !== undefined) return early

      const ctx = context(account, request)
      const rest = { params: matched.params, query: url.searchParams, body }
      if (route.precheck !== undefined) {
        const pre = yield* Effect.either(route.precheck(rest, ctx))
        if (pre._tag === "Left") return yield* fail(pre.left.status, pre.left.message, pre.left.headers)
      }
      const run = charged(draft, account, route.entry, route.handle(rest, ctx), statusOf(route.status ?? 200))
      if (run === undefined) return yield* fail(429, "max usage reached")
      const exit = yield* run
      if (Exit.isSuccess(exit)) return yield* deliver(request, draft, route.status ?? 200, exit.value ?? null)
      const failure = Cause.failureOption(exit.cause)
      if (failure._tag === "Some") {
        return yield* fail(failure.value.status, failure.value.message, failure.value.headers)
      }
      if (Cause.isInterruptedOnly(exit.cause)) return yield* Effect.interrupt
      return yield* deliver(request, draft, 500, { error: "internal error", detail: describeDefect(exit.cause) })
    })

  const handleControl = (
    request: HttpServerRequest.HttpServerRequest,
    url: URL,
    draft: Draft
  ): Effect.Effect<Outcome> =>
    Effect.gen(function*() {
      const fail = (status: number, message: string) => deliver(request, draft, status, { error: message })
      const account = authenticate(request, url, true)
      if (account === undefined) return yield* fail(401, "invalid api key provided")
      draft.projectId = account.project.id
      const read = yield* readJsonBody(request, draft, {})
      if (read._tag === "Rejected") return yield* fail(read.status, read.message)
      const answer = instance.control!(url.pathname, read.body)
      return yield* deliver(request, draft, answer.status, answer.body)
    })

  const handlePage = (
    request: HttpServerRequest.HttpServerRequest,
    url: URL,
    draft: Draft
  ): Effect.Effect<Outcome> =>
    Effect.gen(function*() {
      const account = authenticate(request, url, true)
      if (account === undefined) return yield* deliver(request, draft, 401, { error: "invalid api key provided" })
      draft.projectId = account.project.id
      const page = instance.pages?.(url.pathname, url.searchParams, account.project, request.headers["host"])
      if (page === undefined) return yield* deliver(request, draft, 404, { error: `no page ${url.pathname}` })
      draft.status = 200
      return yield* page
    })

  return Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const startedAt = instance.now()
    // A request line Node accepts may still be no URL (`GET http://[/`): 400, not a defect.
    const url = URL.canParse(request.url, BASE) ? new URL(request.url, BASE) : undefined
    const verdict: Cors.Verdict = url === undefined || instance.cors === undefined
      ? { _tag: "SameOrigin" }
      : instance.cors.check({ origin: request.headers["origin"], host: request.headers["host"], path: url.pathname })
    const isPreflight = request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined
    const isRpc = url !== undefined && request.method === "POST" && url.pathname === "/"
    const isControl = url !== undefined && request.method === "POST" && instance.control !== undefined &&
      url.pathname.startsWith("/emulator/")
    const isPage = url !== undefined && request.method === "GET" && instance.pages !== undefined &&
      (url.pathname.startsWith("/emulator/") || url.pathname === "/studio" || url.pathname.startsWith("/studio/"))
    const matched = isRpc || isControl || isPage || url === undefined
      ? undefined
      : routes.match(request.method, url.pathname)
    const draft: Draft = {
      operation: isRpc
        ? "POST /"
        : isControl
        ? `POST ${url.pathname}`
        : matched?.operation ?? `${request.method} ${url === undefined ? "(invalid url)" : url.pathname}`,
      status: 0,
      credits: 0,
      bodyUnread: hasBody(request)
    }
    instance.log.begin()
    const run: Effect.Effect<Outcome> = url === undefined
      ? deliver(request, draft, 400, { error: "invalid request target" })
      : verdict._tag === "Refused"
      ? deliver(request, draft, 403, {
        error: `origin ${verdict.origin} is not allowed: ${
          instance.cors?.origins === undefined ? "the emulator's own paths answer" : "this emulator answers"
        } only the origins given with --cors-origin`
      })
      : isPreflight
      ? Effect.sync(() => {
        draft.status = 204
        return HttpServerResponse.empty({ status: 204, headers: instance.cors?.preflightHeaders ?? {} })
      })
      : isPage
      ? handlePage(request, url, draft)
      : isRpc
      ? handleRpc(request, url, draft)
      : isControl
      ? handleControl(request, url, draft)
      : matched === undefined
      ? deliver(request, draft, 400, { error: "invalid path" })
      : handleRest(request, url, draft, matched)
    // The platform runs apps uninterruptibly; opting in lets a client that leaves interrupt the handler.
    const outcome = yield* Effect.interruptible(run).pipe(
      Effect.tap(() => Effect.annotateCurrentSpan("http.response.status_code", draft.status)),
      serverSpan(request, url),
      Effect.onExit((exit) =>
        Effect.sync(() => {
          const aborted = Exit.isFailure(exit) && !draft.destroyed
          const record: RequestRecord = {
            operation: draft.operation,
            status: aborted || draft.destroyed ? 0 : draft.status,
            credits: draft.credits,
            startedAt,
            durationMs: instance.now() - startedAt,
            ...(draft.fault === undefined ? {} : { fault: draft.fault }),
            ...(draft.category === undefined ? {} : { category: draft.category }),
            ...(draft.projectId === undefined ? {} : { projectId: draft.projectId }),
            ...(draft.rpcCode === undefined ? {} : { rpcCode: draft.rpcCode }),
            ...(aborted ? { aborted: true } : {})
          }
          instance.log.end(record)
        })
      )
    )
    // The platform skips writing when the response is already ended (destroyed on purpose).
    if (outcome === "destroyed") return HttpServerResponse.empty({ status: 204 })
    // Every answer to an allowed origin carries its CORS headers, errors too: a browser sees a 429 as a 429.
    const answered = verdict._tag === "Allowed" ? HttpServerResponse.setHeaders(outcome, verdict.headers) : outcome
    return draft.bodyUnread ? closeAfter(request, answered) : answered
  })
}
