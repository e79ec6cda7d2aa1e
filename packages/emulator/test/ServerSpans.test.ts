/**
 * The emulator's own server spans keep its key out: run in process under a recording tracer, every
 * request gets one `http.server` span whose `url.full` has the `api-key` value redacted, and no
 * attribute of any span holds the key (the platform's span put the whole URL in `url.full`).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Spans from "@solfx/testing/Spans"
import * as Effect from "effect/Effect"

describe("the emulator's server spans", () => {
  it.live("one span a request, the key redacted from url.full, in no attribute", () =>
    Effect.gen(function*() {
      const { spans, tracer } = yield* Spans.recording
      yield* Effect.gen(function*() {
        const emu = yield* Emulator.make({ seed: 42 })
        const key = emu.apiKey
        const calls = [
          fetch(`${emu.url}/?api-key=${key}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: 1,
              method: "getAsset",
              params: { id: emu.samples.compressedNft }
            })
          }),
          fetch(`${emu.url}/v1/wallet/${emu.samples.wallet}/identity?api-key=${key}`),
          fetch(`${emu.url}/v0/admin/projects/${emu.projectId}/usage`, { headers: { "x-api-key": key } }),
          fetch(`${emu.url}/v1/wallet/${emu.samples.wallet}/identity?api-key=wrong-key-123`)
        ]
        const statuses = yield* Effect.promise(() => Promise.all(calls.map((c) => c.then((r) => r.status))))
        expect(statuses).toEqual([200, 200, 200, 401])
        const server = spans.filter((s) => s.name.startsWith("http.server "))
        expect(server.map((s) => s.name)).toEqual(
          expect.arrayContaining(["http.server POST", "http.server GET", "http.server GET", "http.server GET"])
        )
        expect(server).toHaveLength(4)
        const urls = server.map((s) => String(s.attributes.get("url.full")))
        expect(urls.filter((u) => u.includes("api-key=%3Credacted%3E"))).toHaveLength(3)
        expect(server.map((s) => s.attributes.get("http.response.status_code")).sort()).toEqual([200, 200, 200, 401])
        for (const span of spans) {
          for (const [name, value] of span.attributes) {
            expect(`${name}=${JSON.stringify(value)}`, span.name).not.toContain(key)
            expect(`${name}=${JSON.stringify(value)}`, span.name).not.toContain("wrong-key-123")
          }
        }
      }).pipe(Effect.scoped, Effect.withTracer(tracer))
    }))
})
