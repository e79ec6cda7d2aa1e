/**
 * Example 6: tracing. Every solfx call is an OpenTelemetry span (through
 * @effect/opentelemetry), a child of the app's own span, printed by the console
 * exporter. Spans carry the operation, host, method, status and attempt: never the key.
 *
 * Run: node --conditions=@solfx/source --import tsx examples/tracing.ts
 */
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import type * as Resource from "@effect/opentelemetry/Resource"
import { ConsoleSpanExporter, SimpleSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base"
import { DigitalAssets, Wallet } from "@solfx/sdk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { isMain, runExample } from "./support/run.js"

/** The OpenTelemetry SDK exporting every span to `exporter` as soon as it ends. */
export const tracing = (exporter: SpanExporter): Layer.Layer<Resource.Resource> =>
  NodeSdk.layer(() => ({
    resource: { serviceName: "solfx-example" },
    spanProcessor: new SimpleSpanProcessor(exporter)
  }))

/** A small report: four calls on two hosts, all under one `wallet-report` span. */
export const main = (wallet: string, owner: string) =>
  Effect.gen(function*() {
    const das = yield* DigitalAssets.DigitalAssets
    const wallets = yield* Wallet.Wallet
    const [identity, balances, accounts, history] = yield* Effect.all([
      wallets.identity(wallet),
      wallets.balances(wallet, { limit: 10 }),
      das.getTokenAccounts({ owner, limit: 10 }),
      wallets.history(wallet, { limit: 5 })
    ], { concurrency: "unbounded" })
    return {
      identity,
      tokens: balances.balances.length,
      accounts: accounts.token_accounts.length,
      history: history.data.length
    }
  }).pipe(Effect.withSpan("wallet-report", { attributes: { wallet } }))

if (isMain(import.meta.url)) {
  runExample((emulator) =>
    main(emulator.samples.wallet, emulator.samples.tokenAccountOwner).pipe(
      Effect.provide(tracing(new ConsoleSpanExporter()))
    )
  )
}
