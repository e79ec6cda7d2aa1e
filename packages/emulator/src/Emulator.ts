/**
 * The emulator: the service on loopback. `make` starts it in a scope on a free
 * port; `layerTest` also provides the SDK config pointing every base URL at it
 * with a fresh API key, so integration tests speak real HTTP.
 *
 * @example
 * // every solfx service against an emulator on a free port, with a fresh key
 * const TestLayer = Solfx.layerNode.pipe(Layer.provideMerge(Emulator.layerTest({ seed: 7, latencyMs: 5 })))
 * const program = Effect.gen(function*() {
 *   const emulator = yield* Emulator.EmulatorHandle
 *   const identity = yield* Effect.flatMap(Wallet.Wallet, (w) => w.identity(emulator.samples.wallet))
 * })
 * @since 0.1.0
 */

import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Bundle from "@solfx/core/Bundle"
import * as SolfxConfig from "@solfx/core/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as Http from "node:http"
import * as Accounts from "./Accounts.js"
import type { Area, Project } from "./Area.js"
import { areas as registry } from "./areas/index.js"
import * as WebhooksArea from "./areas/Webhooks.js"
import type * as Bank from "./Bank.js"
import * as Chain from "./Chain.js"
import * as Cors from "./Cors.js"
import * as Dataset from "./Dataset.js"
import * as Events from "./Events.js"
import * as Faults from "./Faults.js"
import * as Manifest from "./Manifest.js"
import * as PlanLimits from "./PlanLimits.js"
import * as Programs from "./Programs.js"
import * as Projects from "./Projects.js"
import * as PubSub from "./PubSub.js"
import * as RequestLog from "./RequestLog.js"
import * as Samples from "./Samples.js"
import * as WalletActivity from "./seed/WalletActivity.js"
import * as Server from "./Server.js"
import * as Snapshots from "./Snapshots.js"
import * as StateFile from "./StateFile.js"
import * as Studio from "./Studio.js"
import * as WebhookDeliveries from "./WebhookDeliveries.js"
import * as Wire from "./Wire.js"
import * as World from "./World.js"
import * as WorldHttp from "./WorldHttp.js"

/**
 * Options of an emulator: where it listens, its seed, projects, dataset sizes, costs,
 * faults and latency.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Default 0: a free port. */
  readonly port?: number | undefined
  /** Default 127.0.0.1. */
  readonly host?: string | undefined
  /** Seed of the dataset (default 42). */
  readonly seed?: number | undefined
  /** API key of the default project (default: fresh and random). */
  readonly apiKey?: string | undefined
  /** Id (UUID) of the default project (default: random). */
  readonly projectId?: string | undefined
  /**
   * Plan of the default project (default "business"). Given, the emulator also
   * enforces the plans' rate limits, per project and bucket (`PlanLimits`); omitted, it does not.
   */
  readonly plan?: string | undefined
  /** Credit limit of the default project (default 100,000,000). */
  readonly creditsLimit?: number | undefined
  /** Prepaid credits of the default project (default 0). */
  readonly prepaidCredits?: number | undefined
  /** More projects, each with its own key (e.g. for project-mismatch tests). */
  readonly projects?: ReadonlyArray<Projects.ProjectOptions> | undefined
  /** Dataset size knobs, e.g. `{ "das.bigAuthorityAssets": 1_000_000 }`. */
  readonly sizes?: Dataset.Sizes | undefined
  /** Credits by operation (`"getAssetsByAuthority"`, `"GET /v1/wallet/:wallet/balances"`), overriding the endpoint table's. */
  readonly costs?: Readonly<Record<string, number>> | undefined
  /** Fault injection (off by default); change it at run time with `setFaults`. */
  readonly faults?: Faults.FaultOptions | undefined
  /** Fixed delay added to every response, in milliseconds (default 0). */
  readonly latencyMs?: number | undefined
  /**
   * Programs loaded into the bank beside its default ones, as `solana-test-validator --bpf-program`
   * does: an id and its ELF (`.so`), by path or bytes (`Programs`: a file that is not a Solana
   * program's ELF is refused, and nothing started). A transaction calling a program the bank does
   * not have fails as on a validator (`ProgramAccountNotFound`).
   */
  readonly programs?: ReadonlyArray<Bank.Program> | undefined
  /** Areas served next to the registry's (tests add their own). */
  readonly extraAreas?: ReadonlyArray<Area> | undefined
  /** Replace the registry's areas entirely (default: every area of `areas/index.ts`). */
  readonly areas?: ReadonlyArray<Area> | undefined
  /**
   * A state file (`StateFile`): read on start when it exists (refused, and the emulator not
   * started, when it is corrupt, of another version or of another seed), written on exit.
   */
  readonly state?: string | undefined
  /** Milliseconds per slot (default 400). */
  readonly slotMs?: number | undefined
  /**
   * Webhooks to serve instead of the seeded ones (`GET /v0/webhooks`, and what delivery watches).
   * Each belongs to its `apiKey`/`projectId`, by default the default project's key.
   */
  readonly webhooks?: ReadonlyArray<WebhooksArea.WebhookOptions> | undefined
  /** Delivery of landed transactions to the webhooks: retry spacing (default 60 s), retries, failure threshold. */
  readonly webhookDelivery?: WebhookDeliveries.Options | undefined
  /** Largest request body read, in bytes (default 4 MiB); larger ones get 413 unread. */
  readonly maxBodyBytes?: number | undefined
  /** Server timeouts, so silent or dripping clients cannot hold sockets (see `Timeouts`). */
  readonly timeouts?: Timeouts | undefined
  /** Open connections at most (default 1,024); the server drops the ones beyond. */
  readonly maxConnections?: number | undefined
  /**
   * Bounds of every WebSocket (see `PubSub.Limits`): largest frame accepted (default 1 MiB, bigger
   * closes with 1009), subscriptions per connection (4,096), connections per API key (256), and
   * notification bytes waiting for one slow client (16 MiB, past it the client is closed with 1008).
   */
  readonly webSockets?: PubSub.Limits | undefined
  /**
   * How long stopping waits for WebSocket clients to answer their close (1001, going away) before
   * cutting them, in milliseconds (default 1,000). HTTP keep-alive sockets are closed at once and
   * pending webhook deliveries abandoned, so a stop takes about this long whatever clients do.
   */
  readonly shutdownGraceMs?: number | undefined
  /** Bounds of the request log: records kept (default 10,000), name length, operations counted. */
  readonly requestLog?: RequestLog.Options | undefined
  /**
   * Bytes of serialised items kept for pages served again: the assets of each DAS page
   * served, as the UTF-8 JSON written (ASCII, so bytes and characters are one count), least
   * recently used first out (default 64 Mi, about 50 pages of 1,000 assets; 0 turns the cache off).
   */
  readonly itemCacheChars?: number | undefined
  /**
   * Origins a browser page may call the emulator from (`--cors-origin`, e.g. `http://localhost:5173`).
   * Omitted: JSON-RPC, the REST routes and the WebSocket answer any origin, and the emulator's own paths
   * (the world API, the studio) none but their own. Given: only these origins, on every path (see `Cors`).
   */
  readonly corsOrigins?: ReadonlyArray<string> | undefined
}

/**
 * Server timeouts, in milliseconds.
 *
 * @since 0.1.0
 * @category models
 */
export interface Timeouts {
  /** From connection (or the end of the last response) to the end of the request headers. Default 10 s. */
  readonly headersMs?: number | undefined
  /** To receive a whole request, body included. Default 30 s (at least `headersMs`). */
  readonly requestMs?: number | undefined
  /** A socket with no request in progress and no traffic is closed after this. Default 5 s. */
  readonly idleMs?: number | undefined
}

const SYSTEM_PROGRAM = "11111111111111111111111111111111"
const TIP_ACCOUNTS: ReadonlySet<string> = new Set(Bundle.JITO_TIP_ACCOUNTS)
/** At least what a tip account holds on the real cluster (a few SOL, collected every epoch). */
const TIP_ACCOUNT_LAMPORTS = 1_000_000_000n

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
const DEFAULT_ITEM_CACHE_CHARS = 64 * 1024 * 1024

/**
 * A project and its key, as tests need them.
 *
 * @since 0.1.0
 * @category models
 */
export interface ProjectInfo {
  readonly projectId: string
  readonly apiKey: string
}

/**
 * A running emulator.
 *
 * @since 0.1.0
 * @category models
 */
export interface Emulator {
  /** Base URL for every host, e.g. `http://127.0.0.1:53211`. */
  readonly url: string
  readonly port: number
  /** Key of the default project. */
  readonly apiKey: string
  /** Id of the default project. */
  readonly projectId: string
  /** Every project, the default one first. */
  readonly projects: ReadonlyArray<ProjectInfo>
  /** Addresses with data, each named for what it has (see `Samples`). */
  readonly samples: Samples.Samples
  /**
   * The start line's `samples`: every sample under its name and its older name (`Samples.legacyNames`),
   * plus what extra areas add.
   */
  readonly sampleRecord: Readonly<Record<string, string>>
  readonly dataset: Dataset.Dataset
  readonly seed: number
  /** Every JSON-RPC method and route pattern served. */
  readonly operations: ReadonlyArray<string>
  /** The request log, oldest first (a copy). */
  readonly requests: ReadonlyArray<RequestLog.RequestRecord>
  /** Counts by operation and status, in-flight now and at most, client-closed requests. */
  readonly counters: RequestLog.Counters
  /** Bytes the server read from every socket so far: request lines, headers and the bodies it read. */
  readonly bytesReceived: number
  /** Requests of an operation so far (all requests when omitted). */
  readonly count: (operation?: string) => number
  /** Clears the log, the counters and the fault counts (usage and credits stay). */
  readonly resetLog: () => void
  /** Replaces the fault options (undefined turns faults off) and restarts their sequence. */
  readonly setFaults: (faults: Faults.FaultOptions | undefined) => void
  /** Faults injected so far, by kind. */
  readonly faultsHit: Readonly<Record<Faults.FaultKind, number>>
  /** Sets the fixed latency added to every response. */
  readonly setLatency: (ms: number) => void
  /** A project's usage record (as the admin API returns it), the default project when `projectId` is omitted. */
  readonly usage: (projectId?: string) => Projects.UsageRecord
  /** A project's live state (mutable, for tests that drain credits). */
  readonly project: (projectId?: string) => Project | undefined
  /** The start line: `{url, apiKey, projectId, samples, studio}` as one JSON line. */
  readonly startLine: string
  /** The studio's URL, with the default project's key (`Studio`): what the start line prints as `studio`. */
  readonly studioUrl: string
  /** Webhook deliveries: every attempt so far, and `idle` to wait until none is pending. */
  readonly webhookDeliveries: WebhookDeliveries.Deliverer
  /**
   * The world API (cheat codes): fund, mint a fungible token or an NFT, transfer, compress, advance slots.
   * Each call lands one transaction every area sees (and webhooks receive); bad input fails with
   * `WorldInputError` naming the field, and changes nothing. Over HTTP: `POST /emulator/world/<call>`.
   */
  readonly world: WorldApi
  /** The instance's event channels (`Events`), to subscribe to: world transactions and slot ticks (only the world publishes). */
  readonly events: {
    readonly worldLanded: Events.Subscriber<Events.WorldLanded>
    readonly slots: Events.Subscriber<Events.SlotTick>
  }
  /**
   * Saves the state (the world's changes, accounts written, bundle statuses, the bank's): the id
   * restores it (`restore`), as Hardhat's `evm_snapshot`. Over HTTP: `POST /emulator/world/snapshot`.
   */
  readonly snapshot: () => string
  /** Puts back a snapshot: every area answers as it did then; false for an unknown id. */
  readonly restore: (id: string) => boolean
  /** The parts snapshots save: the bank registers its own here. */
  readonly snapshots: Snapshots.Snapshots
  /** The world's ledger, read only (what landed since start, over the seeded world). */
  readonly ledger: World.World
  /** The world's accounts as the chain holds them; the bank writes what it executes here (`Accounts.write`). */
  readonly accounts: Accounts.Accounts
  /** The cluster's one clock: slot, block height and time, blockhashes (`Chain.useBlockhashes`: the bank's). */
  readonly chain: Chain.Chain
  /** What it serves, with each method's fidelity (`GET /emulator/info`). */
  readonly manifest: Manifest.Manifest
  /** With a plan: the 429s the plan limits sent and the busiest 1 s window, per bucket (empty without). */
  readonly planLimits: PlanLimits.Stats
  /** The WebSocket server on the same port (`ws://`): its connections and subscriptions. */
  readonly pubsub: PubSub.PubSub
}

/**
 * The world API of a running emulator, as Effects (see `World.WorldApi` for each call).
 *
 * @example
 * const { mint } = yield* emulator.world.mintNft({ owner })
 * @since 0.1.0
 * @category models
 */
export type WorldApi =
  & {
    readonly [K in keyof World.WorldApi]: (
      input: Parameters<World.WorldApi[K]>[0]
    ) => Effect.Effect<ReturnType<World.WorldApi[K]>, World.WorldInputError>
  }
  & {
    /**
     * Sets an account as it is now (the cheat code for arbitrary state): its lamports, owner
     * (default System), data (base64) and executable flag. Every area reads it (getAccountInfo,
     * the Wallet API's SOL), the bank loads it; no transaction lands. Answers the current slot.
     */
    readonly setAccount: (input: {
      readonly address: string
      readonly lamports: World.Amount
      readonly owner?: string | undefined
      readonly data?: string | undefined
      readonly executable?: boolean | undefined
    }) => Effect.Effect<{ readonly slot: number }, World.WorldInputError>
  }

const worldApi = (
  api: World.WorldApi,
  setAccount: (input: unknown) => { readonly slot: number }
): WorldApi => {
  // Only WorldInputError is a failure: anything else thrown is a defect of the emulator.
  const wrap = <I, A>(f: (input: I) => A) => (input: I): Effect.Effect<A, World.WorldInputError> =>
    Effect.suspend(() => {
      try {
        return Effect.succeed(f(input))
      } catch (e) {
        if (e instanceof World.WorldInputError) return Effect.fail(e)
        throw e
      }
    })
  return {
    fund: wrap(api.fund),
    mintFungible: wrap(api.mintFungible),
    mintNft: wrap(api.mintNft),
    transfer: wrap(api.transfer),
    compress: wrap(api.compress),
    advanceSlots: wrap(api.advanceSlots),
    setAccount: wrap(setAccount)
  }
}

/**
 * The running emulator as a service (see `layer` and `layerTest`).
 *
 * @example
 * const emu = yield* Emulator.EmulatorHandle
 * expect(emu.count("getAssetsByAuthority")).toBe(1)
 *
 * @since 0.1.0
 * @category tags
 */
export class EmulatorHandle extends Context.Tag("@solfx/emulator/EmulatorHandle")<EmulatorHandle, Emulator>() {}

const urlHost = (host: string): string =>
  host === "0.0.0.0" || host === "::" || host === "" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host

/** The status and JSON body answering a request Node could not parse, or one too slow to arrive. */
const clientError = (error: NodeJS.ErrnoException) => {
  const [status, reason, message] = error.code === "ERR_HTTP_REQUEST_TIMEOUT"
    ? [408, "Request Timeout", "request timeout"]
    : error.code === "HPE_HEADER_OVERFLOW"
    ? [431, "Request Header Fields Too Large", "request headers too large"]
    : error.code === "HPE_INVALID_CHUNK_SIZE"
    ? [400, "Bad Request", "malformed chunked body: invalid chunk size"]
    : [400, "Bad Request", "malformed request"]
  return { status, reason, body: JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message }, id: null }) }
}

/** The whole answer of `clientError`, for a socket with no response under way. */
const clientErrorAnswer = (error: NodeJS.ErrnoException): string => {
  const { body, reason, status } = clientError(error)
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${
    Buffer.byteLength(body)
  }\r\nConnection: close\r\n\r\n${body}`
}

/**
 * The Node server with its bounds: header and request timeouts (Node's own, checked often
 * enough to matter), idle sockets closed, open connections capped, a JSON body on every
 * request Node refuses, and every socket's bytes counted for the request log.
 */
const makeNodeServer = (options: Options, log: RequestLog.RequestLog): Http.Server => {
  const headersMs = Math.max(1, options.timeouts?.headersMs ?? 10_000)
  const requestMs = Math.max(headersMs, options.timeouts?.requestMs ?? 30_000)
  const idleMs = Math.max(1, options.timeouts?.idleMs ?? 5_000)
  const server = Http.createServer({
    headersTimeout: headersMs,
    requestTimeout: requestMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersMs / 4))),
    keepAliveTimeout: idleMs
  })
  server.maxConnections = Math.max(1, options.maxConnections ?? 1_024)
  // Requests in progress per socket: a socket is idle only when it has none.
  const active = new WeakMap<object, number>()
  // The response of the request whose body is being read, per socket.
  const current = new WeakMap<object, Http.ServerResponse>()
  server.on("connection", (socket) => log.watch(socket))
  server.on("request", (req: Http.IncomingMessage, res: Http.ServerResponse) => {
    active.set(req.socket, (active.get(req.socket) ?? 0) + 1)
    current.set(req.socket, res)
    res.once("close", () => active.set(req.socket, (active.get(req.socket) ?? 1) - 1))
  })
  server.setTimeout(idleMs, (socket) => {
    if ((active.get(socket) ?? 0) === 0) socket.destroy()
  })
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) return socket.destroy()
    if ((active.get(socket) ?? 0) > 0) {
      // A body Node cannot parse (a malformed chunk size) under a request already handed to
      // the app: answered through its response, which the app then finds ended and leaves.
      // A response already under way cannot be replaced: the socket just closes.
      const res = current.get(socket)
      if (res === undefined || res.headersSent || res.writableEnded) return socket.destroy()
      const { body, status } = clientError(error)
      res.writeHead(status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        connection: "close"
      })
      res.end(body, () => socket.destroy())
      return
    }
    socket.end(clientErrorAnswer(error))
  })
  return server
}

/**
 * Starts an emulator in the current scope; it stops when the scope closes.
 *
 * @example
 * Effect.scoped(Effect.gen(function*() {
 *   const emu = yield* Emulator.make({ seed: 7 })
 *   const res = yield* Effect.promise(() => fetch(`${emu.url}/?api-key=${emu.apiKey}`, { method: "POST", body: "{}" }))
 * }))
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<Emulator, never, Scope.Scope> =>
  Effect.gen(function*() {
    const clock = yield* Effect.clock
    const now = () => clock.unsafeCurrentTimeMillis()
    const startedAt = now()
    // Billing dates are calendar data: wall time, even under a TestClock.
    const today = Date.now()
    const seed = options.seed ?? 42
    const dataset = Dataset.make(seed, options.sizes ?? {})
    const areas = [...(options.areas ?? registry), ...(options.extraAreas ?? [])]
    const accounts = [
      Projects.makeAccount({
        id: options.projectId,
        apiKey: options.apiKey,
        plan: options.plan,
        creditsLimit: options.creditsLimit,
        prepaidCredits: options.prepaidCredits
      }, today),
      ...(options.projects ?? []).map((p) => Projects.makeAccount(p, today))
    ]
    const keys = new Set(accounts.map((a) => a.apiKey))
    const ids = new Set(accounts.map((a) => a.project.id))
    if (keys.size !== accounts.length || ids.size !== accounts.length) {
      return yield* Effect.dieMessage("emulator: projects need distinct ids and API keys")
    }
    const faults = Faults.makeInjector(options.faults, seed)
    const log = RequestLog.make(options.requestLog)
    let latencyMs = options.latencyMs ?? 0
    const slotMs = options.slotMs ?? 400
    const states = new Map<string, unknown>()
    const state = <S>(key: string, init: () => S): S => {
      if (!states.has(key)) states.set(key, init())
      return states.get(key) as S
    }
    const listening = yield* Effect.makeLatch(false)
    state("events:slots", () => Events.makePublisher<Events.SlotTick>(() => listening.unsafeOpen()))
    // Programs read and checked before anything starts: a bad file is refused with the reason.
    const programs: Array<Bank.Program> = []
    for (const p of options.programs ?? []) {
      const read = Programs.read(p)
      if (Either.isLeft(read)) return yield* Effect.dieMessage(`emulator: ${read.left}; nothing was started`)
      programs.push(read.right)
    }
    // The chain's accounts are derived from the world, and the world's bank reads and writes them.
    let accountsRef: Accounts.Accounts | undefined
    let chainRef: Chain.Chain | undefined
    const world = World.make({
      dataset,
      now,
      slotMs,
      state,
      // Seeded wallets, and Jito's tip accounts, which exist on the real cluster: a tip is a
      // transfer to a funded account, not one the runtime would refuse as below rent exemption.
      seededLamports: (address) =>
        TIP_ACCOUNTS.has(address)
          ? TIP_ACCOUNT_LAMPORTS + BigInt(dataset.int(`tip:${address}`, 1_000_000_000))
          : WalletActivity.seededLamports(dataset, address),
      programs,
      accounts: () => accountsRef!,
      blockHeight: (slot) => chainRef!.blockHeight(slot)
    })
    const chainAccounts = Accounts.make({ dataset, world })
    accountsRef = chainAccounts
    const snapshots = Snapshots.make()
    snapshots.register("world", { save: world.save, restore: (saved) => world.restore(saved as World.Saved) })
    snapshots.register("accounts", {
      save: chainAccounts.save,
      restore: (saved) => chainAccounts.restore(saved as ReturnType<typeof chainAccounts.save>)
    })
    // The bank holds no state of its own: after a restore it reads every account again from the
    // restored ledger (its blockhash window follows the restored slot, its signatures are the ledger's).
    snapshots.register("bank", { save: () => null, restore: () => world.bank.forgetAll() })
    // The bundle area's statuses and token metadata's cache live in the instance's state by key.
    const bundles = state<{ readonly bundles: Map<string, unknown> }>("bundles", () => ({ bundles: new Map() }))
    snapshots.register("bundles", {
      save: () => [...bundles.bundles],
      restore: (saved) => {
        bundles.bundles.clear()
        for (const [id, landed] of saved as Array<[string, unknown]>) bundles.bundles.set(id, landed)
      }
    })
    const metadataCache = state("token-metadata:cache", () => new Map<string, number>())
    snapshots.register("token-metadata", {
      save: () => [...metadataCache],
      restore: (saved) => {
        metadataCache.clear()
        for (const [mint, slot] of saved as Array<[string, number]>) metadataCache.set(mint, slot)
      }
    })
    if (options.state !== undefined) {
      const path = options.state
      const loaded = StateFile.read(path, seed)
      if (Either.isLeft(loaded)) {
        return yield* Effect.dieMessage(`emulator: --state ${path} ${loaded.left}; nothing was changed`)
      }
      if (loaded.right !== undefined) snapshots.load(loaded.right)
      // Written on exit (the scope's close), after the server stopped taking requests.
      yield* Effect.addFinalizer(() => Effect.sync(() => StateFile.write(path, seed, snapshots.save())))
    }
    const setAccount = (input: unknown) => {
      const a = World.accountInput(input)
      // A plain system account is its lamports, which the world holds (and later transfers move);
      // any other is written whole, read first by every account read.
      if (a.owner !== SYSTEM_PROGRAM || a.data.length > 0 || a.executable || chainAccounts.written(a.address)) {
        chainAccounts.write(a.address, {
          lamports: a.lamports,
          owner: a.owner,
          data: a.data,
          executable: a.executable,
          rentEpoch: Accounts.RENT_EPOCH_EXEMPT
        })
      }
      world.setLamports(a.address, a.lamports)
      world.bank.forget(a.address)
      return { slot: world.slot() }
    }
    const controlCalls: Readonly<Record<string, (body: unknown) => unknown>> = {
      setAccount,
      snapshot: () => ({ id: snapshots.snapshot() }),
      restore: (body) => {
        const id = typeof body === "object" && body !== null ? (body as { id?: unknown }).id : undefined
        if (typeof id !== "string" || !snapshots.restore(id)) {
          throw new World.WorldInputError("id", "must be the id of a snapshot this emulator gave")
        }
        return { restored: true, slot: world.slot() }
      }
    }
    const chain = Chain.make({ dataset, world })
    chainRef = chain
    // Every area's blockhashes are the bank's: what getLatestBlockhash gives, the SVM accepts.
    chain.useBlockhashes({ latest: () => world.bank.blockhash(), isValid: world.bank.isBlockhashValid })
    const manifest = Manifest.make(areas)
    const planLimits = options.plan === undefined ? undefined : PlanLimits.make()
    for (const origin of options.corsOrigins ?? []) {
      const problem = Cors.validateOrigin(origin)
      if (problem !== undefined) return yield* Effect.dieMessage(`emulator: ${problem}`)
    }
    const cors = Cors.make(options.corsOrigins)
    const instance: Server.Instance = {
      dataset,
      areas,
      accounts,
      costs: options.costs ?? {},
      faults,
      log,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      cache: Wire.makeCache(options.itemCacheChars ?? DEFAULT_ITEM_CACHE_CHARS),
      latencyMs: () => latencyMs,
      now,
      slot: world.slot,
      chainAccounts,
      chain,
      state,
      planLimits,
      control: (path, body) => WorldHttp.handle(world, path, body, controlCalls),
      pages: (path, query, project, host) =>
        path === "/emulator/info"
          ? Effect.succeed(HttpServerResponse.unsafeJson(manifest))
          : studio(path, query, project, host),
      cors
    }
    yield* Effect.try(() => WebhooksArea.install(instance.state, { dataset, accounts, webhooks: options.webhooks }))
      .pipe(
        Effect.orDie
      )
    // Subscribes to landed transactions before the server takes any request.
    const webhookDeliveries = yield* WebhookDeliveries.start({
      state: instance.state,
      dataset,
      now,
      webhooks: () => WebhooksArea.storeOf(instance).all(),
      options: options.webhookDelivery
    })
    const studio = Studio.make({
      world,
      log,
      deliveries: webhookDeliveries,
      webhooks: () => WebhooksArea.storeOf(instance).all(),
      planLimits,
      now
    })
    const { app, routes } = yield* Effect.try(() => Server.makeApp(instance)).pipe(Effect.orDie)
    // Slot ticks as time passes (the Clock's time), once someone listens: a ticker nobody reads
    // would also turn a TestClock's leap of a year into millions of wake-ups.
    yield* Effect.forkScoped(listening.await.pipe(Effect.zipRight(Effect.forever(
      Effect.suspend(() => Effect.sleep(slotMs - ((now() - startedAt) % slotMs))).pipe(
        Effect.zipRight(Effect.sync(world.tick))
      )
    ))))
    const pubsub = yield* PubSub.make({
      accounts,
      chain: chainAccounts,
      state: instance.state,
      faults,
      limits: options.webSockets
    })

    let nodeServer: Http.Server | undefined
    const host = options.host ?? "127.0.0.1"
    const server = yield* NodeHttpServer.make(() => {
      nodeServer = makeNodeServer(options, log)
      return nodeServer
    }, { port: options.port ?? 0, host }).pipe(Effect.orDie)
    // Runs before the server's own close: keep-alive sockets and WebSockets (upgraded sockets the
    // HTTP server no longer tracks) would otherwise hold the scope open. WebSocket clients are told
    // (1001) and given the grace to answer; keep-alive sockets carry no request and are closed now.
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => nodeServer?.closeAllConnections()).pipe(
        Effect.zipRight(pubsub.shutdown(Math.max(0, options.shutdownGraceMs ?? 1_000)))
      )
    )
    // The app opens its own server span, with the key redacted from the URL (Server.ts).
    yield* server.serve(app).pipe(HttpMiddleware.withTracerDisabledWhenEffect(() => true))
    // Upgrades go to the WebSocket server, not to the app (the platform would answer them as requests).
    nodeServer?.removeAllListeners("upgrade").on("upgrade", (req: Http.IncomingMessage, socket, head) => {
      // The socket mirrors JSON-RPC, so it takes JSON-RPC's origin rule; browsers send Origin on upgrades.
      const verdict = cors.check({ origin: req.headers.origin, host: req.headers.host, path: "/" })
      if (verdict._tag === "Refused") {
        return void socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
      }
      pubsub.upgrade(req, socket, head)
    })
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    const url = `http://${urlHost(host)}:${port}`

    const byArea: Record<string, string> = {}
    // The registry's samples even when `areas` replaces it: the addresses are the seeded world's.
    for (const area of new Set([...registry, ...areas])) Object.assign(byArea, area.samples?.(dataset) ?? {})
    const samples = Samples.fromAreas(byArea)
    const sampleRecord = Samples.startLineRecord(samples, byArea)

    const studioUrl = `${url}/studio?api-key=${encodeURIComponent(accounts[0]!.apiKey)}`
    const projectOf = (id?: string) =>
      id === undefined ? accounts[0]!.project : accounts.find((a) => a.project.id === id)?.project
    const handle: Emulator = {
      url,
      port,
      apiKey: accounts[0]!.apiKey,
      projectId: accounts[0]!.project.id,
      projects: accounts.map((a) => ({ projectId: a.project.id, apiKey: a.apiKey })),
      samples,
      sampleRecord,
      dataset,
      seed,
      operations: routes.operations,
      get requests() {
        return log.records()
      },
      get counters() {
        return log.counters()
      },
      get bytesReceived() {
        return log.bytesReceived()
      },
      count: (operation) => operation === undefined ? log.counters().total : log.counters().byOperation[operation] ?? 0,
      resetLog: () => {
        log.reset()
        faults.resetHits()
        planLimits?.resetStats()
      },
      setFaults: (next) => faults.set(next),
      get faultsHit() {
        return faults.hits()
      },
      setLatency: (ms) => {
        latencyMs = ms
      },
      usage: (id) => {
        const project = projectOf(id)
        if (project === undefined) throw new Error(`emulator: no project ${id}`)
        return Projects.usageRecord(project)
      },
      project: projectOf,
      startLine: JSON.stringify({
        url,
        apiKey: accounts[0]!.apiKey,
        projectId: accounts[0]!.project.id,
        samples: sampleRecord,
        studio: studioUrl
      }),
      studioUrl,
      webhookDeliveries,
      world: worldApi(world.api, setAccount),
      snapshot: snapshots.snapshot,
      restore: snapshots.restore,
      snapshots,
      ledger: world,
      accounts: chainAccounts,
      chain,
      manifest,
      events: {
        worldLanded: { subscribe: Events.worldLanded(state).subscribe },
        slots: { subscribe: Events.slots(state).subscribe }
      },
      pubsub,
      get planLimits() {
        return planLimits?.stats() ?? { rejected: {}, maxInWindow: {} }
      }
    }
    return handle
  })

/**
 * The emulator as a service.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options = {}): Layer.Layer<EmulatorHandle> => Layer.scoped(EmulatorHandle, make(options))

/**
 * An emulator on a free port with a fresh API key and project, plus the SDK
 * config pointing every base URL at it.
 *
 * @example
 * const TestLayer = HttpTransport.layer.pipe(
 *   Layer.provideMerge(Emulator.layerTest({ seed: 7 })),
 *   Layer.provide(NodeHttpClient.layerUndici)
 * )
 * @since 0.1.0
 * @category layers
 */
export const layerTest = (
  options: Options = {}
): Layer.Layer<EmulatorHandle | SolfxConfig.SolfxConfig> =>
  Layer.effect(
    SolfxConfig.SolfxConfig,
    Effect.map(EmulatorHandle, (emu) => SolfxConfig.make({ apiKey: emu.apiKey, baseUrl: emu.url }))
  ).pipe(Layer.provideMerge(layer(options)))
