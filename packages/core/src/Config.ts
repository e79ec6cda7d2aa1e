/**
 * The SDK configuration: the API key (always `Redacted`), one base URL per host
 * of the spec, the per-request timeout and the retry policy.
 *
 * @example
 * const live = Config.layer({ apiKey: Redacted.make(process.env.MY_KEY!) })
 * const local = Config.layer({ apiKey: "emulator-key", baseUrl: "http://127.0.0.1:8899", timeout: "5 seconds" })
 * const fromEnv = Config.layerConfig // SOLFX_API_KEY, SOLFX_RPC_URL, ...
 * @since 0.1.0
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"

/**
 * The four hosts of the spec.
 *
 * @since 0.1.0
 * @category models
 */
export interface Urls {
  /** JSON-RPC host (`{rpc_url}`). */
  readonly rpc: string
  /** Wallet API host (`{rest_url}`). */
  readonly rest: string
  /** Host of the `/v0` endpoints: token metadata, webhooks (`{v0_url}`). */
  readonly v0: string
  /** Admin host (`{admin_url}`). */
  readonly admin: string
}

/**
 * One of the four hosts: `rpc`, `rest`, `v0` or `admin`.
 *
 * @since 0.1.0
 * @category models
 */
export type Host = keyof Urls

/**
 * Retry policy for idempotent calls: jittered exponential backoff from `base`,
 * at most `times` retries, each delay capped at `maxDelay`. `Retry-After` wins when sent.
 *
 * @since 0.1.0
 * @category models
 */
export interface RetryPolicy {
  readonly times: number
  readonly base: Duration.Duration
  readonly maxDelay: Duration.Duration
}

/**
 * The resolved configuration every service reads through `SolfxConfig`.
 *
 * @since 0.1.0
 * @category models
 */
export interface SolfxConfigShape {
  readonly apiKey: Redacted.Redacted<string>
  readonly urls: Urls
  readonly timeout: Duration.Duration
  readonly retry: RetryPolicy
  /** Allow the key over plain http:// to a host that is not loopback. Off by default. */
  readonly allowInsecureHttp: boolean
}

/**
 * The configuration as a service; provide it with `layer`, `layerConfig` or an
 * emulator's `layerTest`.
 *
 * @since 0.1.0
 * @category tags
 */
export class SolfxConfig extends Context.Tag("@solfx/core/SolfxConfig")<SolfxConfig, SolfxConfigShape>() {}

/**
 * The public endpoints of the real service.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultUrls: Urls = {
  rpc: "https://mainnet.helius-rpc.com",
  rest: "https://api.helius.xyz",
  v0: "https://api.helius.xyz",
  admin: "https://admin-api.helius.xyz"
}

/**
 * The default retry policy: up to 4 retries, backoff from 200 ms, at most 10 s apart.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultRetry: RetryPolicy = {
  times: 4,
  base: Duration.millis(200),
  maxDelay: Duration.seconds(10)
}

/**
 * What `make` and `layer` take: the key, and optionally base URLs, timeout, retry
 * policy and the insecure-http escape hatch.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly apiKey: string | Redacted.Redacted<string>
  readonly urls?: Partial<Urls> | undefined
  /** Every base URL at once, for example an emulator's. Per-host `urls` still win. */
  readonly baseUrl?: string | undefined
  readonly timeout?: Duration.DurationInput | undefined
  readonly retry?: Partial<RetryPolicy> | undefined
  readonly allowInsecureHttp?: boolean | undefined
}

/**
 * Builds the config from code.
 *
 * @example
 * const cfg = make({ apiKey: "my-key", baseUrl: "http://127.0.0.1:8899" })
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): SolfxConfigShape => {
  const base = options.baseUrl === undefined
    ? defaultUrls
    : { rpc: options.baseUrl, rest: options.baseUrl, v0: options.baseUrl, admin: options.baseUrl }
  return {
    apiKey: Redacted.isRedacted(options.apiKey) ? options.apiKey : Redacted.make(options.apiKey),
    urls: { ...base, ...stripUndefined(options.urls ?? {}) },
    timeout: Duration.decode(options.timeout ?? "30 seconds"),
    retry: { ...defaultRetry, ...stripUndefined(options.retry ?? {}) },
    allowInsecureHttp: options.allowInsecureHttp ?? false
  }
}

const stripUndefined = <A extends object>(a: A): { [K in keyof A]-?: Exclude<A[K], undefined> } =>
  Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) as never

/**
 * The config as a Layer, built from code.
 *
 * @example
 * Effect.provide(program, layer({ apiKey: "my-key" }))
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<SolfxConfig> => Layer.succeed(SolfxConfig, make(options))

/**
 * Reads `SOLFX_API_KEY` (required), `SOLFX_RPC_URL`, `SOLFX_REST_URL`, `SOLFX_V0_URL`,
 * `SOLFX_ADMIN_URL` (default: the real service), `SOLFX_TIMEOUT_MS` and
 * `SOLFX_ALLOW_INSECURE_HTTP`. A missing key is a `ConfigError` naming `SOLFX_API_KEY`.
 *
 * @since 0.1.0
 * @category configs
 */
export const config: Config.Config<SolfxConfigShape> = Config.all({
  apiKey: Config.redacted("SOLFX_API_KEY"),
  rpc: Config.string("SOLFX_RPC_URL").pipe(Config.withDefault(defaultUrls.rpc)),
  rest: Config.string("SOLFX_REST_URL").pipe(Config.withDefault(defaultUrls.rest)),
  v0: Config.string("SOLFX_V0_URL").pipe(Config.withDefault(defaultUrls.v0)),
  admin: Config.string("SOLFX_ADMIN_URL").pipe(Config.withDefault(defaultUrls.admin)),
  timeoutMs: Config.integer("SOLFX_TIMEOUT_MS").pipe(Config.withDefault(30_000)),
  allowInsecureHttp: Config.boolean("SOLFX_ALLOW_INSECURE_HTTP").pipe(Config.withDefault(false))
}).pipe(
  Config.map(({ admin, allowInsecureHttp, apiKey, rest, rpc, timeoutMs, v0 }) =>
    make({ apiKey, urls: { rpc, rest, v0, admin }, timeout: Duration.millis(timeoutMs), allowInsecureHttp })
  )
)

/**
 * The config from the environment (see `config`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig: Layer.Layer<SolfxConfig, import("effect/ConfigError").ConfigError> = Layer.effect(
  SolfxConfig,
  Effect.map(config, (c) => c)
)
