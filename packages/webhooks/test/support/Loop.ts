/**
 * What the loopback tests of webhooks share: a router served on a free loopback
 * port, and a bundle sent to an emulator with its fee payers funded first.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type * as HttpRouter from "@effect/platform/HttpRouter"
import * as Transaction from "@solfx/core/Transaction"
import type * as Emulator from "@solfx/emulator/Emulator"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Http from "node:http"

/** Sends a bundle, its fee payers funded first in the emulator's world (unfunded payers cannot pay). */
export const sendBundle = (emu: Emulator.Emulator, transactions: ReadonlyArray<string>) =>
  Effect.forEach(transactions, (tx) =>
    emu.world.fund({
      address: Either.getOrThrow(Transaction.parseEither(tx, "base64")).staticKeys[0]!,
      lamports: 1_000_000_000n
    })).pipe(
      Effect.zipRight(Effect.promise(async () => {
        const res = await fetch(`${emu.url}/?api-key=${emu.apiKey}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "sendBundle",
            params: [transactions, { encoding: "base64" }]
          })
        })
        return (await res.json()) as { result?: string; error?: unknown }
      })),
      Effect.orDie
    )

/** Serves a router on a free loopback port; its base URL. */
export const serve = (router: HttpRouter.HttpRouter) =>
  Effect.gen(function*() {
    let node: Http.Server | undefined
    const server = yield* NodeHttpServer.make(() => (node = Http.createServer()), { port: 0, host: "127.0.0.1" })
    yield* Effect.addFinalizer(() => Effect.sync(() => node?.closeAllConnections()))
    yield* server.serve(router)
    return `http://127.0.0.1:${server.address._tag === "TcpAddress" ? server.address.port : 0}`
  })
