/**
 * The real test servers: each starts on loopback, answers a client (ioredis,
 * @effect/sql-pg), and at scope end is stopped (its port refuses connections)
 * and its directory removed. Skipped, saying why, where a server is not installed;
 * failed instead under SOLFX_REQUIRE_SERVERS=1 (CI).
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { Redis as IORedis } from "ioredis"
import { existsSync } from "node:fs"
import * as Net from "node:net"
import * as Servers from "../src/Servers.js"

/** Whether something accepts TCP connections on the port. */
const accepts = (port: number) =>
  Effect.async<boolean>((resume) => {
    const socket = Net.connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(true))
    })
    socket.once("error", () => resume(Effect.succeed(false)))
  })

/** Starts a server, hands it to `use` inside a scope, then checks that it is gone: directory removed, port closed. */
const usedThenGone = <S extends { readonly dir: string; readonly port: number }, E, R>(
  start: Effect.Effect<S, Servers.ServerError, Scope.Scope>,
  use: (server: S) => Effect.Effect<void, E, R>
) =>
  Effect.gen(function*() {
    const server = yield* Effect.scoped(Effect.tap(start, (server) => {
      expect(existsSync(server.dir)).toBe(true)
      return use(server)
    }))
    expect(existsSync(server.dir)).toBe(false)
    expect(yield* accepts(server.port)).toBe(false)
  })

const redisMissing = Servers.unavailable("redis")
describe.skipIf(redisMissing !== undefined)(Servers.title("redis-server", redisMissing), () => {
  it.live("starts on loopback, answers SET/GET, and is gone after its scope", () =>
    usedThenGone(Servers.redis, (redis) =>
      Effect.gen(function*() {
        const client = yield* Effect.acquireRelease(
          Effect.sync(() => new IORedis(redis.port, redis.host, { lazyConnect: true, maxRetriesPerRequest: 0 })),
          (c) => Effect.promise(() => c.quit())
        )
        const [value, version] = yield* Effect.promise(async () => {
          await client.connect()
          await client.set("solfx:test", "42")
          return [await client.get("solfx:test"), (await client.info("server")).match(/redis_version:(\S+)/)?.[1]]
        })
        expect(value).toBe("42")
        console.log(`redis-server ${version} ran on ${redis.url}`)
      })))
})

const postgresMissing = Servers.unavailable("postgres")
describe.skipIf(postgresMissing !== undefined)(Servers.title("postgres", postgresMissing), () => {
  it.live("initdb and postgres on loopback, answers SELECT 1, and is gone after its scope", () =>
    usedThenGone(Servers.postgres, (pg) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ one: number; version: string }>`select 1 as one, version() as version`
        expect(row?.one).toBe(1)
        console.log(`${row?.version.split(" on ")[0]} ran on ${pg.url}`)
      }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(pg.url) })))))
})
