/**
 * The project usage record of the admin endpoint (as the service documents): credits, the
 * subscription and per-service counts for the current billing cycle.
 *
 * The real service documents two layouts: the older one, with a
 * `usage` block of request counts, and a newer one where `usage` is replaced by
 * `credits`, `requests` and `dataTransfer` (plus, in one revision, a top-level
 * `creditCycle`). Both decode into the one `ProjectUsage` type: every block
 * after `subscriptionDetails` is optional, and the members of the newer
 * blocks are optional too, since their key sets still move.
 *
 * @example
 * const usage = yield* Schema.decodeUnknown(ProjectUsage.ProjectUsage)(body)
 * const left = usage.creditsRemaining + usage.prepaidCreditsRemaining
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"

/**
 * A calendar date as the service writes it: `YYYY-MM-DD`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BillingDate = Schema.String.pipe(
  Schema.pattern(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { message: () => "a date as YYYY-MM-DD" }),
  Schema.annotations({ identifier: "BillingDate" })
)

/**
 * A billing cycle: first and last day, `YYYY-MM-DD`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BillingCycle = Schema.Struct({
  start: BillingDate,
  end: BillingDate
}).annotations({ identifier: "BillingCycle" })

/**
 * A decoded `BillingCycle`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type BillingCycle = typeof BillingCycle.Type

/**
 * The plan of the project.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SubscriptionDetails = Schema.Struct({
  billingCycle: BillingCycle,
  /** Total credit allowance for the cycle. */
  creditsLimit: Schema.Number,
  /** Plan name, e.g. `business`. */
  plan: Schema.String
}).annotations({ identifier: "SubscriptionDetails" })

/**
 * A decoded `SubscriptionDetails`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type SubscriptionDetails = typeof SubscriptionDetails.Type

/**
 * Request counts per service, the older layout the service documents.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Usage = Schema.Struct({
  /** Enhanced API requests. */
  api: Schema.Number,
  /** Archival RPC requests. */
  archival: Schema.Number,
  /** Digital-asset API requests. */
  das: Schema.Number,
  /** gRPC streaming requests. */
  grpc: Schema.Number,
  /** Geyser gRPC requests. */
  grpcGeyser: Schema.Number,
  /** Compression (ZK) requests. */
  photon: Schema.Number,
  /** Standard RPC requests. */
  rpc: Schema.Number,
  /** Data-streaming requests. */
  stream: Schema.Number,
  /** Webhook delivery events. */
  webhook: Schema.Number,
  /** WebSocket subscription requests. */
  websocket: Schema.Number
}).annotations({ identifier: "Usage" })

/**
 * A decoded `Usage`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type Usage = typeof Usage.Type

const count = Schema.optional(Schema.Number)

/**
 * Per-service request counts of the newer layout (as the service documents).
 *
 * @since 0.1.0
 * @category schemas
 */
export const RequestBreakdown = Schema.Struct({
  rpc: count,
  enhancedApi: count,
  walletApi: count,
  das: count,
  webhooks: count,
  preConfirmations: count,
  archival: count,
  photon: count,
  other: count
}).annotations({ identifier: "RequestBreakdown" })

/**
 * A decoded `RequestBreakdown`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type RequestBreakdown = typeof RequestBreakdown.Type

/**
 * Per-service credits of the newer layout: the request keys plus the two LaserStream services.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CreditBreakdown = Schema.Struct({
  ...RequestBreakdown.fields,
  laserstreamGrpc: count,
  laserstreamWebsocket: count
}).annotations({ identifier: "CreditBreakdown" })

/**
 * A decoded `CreditBreakdown`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type CreditBreakdown = typeof CreditBreakdown.Type

/**
 * Bytes streamed this cycle (newer layout).
 *
 * @since 0.1.0
 * @category schemas
 */
export const DataTransfer = Schema.Struct({
  laserstreamGrpc: count,
  laserstreamWebsocket: count
}).annotations({ identifier: "DataTransfer" })

/**
 * A decoded `DataTransfer`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type DataTransfer = typeof DataTransfer.Type

/**
 * The project usage record, either layout.
 *
 * @example
 * import * as Schema from "effect/Schema"
 * const usage = Schema.decodeUnknownSync(ProjectUsage)(body)
 * const left = usage.creditsRemaining + usage.prepaidCreditsRemaining
 * @since 0.1.0
 * @category schemas
 */
export const ProjectUsage = Schema.Struct({
  /** Plan credit limit minus regular credits consumed, floored at zero. */
  creditsRemaining: Schema.Number,
  /** All credits consumed this cycle, regular plus prepaid. */
  creditsUsed: Schema.Number,
  /** Prepaid credits still available. */
  prepaidCreditsRemaining: Schema.Number,
  /** Prepaid credits consumed this cycle. */
  prepaidCreditsUsed: Schema.Number,
  subscriptionDetails: SubscriptionDetails,
  /** Request counts per service (the older layout); absent in the newer layout. */
  usage: Schema.optional(Usage),
  /** Credits per service (newer layout). */
  credits: Schema.optional(CreditBreakdown),
  /** Requests per service (newer layout). */
  requests: Schema.optional(RequestBreakdown),
  /** Bytes streamed (newer layout). */
  dataTransfer: Schema.optional(DataTransfer),
  /** The credit cycle, when the service sends it next to `subscriptionDetails.billingCycle`. */
  creditCycle: Schema.optional(BillingCycle)
}).annotations({ identifier: "ProjectUsage" })

/**
 * A decoded `ProjectUsage`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type ProjectUsage = typeof ProjectUsage.Type
