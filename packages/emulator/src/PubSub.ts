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
import type { AreaContext, Project } from "./Area.js"
import * as Events from "./Events.js"
import type { Injector } from "./Faults.js"
import type * as Projects from "./Projects.js"

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
}

type Landed = Events.LandedTransaction
type Written = Events.AccountChange

// Rent-exempt accounts report the largest u64 as their rent epoch.
const RENT_EPOCH = 18446744073709551615n

const accountValue = (w: Written) => ({
  lamports: w.lamportsAfter,
  data: ["", "base64"],
  owner: w.program,
  executable: false,
  rentEpoch: RENT_EPOCH,
  space: 0
})

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
  /** The notification for a landed transaction, if this subscription wants it. */
  readonly onLanded?: (landed: Landed) => ReadonlyArray<unknown>
  readonly onSlot?: boolean
  /** Removed after its first notification (the table's `once`). */
  readonly once?: boolean
}

type Table = typeof SubscriptionEndpoints.table
type Behaviour = Pick<Subscription, "onLanded" | "onSlot">

/**
 * What each subscription of the table notifies, from its checked params. Typed by the table:
 * an entry without its handler here does not compile.
 */
const handlers: { readonly [K in keyof Table]: (params: Schema.Schema.Type<Table[K]["params"]>) => Behaviour } = {
  account: ([address]) => ({
    onLanded: (l) =>
      written(l).filter((w) => w.address === address).map((w) => ({
        context: { slot: l.slot },
        value: accountValue(w)
      }))
  }),
  program: ([program]) => ({
    onLanded: (l) =>
      written(l).filter((w) => w.program === program).map((w) => ({
        context: { slot: l.slot },
        value: { pubkey: w.address, account: accountValue(w) }
      }))
  }),
  signature: ([signature]) => ({
    onLanded: (l) => l.signature === signature ? [{ context: { slot: l.slot }, value: { err: l.err } }] : []
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
const build = (entry: SubscriptionEndpoints.Any, params: unknown): Built =>
  Either.match(SubscriptionEndpoints.check(entry, params), {
    onLeft: (e) => ({ error: `Invalid params: ${e.field} must be ${e.rule}` }),
    onRight: (checked) => ({
      ok: {
        method: entry.notification,
        once: entry.once,
        ...(handlers as Record<string, (p: unknown) => Behaviour>)[entry.name]!(checked)
      }
    })
  })

interface Connection {
  readonly socket: WebSocket
  readonly project: Project
  readonly subscriptions: Map<number, Subscription>
  /** A stalled connection sends nothing more and answers nothing (fault `stall`). */
  stalled: boolean
}

/**
 * The WebSocket server of one emulator, to hand the Node server's `upgrade` events to.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (params: {
  readonly accounts: ReadonlyArray<Projects.Account>
  readonly state: AreaContext["state"]
  readonly faults: Injector
}): Effect.Effect<
  PubSub & { readonly upgrade: (req: Http.IncomingMessage, socket: Net.Duplex, head: Buffer) => void },
  never,
  Scope.Scope
> =>
  Effect.gen(function*() {
    const byKey = new Map(params.accounts.map((a) => [a.apiKey, a.project]))
    const wss = new WebSocketServer({ noServer: true })
    const open = new Set<Connection>()
    let nextId = 1
    let accepted = 0
    let notified = 0
    let live = 0

    const send = (c: Connection, body: unknown) => {
      if (!c.stalled && c.socket.readyState === c.socket.OPEN) c.socket.send(Json.stringify(body))
    }

    /** Sends one notification, unless a socket fault replaces it. */
    const notify = (c: Connection, sub: Subscription, result: unknown) => {
      if (c.stalled) return
      const fault = params.faults.decide(sub.method, "socket")
      if (fault === "drop") return void c.socket.terminate()
      if (fault === "stall") return void (c.stalled = true)
      if (fault === "malformedFrame") return void c.socket.send(`{"jsonrpc":"2.0","method":"${sub.method}","par`)
      notified++
      send(c, { jsonrpc: "2.0", method: sub.method, params: { result, subscription: sub.id } })
      if (sub.once === true && c.subscriptions.delete(sub.id)) live--
    }

    const onMessage = (c: Connection, text: string) => {
      if (c.stalled) return
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
      const built = build(entry, msg.params)
      if ("error" in built) return error(-32602, built.error)
      const sub: Subscription = { id: nextId++, ...built.ok }
      if (sub.onSlot === true) listenToSlots()
      c.subscriptions.set(sub.id, sub)
      live++
      c.project.usage.websocket = (c.project.usage.websocket ?? 0) + 1
      answer(sub.id)
    }

    const upgrade = (req: Http.IncomingMessage, socket: Net.Duplex, head: Buffer) => {
      const url = URL.canParse(req.url ?? "/", "http://emulator.local")
        ? new URL(req.url ?? "/", "http://emulator.local")
        : undefined
      const project = byKey.get(url?.searchParams.get("api-key") ?? "")
      if (project === undefined) {
        socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
        return
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        accepted++
        const c: Connection = { socket: ws, project, subscriptions: new Map(), stalled: false }
        open.add(c)
        ws.on("message", (data) => onMessage(c, data.toString()))
        ws.on("error", () => ws.terminate())
        ws.once("close", () => {
          open.delete(c)
          live -= c.subscriptions.size
          c.subscriptions.clear()
        })
      })
    }

    // Landings arrive inside the publishing request: handed over to the next turn, never sent inline.
    const unsubscribe = Events.worldLanded(params.state).subscribe((event) =>
      setImmediate(() => {
        if (live === 0) return
        for (const c of open) {
          for (const l of event.transactions) {
            for (const sub of [...c.subscriptions.values()]) {
              for (const result of sub.onLanded?.(l) ?? []) notify(c, sub, result)
            }
          }
        }
      })
    )

    // The world's slot ticks, listened to from the first slot subscription on (a ticker nobody reads costs).
    let ticks: (() => void) | undefined
    const listenToSlots = () => {
      ticks ??= Events.slots(params.state).subscribe((tick) => {
        for (const c of open) {
          for (const sub of c.subscriptions.values()) {
            if (sub.onSlot === true) {
              notify(c, sub, { parent: tick.parent, root: Math.max(0, tick.slot - 32), slot: tick.slot })
            }
          }
        }
      })
    }

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        unsubscribe()
        ticks?.()
        for (const c of open) c.socket.terminate()
        wss.close()
      })
    )
    return {
      upgrade,
      connections: () => open.size,
      subscriptions: () => live,
      accepted: () => accepted,
      notified: () => notified
    }
  })
