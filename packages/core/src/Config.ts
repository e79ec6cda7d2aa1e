/**
 * The SDK configuration: the API key (sealed: see `ApiKey`), one base URL per host
 * the service documents, the per-request timeout and the retry policy.
 *
 * @example
 * const live = Config.layer({ apiKey: Redacted.make(process.env.MY_KEY!) })
 * const local = Config.layer({ apiKey: "emulator-key", baseUrl: "http://127.0.0.1:8899", timeout: "5 seconds" })
 * const fromEnv = Config.layerConfig // SOLFX_API_KEY, SOLFX_URL, SOLFX_RPC_URL, ...
 * @since 0.1.0
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Sealed from "./internal/apiKey.js"

/**
 * The API key as the config holds it: sealed. It prints, stringifies and inspects as
 * `<redacted>`, and no public function reads it back: only the SDK's send step opens
 * it, so a service or middleware given the config cannot leak the key.
 *
 * @since 0.1.0
 * @category models
 */
export type ApiKey = Sealed.ApiKey

/**
 * Whether a value is a sealed `ApiKey`.
 *
 * @since 0.1.0
 * @category guards
 */
export const isApiKey: (u: unknown) => u is ApiKey = Sealed.isApiKey

/**
 * The four hosts the service documents.
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
  /** Sealed: only the send step reads it (see `ApiKey`). */
  readonly apiKey: ApiKey
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
  readonly apiKey: string | Redacted.Redacted<string> | ApiKey
  readonly urls?: Partial<Urls> | undefined
  /** Every base URL at once, for example an emulator's. Per-host `urls` still win. */
  readonly baseUrl?: string | undefined
  readonly timeout?: Duration.DurationInput | undefined
  readonly retry?: Partial<RetryPolicy> | undefined
  readonly allowInsecureHttp?: boolean | undefined
}

/**
 * Builds the config from code, trusting `options.apiKey` to be a key: use
 * `validate` (or `layer`) for a key that may be missing, empty or blank.
 *
 * @example
 * const cfg = make({ apiKey: "my-api-key", baseUrl: "http://127.0.0.1:8899" })
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): SolfxConfigShape => {
  const base = options.baseUrl === undefined
    ? defaultUrls
    : { rpc: options.baseUrl, rest: options.baseUrl, v0: options.baseUrl, admin: options.baseUrl }
  return {
    apiKey: Sealed.isApiKey(options.apiKey)
      ? options.apiKey
      : new Sealed.ApiKey(Redacted.isRedacted(options.apiKey) ? Redacted.value(options.apiKey) : options.apiKey),
    urls: { ...base, ...stripUndefined(options.urls ?? {}) },
    timeout: Duration.decode(options.timeout ?? "30 seconds"),
    retry: { ...defaultRetry, ...stripUndefined(options.retry ?? {}) },
    allowInsecureHttp: options.allowInsecureHttp ?? false
  }
}

const stripUndefined = <A extends object>(a: A): { [K in keyof A]-?: Exclude<A[K], undefined> } =>
  Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) as never

/**
 * The shortest API key accepted. A shorter one cannot be redacted safely: redaction replaces whole
 * occurrences of the key, and a key of a few letters is also a piece of ordinary words. The
 * service's keys are UUIDs (36 characters), the emulator's 32 hex digits.
 *
 * @since 0.1.0
 * @category constants
 */
export const MIN_KEY_LENGTH = 8

/**
 * What is wrong with an API key, if anything: missing (not a string), empty, blank,
 * or shorter than `MIN_KEY_LENGTH` characters. The reason never quotes the key.
 *
 * @example
 * keyProblem("   ") // "is blank"
 * keyProblem(Redacted.make("my-api-key")) // undefined
 * @since 0.1.0
 * @category validation
 */
export const keyProblem = (apiKey: unknown): string | undefined => {
  const key: unknown = Redacted.isRedacted(apiKey)
    ? Redacted.value(apiKey)
    : Sealed.isApiKey(apiKey)
    ? Sealed.open(apiKey)
    : apiKey
  return typeof key !== "string"
    ? "is missing"
    : key.length === 0
    ? "is empty"
    : key.trim().length === 0
    ? "is blank"
    : key.length < MIN_KEY_LENGTH
    ? `is shorter than ${MIN_KEY_LENGTH} characters, too short to keep out of logs`
    : undefined
}

/**
 * Builds the config from code, refusing a missing, empty, blank or short (under
 * `MIN_KEY_LENGTH`) API key with a `ConfigError` naming `apiKey` and the rule:
 * nothing is sent with such a key.
 *
 * @example
 * Effect.runSync(Effect.flip(validate({ apiKey: "" }))) // InvalidData at apiKey: "the API key is empty ..."
 * @since 0.1.0
 * @category constructors
 */
export const validate = (options: Options): Effect.Effect<SolfxConfigShape, ConfigError.ConfigError> =>
  Effect.suspend(() => {
    const problem = keyProblem(options?.apiKey)
    return problem === undefined
      ? Effect.succeed(make(options))
      : Effect.fail(
        ConfigError.InvalidData(["apiKey"], `the API key ${problem}: pass apiKey (or set SOLFX_API_KEY)`)
      )
  })

/**
 * The config as a Layer, built from code. A missing, empty or blank key fails
 * building the layer with a `ConfigError` naming `apiKey` (see `validate`).
 *
 * @example
 * Effect.provide(program, layer({ apiKey: "my-api-key" }))
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<SolfxConfig, ConfigError.ConfigError> =>
  Layer.effect(SolfxConfig, validate(options))

/**
 * Each setting as read from the environment, for tools that layer their own
 * sources on top (the CLI's flags fall back to these): `apiKey` (`SOLFX_API_KEY`,
 * refused when empty or blank), `url` (`SOLFX_URL`, every host at once) and one
 * variable per host, which overrides `SOLFX_URL` for that host.
 *
 * @since 0.1.0
 * @category configs
 */
export const env = {
  // Validated inside `nested`, so that the error's path names the variable; wrapped after, since
  // `Config.redacted` would also hide the reason (which never quotes the key).
  apiKey: Config.string().pipe(
    Config.validate({
      message: `the API key must not be empty or blank, and at least ${MIN_KEY_LENGTH} characters long`,
      validation: (k) => keyProblem(k) === undefined
    }),
    Config.nested("SOLFX_API_KEY"),
    Config.map(Redacted.make)
  ),
  url: Config.string("SOLFX_URL"),
  rpc: Config.string("SOLFX_RPC_URL"),
  rest: Config.string("SOLFX_REST_URL"),
  v0: Config.string("SOLFX_V0_URL"),
  admin: Config.string("SOLFX_ADMIN_URL"),
  timeoutMs: Config.integer("SOLFX_TIMEOUT_MS"),
  allowInsecureHttp: Config.boolean("SOLFX_ALLOW_INSECURE_HTTP")
} as const

/**
 * Reads `SOLFX_API_KEY` (required, not empty or blank), `SOLFX_URL` (every host at
 * once), `SOLFX_RPC_URL`, `SOLFX_REST_URL`, `SOLFX_V0_URL`, `SOLFX_ADMIN_URL` (each
 * overrides `SOLFX_URL` for its host; default: the real service), `SOLFX_TIMEOUT_MS`
 * and `SOLFX_ALLOW_INSECURE_HTTP`. A missing or blank key is a `ConfigError`
 * naming `SOLFX_API_KEY`.
 *
 * @since 0.1.0
 * @category configs
 */
export const config: Config.Config<SolfxConfigShape> = Config.all({
  apiKey: env.apiKey,
  url: Config.option(env.url),
  rpc: Config.option(env.rpc),
  rest: Config.option(env.rest),
  v0: Config.option(env.v0),
  admin: Config.option(env.admin),
  timeoutMs: env.timeoutMs.pipe(Config.withDefault(30_000)),
  allowInsecureHttp: env.allowInsecureHttp.pipe(Config.withDefault(false))
}).pipe(
  Config.map(({ admin, allowInsecureHttp, apiKey, rest, rpc, timeoutMs, url, v0 }) =>
    make({
      apiKey,
      baseUrl: Option.getOrUndefined(url),
      urls: Object.fromEntries(
        Object.entries({ rpc, rest, v0, admin }).flatMap(([host, url]) => Option.isSome(url) ? [[host, url.value]] : [])
      ),
      timeout: Duration.millis(timeoutMs),
      allowInsecureHttp
    })
  )
)

/**
 * The config from the environment (see `config`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig: Layer.Layer<SolfxConfig, ConfigError.ConfigError> = Layer.effect(SolfxConfig, config)
