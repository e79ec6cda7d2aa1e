/**
 * WebSocket notifications (issue 30): solfx's `Subscriptions` against a raw `ws`
 * client (JSON.parse of each frame, nothing more), both on loopback to the
 * emulator in a child process.
 * - Latency: from a world event (a `POST /emulator/world/fund` sent) to the
 *   consumer holding the account notification; each contender its own account,
 *   alternating, median of `BENCH_NOTIFY_LATENCIES` (default 200) events each.
 * - Rate: notifications per second on one socket. One slot subscription: the world
 *   advanced 1,000 slots at a time, 10 times (10,000 slot notifications in bursts).
 *   Fan-out: `SUBS` account subscriptions of one address, `EVENTS` funds of it, each
 *   notifying every subscription. From the first call sent to the last notification taken.
 */
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import { generateKeyPairSigner } from "@solana/kit"
import * as SolfxConfig from "@solfx/core/Config"
import * as Subscriptions from "@solfx/subscriptions/Subscriptions"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Stream from "effect/Stream"
import { WebSocket } from "ws"
import * as Emu from "./lib/emulator.js"
import { fmtRatio, log, median } from "./lib/harness.js"
import { type ComparisonResult, emit, type Row, type Target } from "./lib/result.js"

const LATENCIES = Number(process.env["BENCH_NOTIFY_LATENCIES"] ?? 200)
const SUBS = 500
const EVENTS = 20
const RATE_REPS = Number(process.env["BENCH_NOTIFY_RATE_REPS"] ?? 5)
// Issue 40's targets: fan-out time and client CPU, one subscription's rate, latency.
const GOAL = { fanOut: 1.5, fanOutCpu: 2, single: 1.3, latency: 1.25 }

const emu = await Emu.start({ latencyMs: 0 })
const wsUrl = `${emu.url.replace(/^http/, "ws")}/?api-key=${emu.apiKey}`
const fundOnce = (address: string) =>
  fetch(`${emu.url}/emulator/world/fund?api-key=${emu.apiKey}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ address, lamports: "1000" })
  }).then((r) => r.text())
// A keep-alive socket the emulator closed as idle (5 s) while this busy process was not looking
// can be reused once more: such a send failed before the server read it, so it is sent again.
const fund = (address: string, tries = 3): Promise<string> =>
  fundOnce(address).catch((e) => (tries > 1 ? fund(address, tries - 1) : Promise.reject(e)))

const runtime = ManagedRuntime.make(
  Subscriptions.layerWith({ pingInterval: "30 seconds" }).pipe(
    Layer.provide(SolfxConfig.layer({ apiKey: emu.apiKey, baseUrl: emu.url })),
    Layer.provide(NodeSocket.layerWebSocketConstructor)
  )
)
const subscriptions = await runtime.runPromise(Subscriptions.Subscriptions)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * A consumer of `count` account subscriptions of `address` through solfx. It is ready once every
 * subscription has seen a warm-up fund (funds are repeated until then) and the socket has gone quiet;
 * from then on `onNotification` sees only what comes after.
 */
const solfxConsumer = async (address: string, count: number, onNotification: () => void) => {
  const warmed = new Array<boolean>(count).fill(false)
  let left = count
  let since: bigint | undefined
  let last = 0n
  const fibers = Array.from({ length: count }, (_, i) =>
    runtime.runFork(
      Stream.runForEach(subscriptions.account(address), (e) =>
        Effect.sync(() => {
          if (e._tag !== "Notification") return
          const lamports = e.value.value.lamports
          if (since !== undefined && lamports > since) return onNotification()
          if (lamports > last) last = lamports
          if (!warmed[i]) {
            warmed[i] = true
            left--
          }
        }))
    ))
  while (left > 0) {
    await fund(address)
    await sleep(50)
  }
  await sleep(300)
  since = last
  return {
    stop: async () => {
      await Promise.all(fibers.map((f) => runtime.runPromise(Fiber.interrupt(f))))
    }
  }
}

/** The same through a raw `ws` client: subscribe requests, then JSON.parse of every frame. */
const rawConsumer = async (address: string, count: number, onNotification: () => void) => {
  const ws = new WebSocket(wsUrl)
  await new Promise((r, j) => ws.once("open", r).once("error", j))
  let acked = 0
  const ready = new Promise<void>((resolve) => {
    ws.on("message", (data) => {
      const msg = JSON.parse(data.toString())
      if (msg.method === "accountNotification") onNotification()
      else if (typeof msg.result === "number" && ++acked === count) resolve()
    })
  })
  for (let i = 0; i < count; i++) {
    ws.send(JSON.stringify({
      jsonrpc: "2.0",
      id: i + 1,
      method: "accountSubscribe",
      params: [address, { encoding: "base64", commitment: "confirmed" }]
    }))
  }
  await ready
  return { stop: async () => ws.close() }
}

type Consumer = typeof solfxConsumer
const contenders: ReadonlyArray<readonly [string, Consumer]> = [["solfx", solfxConsumer], ["raw ws", rawConsumer]]

// -- latency --------------------------------------------------------------------
const latency = new Map<string, Array<number>>(contenders.map(([n]) => [n, []]))
{
  const open = await Promise.all(contenders.map(async ([name, make]) => {
    const address = (await generateKeyPairSigner()).address
    let resolve: (() => void) | undefined
    const consumer = await make(address, 1, () => resolve?.())
    return { name, address, consumer, next: () => new Promise<void>((r) => (resolve = r)) }
  }))
  for (let i = 0; i < LATENCIES + 10; i++) {
    for (const c of i % 2 === 0 ? open : [...open].reverse()) {
      const got = c.next()
      const t0 = performance.now()
      await fund(c.address)
      await got
      if (i >= 10) latency.get(c.name)!.push(performance.now() - t0)
    }
  }
  for (const c of open) await c.consumer.stop()
}
const latencyMedian = Object.fromEntries([...latency].map(([n, xs]) => [n, median(xs)]))
log(`latency medians: ${JSON.stringify(latencyMedian)}`)

// -- rate -----------------------------------------------------------------------
const rates = new Map<string, Array<number>>(contenders.map(([n]) => [n, []]))
// Client CPU (this process: user + system) per notification in each timed window, in µs.
const cpus = new Map<string, Array<number>>(contenders.map(([n]) => [n, []]))
for (let rep = 0; rep < RATE_REPS; rep++) {
  for (const [name, make] of rep % 2 === 0 ? contenders : [...contenders].reverse()) {
    const address = (await generateKeyPairSigner()).address
    let seen = 0
    let done: (() => void) | undefined
    const all = new Promise<void>((r) => (done = r))
    const consumer = await make(address, SUBS, () => {
      if (++seen === SUBS * EVENTS) done?.()
    })
    const t0 = performance.now()
    const c0 = process.cpuUsage()
    for (let e = 0; e < EVENTS; e++) await fund(address)
    await all
    const rate = (SUBS * EVENTS) / ((performance.now() - t0) / 1000)
    const c1 = process.cpuUsage(c0)
    const cpu = (c1.user + c1.system) / (SUBS * EVENTS)
    rates.get(name)!.push(rate)
    cpus.get(name)!.push(cpu)
    log(`  rate rep ${rep + 1} ${name}: ${rate.toFixed(0)} notifications/s, client CPU ${cpu.toFixed(1)} µs each`)
    await consumer.stop()
  }
}
const rateMedian = Object.fromEntries([...rates].map(([n, xs]) => [n, median(xs)]))
const cpuMedian = Object.fromEntries([...cpus].map(([n, xs]) => [n, median(xs)]))

// -- rate on one subscription: slot ticks -------------------------------------------
const advance = (slots: number) =>
  fetch(`${emu.url}/emulator/world/advanceSlots?api-key=${emu.apiKey}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ slots })
  }).then(async (r) => (await r.json()) as { slot: number })

/** A slot subscription; `onSlot` with each slot. Ready once it has seen one (slots advanced until then). */
const solfxSlots = async (onSlot: (slot: number) => void) => {
  let ready = false
  const fiber = runtime.runFork(
    Stream.runForEach(subscriptions.slot({ bufferCapacity: 100_000 }), (e) =>
      Effect.sync(() => {
        if (e._tag !== "Notification") return
        ready = true
        onSlot(Number(e.slot))
      }))
  )
  while (!ready) {
    await advance(1)
    await sleep(20)
  }
  return {
    stop: async () => {
      await runtime.runPromise(Fiber.interrupt(fiber))
    }
  }
}
const rawSlots = async (onSlot: (slot: number) => void) => {
  const ws = new WebSocket(wsUrl)
  await new Promise((r, j) => ws.once("open", r).once("error", j))
  let ready = false
  ws.on("message", (data) => {
    const msg = JSON.parse(data.toString())
    if (msg.method !== "slotNotification") return
    ready = true
    onSlot(msg.params.result.slot)
  })
  ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" }))
  while (!ready) {
    await advance(1)
    await sleep(20)
  }
  return { stop: async () => ws.close() }
}
const BURSTS = 10
const slotRates = new Map<string, Array<number>>([["solfx", []], ["raw ws", []]])
for (let rep = 0; rep < RATE_REPS; rep++) {
  const order = [["solfx", solfxSlots], ["raw ws", rawSlots]] as const
  for (const [name, make] of rep % 2 === 0 ? order : [...order].reverse()) {
    let seen = 0
    let highest = 0
    let target = Infinity
    let done: (() => void) | undefined
    const all = new Promise<void>((r) => (done = r))
    let counting = false
    const consumer = await make((slot) => {
      if (!counting) return
      seen++
      highest = Math.max(highest, slot)
      if (slot >= target) done?.()
    })
    await sleep(100)
    counting = true
    const t0 = performance.now()
    let last = 0
    for (let b = 0; b < BURSTS; b++) last = (await advance(1000)).slot
    // Until the consumer has taken the last slot of the last burst.
    target = last
    if (highest >= target) done?.()
    await all
    const rate = seen / ((performance.now() - t0) / 1000)
    slotRates.get(name)!.push(rate)
    log(`  slot rate rep ${rep + 1} ${name}: ${rate.toFixed(0)} notifications/s (${seen})`)
    await consumer.stop()
  }
}
const slotRateMedian = Object.fromEntries([...slotRates].map(([n, xs]) => [n, median(xs)]))

await runtime.dispose()
await emu.stop()

const latencyRatio = latencyMedian["solfx"]! / latencyMedian["raw ws"]!
const rateRatio = rateMedian["raw ws"]! / rateMedian["solfx"]!
const slotRateRatio = slotRateMedian["raw ws"]! / slotRateMedian["solfx"]!
const cpuRatio = cpuMedian["solfx"]! / cpuMedian["raw ws"]!
const cpuRows: Array<Row> = contenders.map(([n]) => ({
  contender: n,
  value: `${cpuMedian[n]!.toFixed(1)} µs`,
  ratio: fmtRatio(cpuMedian[n]! / cpuMedian["raw ws"]!)
}))
const latencyRows: Array<Row> = contenders.map(([n]) => ({
  contender: n,
  value: `${latencyMedian[n]!.toFixed(2)} ms`,
  ratio: fmtRatio(latencyMedian[n]! / latencyMedian["raw ws"]!)
}))
const rateRows: Array<Row> = contenders.map(([n]) => ({
  contender: n,
  value: `${rateMedian[n]!.toFixed(0)} /s`,
  ratio: fmtRatio(rateMedian["raw ws"]! / rateMedian[n]!),
  note: "ratio: raw's rate over this one's (time per notification)"
}))
const slotRateRows: Array<Row> = contenders.map(([n]) => ({
  contender: n,
  value: `${slotRateMedian[n]!.toFixed(0)} /s`,
  ratio: fmtRatio(slotRateMedian["raw ws"]! / slotRateMedian[n]!)
}))
const targets: Array<Target> = [
  {
    name: "notification latency, world event to consumer",
    target: `within ${GOAL.latency}× raw ws`,
    measured: fmtRatio(latencyRatio),
    met: latencyRatio <= GOAL.latency
  },
  {
    name: "time per notification on one socket, one subscription (slots)",
    target: `within ${GOAL.single}× raw ws`,
    measured: fmtRatio(slotRateRatio),
    met: slotRateRatio <= GOAL.single
  },
  {
    name: `time per notification on one socket, ${SUBS} subscriptions`,
    target: `within ${GOAL.fanOut}× raw ws`,
    measured: fmtRatio(rateRatio),
    met: rateRatio <= GOAL.fanOut
  },
  {
    name: `client CPU per notification, ${SUBS} subscriptions`,
    target: `within ${GOAL.fanOutCpu}× raw ws`,
    measured: fmtRatio(cpuRatio),
    met: cpuRatio <= GOAL.fanOutCpu
  }
]
const result: ComparisonResult = {
  id: "notifications",
  title: "9. WebSocket notifications: solfx Subscriptions vs a raw ws client",
  setup:
    `Emulator in a child process, loopback. Latency: a world fund sent over HTTP to the account notification in the consumer's hands, ${LATENCIES} events per contender after 10 of warm-up, alternating. Rate on one subscription: slotSubscribe while the world advances 1,000 slots, ${BURSTS} times. Rate of a fan-out: ${SUBS} account subscriptions of one address on one socket, ${EVENTS} funds sent one after another (${
      SUBS * EVENTS
    } notifications), from the first fund sent to the last notification taken; ${RATE_REPS} repetitions alternating. The raw client JSON.parses each frame; solfx decodes it (Schema, exact u64), de-duplicates and buffers it per subscription.`,
  tables: [
    { caption: "Latency (median)", rows: latencyRows },
    { caption: "Notifications per second, one slot subscription (median)", rows: slotRateRows },
    { caption: `Notifications per second, ${SUBS} account subscriptions (median)`, rows: rateRows },
    {
      caption: `Client CPU per notification, ${SUBS} account subscriptions (median; user + system of this process)`,
      rows: cpuRows
    }
  ],
  targets,
  raw: [
    ...[...latency].map(([n, xs]) => `latency ${n}: ${xs.map((x) => x.toFixed(2)).join(" ")}`),
    ...[...rates].map(([n, xs]) => `rate ${n}: ${xs.map((x) => x.toFixed(0)).join(" ")}`),
    ...[...cpus].map(([n, xs]) => `cpu µs ${n}: ${xs.map((x) => x.toFixed(1)).join(" ")}`),
    ...[...slotRates].map(([n, xs]) => `slot rate ${n}: ${xs.map((x) => x.toFixed(0)).join(" ")}`)
  ]
}
emit(result)
