/**
 * The service's documented rate limits per plan, in requests per second per
 * bucket of the endpoint table: data both sides of the wire agree on (the SDK's
 * `RateLimits` paces by it; an emulator can enforce it).
 *
 * @example
 * Plans.limitsFor("developer").das // 10
 * Plans.limitsFor("developer", { wallet: 20 }).wallet // 20
 * @since 0.1.0
 */
import type { Bucket } from "./Endpoint.js"

/**
 * The documented plans.
 *
 * @since 0.1.0
 * @category models
 */
export type Plan = "free" | "developer" | "business" | "professional"

/**
 * Requests per second per bucket; a bucket absent (or `undefined`) is unlimited.
 *
 * @since 0.1.0
 * @category models
 */
export type Limits = { readonly [B in Bucket]?: number | undefined }

/** Admin is 5/s on every plan (as the service documents); it is also the only limit without a plan. */
const ADMIN = 5

/**
 * The documented limits (requests per second) of each plan. Standard RPC is `rpc`,
 * except `sendTransaction` and `getProgramAccounts`, each limited by its own bucket
 * (the service documents them apart). `sendBundle` is not offered below business;
 * wallet has no documented limit. Webhooks count as enhanced (the SDK keys them together).
 *
 * @since 0.1.0
 * @category plans
 */
export const plans: { readonly [P in Plan]: Limits } = {
  free: {
    rpc: 10,
    sendTransaction: 1,
    getProgramAccounts: 5,
    das: 2,
    enhanced: 2,
    photon: 2,
    validityProof: 1,
    admin: ADMIN
  },
  developer: {
    rpc: 50,
    sendTransaction: 5,
    getProgramAccounts: 25,
    das: 10,
    enhanced: 10,
    photon: 10,
    validityProof: 5,
    admin: ADMIN
  },
  business: {
    rpc: 200,
    sendTransaction: 50,
    getProgramAccounts: 50,
    das: 50,
    enhanced: 50,
    photon: 50,
    validityProof: 10,
    sendBundle: 5,
    admin: ADMIN
  },
  professional: {
    rpc: 500,
    sendTransaction: 100,
    getProgramAccounts: 75,
    das: 100,
    enhanced: 100,
    photon: 100,
    validityProof: 20,
    sendBundle: 5,
    admin: ADMIN
  }
}

/**
 * The limits in force: the plan's (only admin without a plan, as before plans
 * existed), then the overrides, where `undefined` lifts a bucket's limit.
 *
 * @since 0.1.0
 * @category plans
 */
export const limitsFor = (plan: Plan | undefined, overrides?: Limits): Limits => ({
  ...(plan === undefined ? { admin: ADMIN } : plans[plan]),
  ...overrides
})

/**
 * The most webhooks a project may have, by plan, as the service documents.
 *
 * @example
 * Plans.maxWebhooks.free // 5
 * @since 0.1.0
 * @category plans
 */
export const maxWebhooks: { readonly [P in Plan]: number } = { free: 5, developer: 50, business: 50, professional: 50 }
