/**
 * One span naming scheme across the services: a service's method is `solfx.<area>.<method>`,
 * its derived call `solfx.<area>.<method>.call` (`.batch` for a batch, `.send` for a send of
 * params the service checked itself), and the request under it `solfx <operation>`. A REST method is named for the method, not for its route.
 */
import { describe, expect, it } from "@effect/vitest"
import { HttpTesting } from "@solfx/http"
import {
  Admin,
  Bundles,
  Compression,
  DigitalAssets,
  Signatures,
  Solfx,
  TokenMetadata,
  Wallet,
  Webhooks
} from "@solfx/sdk"
import * as Spans from "@solfx/testing/Spans"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

const ADDRESS = "86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY"
const SCHEME = /^solfx(\.[a-z]+\.[a-z][A-Za-z0-9]*(\.(call|batch|send))?| \S.*)$/

describe("span names", () => {
  it.effect("every service's spans follow solfx.<area>.<method>, with the request's solfx <operation> under them", () =>
    Effect.gen(function*() {
      const { spans, tracer } = yield* Spans.recording
      // A 400 answers every request: not retried, so each call is one request.
      const layer = Solfx.services().pipe(
        Layer.provideMerge(HttpTesting.layerTransport(() => Response.json({ error: "no" }, { status: 400 })))
      )
      yield* Effect.gen(function*() {
        const das = yield* DigitalAssets.DigitalAssets
        const zk = yield* Compression.Compression
        const wallet = yield* Wallet.Wallet
        const admin = yield* Admin.Admin
        const hooks = yield* Webhooks.Webhooks
        const metadata = yield* TokenMetadata.TokenMetadata
        const bundles = yield* Bundles.Bundles
        const signatures = yield* Signatures.Signatures
        yield* Effect.exit(das.getAsset({ id: ADDRESS }))
        yield* Effect.exit(zk.getCompressionSignaturesForOwner({ owner: ADDRESS }))
        yield* Effect.exit(wallet.identity(ADDRESS))
        yield* Effect.exit(wallet.balances(ADDRESS))
        yield* Effect.exit(admin.getProjectUsage("00000000-0000-4000-8000-000000000000"))
        yield* Effect.exit(hooks.list())
        yield* Effect.exit(metadata.getTokenMetadata({ mintAccounts: [ADDRESS] }))
        yield* Effect.exit(bundles.getBundleStatuses(["a".repeat(64)]))
        yield* Effect.exit(signatures.getSignaturesForAddress({ address: ADDRESS }))
      }).pipe(Effect.provide(layer), Effect.withTracer(tracer))
      const names = [...new Set(spans.map((s) => s.name))]
      for (const name of names) expect(name, name).toMatch(SCHEME)
      // One of each kind, named for the method (REST ones too), by area.
      expect(names).toEqual(expect.arrayContaining([
        "solfx.das.getAsset.call",
        "solfx.photon.getCompressionSignaturesForOwner.call",
        "solfx.wallet.identity.call",
        "solfx.wallet.balances.call",
        "solfx.admin.getProjectUsage",
        "solfx.admin.getProjectUsage.send",
        "solfx.webhooks.list",
        "solfx.webhooks.list.call",
        "solfx.api.getTokenMetadata.batch",
        "solfx.bundles.getBundleStatuses",
        "solfx.bundles.getBundleStatuses.batch",
        "solfx.signatures.getSignaturesForAddress.call"
      ]))
      // No span sits under one of the same name (a service's method and the send inside it differ).
      for (const span of spans) {
        if (span.parent._tag === "None") continue
        const parentId = span.parent.value.spanId
        expect(spans.find((p) => p.spanId === parentId)?.name, span.name).not.toBe(span.name)
      }
      // Every request span sits under a span of the scheme's method form.
      const methods = spans.filter((s) => s.name.startsWith("solfx."))
      for (const request of spans.filter((s) => s.name.startsWith("solfx "))) {
        const parent = request.parent._tag === "Some" ? request.parent.value : undefined
        expect(methods.some((m) => m.spanId === parent?.spanId), request.name).toBe(true)
      }
    }))
})
