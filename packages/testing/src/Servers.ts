/**
 * Real servers for tests: a `redis-server` and a PostgreSQL cluster, each started
 * on a free loopback port in its own temporary directory, ready when the effect
 * succeeds, stopped and removed when its scope closes.
 *
 * Tests that need one ask `unavailable(server)` first and skip, saying why, when
 * the binaries are not installed. Under `SOLFX_REQUIRE_SERVERS=1` (set by
 * `.ci/run` in CI) a missing server is an error instead, so CI cannot pass by
 * skipping them.
 *
 * @example
 * const missing = Servers.unavailable("redis")
 * describe.skipIf(missing !== undefined)(Servers.title("redis", missing), () => {
 *   it.live("set/get", () => Effect.scoped(Effect.gen(function*() {
 *     const redis = yield* Servers.redis
 *     // new IORedis(redis.port, redis.host) ...
 *   })))
 * })
 * @since 0.1.0
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Command from "@effect/platform/Command"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { accessSync, chownSync, constants, readdirSync, readFileSync } from "node:fs"
import * as Net from "node:net"
import { delimiter, dirname, join } from "node:path"

/** The servers this module can start, and the browser the browser tests drive (Debian's `chromium`). */
export type Server = "redis" | "postgres" | "chromium"

/** A server that could not be started, or did not become ready, with the end of its output. */
export class ServerError extends Data.TaggedError("ServerError")<{
  readonly server: Server
  readonly message: string
}> {}

/** A running redis-server. */
export interface Redis {
  readonly host: string
  readonly port: number
  /** `redis://127.0.0.1:<port>` */
  readonly url: string
  /** Its working directory, removed at scope end. */
  readonly dir: string
}

/** A running PostgreSQL cluster: superuser `postgres`, trust authentication on loopback, database `postgres`. */
export interface Postgres {
  readonly host: string
  readonly port: number
  readonly username: string
  readonly database: string
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string
  /** Its data directory, removed at scope end. */
  readonly dir: string
}

const HOST = "127.0.0.1"
/** How long a server may take to say it is ready (a loaded 2-core machine can be slow to initdb). */
const READY_TIMEOUT = Duration.seconds(60)

// --- Where the binaries are ---------------------------------------------------------------

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

const onPath = (name: string): string | undefined =>
  (process.env["PATH"] ?? "").split(delimiter).map((dir) => join(dir, name)).find(executable)

/** Debian's postgresql package keeps its binaries off PATH, in /usr/lib/postgresql/<major>/bin. */
const postgresBin = (): string | undefined => {
  const onPathBinary = onPath("postgres")
  if (onPathBinary !== undefined && executable(join(dirname(onPathBinary), "initdb"))) return dirname(onPathBinary)
  let majors: Array<string> = []
  try {
    majors = readdirSync("/usr/lib/postgresql").filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))
  } catch {
    return undefined
  }
  return majors.map((v) => `/usr/lib/postgresql/${v}/bin`).find((bin) =>
    executable(join(bin, "postgres")) && executable(join(bin, "initdb"))
  )
}

/** PostgreSQL refuses to run as root: when we are root, the uid/gid of `postgres` (or `nobody`) to run it as. */
const postgresUser = (): { readonly uid: number; readonly gid: number; readonly name: string } | undefined => {
  if (process.getuid?.() !== 0) return undefined
  const users = readFileSync("/etc/passwd", "utf8").split("\n").map((line) => line.split(":"))
  const entry = users.find((u) => u[0] === "postgres") ?? users.find((u) => u[0] === "nobody")
  return entry === undefined ? undefined : { name: entry[0]!, uid: Number(entry[2]), gid: Number(entry[3]) }
}

/**
 * The system Chromium the browser tests drive (playwright-core launches it; no browser is downloaded):
 * `SOLFX_CHROMIUM` if set, else `chromium` on PATH (Debian's package: /usr/bin/chromium).
 */
export const chromiumPath = (): string | undefined => {
  const given = process.env["SOLFX_CHROMIUM"]
  return given !== undefined && given !== "" ? (executable(given) ? given : undefined) : onPath("chromium")
}

const reasons: Record<Server, () => string | undefined> = {
  chromium: () => chromiumPath() === undefined ? "chromium not installed (Debian's package chromium)" : undefined,
  redis: () => onPath("redis-server") === undefined ? "redis-server not installed" : undefined,
  postgres: () => {
    if (postgresBin() === undefined) return "postgres/initdb not installed (looked on PATH and in /usr/lib/postgresql)"
    if (process.getuid?.() === 0 && postgresUser() === undefined) return "running as root with no postgres user"
    if (process.getuid?.() === 0 && onPath("setpriv") === undefined) return "running as root without setpriv"
    return undefined
  }
}

/**
 * Why `server` cannot run here (e.g. "redis-server not installed"), or `undefined` when it can.
 * Under `SOLFX_REQUIRE_SERVERS=1` a missing server throws instead: the test file fails, it is not skipped.
 */
export const unavailable = (server: Server): string | undefined => {
  const reason = reasons[server]()
  if (reason === undefined) return undefined
  if (process.env["SOLFX_REQUIRE_SERVERS"] === "1") {
    throw new Error(`SOLFX_REQUIRE_SERVERS=1 but ${server} cannot run: ${reason}`)
  }
  console.warn(`[solfx] skipping the ${server} tests: ${reason}`)
  return reason
}

/** A describe title that says why its tests are skipped, when they are. */
export const title = (name: string, missing: string | undefined): string =>
  missing === undefined ? name : `${name} (skipped: ${missing})`

// --- Running them -------------------------------------------------------------------------

/** A free loopback port (the OS picks it; released just before the server binds it). */
const freePort = Effect.async<number>((resume) => {
  const server = Net.createServer()
  server.listen(0, HOST, () => {
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    server.close(() => resume(Effect.succeed(port)))
  })
})

const platformError = (server: Server) => (e: unknown) =>
  e instanceof ServerError ? e : new ServerError({ server, message: String(e) })

/**
 * Starts `command` in the current scope and waits until a line of its output
 * matches `ready`. Output is drained the whole time (a full pipe would stall the
 * server) and its last lines go into the error if it exits or times out first.
 * The scope's end stops it: Command.start's finalizer sends SIGTERM and waits for the exit.
 */
const startUntilReady = (server: Server, command: Command.Command, ready: RegExp) =>
  Effect.gen(function*() {
    const proc = yield* Command.start(command)
    const tail: Array<string> = []
    const isReady = yield* Deferred.make<void>()
    const watch = (stream: Stream.Stream<Uint8Array, unknown>) =>
      stream.pipe(
        Stream.decodeText(),
        Stream.splitLines,
        Stream.runForEach((line) => {
          tail.push(line)
          if (tail.length > 20) tail.shift()
          return ready.test(line) ? Deferred.succeed(isReady, void 0) : Effect.void
        }),
        Effect.ignore,
        Effect.forkScoped
      )
    yield* watch(proc.stdout)
    yield* watch(proc.stderr)
    const exited = proc.exitCode.pipe(
      Effect.mapError(platformError(server)),
      Effect.flatMap((code) =>
        new ServerError({ server, message: `exited with ${code} before ready:\n${tail.join("\n")}` })
      )
    )
    yield* Deferred.await(isReady).pipe(
      Effect.raceFirst(exited),
      Effect.timeoutFail({
        duration: READY_TIMEOUT,
        onTimeout: () =>
          new ServerError({ server, message: `not ready after ${Duration.format(READY_TIMEOUT)}:\n${tail.join("\n")}` })
      })
    )
    return proc
  })

/** Runs `command` to completion; fails with its output unless it exits 0. */
const runToEnd = (server: Server, command: Command.Command) =>
  Effect.scoped(Effect.gen(function*() {
    const proc = yield* Command.start(command)
    const [stdout, stderr, code] = yield* Effect.all(
      [Stream.mkString(Stream.decodeText(proc.stdout)), Stream.mkString(Stream.decodeText(proc.stderr)), proc.exitCode],
      { concurrency: 3 }
    )
    if (code !== 0) return yield* new ServerError({ server, message: `exited with ${code}:\n${stdout}${stderr}` })
  })).pipe(Effect.mapError(platformError(server)))

/**
 * A redis-server on a free loopback port, no persistence, in a temp dir; stopped and removed at scope end.
 *
 * @example
 * const { host, port } = yield* Servers.redis
 */
export const redis: Effect.Effect<Redis, ServerError, Scope.Scope> = Effect.flatMap(freePort, (port) => redisOn(port))

/**
 * A redis-server on `port` (one stopped earlier, started again: a Redis restart), no persistence,
 * in a temp dir; stopped and removed at scope end.
 *
 * @example
 * yield* Effect.scoped(Servers.redisOn(redis.port)) // up, then down again
 */
export const redisOn = (port: number): Effect.Effect<Redis, ServerError, Scope.Scope> =>
  Effect.gen(function*() {
    const binary = onPath("redis-server")
    if (binary === undefined) return yield* new ServerError({ server: "redis", message: "redis-server not installed" })
    const fs = yield* FileSystem.FileSystem
    const dir = yield* fs.makeTempDirectoryScoped({ prefix: "solfx-redis-" })
    yield* startUntilReady(
      "redis",
      Command.make(
        binary,
        ...["--port", String(port), "--bind", HOST, "--dir", dir, "--save", "", "--appendonly", "no"],
        ...["--daemonize", "no", "--protected-mode", "yes", "--logfile", ""]
      ),
      /Ready to accept connections/
    )
    return { host: HOST, port, url: `redis://${HOST}:${port}`, dir }
  }).pipe(Effect.mapError(platformError("redis")), Effect.provide(NodeContext.layer))

/**
 * A PostgreSQL cluster (`initdb`, then `postgres`) on a free loopback port, its
 * socket and data in a temp dir; run as the `postgres` user when we are root
 * (PostgreSQL refuses root). Fast shutdown and removal at scope end.
 *
 * @example
 * const pg = yield* Servers.postgres
 * const sql = PgClient.layer({ url: Redacted.make(pg.url) })
 */
export const postgres: Effect.Effect<Postgres, ServerError, Scope.Scope> = Effect.gen(function*() {
  const bin = postgresBin()
  if (bin === undefined) return yield* new ServerError({ server: "postgres", message: "postgres not installed" })
  const user = postgresUser()
  // setpriv execs in place (no extra process between us and postgres), so signals reach the server itself.
  const as = (binary: string, ...args: Array<string>) =>
    user === undefined
      ? Command.make(binary, ...args)
      : Command.make("setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", binary, ...args)
  const fs = yield* FileSystem.FileSystem
  const dir = yield* fs.makeTempDirectoryScoped({ prefix: "solfx-pg-" })
  if (user !== undefined) chownSync(dir, user.uid, user.gid)
  const data = join(dir, "data")
  yield* runToEnd(
    "postgres",
    as(join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "--encoding=UTF8", "--no-locale")
  )
  const port = yield* freePort
  const proc = yield* startUntilReady(
    "postgres",
    as(
      join(bin, "postgres"),
      ...["-D", data, "-p", String(port), "-c", `listen_addresses=${HOST}`, "-c", `unix_socket_directories=${dir}`],
      ...["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
    ),
    /database system is ready to accept connections/
  )
  // SIGINT is PostgreSQL's fast shutdown (SIGTERM, Command's default, waits for every client to leave).
  yield* Effect.addFinalizer(() => Effect.ignore(proc.kill("SIGINT")))
  return {
    host: HOST,
    port,
    username: "postgres",
    database: "postgres",
    url: `postgres://postgres@${HOST}:${port}/postgres`,
    dir
  }
}).pipe(Effect.mapError(platformError("postgres")), Effect.provide(NodeContext.layer))

/** A redis-server for the life of a layer. */
export class RedisServer extends Context.Tag("@solfx/testing/Servers/RedisServer")<RedisServer, Redis>() {}

/** A PostgreSQL cluster for the life of a layer. */
export class PostgresServer extends Context.Tag("@solfx/testing/Servers/PostgresServer")<PostgresServer, Postgres>() {}

/** `redis` as a layer. */
export const layerRedis: Layer.Layer<RedisServer, ServerError> = Layer.scoped(RedisServer, redis)

/** `postgres` as a layer. */
export const layerPostgres: Layer.Layer<PostgresServer, ServerError> = Layer.scoped(PostgresServer, postgres)
