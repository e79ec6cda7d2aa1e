/**
 * The scope of an API key's shared limits: a name for the key that does not reveal
 * it (`RateLimits.fingerprint`, re-exported there).
 *
 * @since 0.1.0
 */
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"
import * as Redacted from "effect/Redacted"

/**
 * A scope for an API key that does not reveal it: a truncated SHA-256 of the key.
 *
 * @since 0.1.0
 * @category scope
 */
export const fingerprint = (apiKey: Redacted.Redacted<string> | string): string =>
  bytesToHex(sha256(utf8ToBytes(`solfx-rate-limits:${typeof apiKey === "string" ? apiKey : Redacted.value(apiKey)}`)))
    .slice(0, 16)
