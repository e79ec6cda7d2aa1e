/**
 * The `--faults SPEC` syntax of `solfx emulator`: comma-separated `key=value` pairs.
 *
 * | key           | value                                                  | default     |
 * |---------------|--------------------------------------------------------|-------------|
 * | `rate`        | probability 0..1 that a request gets a fault (required)|             |
 * | `kinds`       | `+`-separated: 429, 500, 503, reset, slow, truncate, malformed, or `all` | all |
 * | `retry-after` | seconds in the `Retry-After` of a 429                  | 1           |
 * | `slow-ms`     | delay of a slow response, in milliseconds              | 1000        |
 * | `seed`        | seed of the fault sequence                             | the emulator's |
 * | `times`       | stop after this many faults                            | no limit    |
 *
 * @example
 * parse("rate=0.2,kinds=429+500+reset") // Either.right({ rate: 0.2, kinds: ["429", "500", "reset"] })
 * @since 0.1.0
 */
import * as Faults from "@solfx/emulator/Faults"
import * as WebhookDeliveries from "@solfx/emulator/WebhookDeliveries"
import * as Either from "effect/Either"

/**
 * The SPEC grammar in one line, for `--help`: built from the emulator's fault kinds so it cannot drift.
 *
 * @since 0.1.0
 * @category constants
 */
export const syntax = "rate=R[,kinds=K+K...][,retry-after=S][,slow-ms=MS][,seed=N][,times=N] " +
  `with kinds among ${Faults.kinds.join(", ")} or all`

const number = (
  key: string,
  value: string,
  check: (n: number) => boolean,
  rule: string
): Either.Either<number, string> => {
  const n = Number(value)
  return value.trim() !== "" && Number.isFinite(n) && check(n)
    ? Either.right(n)
    : Either.left(`${key} must be ${rule}, got "${value}"`)
}

const isInt = (min: number) => (n: number) => Number.isInteger(n) && n >= min

/**
 * Reads a SPEC; the error says what is wrong.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (spec: string): Either.Either<Faults.FaultOptions, string> => {
  let rate: number | undefined
  let kinds: ReadonlyArray<Faults.FaultKind> = Faults.kinds
  const rest: { retryAfterSeconds?: number; slowMs?: number; seed?: number; times?: number } = {}
  for (const part of spec.split(",").map((p) => p.trim()).filter((p) => p !== "")) {
    const eq = part.indexOf("=")
    if (eq < 0) return Either.left(`expected key=value, got "${part}"`)
    const key = part.slice(0, eq).trim()
    const value = part.slice(eq + 1).trim()
    let parsed: Either.Either<number, string> | undefined
    switch (key) {
      case "rate":
        parsed = number(key, value, (n) => n >= 0 && n <= 1, "a number from 0 to 1")
        if (Either.isRight(parsed)) rate = parsed.right
        break
      case "kinds": {
        if (value === "all") {
          kinds = Faults.kinds
          break
        }
        const names = value.split("+").map((k) => k.trim())
        const unknown = names.find((k) => !(Faults.kinds as ReadonlyArray<string>).includes(k))
        if (unknown !== undefined || names.length === 0) {
          return Either.left(`unknown fault kind "${unknown ?? ""}" (kinds: ${Faults.kinds.join(", ")}, all)`)
        }
        kinds = names as ReadonlyArray<Faults.FaultKind>
        break
      }
      case "retry-after":
        parsed = number(key, value, (n) => n >= 0, "a number of seconds")
        if (Either.isRight(parsed)) rest.retryAfterSeconds = parsed.right
        break
      case "slow-ms":
        parsed = number(key, value, isInt(0), "a whole number of milliseconds")
        if (Either.isRight(parsed)) rest.slowMs = parsed.right
        break
      case "seed":
        parsed = number(key, value, isInt(0), "a non-negative integer")
        if (Either.isRight(parsed)) rest.seed = parsed.right
        break
      case "times":
        parsed = number(key, value, isInt(1), "a positive integer")
        if (Either.isRight(parsed)) rest.times = parsed.right
        break
      default:
        return Either.left(`unknown key "${key}" (keys: rate, kinds, retry-after, slow-ms, seed, times)`)
    }
    if (parsed !== undefined && Either.isLeft(parsed)) return Either.left(parsed.left)
  }
  if (rate === undefined) return Either.left("rate=R is required")
  return Either.right({ rate, kinds, ...rest })
}

/**
 * The syntax of `--delivery-faults`.
 *
 * @since 0.1.0
 * @category parsing
 */
export const deliverySyntax = "duplicate=R,reorder=R,delay=R[,delay-ms=MS][,seed=N], each rate from 0 to 1"

/**
 * Parses a `--delivery-faults` spec (`duplicate=0.2,reorder=0.1`) into the emulator's delivery faults.
 *
 * @example
 * FaultSpec.parseDelivery("duplicate=0.2,delay=0.05,delay-ms=300")
 * // Either.right({ duplicate: 0.2, delay: 0.05, delayMs: 300 })
 * @since 0.1.0
 * @category parsing
 */
export const parseDelivery = (spec: string): Either.Either<WebhookDeliveries.DeliveryFaults, string> => {
  const out: { -readonly [K in keyof WebhookDeliveries.DeliveryFaults]: number } = {}
  for (const part of spec.split(",").map((p) => p.trim()).filter((p) => p !== "")) {
    const eq = part.indexOf("=")
    if (eq < 0) return Either.left(`expected key=value, got "${part}"`)
    const key = part.slice(0, eq).trim()
    const value = part.slice(eq + 1).trim()
    const parsed = (WebhookDeliveries.deliveryFaultKinds as ReadonlyArray<string>).includes(key)
      ? number(key, value, (n) => n >= 0 && n <= 1, "a number from 0 to 1")
      : key === "delay-ms"
      ? number(key, value, isInt(0), "a whole number of milliseconds")
      : key === "seed"
      ? number(key, value, isInt(0), "a non-negative integer")
      : Either.left(`unknown key "${key}" (keys: ${WebhookDeliveries.deliveryFaultKinds.join(", ")}, delay-ms, seed)`)
    if (Either.isLeft(parsed)) return Either.left(parsed.left)
    out[key === "delay-ms" ? "delayMs" : key as keyof WebhookDeliveries.DeliveryFaults] = parsed.right
  }
  return Either.right(out)
}
