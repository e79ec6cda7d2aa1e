/**
 * The emulator's WebSocket server: every subscription of core's subscriptions table
 * (`@solfx/core/SubscriptionEndpoints`: the standard Solana PubSub ones and the service's
 * enhanced transaction subscription), on the HTTP server's port (an `upgrade` of any
 * path, the key in the `api-key` query). A request's params are checked with its
 * entry's Schema, as the SDK checks them: -32602 naming the param and the rule. It
 * pushes what the world publishes: every landed transaction notifies its account,
 * program, signature, logs and transaction subscribers; slots tick while someone
 * listens. Socket faults (drop, stall, malformed frame) come from the emulator's fault
 * injector, decided per frame sent.
 *
 * @example
 * const emu = yield* Emulator.make()
 * // ws://127.0.0.1:<port>/?api-key=<key>, then {"jsonrpc":"2.0","id":1,"method":SubscriptionEndpoints.slot.method}
 * emu.pubsub.connections() // open sockets
 * @since 0.1.0
 */

import * as Json from "@solfx/core/Json"
import * as SubscriptionEndpoints from "@solfx/core/SubscriptionEndpoints"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import type * as Http from "node:http"
import type * as Net from "node:stream"
import { WebSocketServer } from "ws"
import type { WebSocket } from "ws"
import type * as Accounts from "./Accounts.js"
import type { AreaContext, Project } from "./Area.js"
import * as Events from "./Events.js"
import type { Injector } from "./Faults.js"
import { encodeAccount } from "./internal/StandardRpc.js"
import type * as Projects from "./Projects.js"
import * as World from "./World.js"

/**
 * What a server's sockets look like from a test.
 *
 * @since 0.1.0
 * @category models
 */
export interface PubSub {
  /** Open WebSocket connections now. */
  readonly connections: () => number
  /** Live subscriptions now, on every connection. */
  readonly subscriptions: () => number
  /** Connections accepted since the start. */
  readonly accepted: () => number
  /** Notifications sent since the start (faulted frames excluded). */
  readonly notified: () => number
  /** Connections closed with 1008 for falling behind their outbound bound, since the start. */
  readonly closedBehind: () => number
  /** Bytes of notifications waiting in the connections' own queues now. */
  readonly buffered: () => number
}

type Landed = Events.LandedTransaction
type Written = Events.AccountChange

// Rent-exempt accounts report the largest u64 as their rent epoch.
const RENT_EPOCH = 18446744073709551615n

/** What a handler reads besides its params: the chain's accounts (executed state) and the world. */
interface Env {
  readonly chain: Accounts.Accounts | undefined
  readonly state: AreaContext["state"]
}

const SYSTEM_PROGRAM = "11111111111111111111111111111111"

/**
 * A written account as the chain holds it after the landing (the bank's executed state), in the
 * encoding asked for (base64 by default; base58 past its 128 bytes falls back to base64, as
 * jsonParsed falls back for an account it cannot parse). A closed account: no lamports, no data.
 */
const accountValue = (env: Env, w: Written, encoding: string | undefined) => {
  const account = env.chain?.get(w.address) ??
    { lamports: 0n, owner: SYSTEM_PROGRAM, data: new Uint8Array(0), executable: false, rentEpoch: RENT_EPOCH }
  const asked = encoding === "jsonParsed" || encoding === "base58" || encoding === "base64+zstd" ? encoding : "base64"
  return Either.getOrElse(
    encodeAccount(env.chain!, account, asked as never, undefined),
    () => Either.getOrThrow(encodeAccount(env.chain!, account, "base64", undefined))
  )
}

const written = (l: Landed) =>
  l.accounts.filter((a) =>
    a.writable && a.lamportsAfter !== a.lamportsBefore ||
    a.token !== undefined && a.token.amountAfter !== a.token.amountBefore
  )
const mentions = (l: Landed, address: string) =>
  l.accounts.some((a) => a.address === address) || l.programs.includes(address)

interface Subscription {
  readonly id: number
  /** Its notifications' method name (from the table). */
  readonly method: string
  /**
   * Its entry and checked params: subscriptions with the same group get the same notifications,
   * computed and encoded once per event for all of them.
   */
  readonly group: string
  /** The notification for a landed transaction, if this subscription wants it. */
  readonly onLanded?: (landed: Landed) => ReadonlyArray<unknown>
  readonly onSlot?: boolean
  /** Removed after its first notification (the table's `once`). */
  readonly once?: boolean
  /**
   * The commitment its notifications wait for (`processed` when undefined): a landing's
   * notification is sent once its slot reaches it, as slots pass.
   */
  readonly commitment?: "processed" | "confirmed" | "finalized" | undefined
  /** What it notifies at once when subscribed (a signature that already landed), as landings would. */
  readonly initial?: () => ReadonlyArray<{ readonly slot: number; readonly result: unknown }>
  /** Notifications waiting for their slot to reach the commitment, oldest first. */
  readonly pending?: Array<{ readonly slot: number; readonly frame: string }>
}

type Table = typeof SubscriptionEndpoints.table
type Behaviour = Pick<Subscription, "onLanded" | "onSlot" | "commitment" | "initial">

/**
 * What each subscription of the table notifies, from its checked params. Typed by the table:
 * an entry without its handler here does not compile.
 */
const handlers: {
  readonly [K in keyof Table]: (params: Schema.Schema.Type<Table[K]["params"]>, env: Env) => Behaviour
} = {
  account: ([address, config], env) => ({
    commitment: config?.commitment,
    onLanded: (l) =>
      written(l).filter((w) => w.address === address).map((w) => ({
        context: { slot: l.slot },
        value: accountValue(env, w, config?.encoding)
      }))
  }),
  program: ([program, config], env) => ({
    commitment: config?.commitment,
    onLanded: (l) =>
      written(l).filter((w) => w.program === program).map((w) => ({
        context: { slot: l.slot },
        value: { pubkey: w.address, account: accountValue(env, w, config?.encoding) }
      }))
  }),
  // The RPC's default commitment (finalized); one that already landed is notified when it reaches it.
  signature: ([signature, config], env) => ({
    commitment: config?.commitment ?? "finalized",
    onLanded: (l) => l.signature === signature ? [{ context: { slot: l.slot }, value: { err: l.err } }] : [],
    initial: () => {
      const l = World.of(env.state).transaction(signature)
      return l === undefined ? [] : [{ slot: l.slot, result: { context: { slot: l.slot }, value: { err: l.err } } }]
    }
  }),
  logs: ([filter]) => {
    const mentioned = typeof filter === "string" ? undefined : filter.mentions[0]
    return {
      onLanded: (l) =>
        mentioned !== undefined && !mentions(l, mentioned)
          ? []
          : [{ context: { slot: l.slot }, value: { signature: l.signature, err: l.err, logs: l.logs } }]
    }
  },
  slot: () => ({ onSlot: true }),
  transaction: ([f = {}]) => {
    const include = f.accountInclude ?? []
    const exclude = f.accountExclude ?? []
    const required = f.accountRequired ?? []
    const failed = f.failed !== false
    return {
      onLanded: (l) =>
        (include.length > 0 && !include.some((a) => mentions(l, a))) ||
          exclude.some((a) => mentions(l, a)) || !required.every((a) => mentions(l, a)) ||
          (f.signature !== undefined && f.signature !== l.signature) || (!failed && l.err !== null)
          ? []
          : [{
            transaction: {
              transaction: {
                signatures: [l.signature],
                message: { accountKeys: l.accounts.map((a) => a.address) }
              },
              meta: {
                err: l.err,
                fee: l.fee,
                preBalances: l.accounts.map((a) => a.lamportsBefore),
                postBalances: l.accounts.map((a) => a.lamportsAfter),
                logMessages: l.logs
              }
            },
            signature: l.signature,
            slot: l.slot,
            transactionIndex: l.index
          }]
    }
  }
}

type Built = { readonly ok: Omit<Subscription, "id"> } | { readonly error: string }

/** The subscription a request asks for, or what is wrong with its params (the table's Schema, as the SDK checks them). */
const build = (entry: SubscriptionEndpoints.Any, params: unknown, env: Env): Built =>
  Either.match(SubscriptionEndpoints.check(entry, params), {
    onLeft: (e) => ({ error: `Invalid params: ${e.field} must be ${e.rule}` }),
    onRight: (checked) => ({
      ok: {
        method: entry.notification,
        group: `${entry.name}:${Json.stringify(checked)}`,
        once: entry.once,
        ...(handlers as Record<string, (p: unknown, env: Env) => Behaviour>)[entry.name]!(checked, env)
      }
    })
  })

const RANK = { processed: 0, confirmed: 1, finalized: 2 } as const

/**
 * The bounds of every socket.
 *
 * @since 0.1.0
 * @category models
 */
export interface Limits {
  /** Largest frame accepted from a client, in bytes (default 1 MiB); a bigger one closes the socket with 1009. */
  readonly maxFrameBytes?: number | undefined
  /** Live subscriptions on one connection (default 4,096); past it, a JSON-RPC error and the socket stays open. */
  readonly maxSubscriptionsPerConnection?: number | undefined
  /** Open WebSocket connections of one API key (default 256); past it, the upgrade is answered 429. */
  readonly maxConnectionsPerKey?: number | undefined
  /**
   * Notification text waiting for one slow client, in bytes (default 16 MiB): a client that falls
   * further behind is closed with 1008 and a reason, and what waited for it is released.
   */
  readonly maxBufferedBytes?: number | undefined
}

/**
 * The default bounds (see `Limits`).
 *
 * @since 0.1.0
 * @category models
 */
export const defaultLimits = {
  maxFrameBytes: 1024 * 1024,
  maxSubscriptionsPerConnection: 4096,
  maxConnectionsPerKey: 256,
  maxBufferedBytes: 16 * 1024 * 1024
} as const

/**
 * Bytes handed to the socket (ws's and Node's buffers) before the rest waits in the
 * connection's own queue: only that queue is counted against `maxBufferedBytes` and
 * released at once when a client falls behind; what the socket holds stays small.
 */
const SOCKET_HIGH_WATER = 256 * 1024

/** A connection closed for falling behind gets this long to take its close frame before it is cut. */
const CLOSE_GRACE_MS = 5_000

/** The error code of a request past a connection's subscription bound (the server-error range). */
const TOO_MANY_SUBSCRIPTIONS = -32005

interface Connection {
  readonly socket: WebSocket
  readonly key: string
  readonly project: Project
  readonly subscriptions: Map<number, Subscription>
  /** A stalled connection sends nothing more and answers nothing (fault `stall`). */
  stalled: boolean
  /** Frames not yet handed to the socket, from `head` on. */
  queue: Array<string>
  head: number
  queuedBytes: number
  /** A flush is scheduled (next turn, or on the socket's drain). */
  flushing: boolean
  /** Closed by the server (behind, or shutting down): nothing more is queued. */
  closing: boolean
}

/**
 * The WebSocket server of one emulator, to hand the Node server's `upgrade` events to.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (params: {
  readonly accounts: ReadonlyArray<Projects.Account>
  /** The chain's accounts: what account and program notifications show (executed state). */
  readonly chain?: Accounts.Accounts | undefined
  readonly state: AreaContext["state"]
  readonly faults: Injector
  readonly limits?: Limits | undefined
}): Effect.Effect<
  PubSub & {
    readonly upgrade: (req: Http.IncomingMessage, socket: Net.Duplex, head: Buffer) => void
    /** Closes every socket with 1001 (going away); what has not closed within `graceMs` is cut. */
    readonly shutdown: (graceMs: number) => Effect.Effect<void>
  },
  never,
  Scope.Scope
> =>
  Effect.gen(function*() {
    const limits = {
      maxFrameBytes: params.limits?.maxFrameBytes ?? defaultLimits.maxFrameBytes,
      maxSubscriptionsPerConnection: params.limits?.maxSubscriptionsPerConnection ??
        defaultLimits.maxSubscriptionsPerConnection,
      maxConnectionsPerKey: params.limits?.maxConnectionsPerKey ?? defaultLimits.maxConnectionsPerKey,
      maxBufferedBytes: params.limits?.maxBufferedBytes ?? defaultLimits.maxBufferedBytes
    }
    const byKey = new Map(params.accounts.map((a) => [a.apiKey, a.project]))
    const env: Env = { chain: params.chain, state: params.state }
    const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxFrameBytes })
    const open = new Set<Connection>()
    const perKey = new Map<string, number>()
    let nextId = 1
    let accepted = 0
    let notified = 0
    let live = 0
    let closedBehind = 0

    const release = (c: Connection) => {
      live -= c.subscriptions.size
      c.subscriptions.clear()
      c.queue = []
      c.head = 0
      c.queuedBytes = 0
    }

    /** Closes a connection from the server's side: the close frame first, the socket cut after a grace. */
    const closeWith = (c: Connection, code: number, reason: string, graceMs: number) => {
      if (c.closing) return
      c.closing = true
      release(c)
      if (c.socket.readyState === c.socket.OPEN) c.socket.close(code, reason)
      setTimeout(() => c.socket.terminate(), graceMs).unref()
    }

    /**
     * Hands queued frames to the socket, corked so a burst goes out in few writes, until the
     * socket holds \`SOCKET_HIGH_WATER\`; the rest waits for its drain.
     */
    const flush = (c: Connection) => {
      c.flushing = false
      if (c.closing || c.socket.readyState !== c.socket.OPEN) return
      const raw = (c.socket as unknown as { _socket?: Net.Duplex })._socket
      raw?.cork()
      while (c.head < c.queue.length && c.socket.bufferedAmount < SOCKET_HIGH_WATER) {
        const frame = c.queue[c.head]!
        c.queue[c.head++] = ""
        c.queuedBytes -= frame.length
        c.socket.send(frame)
      }
      raw?.uncork()
      if (c.head === c.queue.length) {
        c.queue = []
        c.head = 0
      } else if (raw !== undefined) {
        c.flushing = true
        raw.once("drain", () => flush(c))
      }
    }

    /** Queues one frame; a client further behind than the bound is closed with 1008. */
    const enqueue = (c: Connection, frame: string) => {
      if (c.closing || c.stalled) return
      c.queue.push(frame)
      c.queuedBytes += frame.length
      if (c.queuedBytes > limits.maxBufferedBytes) {
        closedBehind++
        return closeWith(
          c,
          1008,
          `client too slow: more than ${limits.maxBufferedBytes} bytes of notifications unread`,
          CLOSE_GRACE_MS
        )
      }
      if (!c.flushing) {
        c.flushing = true
        // After the current turn's frames (a whole fan-out) are queued: one corked write for them.
        queueMicrotask(() => flush(c))
      }
    }

    const send = (c: Connection, body: unknown) => enqueue(c, Json.stringify(body))

    /** Sends one notification (its result already encoded), unless a socket fault replaces it. */
    const notify = (c: Connection, sub: Subscription, encoded: string) => {
      if (c.stalled || c.closing) return
      const fault = params.faults.decide(sub.method, "socket")
      if (fault === "drop") return void c.socket.terminate()
      if (fault === "stall") return void (c.stalled = true)
      if (fault === "malformedFrame") return enqueue(c, `{"jsonrpc":"2.0","method":"${sub.method}","par`)
      notified++
      enqueue(
        c,
        `{"jsonrpc":"2.0","method":"${sub.method}","params":{"result":${encoded},"subscription":${sub.id}}}`
      )
      if (sub.once === true && c.subscriptions.delete(sub.id)) live--
    }

    const onMessage = (c: Connection, text: string) => {
      if (c.stalled || c.closing) return
      let msg: any
      try {
        msg = JSON.parse(text)
      } catch {
        return send(c, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null })
      }
      const id = typeof msg?.id === "number" || typeof msg?.id === "string" ? msg.id : null
      const method = msg?.method
      const args: ReadonlyArray<unknown> = Array.isArray(msg?.params) ? msg.params : []
      const answer = (result: unknown) => send(c, { jsonrpc: "2.0", result, id })
      const error = (code: number, message: string) => send(c, { jsonrpc: "2.0", error: { code, message }, id })
      if (typeof method !== "string" || msg?.jsonrpc !== "2.0") return error(-32600, "Invalid Request")
      // The keep-alive the service's peers send when they cannot send a ping frame.
      if (method === "ping") {
        return params.faults.decide("ping", "socket") === "stall"
          ? void (c.stalled = true)
          : answer("pong")
      }
      if (SubscriptionEndpoints.byUnsubscribe.has(method)) {
        const sid = args[0]
        const found = typeof sid === "number" && c.subscriptions.delete(sid)
        if (found) live--
        return answer(found)
      }
      const entry = SubscriptionEndpoints.bySubscribe.get(method)
      if (entry === undefined) return error(-32601, "Method not found")
      if (c.subscriptions.size >= limits.maxSubscriptionsPerConnection) {
        return error(
          TOO_MANY_SUBSCRIPTIONS,
          `Too many subscriptions: at most ${limits.maxSubscriptionsPerConnection} on one connection`
        )
      }
      const built = build(entry, msg.params, env)
      if ("error" in built) return error(-32602, built.error)
      const sub: Subscription = { id: nextId++, ...built.ok, pending: [] }
      if (sub.onSlot === true) listenToSlots()
      c.subscriptions.set(sub.id, sub)
      live++
      c.project.usage.websocket = (c.project.usage.websocket ?? 0) + 1
      answer(sub.id)
      for (const { result, slot } of sub.initial?.() ?? []) deliver(c, sub, slot, Json.stringify(result))
    }

    /**
     * Sends a landing's notification now when its slot has reached the subscription's
     * commitment, else keeps it until a slot tick finds it there.
     */
    const deliver = (c: Connection, sub: Subscription, slot: number, frame: string) => {
      if (reached(sub, slot) && sub.pending!.length === 0) return notify(c, sub, frame)
      sub.pending!.push({ slot, frame })
      listenToSlots()
      flushPending(c, sub)
    }

    const reached = (sub: Subscription, slot: number) =>
      sub.commitment === undefined || sub.commitment === "processed" ||
      RANK[World.of(params.state).confirmation(slot).status] >= RANK[sub.commitment]

    /** Sends the waiting notifications whose slot has reached the commitment, in order. */
    const flushPending = (c: Connection, sub: Subscription) => {
      const pending = sub.pending!
      while (pending.length > 0 && reached(sub, pending[0]!.slot) && c.subscriptions.has(sub.id)) {
        notify(c, sub, pending.shift()!.frame)
      }
    }

    const upgrade = (req: Http.IncomingMessage, socket: Net.Duplex, head: Buffer) => {
      const url = URL.canParse(req.url ?? "/", "http://emulator.local")
        ? new URL(req.url ?? "/", "http://emulator.local")
        : undefined
      const key = url?.searchParams.get("api-key") ?? ""
      const project = byKey.get(key)
      if (project === undefined) {
        socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
        return
      }
      if (shuttingDown) {
        socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
        return
      }
      if ((perKey.get(key) ?? 0) >= limits.maxConnectionsPerKey) {
        socket.end("HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
        return
      }
      perKey.set(key, (perKey.get(key) ?? 0) + 1)
      let counted = true
      const uncount = () => {
        if (counted) perKey.set(key, (perKey.get(key) ?? 1) - 1)
        counted = false
      }
      // A failed handshake never reaches the callback: its socket's close gives the place back.
      socket.once("close", uncount)
      wss.handleUpgrade(req, socket, head, (ws) => {
        accepted++
        const c: Connection = {
          socket: ws,
          key,
          project,
          subscriptions: new Map(),
          stalled: false,
          queue: [],
          head: 0,
          queuedBytes: 0,
          flushing: false,
          closing: false
        }
        open.add(c)
        ws.on("message", (data) => onMessage(c, data.toString()))
        // A frame over maxPayload: ws closes with 1009 itself; any other error cuts the socket.
        ws.on("error", () => {
          if (ws.readyState !== ws.CLOSING) ws.terminate()
        })
        ws.once("close", () => {
          open.delete(c)
          uncount()
          c.closing = true
          release(c)
        })
      })
    }

    // Landings arrive inside the publishing request: handed over to the next turn, never sent inline.
    const unsubscribe = Events.worldLanded(params.state).subscribe((event) =>
      setImmediate(() => {
        if (live === 0) return
        for (const l of event.transactions) {
          // Each group's notifications, computed and encoded once for this transaction.
          const encoded = new Map<string, ReadonlyArray<string>>()
          for (const c of open) {
            for (const sub of [...c.subscriptions.values()]) {
              if (sub.onLanded === undefined) continue
              let frames = encoded.get(sub.group)
              if (frames === undefined) {
                frames = sub.onLanded(l).map((result) => Json.stringify(result))
                encoded.set(sub.group, frames)
              }
              for (const frame of frames) deliver(c, sub, l.slot, frame)
            }
          }
        }
      })
    )

    // The world's slot ticks, listened to from the first slot subscription on (a ticker nobody reads costs).
    let ticks: (() => void) | undefined
    const listenToSlots = () => {
      ticks ??= Events.slots(params.state).subscribe((tick) => {
        let encoded: string | undefined
        for (const c of open) {
          for (const sub of [...c.subscriptions.values()]) {
            if (sub.pending!.length > 0) flushPending(c, sub)
            if (sub.onSlot === true) {
              encoded ??= Json.stringify({ parent: tick.parent, root: Math.max(0, tick.slot - 32), slot: tick.slot })
              notify(c, sub, encoded)
            }
          }
        }
      })
    }

    let shuttingDown = false
    const shutdown = (graceMs: number) =>
      Effect.async<void>((resume) => {
        shuttingDown = true
        unsubscribe()
        ticks?.()
        if (open.size === 0) return resume(Effect.void)
        let left = open.size
        const done = () => {
          if (--left === 0) resume(Effect.void)
        }
        for (const c of open) {
          c.socket.once("close", done)
          closeWith(c, 1001, "the emulator is shutting down", graceMs)
        }
      })

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        shuttingDown = true
        unsubscribe()
        ticks?.()
        for (const c of open) c.socket.terminate()
        wss.close()
      })
    )
    return {
      upgrade,
      shutdown,
      closedBehind: () => closedBehind,
      buffered: () => {
        let n = 0
        for (const c of open) n += c.queuedBytes
        return n
      },
      connections: () => open.size,
      subscriptions: () => live,
      accepted: () => accepted,
      notified: () => notified
    }
  })
