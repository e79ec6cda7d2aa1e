/**
 * A loopback server that answers with recorded bodies, pre-encoded, so that it
 * costs next to nothing per request (the per-call comparison measures the
 * client). Run as its own process: `static-server.ts <file>`, where the file
 * holds `[{ key, status, text }]`; it prints `{ url }` as one line. A JSON-RPC
 * request is answered by its method (`key` = the method), the request's id
 * written where the recorded id was; a REST request by `METHOD /path`.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

interface Answer {
  readonly key: string
  readonly status: number
  readonly text: string
}

interface Encoded {
  readonly status: number
  /** The body around the JSON-RPC id (the whole body for REST). */
  readonly before: Buffer
  readonly after: Buffer | undefined
}

const answers = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as ReadonlyArray<Answer>
const byKey = new Map<string, Encoded>()
for (const a of answers) {
  const id = a.key.includes(" ") ? undefined : (JSON.parse(a.text) as { id?: unknown }).id
  if (id === undefined) {
    byKey.set(a.key, { status: a.status, before: Buffer.from(a.text), after: undefined })
  } else {
    // The envelope's own `"id":` member (a numeric id may also appear as a number in the result).
    const member = `"id":${JSON.stringify(id)}`
    const at = a.text.indexOf(member) + "\"id\":".length
    byKey.set(a.key, {
      status: a.status,
      before: Buffer.from(a.text.slice(0, at)),
      after: Buffer.from(a.text.slice(at + JSON.stringify(id).length))
    })
  }
}

const server = createServer((req, res) => {
  const parts: Array<Buffer> = []
  req.on("data", (d: Buffer) => parts.push(d))
  req.on("end", () => {
    const path = req.url!.split("?")[0]!
    let key = `${req.method} ${path}`
    let id: unknown
    if (path === "/" && req.method === "POST") {
      const body = JSON.parse(Buffer.concat(parts).toString("utf8")) as { method: string; id: unknown }
      key = body.method
      id = body.id
    }
    const answer = byKey.get(key)
    if (answer === undefined) {
      res.writeHead(404).end()
      return
    }
    const chunks = answer.after === undefined
      ? [answer.before]
      : [answer.before, Buffer.from(JSON.stringify(id)), answer.after]
    const length = chunks.reduce((n, c) => n + c.length, 0)
    res.writeHead(answer.status, { "content-type": "application/json", "content-length": length })
    for (const c of chunks) res.write(c)
    res.end()
  })
})
server.keepAliveTimeout = 60_000
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }) + "\n")
})
