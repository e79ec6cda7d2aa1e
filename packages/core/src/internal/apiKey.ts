/**
 * The API key, sealed. `SolfxConfig` carries an `ApiKey`, not the key: any service
 * given the config (a CLI command, an emulator's test layer, user code) can pass it
 * on but not read it. The key sits in a module-private WeakMap, out of reach of
 * reflection, printing and `JSON.stringify`; `open` is the only way back, and only
 * the send steps import it (http's `internal/seal`, the WebSocket connection of
 * subscriptions). This module is published under `internal/` for them alone.
 */
import { NodeInspectSymbol } from "effect/Inspectable"

const secrets = new WeakMap<ApiKey, string>()

const REDACTED = "<redacted>"

/**
 * An API key that does not show itself: printing, `String`, `JSON.stringify` and
 * `util.inspect` all give `<redacted>`, and no public function reads it back.
 */
export class ApiKey {
  constructor(key: string) {
    secrets.set(this, key)
  }
  toString(): string {
    return REDACTED
  }
  toJSON(): string {
    return REDACTED
  }
  [NodeInspectSymbol](): string {
    return REDACTED
  }
}

/** Whether `u` is a sealed key. */
export const isApiKey = (u: unknown): u is ApiKey => u instanceof ApiKey && secrets.has(u)

/** The key inside: for the send steps only (see the module's comment). */
export const open = (key: ApiKey): string => {
  const secret = secrets.get(key)
  // Only `new ApiKey` makes one, and it always stores the key: a miss is a forged object.
  if (secret === undefined) throw new TypeError("not a sealed API key")
  return secret
}
