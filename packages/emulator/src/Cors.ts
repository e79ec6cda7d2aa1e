/**
 * Cross-origin requests (CORS), as the real service answers browsers, in one place: which
 * origins may call which paths, the preflight's answer and the headers every answer carries.
 *
 * - The service's own paths (JSON-RPC at `/`, the REST routes, and the WebSocket that mirrors
 *   JSON-RPC) answer any origin (`access-control-allow-origin: *`), or only the origins given
 *   (`--cors-origin`, `Options.corsOrigins`), echoed with `vary: origin`.
 * - The emulator's own paths (`/emulator/...`: the world API, which changes the world, and the
 *   studio's reads; `/studio`) answer cross-origin only the origins given: none by default.
 *
 * A request whose `Origin` the rule refuses is answered 403 with nothing run or charged (a
 * preflight too), so a page elsewhere can neither read an answer nor change the world with a
 * request the browser sends without a preflight. A request with no `Origin` (curl, Node, any
 * non-browser client) and a same-origin one (the studio's, `Origin` equal to the `Host` it
 * was sent to) are not cross-origin and pass.
 *
 * @example
 * const cors = Cors.make(["http://localhost:5173"])
 * cors.check({ origin: "http://localhost:5173", host: "127.0.0.1:8899", path: "/" })
 * // { _tag: "Allowed", headers: { "access-control-allow-origin": "http://localhost:5173", vary: "origin", ... } }
 * @since 0.1.0
 */

/**
 * Request headers a browser may send cross-origin: those the SDK and `@solana/kit` send
 * (`x-api-key`, `solana-client`, `content-type`, `accept`) and the trace context the SDK's
 * HTTP client propagates (`traceparent`, `tracestate`, `b3`).
 *
 * @since 0.1.0
 * @category constants
 */
export const ALLOWED_HEADERS: ReadonlyArray<string> = [
  "accept",
  "content-type",
  "x-api-key",
  "solana-client",
  "traceparent",
  "tracestate",
  "b3"
]

/**
 * Methods a preflight may ask for (the webhooks' admin routes take `PUT` and `DELETE`).
 *
 * @since 0.1.0
 * @category constants
 */
export const ALLOWED_METHODS: ReadonlyArray<string> = ["GET", "POST", "PUT", "DELETE", "OPTIONS"]

/**
 * Response headers a page may read: `retry-after` (so a browser's retry honours a 429's wait)
 * and the body's encoding and length, which the SDK's body reader checks.
 *
 * @since 0.1.0
 * @category constants
 */
export const EXPOSED_HEADERS: ReadonlyArray<string> = ["retry-after", "content-encoding", "content-length"]

/**
 * What the rule says of one request.
 *
 * @since 0.1.0
 * @category models
 */
export type Verdict =
  /** No `Origin`, or the request's own: nothing to add. */
  | { readonly _tag: "SameOrigin" }
  /** Cross-origin and allowed: the headers every answer carries. */
  | { readonly _tag: "Allowed"; readonly headers: Readonly<Record<string, string>> }
  /** Cross-origin and not allowed: answered 403, nothing run. */
  | { readonly _tag: "Refused"; readonly origin: string }

/**
 * The origin rule of one emulator.
 *
 * @since 0.1.0
 * @category models
 */
export interface Cors {
  /** The origins given, or undefined when the service's paths answer any origin. */
  readonly origins: ReadonlyArray<string> | undefined
  /** The verdict for a request with this `Origin` to this `Host` and path. */
  readonly check: (request: {
    readonly origin: string | undefined
    readonly host: string | undefined
    readonly path: string
  }) => Verdict
  /** The headers of an allowed preflight's 204 (beside the verdict's). */
  readonly preflightHeaders: Readonly<Record<string, string>>
}

/**
 * Whether a path is the emulator's own (the world API, the studio and its reads) rather than the service's.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isEmulatorPath = (path: string): boolean =>
  path.startsWith("/emulator/") || path === "/studio" || path.startsWith("/studio/")

/**
 * Checks an origin given on `--cors-origin`: `scheme://host[:port]`, as a browser writes it, no path.
 *
 * @since 0.1.0
 * @category validation
 */
export const validateOrigin = (origin: string): string | undefined => {
  if (!URL.canParse(origin)) return `--cors-origin must be an origin such as http://localhost:5173, got ${origin}`
  const url = new URL(origin)
  if (url.origin === "null" || url.origin !== origin) {
    return `--cors-origin must be an origin (scheme://host[:port], no path or trailing slash), got ${origin}; ` +
      `did you mean ${url.origin}?`
  }
  return undefined
}

/**
 * The rule for a list of origins (undefined: the service's paths answer any origin, the emulator's none).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (origins?: ReadonlyArray<string> | undefined): Cors => {
  const listed = origins === undefined ? undefined : new Set(origins)
  const preflightHeaders = {
    "access-control-allow-methods": ALLOWED_METHODS.join(", "),
    "access-control-allow-headers": ALLOWED_HEADERS.join(", "),
    "access-control-max-age": "600"
  }
  const exposed = { "access-control-expose-headers": EXPOSED_HEADERS.join(", ") }
  return {
    origins,
    preflightHeaders,
    check: ({ host, origin, path }) => {
      if (origin === undefined) return { _tag: "SameOrigin" }
      // The emulator serves plain HTTP, so its own pages' origin is http:// and the Host they called.
      if (host !== undefined && origin === `http://${host}`) return { _tag: "SameOrigin" }
      if (listed?.has(origin) === true) {
        return { _tag: "Allowed", headers: { "access-control-allow-origin": origin, vary: "origin", ...exposed } }
      }
      if (listed === undefined && !isEmulatorPath(path)) {
        return { _tag: "Allowed", headers: { "access-control-allow-origin": "*", ...exposed } }
      }
      return { _tag: "Refused", origin }
    }
  }
}
