/**
 * The indexer's own status methods (as the service documents), which stateless.js calls with no
 * params: getIndexerSlot (the last slot the indexer has processed; stateless.js polls
 * it to confirm a transaction was indexed) and getIndexerHealth (`"ok"` when healthy,
 * otherwise Photon answers a JSON-RPC error such as "Node is behind N slots").
 * Neither result has a `{ context, value }` wrapper.
 *
 * @example
 * const slot = yield* compression.getIndexerSlot()
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { Count } from "./internal/schema.js"

/**
 * The result of getIndexerSlot: a slot number.
 *
 * @since 0.1.0
 * @category results
 */
export const IndexerSlot = Count.annotations({ identifier: "IndexerSlot" })

/**
 * The result of getIndexerHealth: `"ok"` on a healthy indexer. Kept a string: any
 * other text is a status to show, not a decoding failure.
 *
 * @since 0.1.0
 * @category results
 */
export const IndexerHealth = Schema.String.annotations({ identifier: "IndexerHealth" })

/**
 * The health text of a healthy indexer.
 *
 * @since 0.1.0
 * @category constants
 */
export const HEALTHY = "ok"
