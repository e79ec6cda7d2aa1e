/**
 * Which outcomes of one request are billed: the one rule the SDK's credits
 * estimate and the emulator's usage both read.
 *
 * The rule: a request is billed when it reached the method's handler, and only then.
 * - A 2xx answer is billed, even when its body arrives cut short or does not decode:
 *   the handler did the work.
 * - A 404 of a route that documents "not found" as an answer (wallet identity,
 *   funded-by) is billed: the handler answered.
 * - A 429 (rate limited, or credits used up), 401/403 (key or plan refused), any
 *   other 4xx (rejected before the handler: bad params, wrong project, unknown path)
 *   and any 5xx (a gateway or server fault) are not billed.
 * - A request without an answer (refused, reset, timed out before the status line)
 *   is not billed.
 *
 * Sources: the service's documentation (credits exhausted and rate limits are 429 "max usage
 * reached"/"rate limited", the gateway answers 4xx/5xx itself); where the real
 * service says nothing, this rule is the contract between SDK and emulator.
 *
 * @example
 * Billing.billed({ _tag: "Answered", status: 200 }, { notFoundIsAnswer: false }) // true
 * Billing.billed({ _tag: "Answered", status: 429 }, { notFoundIsAnswer: false }) // false
 * @since 0.1.0
 */

/**
 * What became of one request, as far as billing goes.
 *
 * @since 0.1.0
 * @category models
 */
export type Outcome =
  /** A status line arrived (the body may still have been cut short). */
  | { readonly _tag: "Answered"; readonly status: number }
  /** No status line: refused, reset or timed out first. */
  | { readonly _tag: "NoAnswer" }

/**
 * What the rule needs to know of the method.
 *
 * @since 0.1.0
 * @category models
 */
export interface MethodBilling {
  /** The method documents 404 as its "not found" answer. */
  readonly notFoundIsAnswer: boolean
}

/**
 * Whether the outcome is billed (see the module's rule).
 *
 * @since 0.1.0
 * @category rule
 */
export const billed = (outcome: Outcome, method: MethodBilling): boolean => {
  if (outcome._tag === "NoAnswer") return false
  const status = outcome.status
  if (status >= 200 && status < 300) return true
  return status === 404 && method.notFoundIsAnswer
}
