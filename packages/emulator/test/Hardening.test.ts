/**
 * The emulator on a network: what it does with keyless floods, huge bodies, silent sockets,
 * malformed request lines and foreign cursors. Real sockets; every assertion is about what the
 * server did (bytes it read, what it logged and counted, what it answered), never time or memory.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Http from "node:http"
import * as Net from "node:net"
import * as Compression from "../src/areas/Compression.js"
import * as TokenMetadata from "../src/areas/TokenMetadata.js"
import * as Emulator from "../src/Emulator.js"
import * as CompressedState from "../src/seed/CompressedState.js"
import { rpc } from "./support/Http.js"

interface Answer {
  readonly status: number
  readonly contentType: string | undefined
  readonly text: string
}

/**
 * POSTs `size` bytes (with a content-length, or chunked) and resolves on the answer, whether or
 * not the server read the body: it may close the connection while we still write.
 */
const postBig = (
  url: string,
  size: number,
  options: { readonly chunked?: boolean; readonly chunk?: Buffer } = {}
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const chunk = options.chunk ?? Buffer.alloc(64 * 1024, "1")
    const req = Http.request(url, {
      method: "POST",
      agent: false,
      headers: options.chunked === true
        ? { "content-type": "application/json" }
        : { "content-type": "application/json", "content-length": String(size) }
    })
    let answered = false
    // The server may close while the body is still going out: that write error is expected.
    req.on("socket", (socket) => socket.on("error", () => undefined))
    req.on("response", (res) => {
      answered = true
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (d) => (text += d))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, contentType: res.headers["content-type"], text }))
      res.on("error", () => resolve({ status: res.statusCode ?? 0, contentType: res.headers["content-type"], text }))
      res.on("close", () => resolve({ status: res.statusCode ?? 0, contentType: res.headers["content-type"], text }))
    })
    req.on("error", (e) => {
      if (!answered) reject(e)
    })
    let sent = 0
    const pump = () => {
      while (sent < size && !req.destroyed) {
        const n = Math.min(chunk.length, size - sent)
        sent += n
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once("drain", pump)
      }
      if (!req.destroyed) req.end()
    }
    pump()
  })

/**
 * Writes raw bytes on a fresh socket (then, with `drip`, a header line every 200 ms); resolves
 * with what the server sent and whether it closed first.
 */
const raw = (
  port: number,
  bytes: string,
  drip = false
): Promise<{ readonly text: string; readonly serverClosed: boolean }> =>
  new Promise((resolve) => {
    const socket = Net.connect(port, "127.0.0.1", () => {
      if (bytes !== "") socket.write(bytes)
    })
    const timer = drip ? setInterval(() => socket.writable && socket.write("X-Drip: 1\r\n"), 200) : undefined
    let text = ""
    let serverClosed = false
    socket.setEncoding("utf8")
    socket.on("data", (d) => (text += d))
    socket.on("end", () => (serverClosed = true))
    socket.on("error", () => (serverClosed = true))
    socket.on("close", () => {
      clearInterval(timer)
      resolve({ text, serverClosed })
    })
  })

const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))

const MB = 1024 * 1024

describe("emulator hardening", () => {
  it.scopedLive("a keyless 30 MB body gets 401 after the server read at most its body limit", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ areas: [Compression.area] })
      const limit = 4 * MB // the default
      const answer = yield* Effect.promise(() => postBig(`${emu.url}/`, 30 * MB))
      expect(answer.status).toBe(401)
      expect(answer.contentType).toContain("application/json")
      expect(JSON.parse(answer.text).error.code).toBe(-32401)
      // The sockets are closed by now or soon; bytes read so far can only grow while they are open.
      yield* Effect.sleep("300 millis")
      expect(emu.bytesReceived).toBeLessThanOrEqual(limit)
      expect(emu.counters.byStatus).toEqual({ 401: 1 })
    }))

  it.scopedLive("a body above the limit gets 413 with a JSON body, declared or chunked", () =>
    Effect.gen(function*() {
      const limit = MB
      const emu = yield* Emulator.make({ areas: [Compression.area], maxBodyBytes: limit })
      const url = `${emu.url}/?api-key=${emu.apiKey}`
      const declared = yield* Effect.promise(() => postBig(url, 30 * MB))
      expect(declared.status).toBe(413)
      expect(JSON.parse(declared.text)).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 }, id: null })
      yield* Effect.sleep("300 millis")
      // Declared too large: refused before the body is read.
      expect(emu.bytesReceived).toBeLessThanOrEqual(limit)

      const chunked = yield* Effect.promise(() => postBig(url, 30 * MB, { chunked: true }))
      expect(chunked.status).toBe(413)
      expect(JSON.parse(chunked.text).error.message).toContain(`${limit} bytes`)
      yield* Effect.sleep("300 millis")
      // Chunked: read up to the chunk that crosses the limit, plus what Node buffered with it.
      expect(emu.bytesReceived).toBeLessThanOrEqual(3 * limit)
      expect(emu.count()).toBe(2)
      expect(emu.counters.byStatus).toEqual({ 413: 2 })
      // A legal request on the same server is still served.
      const ok = yield* rpc(emu, "getLatestNonVotingSignatures", { limit: 1 })
      expect(ok.status).toBe(200)
    }))

  it.scopedLive("1,000 keyless requests with 1 MB method names: the log keeps its bound, fields cut, counts exact", () =>
    Effect.gen(function*() {
      const capacity = 100
      const emu = yield* Emulator.make({ areas: [Compression.area], requestLog: { capacity, fieldLength: 64 } })
      const name = "m".repeat(MB)
      const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, method: name, params: {} }))
      const send = (url: string) => postBig(url, body.length, { chunk: body })
      for (let batch = 0; batch < 100; batch++) {
        const answers = yield* Effect.promise(() => Promise.all(Array.from({ length: 10 }, () => send(`${emu.url}/`))))
        expect(answers.every((a) => a.status === 401)).toBe(true)
      }
      // With a key the body is read: the method name is counted and logged, cut.
      for (let i = 0; i < 5; i++) {
        const a = yield* Effect.promise(() => send(`${emu.url}/?api-key=${emu.apiKey}`))
        expect(JSON.parse(a.text).error.code).toBe(-32601)
      }
      expect(emu.count()).toBe(1005)
      expect(emu.counters.byStatus).toEqual({ 401: 1000, 200: 5 })
      expect(emu.count("POST /")).toBe(1000)
      expect(emu.requests).toHaveLength(capacity)
      for (const r of emu.requests) expect(r.operation.length).toBeLessThanOrEqual(64)
      expect(emu.requests.at(-1)!.operation.startsWith("mmmm")).toBe(true)
      expect(Object.keys(emu.counters.byOperation).every((k) => k.length <= 64)).toBe(true)
    }))

  it.scopedLive("idle sockets are closed by the server: silent, dripping and kept alive", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({
        areas: [Compression.area],
        timeouts: { idleMs: 1000, headersMs: 2000, requestMs: 3000 }
      })
      const silent = raw(emu.port, "")
      const call = `{"jsonrpc":"2.0","id":1,"method":"getLatestNonVotingSignatures","params":{"limit":1}}`
      const afterOne = raw(
        emu.port,
        `POST /?api-key=${emu.apiKey} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${call.length}\r\n\r\n${call}`
      )
      const drip = raw(emu.port, "GET / HTTP/1.1\r\nHost: x\r\n", true)
      const [s, k, d] = yield* Effect.promise(() => Promise.all([silent, afterOne, drip]))
      expect(s.serverClosed).toBe(true)
      expect(k.serverClosed).toBe(true)
      expect(k.text.startsWith("HTTP/1.1 200")).toBe(true)
      expect(d.serverClosed).toBe(true)
      expect(d.text.startsWith("HTTP/1.1 408")).toBe(true)
      expect(bodyOf(d.text).error.message).toBe("request timeout")
    }), 20_000)

  it.scopedLive("a malformed request line gets 400 with a JSON body", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ areas: [Compression.area] })
      for (const line of ["GET http://[/x HTTP/1.1", "POST http://[::1 HTTP/1.1", "HELLO", "GET / HTTP/9.9"]) {
        const answer = yield* Effect.promise(() => raw(emu.port, `${line}\r\nHost: x\r\nConnection: close\r\n\r\n`))
        expect(answer.text.startsWith("HTTP/1.1 400")).toBe(true)
        expect(answer.text.toLowerCase()).toContain("content-type: application/json")
        expect(bodyOf(answer.text)).toHaveProperty("error")
      }
    }))

  it.scopedLive("a chunked body with a malformed chunk size gets 400 with a JSON body", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ areas: [Compression.area, TokenMetadata.area] })
      // (Keyless, the key is refused first, before the body is read: 401, also JSON.)
      const key = `api-key=${emu.apiKey}`
      for (const target of [`/?${key}`, `/v0/token-metadata?${key}`, `/emulator/world/fund?${key}`]) {
        for (const size of ["ZZ", "-1", "1x"]) {
          const answer = yield* Effect.promise(() =>
            raw(
              emu.port,
              `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
                `Transfer-Encoding: chunked\r\n\r\n${size}\r\n{}\r\n0\r\n\r\n`
            )
          )
          expect(answer.text.startsWith("HTTP/1.1 400"), `${target} ${size}: ${answer.text}`).toBe(true)
          expect(answer.text.toLowerCase()).toContain("content-type: application/json")
          expect(bodyOf(answer.text)).toHaveProperty("error")
        }
      }
    }))

  it.scopedLive("a cursor works only for the method and filters that issued it, whatever the limit", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ areas: [Compression.area] })
      const mint = emu.samples.compressedTokenMint
      const first = (yield* rpc(emu, "getCompressedMintTokenHolders", { mint, limit: 5 })).json.result.value
      const cursor = first.cursor as string
      const again = yield* rpc(emu, "getCompressedMintTokenHolders", { mint, limit: 7, cursor })
      expect(again.json.result.value.items).toHaveLength(7)
      const otherMethod = yield* rpc(emu, "getCompressionSignaturesForAddress", {
        address: emu.samples["compressionAddress"],
        cursor
      })
      expect(otherMethod.json.error.code).toBe(-32602)
      expect(otherMethod.json.error.message).toContain("cursor")
      const otherMint = yield* rpc(emu, "getCompressedMintTokenHolders", {
        mint: CompressedState.mintAt(emu.dataset, 1),
        cursor
      })
      expect(otherMint.json.error.code).toBe(-32602)
      expect(otherMint.json.error.message).toContain("cursor")
    }))
})
