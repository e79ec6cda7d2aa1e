/**
 * The floor of a fiber per subscription, without sockets (section 9's "why"): 500 consumers, each
 * given one item per round (as one event reaches 500 subscriptions), woken once per round, for 200
 * rounds; client CPU per item. Consumers: a bare fiber loop (`Effect.async`, then `Effect.forEach` of
 * the chunk), a `Stream` built as `@solfx/subscriptions` builds one (a channel loop over the pull)
 * consumed by `Stream.runForEach`, and the same by `Stream.runForEachChunk`.
 * Run: node --import tsx bench/stream-floor.ts
 */
import * as Channel from "effect/Channel"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"

const SUBS = 500
const ROUNDS = 200

interface Sub {
  items: Array<number>
  resume: (() => void) | undefined
}

const pull = (sub: Sub) =>
  Effect.suspend(() => {
    const take = () => {
      const out = sub.items
      sub.items = []
      return Chunk.unsafeFromArray(out)
    }
    if (sub.items.length > 0) return Effect.succeed(take())
    return Effect.async<Chunk.Chunk<number>>((resume) => {
      sub.resume = () => resume(Effect.sync(take))
    })
  })

const stream = (sub: Sub): Stream.Stream<number> => {
  const loop: Channel.Channel<Chunk.Chunk<number>, unknown, never, unknown, void, unknown> = Channel.flatMap(
    Channel.fromEffect(pull(sub)),
    (chunk) => Channel.zipRight(Channel.write(chunk), loop)
  )
  return Stream.fromChannel(loop)
}

const consumers = {
  "fiber loop": (sub: Sub, seen: () => void) =>
    Effect.forever(Effect.flatMap(pull(sub), (c) => Effect.forEach(c, () => Effect.sync(seen), { discard: true }))),
  "Stream, runForEach": (sub: Sub, seen: () => void) => Stream.runForEach(stream(sub), () => Effect.sync(seen)),
  "Stream, runForEachChunk": (sub: Sub, seen: () => void) =>
    Stream.runForEachChunk(stream(sub), (c) => Effect.sync(() => Chunk.forEach(c, seen)))
}

const tick = () => new Promise((r) => setImmediate(r))

for (const [name, consume] of Object.entries(consumers)) {
  let seen = 0
  const subs: Array<Sub> = Array.from({ length: SUBS }, () => ({ items: [], resume: undefined }))
  const fibers = subs.map((s) => Effect.runFork(consume(s, () => void seen++)))
  await tick()
  const c0 = process.cpuUsage()
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of subs) {
      s.items.push(round)
      const resume = s.resume
      s.resume = undefined
      resume?.()
    }
    while (seen < (round + 1) * SUBS) await tick()
  }
  const cpu = process.cpuUsage(c0)
  process.stdout.write(`${name}: ${((cpu.user + cpu.system) / (SUBS * ROUNDS)).toFixed(1)} µs of CPU per item\n`)
  await Effect.runPromise(Fiber.interruptAll(fibers))
}
