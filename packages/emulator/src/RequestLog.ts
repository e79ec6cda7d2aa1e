/**
 * What the emulator saw: one record per request, counts by operation, the
 * number of requests in flight (now and at most) and the requests abandoned by
 * their client. Tests read it to assert retries, concurrency and cancellation.
 *
 * @example
 * emulator.resetLog()
 * yield* program
 * expect(emulator.count("getAssetsByAuthority")).toBe(3)
 * expect(emulator.counters.maxInFlight).toBeLessThanOrEqual(4)
 * @since 0.1.0
 */
import type { UsageCategory } from "./Area.js"
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
 * The server's record of every request it handled.
 *
 * @since 0.1.0
 * @category models
 */
export interface RequestLog {
  readonly records: () => ReadonlyArray<RequestRecord>
  readonly counters: () => Counters
  readonly begin: () => void
  readonly end: (record: RequestRecord) => void
  readonly reset: () => void
}

/**
 * An empty request log.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (): RequestLog => {
  let records: Array<RequestRecord> = []
  let byOperation: Record<string, number> = {}
  let byStatus: Record<number, number> = {}
  let inFlight = 0
  let maxInFlight = 0
  let clientClosed = 0
  return {
    records: () => records.slice(),
    counters: () => ({
      total: records.length,
      byOperation: { ...byOperation },
      byStatus: { ...byStatus },
      inFlight,
      maxInFlight,
      clientClosed
    }),
    begin: () => {
      inFlight++
      if (inFlight > maxInFlight) maxInFlight = inFlight
    },
    end: (record) => {
      inFlight--
      records.push(record)
      byOperation[record.operation] = (byOperation[record.operation] ?? 0) + 1
      byStatus[record.status] = (byStatus[record.status] ?? 0) + 1
      if (record.aborted) clientClosed++
    },
    reset: () => {
      records = []
      byOperation = {}
      byStatus = {}
      maxInFlight = inFlight
      clientClosed = 0
    }
  }
}
