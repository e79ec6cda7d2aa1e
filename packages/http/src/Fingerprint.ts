/**
 * The scope of an API key's shared limits: a name for the key that does not reveal
 * it (`RateLimits.fingerprint`, re-exported there).
 *
 * @since 0.1.0
 */

import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"
import { type ApiKey, isApiKey } from "@solfx/core/Config"
import * as Redacted from "effect/Redacted"
import { hashInput } from "./internal/seal.js"

/**
 * A scope for an API key that does not reveal it: a truncated SHA-256 of the key
 * (the config's sealed key, or a key of your own).
 *
 * @since 0.1.0
 * @category scope
 */
export const fingerprint = (apiKey: ApiKey | Redacted.Redacted<string> | string): string =>
  bytesToHex(
    sha256(
      utf8ToBytes(
        `solfx-rate-limits:${
          typeof apiKey === "string" ? apiKey : isApiKey(apiKey) ? hashInput(apiKey) : Redacted.value(apiKey)
        }`
      )
    )
  ).slice(0, 16)
