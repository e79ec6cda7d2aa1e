/**
 * What the emulator saw: the latest records (a bounded ring, long names cut), exact
 * counts by operation and status kept apart from the ring, the number of requests in
 * flight (now and at most), the requests abandoned by their client, and the bytes read
 * from sockets. Tests read it to assert retries, concurrency and cancellation; a client
 * flooding the server cannot grow it past its bounds.
 *
 * @example
 * emulator.resetLog()
 * yield* program
 * expect(emulator.count("getAssetsByAuthority")).toBe(3)
 * expect(emulator.counters.maxInFlight).toBeLessThanOrEqual(4)
 * @since 0.1.0
 */
import type { UsageCategory } from "@solfx/core/Endpoint"
import type { FaultKind } from "./Faults.js"

/**
 * One request. `operation` is the JSON-RPC method, or the route as
 * `"GET /v1/wallet/:wallet/balances"`; unmatched requests are `"<METHOD> <path>"`.
 *
 * @since 0.1.0
 * @category models
 */
export interface RequestRecord {
  readonly operation: string
  /** HTTP status sent; 0 when the socket was destroyed (reset, truncate) or the client left first. */
  readonly status: number
  readonly fault?: FaultKind | undefined
  readonly category?: UsageCategory | undefined
  /** Credits charged (0 when rejected before charging). */
  readonly credits: number
  readonly projectId?: string | undefined
  /** JSON-RPC error code, when the response carried one. */
  readonly rpcCode?: number | undefined
  /** The client closed the connection before the response was sent. */
  readonly aborted?: boolean | undefined
  /** Epoch milliseconds. */
  readonly startedAt: number
  readonly durationMs: number
}

/**
 * Totals since the last reset: requests by operation and status, and the most in flight at once.
 *
 * @since 0.1.0
 * @category models
 */
export interface Counters {
  readonly total: number
  readonly byOperation: Readonly<Record<string, number>>
  readonly byStatus: Readonly<Record<number, number>>
  readonly inFlight: number
  readonly maxInFlight: number
  /** Requests whose client closed the connection before the response. */
  readonly clientClosed: number
}

/**
 * The server's record of the requests it handled: the latest `capacity` records, and
 * counts of every request since the last reset.
 *
 * @since 0.1.0
 * @category models
 */
export interface RequestLog {
  /** The records the ring still holds, oldest first. */
  readonly records: () => ReadonlyArray<RequestRecord>
  readonly counters: () => Counters
  readonly begin: () => void
  readonly end: (record: RequestRecord) => void
  readonly reset: () => void
  /** Bytes read from every socket so far (request lines, headers and bodies). */
  readonly bytesReceived: () => number
  /** Adds the bytes a closed socket read; open sockets are counted by `watch`. */
  readonly watch: (socket: { readonly bytesRead: number; once: (event: "close", f: () => void) => unknown }) => void
}

/**
 * Bounds of a request log.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Records kept (a ring: the oldest go first). Default 10,000. */
  readonly capacity?: number | undefined
  /** Longest operation name stored or counted; longer ones are cut. Default 256. */
  readonly fieldLength?: number | undefined
  /** Distinct operations counted by name; the rest count under `OTHER`. Default 4,096. */
  readonly operations?: number | undefined
}

/**
 * The count key of operations beyond the log's `operations` bound.
 *
 * @since 0.1.0
 * @category constants
 */
export const OTHER = "(other operations)"

/**
 * Cuts a field to `max` characters, marking the cut.
 *
 * @since 0.1.0
 * @category constructors
 */
export const cut = (value: string, max: number): string =>
  value.length <= max ? value : `${value.slice(0, max - 1)}\u2026`

/**
 * An empty request log. Memory is bounded whatever clients send: the ring holds at most
 * `capacity` records, names are cut, and the counts keep at most `operations` names.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): RequestLog => {
  const capacity = Math.max(1, options.capacity ?? 10_000)
  const fieldLength = Math.max(16, options.fieldLength ?? 256)
  const maxOperations = Math.max(1, options.operations ?? 4_096)
  let ring: Array<RequestRecord> = []
  let next = 0
  let total = 0
  let byOperation = new Map<string, number>()
  let byStatus: Record<number, number> = {}
  let inFlight = 0
  let maxInFlight = 0
  let clientClosed = 0
  const open = new Set<{ readonly bytesRead: number }>()
  let closedBytes = 0
  return {
    records: () => ring.length < capacity ? ring.slice() : [...ring.slice(next), ...ring.slice(0, next)],
    counters: () => ({
      total,
      byOperation: Object.fromEntries(byOperation),
      byStatus: { ...byStatus },
      inFlight,
      maxInFlight,
      clientClosed
    }),
    begin: () => {
      inFlight++
      if (inFlight > maxInFlight) maxInFlight = inFlight
    },
    end: (full) => {
      inFlight--
      const operation = cut(full.operation, fieldLength)
      const record = operation === full.operation ? full : { ...full, operation }
      if (ring.length < capacity) ring.push(record)
      else ring[next] = record
      next = (next + 1) % capacity
      total++
      const key = byOperation.has(operation) || byOperation.size < maxOperations ? operation : OTHER
      byOperation.set(key, (byOperation.get(key) ?? 0) + 1)
      byStatus[record.status] = (byStatus[record.status] ?? 0) + 1
      if (record.aborted) clientClosed++
    },
    reset: () => {
      ring = []
      next = 0
      total = 0
      byOperation = new Map()
      byStatus = {}
      maxInFlight = inFlight
      clientClosed = 0
    },
    bytesReceived: () => {
      let sum = closedBytes
      for (const socket of open) sum += socket.bytesRead
      return sum
    },
    watch: (socket) => {
      open.add(socket)
      socket.once("close", () => {
        open.delete(socket)
        closedBytes += socket.bytesRead
      })
    }
  }
}
