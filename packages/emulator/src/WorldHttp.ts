/**
 * The world API over HTTP, for a process started with `solfx emulator` driven from any
 * language: `POST /emulator/world/<call>` with a JSON body, authenticated with the
 * emulator's key (`?api-key=` or `X-Api-Key`), never charged. Calls: `fund`,
 * `mintFungible`, `mintNft`, `transfer`, `compress`, `advanceSlots` (see `World.WorldApi`), and the
 * emulator's own: `setAccount` (`{ address, lamports, owner?, data? (base64), executable? }`),
 * `snapshot` (answers `{ "id": "0x1" }`) and `restore` (`{ "id": "0x1" }`; 400 naming `id` for an
 * id never given).
 *
 * Answers: 200 with the receipt (`{ signature, slot, mint?, tokenAccount? }`, amounts as
 * strings); 400 `{ "error": "<field>: <rule>", "field": "<field>" }` on bad input, with
 * nothing changed; 404 for an unknown call.
 *
 * @example
 * // curl -X POST "$URL/emulator/world/fund?api-key=$KEY" -d '{"address":"…","lamports":"1000000000"}'
 * @since 0.1.0
 */
import * as World from "./World.js"

/**
 * The path prefix of the world API.
 *
 * @since 0.1.0
 * @category constants
 */
export const PREFIX = "/emulator/world/"

/**
 * An answer of the control path.
 *
 * @since 0.1.0
 * @category models
 */
export interface Answer {
  readonly status: number
  readonly body: unknown
}

const calls: Readonly<Record<string, (api: World.WorldApi, body: unknown) => unknown>> = {
  fund: (api, body) => api.fund(body as never),
  mintFungible: (api, body) => api.mintFungible(body as never),
  mintNft: (api, body) => api.mintNft(body as never),
  compress: (api, body) => api.compress(body as never),
  transfer: (api, body) => api.transfer(body as never),
  advanceSlots: (api, body) => api.advanceSlots(body as never)
}

/**
 * Runs a call of the world API for a request to `path` (under `PREFIX`) with a parsed JSON body.
 *
 * @since 0.1.0
 * @category handlers
 */
export const handle = (
  world: World.World,
  path: string,
  body: unknown,
  more: Readonly<Record<string, (body: unknown) => unknown>> = {}
): Answer => {
  const name = path.startsWith(PREFIX) ? path.slice(PREFIX.length) : ""
  const call = Object.hasOwn(calls, name)
    ? (b: unknown) => calls[name]!(world.api, b)
    : Object.hasOwn(more, name)
    ? more[name]
    : undefined
  if (call === undefined) {
    const names = [...Object.keys(calls), ...Object.keys(more)].join(", ")
    return { status: 404, body: { error: `unknown world call ${JSON.stringify(name)}; calls: ${names}` } }
  }
  try {
    return { status: 200, body: call(body) }
  } catch (e) {
    if (e instanceof World.WorldInputError) return { status: 400, body: { error: e.message, field: e.field } }
    throw e
  }
}
