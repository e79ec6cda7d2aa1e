/**
 * Every real response body in ../shared/fixtures/real/ decodes with the schema of
 * its method, inside the envelope the wire uses. Skips visibly when ../shared is
 * absent (a user's fresh clone).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Json from "@solfx/core/Json"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = fileURLToPath(new URL("../../../../shared/fixtures/real", import.meta.url))
const present = existsSync(ROOT)

/**
 * How a fixture file sits on the wire:
 * - "result": the file is the JSON-RPC `result` member (snapshots); we wrap it in an envelope.
 * - "envelope": the file is a whole JSON-RPC response.
 * - "body": the file is a whole REST body.
 * - "auto": "envelope" when the file has `jsonrpc`, otherwise "result".
 */
type Shape = "result" | "envelope" | "body" | "auto"

interface Entry {
  readonly schema: Schema.Schema<any, any>
  readonly shape: Shape
}

/** Folders whose method we serve, with the schema of its result or body. Each area adds its own. */
const served: Record<string, Entry> = {
  // -- digital assets (issue 4) --
  // -- compression (issue 5) --
  // -- bundles (issue 6) --
  // -- wallet (issue 7) --
  // -- admin and webhooks (issue 8) --
}

/** Folders kept for reference only: neighbouring methods we do not serve. */
const neighbours: Record<string, string> = {
  _errors: "error bodies, decoded by the transport's error mapping tests",
  getAssetProof: "single-proof method; its worked example is checked by the Merkle verifier tests",
  getCompressedTokenAccountsByOwnerV2: "V2 of a method we serve in V1 only",
  getCompressedTokenBalancesByOwner: "V1 of getCompressedTokenBalancesByOwnerV2 (snake_case token_balances)",
  getCompressionSignaturesForOwner: "not in the spec's method list",
  getTransactionWithCompressionInfoV2: "V2 of a method we serve in V1 only",
  getValidityProofV2: "V2 of a method we serve in V1 only",
  "webhook-delivery": "webhook delivery payloads, decoded by the webhook receiver tests"
}

/** Files that cannot decode, each with the reason. Keys are `folder/file`. */
const exceptions: Record<string, string> = {}

const Envelope = (result: Schema.Schema<any, any>) =>
  Schema.Struct({ jsonrpc: Schema.Literal("2.0"), id: Schema.Union(Schema.String, Schema.Number, Schema.Null), result })

const decode = (entry: Entry, body: unknown) => {
  const shape = entry.shape === "auto"
    ? (typeof body === "object" && body !== null && "jsonrpc" in body ? "envelope" : "result")
    : entry.shape
  const wire = shape === "result" ? { jsonrpc: "2.0", id: "1", result: body } : body
  const schema = shape === "body" ? entry.schema : Envelope(entry.schema)
  return Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore" })(wire)
}

describe.skipIf(!present)("real fixtures decode", () => {
  const folders = present ? readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory()) : []

  it("every folder is either served or a listed neighbour", () => {
    const unknown = folders.map((d) => d.name).filter((n) => !(n in served) && !(n in neighbours))
    expect(unknown).toEqual([])
  })

  for (const folder of folders.filter((d) => d.name in served)) {
    for (const file of readdirSync(join(ROOT, folder.name)).filter((f) => f.endsWith(".json"))) {
      const key = `${folder.name}/${file}`
      it.skipIf(key in exceptions)(key, () => {
        const body = Json.parse(readFileSync(join(ROOT, folder.name, file), "utf8"))
        const result = decode(served[folder.name]!, body)
        if (Either.isLeft(result)) {
          expect.fail(ParseResult.TreeFormatter.formatErrorSync(result.left))
        }
      })
    }
  }
})

if (!present) {
  describe("real fixtures decode", () => {
    it.skip(`skipped: ${ROOT} is absent (it exists in CI and the team's checkouts)`, () => {})
  })
}
