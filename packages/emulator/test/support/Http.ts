/**
 * Plain fetch over loopback, as a client that knows nothing of the SDK would call the emulator.
 */
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import type { Emulator } from "../../src/Emulator.js"

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly json: any
}

const read = async (res: Response): Promise<Reply> => {
  const text = await res.text()
  let json: unknown = undefined
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: res.status, headers: res.headers, text, json }
}

/** `key`: undefined for the emulator's key, null for none. */
export const urlFor = (emu: Emulator, path: string, key?: string | null, query: Record<string, string> = {}) => {
  const url = new URL(path, emu.url)
  if (key !== null) url.searchParams.set("api-key", key ?? emu.apiKey)
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
  return url
}

export const post = (
  emu: Emulator,
  body: unknown,
  options: { key?: string | null | undefined; path?: string; signal?: AbortSignal } = {}
) =>
  Effect.promise(() =>
    fetch(urlFor(emu, options.path ?? "/", options.key), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
      ...(options.signal === undefined ? {} : { signal: options.signal })
    }).then(read)
  )

export const rpc = (
  emu: Emulator,
  method: string,
  params: unknown = {},
  id: string | number = "1",
  key?: string | null
) => post(emu, { jsonrpc: "2.0", id, method, params }, { key })

export const get = (
  emu: Emulator,
  path: string,
  options: { key?: string | null | undefined; query?: Record<string, string>; headers?: Record<string, string> } = {}
) =>
  Effect.promise(() =>
    fetch(urlFor(emu, path, options.key, options.query), { headers: options.headers ?? {} }).then(read)
  )

/** A request of any method, with a JSON body when one is given. */
export const send = (emu: Emulator, method: string, path: string, body?: unknown) =>
  Effect.promise(() =>
    fetch(urlFor(emu, path), {
      method,
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    }).then(read)
  )

/** A request expected to fail at the transport level: the error's message, or the reply. */
export const attempt = (run: () => Promise<Reply>) =>
  Effect.promise(() =>
    run().then((reply) => ({ ok: true as const, reply }), (e: unknown) => ({ ok: false as const, error: e }))
  )

export const rawRpc = (emu: Emulator, method: string, params: unknown = {}) => () =>
  fetch(urlFor(emu, "/"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: "1", method, params })
  }).then(read)

// A real-time tick: under TestClock, Effect.sleep would never wake while sockets do real work.
const realTick = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 1)))

/** Waits in real time until `condition` holds; the test's own timeout bounds the wait. */
export const until = (condition: () => boolean): Effect.Effect<void> =>
  Effect.gen(function*() {
    while (!condition()) yield* realTick
  })

/**
 * Under TestClock: waits (in real time, the request travels over a real socket)
 * until `n` fibers sleep on the clock, for example the server holding answers back.
 */
export const untilServerSleeps = (n = 1): Effect.Effect<void> =>
  Effect.gen(function*() {
    while ((yield* TestClock.sleeps()).length < n) yield* realTick
  })
