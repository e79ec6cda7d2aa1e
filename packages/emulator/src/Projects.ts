/**
 * Projects, API keys and credits, as the service documents them. Every request's credits are
 * reserved before its handler runs: regular credits first, prepaid credits once the
 * plan's limit is used up, and a 429 "max usage reached" when both are gone.
 *
 * @example
 * const emulator = yield* Emulator.make({ creditsLimit: 1_000, projects: [{ apiKey: "other-key" }] })
 * emulator.usage().creditsUsed // what the default project was charged so far
 * @since 0.1.0
 */
import type { UsageCategory } from "@solfx/core/Endpoint"
import { randomBytes, randomUUID } from "node:crypto"
import type { Project } from "./Area.js"

/**
 * A project to create, for tests that need more than the default one
 * (a key of another project, a free plan, a small credit limit).
 *
 * @since 0.1.0
 * @category models
 */
export interface ProjectOptions {
  /** A UUID; random when absent. */
  readonly id?: string | undefined
  /** Random when absent. */
  readonly apiKey?: string | undefined
  /** Default "business". */
  readonly plan?: string | undefined
  /** Default 100,000,000. */
  readonly creditsLimit?: number | undefined
  /** Default 0. */
  readonly prepaidCredits?: number | undefined
}

/**
 * A project and the API key that belongs to it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Account {
  readonly project: Project
  readonly apiKey: string
}

/**
 * The usage categories the admin endpoint reports, in its order.
 *
 * @since 0.1.0
 * @category constants
 */
export const categories: ReadonlyArray<UsageCategory> = [
  "api",
  "archival",
  "das",
  "grpc",
  "grpcGeyser",
  "photon",
  "rpc",
  "stream",
  "webhook",
  "websocket"
]

/**
 * A fresh API key: 36 characters like the real service's UUID keys, but random bytes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const freshApiKey = (): string => {
  const hex = randomBytes(16).toString("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const ymd = (d: Date): string => d.toISOString().slice(0, 10)

/**
 * The billing cycle holding `now`: the calendar month (UTC), as YYYY-MM-DD dates.
 *
 * @since 0.1.0
 * @category constructors
 */
export const billingCycle = (now: number): { readonly start: string; readonly end: string } => {
  const d = new Date(now)
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1))
  const end = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0))
  return { start: ymd(start), end: ymd(end) }
}

/**
 * A project and its API key (fresh and random unless given).
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeAccount = (options: ProjectOptions, now: number): Account => ({
  apiKey: options.apiKey ?? freshApiKey(),
  project: {
    id: options.id ?? randomUUID(),
    plan: options.plan ?? "business",
    creditsLimit: options.creditsLimit ?? 100_000_000,
    creditsUsed: 0,
    prepaidCreditsRemaining: options.prepaidCredits ?? 0,
    prepaidCreditsUsed: 0,
    usage: Object.fromEntries(categories.map((c) => [c, 0])) as Record<UsageCategory, number>,
    billingCycle: billingCycle(now)
  }
})

/**
 * Regular credits left: the plan limit minus regular credits used, floored at 0.
 *
 * @since 0.1.0
 * @category getters
 */
export const creditsRemaining = (project: Project): number => Math.max(0, project.creditsLimit - project.creditsUsed)

/**
 * What one charge took: regular and prepaid credits, so it can be given back exactly.
 *
 * @since 0.1.0
 * @category models
 */
export interface Receipt {
  readonly regular: number
  readonly prepaid: number
}

/**
 * Charges `credits`: regular credits first, the rest from prepaid credits.
 * Returns undefined, charging nothing, when both together cannot pay.
 *
 * @since 0.1.0
 * @category mutations
 */
export const charge = (project: Project, credits: number): Receipt | undefined => {
  if (credits <= 0) return { regular: 0, prepaid: 0 }
  const regular = Math.min(creditsRemaining(project), credits)
  const prepaid = credits - regular
  if (prepaid > project.prepaidCreditsRemaining) return undefined
  project.creditsUsed += regular
  project.prepaidCreditsRemaining -= prepaid
  project.prepaidCreditsUsed += prepaid
  return { regular, prepaid }
}

/**
 * Gives back what a charge took (the server reserves before a handler runs and
 * refunds an outcome the billing rule does not bill).
 *
 * @since 0.1.0
 * @category mutations
 */
export const refund = (project: Project, receipt: Receipt): void => {
  project.creditsUsed -= receipt.regular
  project.prepaidCreditsRemaining += receipt.prepaid
  project.prepaidCreditsUsed -= receipt.prepaid
}

/**
 * The project usage record the service documents, as the admin endpoint returns it.
 *
 * @since 0.1.0
 * @category models
 */
export interface UsageRecord {
  readonly creditsRemaining: number
  readonly creditsUsed: number
  readonly prepaidCreditsRemaining: number
  readonly prepaidCreditsUsed: number
  readonly subscriptionDetails: {
    readonly billingCycle: { readonly start: string; readonly end: string }
    readonly creditsLimit: number
    readonly plan: string
  }
  readonly usage: Readonly<Record<UsageCategory, number>>
}

/**
 * A snapshot of a project's usage record. `creditsUsed` is regular plus prepaid.
 *
 * @since 0.1.0
 * @category getters
 */
export const usageRecord = (project: Project): UsageRecord => ({
  creditsRemaining: creditsRemaining(project),
  creditsUsed: project.creditsUsed + project.prepaidCreditsUsed,
  prepaidCreditsRemaining: project.prepaidCreditsRemaining,
  prepaidCreditsUsed: project.prepaidCreditsUsed,
  subscriptionDetails: {
    billingCycle: { ...project.billingCycle },
    creditsLimit: project.creditsLimit,
    plan: project.plan
  },
  usage: { ...project.usage }
})
