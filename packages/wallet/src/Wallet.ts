/**
 * The Wallet API (beta): identity, batch identity, balances, history,
 * transfers and funding source of a wallet, on the `rest` host.
 *
 * Every input is checked before any request (`InvalidRequest` names the field
 * and the rule). Every request costs 100 credits (as the service documents); the service keeps a
 * running estimate (`creditsUsed`) and feeds the `solfx.credits` counter
 * (tag `area=wallet`), so a batch job can budget and report what it spent.
 *
 * @example
 * const wallet = yield* Wallet.Wallet
 * const identity = yield* wallet.identity("86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY") // Option<Identity>
 * const usd = yield* wallet.portfolioUsdValue("86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY")
 * const names = yield* wallet.batchIdentity(wallets, { concurrency: 2 }) // aligned with `wallets`
 * @since 0.1.0
 */

import * as Decode from "@solfx/core/Decode"
import * as Endpoints from "@solfx/core/Endpoints"
import type { ApiError, InvalidRequest } from "@solfx/core/Errors"
import * as WalletParams from "@solfx/core/WalletParams"
import * as WalletRecords from "@solfx/core/WalletRecords"
import * as Credits from "@solfx/http/Credits"
import * as Derive from "@solfx/http/Derive"
import { HttpTransport } from "@solfx/http/HttpTransport"
import * as Operations from "@solfx/http/Operations"
import * as Arr from "effect/Array"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"

/**
 * The wallet's series (`area=wallet`) of the SDK-wide `solfx.credits` counter
 * (`Credits.credits`). Export the counter to your metrics backend; for one
 * service's own total read `Wallet.creditsUsed`.
 *
 * @since 0.1.0
 * @category credits
 */
export const creditsMetric: Metric.Metric.Counter<number> = Credits.forArea("wallet")

/**
 * Credits a `batchIdentity` call over `count` wallets will cost: one request per 100.
 *
 * @example
 * batchIdentityCredits(250) // 300
 * @since 0.1.0
 * @category credits
 */
export const batchIdentityCredits = (count: number): number =>
  Math.ceil(Math.max(0, count) / WalletParams.MAX_BATCH_IDENTITY) * Endpoints.walletBatchIdentity.cost.credits

/**
 * The failures of a wallet call: bad input, or any API failure.
 *
 * @since 0.1.0
 * @category errors
 */
export type WalletError = InvalidRequest | ApiError

/**
 * Options of `batchIdentity`: how many requests of 100 wallets run at once.
 *
 * @since 0.1.0
 * @category models
 */
export interface BatchIdentityOptions {
  /** Requests (of up to 100 wallets each) in flight at once. Default 4. */
  readonly concurrency?: number | undefined
}

/**
 * Options of `balances` (the balances query; unset values take the service's defaults:
 * page 1, limit 100, showNative true, showNfts false, showZeroBalance false). Its `page`
 * is the page of one call; a walk starts from `start` (the deprecated way, `page`, still works).
 *
 * @since 0.1.0
 * @category models
 */
export interface BalancesOptions extends Operations.KeyedOptions<typeof Endpoints.walletBalances, "wallet"> {}

/**
 * A page of `balances.pages`: the service's page (NFTs on page 1 only; its `totalUsdValue`
 * covers this page only) with `items` (its balances), `next` (the page number to resume
 * from, as `start`; `undefined` on the last page) and `result` (the answer).
 *
 * @since 0.1.0
 * @category models
 */
export type BalancesPageWithNext = Operations.EntryPage<typeof Endpoints.walletBalances, number>

/**
 * Options of `portfolioUsdValue`: whether native SOL counts, and the page size.
 *
 * @since 0.1.0
 * @category models
 */
export interface PortfolioOptions {
  /** Count native SOL (default: the service's, true). */
  readonly showNative?: boolean | undefined
  /** Page size, 1 to 100 (default 100: fewest requests, fewest credits). */
  readonly limit?: number | undefined
}

/**
 * Options of `history` (the history query: `limit`, `before`, `after`, `type`,
 * `tokenAccounts`). A walk starts from `start` (a saved `next`; the deprecated way,
 * `before`, still works), and `after` stays a fixed lower bound on every page.
 *
 * @since 0.1.0
 * @category models
 */
export interface HistoryOptions extends Operations.KeyedOptions<typeof Endpoints.walletHistory, "wallet"> {}

/**
 * Options of `transfers` (`limit`, `cursor`). A walk starts from `start` (a saved `next`;
 * the deprecated way, `cursor`, still works) and asks 100 a page unless `limit` says otherwise.
 *
 * @since 0.1.0
 * @category models
 */
export interface TransfersOptions extends Operations.KeyedOptions<typeof Endpoints.walletTransfers, "wallet"> {}

/** Where a walk resumes: balances by page number, history and transfers by cursor. */
type Positions = Operations.ByName<{ readonly balances: number }, string>

/**
 * The Wallet API methods, one operation per entry of `Endpoints.wallet`, each taking the
 * wallet first: `balances`, `history` and `transfers` are calls (one page) with `.pages`
 * (pages, each with `next`, resumed by `{ start: next }`) and `.stream` (every item);
 * `balancesStream`, `historyPages`, … are deprecated aliases. `identity` (of an address or a
 * name-service domain) and `fundedBy` answer `Option.none()` for an unknown wallet (the
 * service's 404, documented as normal); batch identity is aligned with its input, and the
 * portfolio sums every page.
 *
 * @since 0.1.0
 * @category models
 */
export interface WalletShape extends
  Omit<
    Operations.Operations<typeof Endpoints.wallet, Positions, never, "wallet">,
    "batchIdentity"
  >
{
  /**
   * Identities of any number of addresses or domains, sent in requests of at most
   * 100 (`concurrency` at a time). The result is aligned with the input: element
   * `i` is the identity of `wallets[i]`, or `Option.none()` when it is unknown.
   */
  readonly batchIdentity: (
    wallets: Iterable<string>,
    options?: BatchIdentityOptions
  ) => Effect.Effect<ReadonlyArray<Option.Option<WalletRecords.Identity>>, WalletError>
  /**
   * The USD value of the whole portfolio: `usdValue` summed over every page
   * (unpriced tokens count as 0). The service's own `totalUsdValue` covers one
   * page only. Costs 100 credits per page.
   */
  readonly portfolioUsdValue: (wallet: string, options?: PortfolioOptions) => Effect.Effect<number, WalletError>
  /**
   * Credits this service has spent so far: 100 per request the service answered
   * with data, with the 404 "unknown wallet", or with a body cut short (retried
   * attempts included). Rejected requests (400, 401, 403, 429), server errors
   * and requests without an answer are not counted. An estimate: the admin
   * usage endpoint has the bill.
   */
  readonly creditsUsed: Effect.Effect<number>
}

/**
 * The Wallet API service.
 *
 * @example
 * import { Wallet } from "@solfx/wallet"
 * const program = Effect.gen(function*() {
 *   const wallet = yield* Wallet.Wallet
 *   const who = yield* wallet.identity("HXsKP7wrBWaQ8T2Vtjry3Nj3oUgwYcqq9vrHDM12G664")
 *   const usd = yield* wallet.portfolioUsdValue("HXsKP7wrBWaQ8T2Vtjry3Nj3oUgwYcqq9vrHDM12G664")
 *   const spent = yield* wallet.creditsUsed // 100 × requests
 * })
 * @since 0.1.0
 * @category tags
 */
export class Wallet extends Context.Tag("@solfx/wallet/Wallet")<Wallet, WalletShape>() {}

/** Removes undefined members so that they are not sent. */
const defined = <A extends Record<string, unknown>>(a: A): A =>
  Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) as A

// Built once: `make()` hands out this one description of the service.
const built: Effect.Effect<WalletShape, never, HttpTransport> = Effect.gen(function*() {
  const transport = yield* HttpTransport
  const redact = transport.redactor.redact
  const operations = Operations.make<typeof Endpoints.wallet, Positions, "wallet">(transport, Endpoints.wallet, {
    key: "wallet"
  })
  const batchClient = Derive.fromTransport(transport, Endpoints.walletBatchIdentity, { name: "batchIdentity" })
  const validateBatch = Decode.validateInput(WalletParams.BatchIdentityRequest, "wallets", redact)
  const validateConcurrency = Decode.validateInput(
    Schema.Struct({ concurrency: Schema.optional(WalletParams.intBetween(1, 64)) }),
    "",
    redact
  )

  const batchIdentity = (wallets: Iterable<string>, options?: BatchIdentityOptions) =>
    Effect.gen(function*() {
      const { concurrency } = yield* validateConcurrency(defined({ concurrency: options?.concurrency }))
      const inputs = yield* validateBatch(Arr.fromIterable(wallets))
      const results = yield* batchClient.batch(inputs, {}, { concurrency })
      return results.flatMap(({ items, result }) => align(items, result))
    })

  return Wallet.of({
    ...operations,
    batchIdentity,
    portfolioUsdValue: (wallet, options) =>
      operations.balances.stream(wallet, { ...options, showNfts: false }).pipe(
        Stream.runFold(0, (total, balance) => total + (balance.usdValue ?? 0))
      ),
    creditsUsed: transport.credits.used(Endpoints.walletIdentity.area)
  })
})

/**
 * Builds the service from the transport: every method is an operation of its entry
 * (`Operations`: billing per attempt by the shared rule, pages that always end); the
 * service adds `Option` for the documented 404s, identity alignment and the portfolio sum.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (): Effect.Effect<WalletShape, never, HttpTransport> => built

/**
 * Lines the identities of one request up with its inputs. Addresses match by
 * `address`, domains by `domainNames`; when the service answered one record per
 * input, a domain it did not list under `domainNames` takes its position's record.
 */
const align = (
  chunk: ReadonlyArray<string>,
  found: ReadonlyArray<WalletRecords.Identity>
): ReadonlyArray<Option.Option<WalletRecords.Identity>> => {
  const byAddress = new Map<string, WalletRecords.Identity>()
  const byDomain = new Map<string, WalletRecords.Identity>()
  for (const id of found) {
    if (!byAddress.has(id.address)) byAddress.set(id.address, id)
    for (const d of id.domainNames) if (!byDomain.has(d.toLowerCase())) byDomain.set(d.toLowerCase(), id)
  }
  const positional = found.length === chunk.length
  return chunk.map((input, i) => {
    const direct = byAddress.get(input) ?? byDomain.get(input.toLowerCase())
    if (direct !== undefined) return Option.some(direct)
    return positional && input.includes(".") ? Option.some(found[i]!) : Option.none()
  })
}

/**
 * The service over `HttpTransport`.
 *
 * @example
 * Wallet.layer.pipe(Layer.provide(HttpTransport.layer), Layer.provide(NodeHttpClient.layerUndici),
 *   Layer.provide(Config.layer({ apiKey })))
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Wallet, never, HttpTransport> = Layer.effect(Wallet, built)
