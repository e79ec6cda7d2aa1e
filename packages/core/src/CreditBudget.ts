/**
 * The credit budget's error, kept apart from `Errors.ts` (being rewritten in
 * parallel); the lead may fold it in there.
 *
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"

/**
 * The request would have spent credits past the layer's budget, so it was not sent.
 * Names the budget and what the request would have cost; never the key.
 *
 * @example
 * new CreditBudgetExceeded({ budget: 1000, credits: 10 })
 * @since 0.1.0
 * @category errors
 */
export class CreditBudgetExceeded
  extends Schema.TaggedError<CreditBudgetExceeded>("@solfx/CreditBudgetExceeded")("CreditBudgetExceeded", {
    /** The ceiling, in credits. */
    budget: Schema.Number,
    /** What the refused request would have cost. */
    credits: Schema.Number
  })
{
  override get message(): string {
    return `credit budget of ${this.budget} reached: a request costing ${this.credits} credits was not sent`
  }
}
