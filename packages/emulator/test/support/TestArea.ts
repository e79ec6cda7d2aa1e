/**
 * A small area for the server's own tests, so they do not depend on the API areas.
 */
import * as Effect from "effect/Effect"
import type { Area } from "../../src/Area.js"
import { RestFailure, RpcFailure } from "../../src/Area.js"
import * as Dataset from "../../src/Dataset.js"
import * as Paging from "../../src/Paging.js"

export const bigListSize = (dataset: Dataset.Dataset) => dataset.size("test.bigList", 1_000)

/** How many items of `bigList` were built: the list is lazy, so only the ones served. */
export const built = { bigList: 0 }

const bigList = (dataset: Dataset.Dataset) =>
  Dataset.lazyList(bigListSize(dataset), (i) => ({
    index: (built.bigList++, i),
    address: dataset.address(`test:big:${i}`),
    lamports: 10n ** 18n + BigInt(dataset.int(`test:big:lamports:${i}`, 1_000_000))
  }))

const record = (params: unknown): Record<string, unknown> =>
  typeof params === "object" && params !== null && !Array.isArray(params) ? params as Record<string, unknown> : {}

export const testArea: Area = {
  name: "test",
  rpc: {
    echo: {
      entry: { cost: { credits: 1, usage: "rpc" } },
      handle: (params, ctx) => Effect.succeed({ params, slot: ctx.slot(), project: ctx.project.id })
    },
    bigList: {
      entry: { cost: { credits: 10, usage: "das" } },
      handle: (params, ctx) => {
        const p = record(params)
        const cursor = p["cursor"]
        if (cursor !== undefined && cursor !== null && typeof cursor !== "string") {
          return Effect.fail(new RpcFailure(-32602, "Invalid params: cursor"))
        }
        const limit = Paging.intParam(p["limit"]) ?? 100
        return Effect.map(
          Paging.slice(bigList(ctx.dataset), cursor, limit, 1000, "bigList"),
          (page) => ({ context: { slot: ctx.slot() }, value: page })
        )
      }
    },
    boom: {
      entry: { cost: { credits: 1, usage: "rpc" } },
      handle: () => Effect.die(new Error("handler bug"))
    }
  },
  routes: [
    {
      method: "GET",
      path: "/v1/test/:wallet/things",
      entry: { cost: { credits: 100, usage: "api" } },
      handle: (request, ctx) => {
        const page = Paging.intParam(request.query.get("page") ?? undefined) ?? 1
        if (!(page >= 1)) return Effect.fail(new RestFailure(400, "page must be at least 1"))
        const list = Dataset.lazyList(25, (i) => ctx.dataset.address(`test:thing:${request.params["wallet"]}:${i}`))
        const p = Paging.pageOf(list, page, 10)
        return Effect.succeed({
          wallet: request.params["wallet"],
          items: p.items,
          pagination: { page, hasMore: p.hasMore }
        })
      }
    },
    {
      method: "POST",
      path: "/v1/test/echo",
      entry: { cost: { credits: 0, usage: "api" } },
      handle: (request) => Effect.succeed({ body: request.body })
    },
    {
      method: "GET",
      path: "/v0/test-admin/:id",
      entry: { cost: { credits: 0, usage: "api" } },
      headerAuth: true,
      precheck: (request, ctx) =>
        request.params["id"] === ctx.project.id ? Effect.void : Effect.fail(new RestFailure(400, "project mismatch")),
      handle: (_request, ctx) => Effect.succeed({ id: ctx.project.id })
    }
  ],
  samples: (dataset) => ({ testWallet: dataset.address("test:wallet"), testBig: dataset.address("test:big:0") })
}
