/**
 * The emulator's webhook deliverer on its own: payloads built from the world's
 * landed transactions (kit-signed bundles sent to an emulator) decode with core's
 * delivery schema and agree with what kit built and what the world applied; and
 * the delivery loop (matching, Authorization, retries, usage, disabling) against a
 * plain node:http server on loopback.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Json from "@solfx/core/Json"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import { build, LOOKUP_TABLE, memo, signer, TIP, transfer } from "@solfx/testing/Kit"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Http from "node:http"
import * as Dataset from "../src/Dataset.js"
import * as Emulator from "../src/Emulator.js"
import * as Events from "../src/Events.js"
import * as Projects from "../src/Projects.js"
import * as WebhookDeliveries from "../src/WebhookDeliveries.js"
import { post, rpc } from "./support/Http.js"

const dataset = Dataset.make(7)

const fixtures = (async () => {
  const payer = await signer()
  const wallet = await signer()
  const legacy = await build({
    version: "legacy",
    payer,
    instructions: [transfer(payer, wallet.address, 1_234_567n), transfer(payer, TIP, 1000n)]
  })
  const v0 = await build({
    version: 0,
    payer,
    instructions: [memo("hello"), transfer(payer, wallet.address, 42n)],
    lookupTables: { [LOOKUP_TABLE]: [] }
  })
  const memoOnly = await build({ version: "legacy", payer, instructions: [memo("only"), transfer(payer, TIP, 1000n)] })
  return { payer: payer.address, wallet: wallet.address, legacy, v0, memoOnly }
})()
const kit = Effect.promise(() => fixtures)

/**
 * The world's record of each transaction of `bundles` (one bundle each), landed in
 * a fresh emulator: what delivery reads.
 */
const landedOf = (payer: string, bundles: ReadonlyArray<ReadonlyArray<string>>) =>
  Effect.gen(function*() {
    const emu = yield* Emulator.make({ webhooks: [] })
    // Unfunded payers cannot pay: the bundle would be accepted but not land.
    yield* Effect.orDie(emu.world.fund({ address: payer, lamports: 10_000_000_000n }))
    const seen: Array<Events.LandedTransaction> = []
    const unsubscribe = emu.events.worldLanded.subscribe((e) => void seen.push(...e.transactions))
    for (const bundle of bundles) {
      const reply = yield* rpc(emu, "sendBundle", [bundle, { encoding: "base64" }])
      expect(reply.json?.result, reply.text).toBeTypeOf("string")
    }
    unsubscribe()
    return seen
  })

/** The kit fixtures, landed: legacy (pays the wallet and tips), v0 (memo, pays the wallet), memo-only (tips). */
const world = Effect.flatMap(kit, (k) =>
  Effect.map(
    landedOf(k.payer, [[k.legacy.base64], [k.v0.base64, k.memoOnly.base64]]),
    ([legacy, v0, memoOnly]) => ({ legacy: legacy!, v0: v0!, memoOnly: memoOnly! })
  ))

const roundTrip = (item: WebhookDelivery.DeliveryItem) => {
  const decoded = WebhookDelivery.decode(Json.parse(Json.stringify(WebhookDelivery.encode([item]))))
  if (Either.isLeft(decoded)) throw new Error(decoded.left.message)
  return decoded.right[0]!
}

describe("webhook payloads", () => {
  it.scopedLive("enhanced: the signature, the transfers kit built, balance changes summing to minus the fee", () =>
    Effect.gen(function*() {
      const k = yield* kit
      const tx = (yield* world).legacy
      const item = roundTrip(WebhookDeliveries.enhancedOf(tx))
      if (item.kind !== "enhanced") return expect.fail("not enhanced")
      expect(item.signature).toBe(k.legacy.signatures[0])
      expect(item.type).toBe("TRANSFER")
      expect(item.feePayer).toBe(k.payer)
      expect(item.fee).toBe(5000n)
      expect(item.nativeTransfers).toEqual([
        { fromUserAccount: k.payer, toUserAccount: k.wallet, amount: 1_234_567n },
        { fromUserAccount: k.payer, toUserAccount: TIP, amount: 1000n }
      ])
      const change = (a: string) => item.accountData.find((d) => d.account === a)!.nativeBalanceChange
      expect(change(k.wallet)).toBe(1_234_567n)
      expect(change(k.payer)).toBe(-(1_234_567n + 1000n + 5000n))
      expect(item.accountData.reduce((s, d) => s + d.nativeBalanceChange, 0n)).toBe(-5000n)
      expect(item.description).toBe(`${k.payer} transferred 0.001234567 SOL to ${k.wallet}.`)
      expect([item.slot, item.timestamp]).toEqual([tx.slot, tx.blockTime])
    }))

  it.scopedLive("raw: the message as kit compiled it, the world's balances before and after, lookups for v0", () =>
    Effect.gen(function*() {
      const k = yield* kit
      const w = yield* world
      for (const built of [k.legacy, k.v0]) {
        const tx = built === k.legacy ? w.legacy : w.v0
        const item = roundTrip(WebhookDeliveries.rawOf(tx, dataset))
        if (item.kind !== "raw") return expect.fail("not raw")
        const compiled = built.compiled as any
        expect(item.transaction.signatures).toEqual(built.signatures)
        expect(item.transaction.message.accountKeys).toEqual(compiled.staticAccounts)
        expect(item.transaction.message.recentBlockhash).toBe(compiled.lifetimeToken)
        expect(item.transaction.message.header).toEqual({
          numRequiredSignatures: compiled.header.numSignerAccounts,
          numReadonlySignedAccounts: compiled.header.numReadonlySignerAccounts,
          numReadonlyUnsignedAccounts: compiled.header.numReadonlyNonSignerAccounts
        })
        expect(item.transaction.message.instructions.map((ix) => ix.programIdIndex)).toEqual(
          compiled.instructions.map((ix: any) => ix.programAddressIndex)
        )
        expect(item.blockTime).toEqual(Option.some(tx.blockTime))
        expect(item.indexWithinBlock).toBe(tx.index)
        expect(item.version).toBe(built === k.v0 ? 0 : "legacy")
        expect(item.transaction.message.addressTableLookups === undefined).toBe(built === k.legacy)
        const payerIndex = 0
        const moved = built === k.legacy ? 1_234_567n + 1000n : 42n
        expect(item.meta.preBalances[payerIndex]! - item.meta.postBalances[payerIndex]!).toBe(moved + 5000n)
        expect(item.meta.postBalances.every((b) => b >= 0n)).toBe(true)
      }
    }))

  it.scopedLive("matching: a touched account watched; enhanced kinds filter by type, raw ones do not", () =>
    Effect.gen(function*() {
      const k = yield* kit
      const w = yield* world
      const target = (over: Partial<WebhookDeliveries.Target>): WebhookDeliveries.Target => ({
        webhookID: "w",
        webhookURL: "http://127.0.0.1:1/",
        webhookType: "enhanced",
        accountAddresses: [k.wallet],
        transactionTypes: ["ANY"],
        active: true,
        ...over
      })
      const transferTx = w.legacy
      const memoTx = w.memoOnly
      expect(WebhookDeliveries.matches(target({}), transferTx)).toBe(true)
      expect(WebhookDeliveries.matches(target({ transactionTypes: ["TRANSFER"] }), transferTx)).toBe(true)
      expect(WebhookDeliveries.matches(target({ transactionTypes: ["SWAP"] }), transferTx)).toBe(false)
      expect(WebhookDeliveries.matches(target({ webhookType: "raw", transactionTypes: ["SWAP"] }), transferTx)).toBe(
        true
      )
      expect(WebhookDeliveries.matches(target({ webhookType: "discord" }), transferTx)).toBe(false)
      expect(WebhookDeliveries.matches(target({}), memoTx)).toBe(false)
      expect(WebhookDeliveries.matches(target({ accountAddresses: [k.payer] }), memoTx)).toBe(true)
    }))
})

/** A node:http server answering with `statuses` in turn (the last one repeats). */
const receiver = (statuses: ReadonlyArray<number>) =>
  Effect.acquireRelease(
    Effect.async<{ url: string; seen: Array<{ auth: string | undefined; body: string }>; server: Http.Server }>(
      (resume) => {
        const seen: Array<{ auth: string | undefined; body: string }> = []
        const server = Http.createServer((req, res) => {
          let body = ""
          req.on("data", (c) => (body += c))
          req.on("end", () => {
            seen.push({ auth: req.headers.authorization, body })
            res.statusCode = statuses[Math.min(seen.length - 1, statuses.length - 1)]!
            res.end()
          })
        })
        server.listen(0, "127.0.0.1", () => {
          const port = (server.address() as { port: number }).port
          resume(Effect.succeed({ url: `http://127.0.0.1:${port}/hook`, seen, server }))
        })
      }
    ),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

const stateFn = () => {
  const states = new Map<string, unknown>()
  return <S>(key: string, init: () => S): S => {
    if (!states.has(key)) states.set(key, init())
    return states.get(key) as S
  }
}

describe("webhook delivery loop", () => {
  it.scopedLive("retries a 500, sends Authorization, counts each attempt in the owner's usage", () =>
    Effect.gen(function*() {
      const k = yield* kit
      const w = yield* world
      const server = yield* receiver([500, 200])
      const state = stateFn()
      const project = Projects.makeAccount({}, Date.now()).project
      const hook: WebhookDeliveries.Target = {
        webhookID: "hook-1",
        webhookURL: server.url,
        webhookType: "enhanced",
        accountAddresses: [k.wallet],
        transactionTypes: ["TRANSFER"],
        authHeader: "Bearer abc",
        active: true
      }
      const swaps: WebhookDeliveries.Target = { ...hook, webhookID: "hook-2", transactionTypes: ["SWAP"] }
      const deliverer = yield* WebhookDeliveries.start({
        state,
        dataset,
        now: Date.now,
        webhooks: () => [{ webhook: hook, project }, { webhook: swaps, project }],
        options: { retrySpacing: "20 millis" }
      })
      Events.worldLanded(state).publish({ slot: 5, transactions: [w.legacy, w.memoOnly] })
      yield* deliverer.idle
      expect(deliverer.attempts().map((a) => [a.webhookID, a.attempt, a.status])).toEqual([
        ["hook-1", 1, 500],
        ["hook-1", 2, 200]
      ])
      expect(server.seen.map((s) => s.auth)).toEqual(["Bearer abc", "Bearer abc"])
      expect(server.seen[0]!.body).toBe(server.seen[1]!.body)
      const body = JSON.parse(server.seen[0]!.body)
      expect(body.length).toBe(1)
      expect(body[0].signature).toBe(k.legacy.signatures[0])
      expect(project.usage.webhook).toBe(2)
      expect(hook.active).toBe(true)
    }))

  it.scopedLive("gives up after maxRetries, and disables a webhook at the failure threshold", () =>
    Effect.gen(function*() {
      const k = yield* kit
      const w = yield* world
      const server = yield* receiver([503])
      const state = stateFn()
      const project = Projects.makeAccount({}, Date.now()).project
      const hook: WebhookDeliveries.Target = {
        webhookID: "flaky",
        webhookURL: server.url,
        webhookType: "raw",
        accountAddresses: [k.wallet],
        transactionTypes: [],
        active: true
      }
      const deliverer = yield* WebhookDeliveries.start({
        state,
        dataset,
        now: Date.now,
        webhooks: () => [{ webhook: hook, project }],
        options: { retrySpacing: "10 millis", failureThreshold: 6 }
      })
      const landed = Events.worldLanded(state)
      landed.publish({ slot: 5, transactions: [w.legacy] })
      yield* deliverer.idle
      // 1 attempt + 3 retries, all failed; no Authorization when none is set.
      expect(deliverer.attempts().length).toBe(4)
      expect(server.seen.every((s) => s.auth === undefined)).toBe(true)
      expect(hook.active).toBe(true)
      landed.publish({ slot: 6, transactions: [w.v0] })
      yield* deliverer.idle
      // The 6th consecutive failure disables it: the 7th attempt is never made.
      expect(deliverer.attempts().length).toBe(6)
      expect(hook.active).toBe(false)
      expect(project.usage.webhook).toBe(6)
      landed.publish({ slot: 7, transactions: [w.memoOnly] })
      yield* deliverer.idle
      expect(server.seen.length).toBe(6)
    }))

  it.scopedLive("a refused connection is a failed attempt too", () =>
    Effect.gen(function*() {
      const k = yield* kit
      const w = yield* world
      const state = stateFn()
      const project = Projects.makeAccount({}, Date.now()).project
      const hook: WebhookDeliveries.Target = {
        webhookID: "gone",
        webhookURL: "http://127.0.0.1:1/hook",
        webhookType: "enhanced",
        accountAddresses: [k.wallet],
        transactionTypes: ["ANY"],
        active: true
      }
      const deliverer = yield* WebhookDeliveries.start({
        state,
        dataset,
        now: Date.now,
        webhooks: () => [{ webhook: hook, project }],
        options: { retrySpacing: "5 millis", maxRetries: 1 }
      })
      Events.worldLanded(state).publish({ slot: 5, transactions: [w.legacy] })
      yield* deliverer.idle
      expect(deliverer.attempts().map((a) => a.status)).toEqual([0, 0])
      expect(project.usage.webhook).toBe(2)
    }))

  it.scopedLive("a world API transfer and mint (no bundle) reach the webhooks watching their accounts", () =>
    Effect.gen(function*() {
      const server = yield* receiver([200])
      const emu = yield* Emulator.make({ webhooks: [] })
      const [from, to] = [dataset.address("deliveries:from"), dataset.address("deliveries:to")]
      const hooks = [
        { webhookURL: server.url, webhookType: "raw", accountAddresses: [to] },
        { webhookURL: server.url, webhookType: "enhanced", accountAddresses: [to], transactionTypes: ["TRANSFER"] },
        { webhookURL: server.url, webhookType: "raw", accountAddresses: [to], txnStatus: "failed" }
      ]
      for (const hook of hooks) {
        expect((yield* post(emu, hook, { path: "/v0/webhooks" })).status).toBe(200)
      }
      yield* Effect.orDie(emu.world.fund({ address: from, lamports: 5_000_000_000n }))
      const sent = yield* Effect.orDie(emu.world.transfer({ from, to, lamports: 1_500_000n }))
      yield* Effect.orDie(emu.world.mintFungible({ owner: to, amount: 7n }))
      yield* emu.webhookDeliveries.idle
      const items = server.seen.map((s) => {
        const decoded = WebhookDelivery.decode(JSON.parse(s.body))
        if (Either.isLeft(decoded)) throw new Error(decoded.left.message)
        return decoded.right[0]!
      })
      // The transfer to both matching kinds; the mint (TOKEN_MINT) to the raw one only; none to failed-only.
      // (Deliveries run concurrently: their order of arrival is not asserted.)
      const isTransfer = (i: WebhookDelivery.DeliveryItem) => WebhookDelivery.signatureOf(i) === sent.signature
      expect(items.map((i) => `${i.kind} ${isTransfer(i) ? "transfer" : "mint"}`).sort()).toEqual([
        "enhanced transfer",
        "raw mint",
        "raw transfer"
      ])
      const enhanced = items.find((i) => i.kind === "enhanced")!
      if (enhanced.kind !== "enhanced") return expect.fail("not enhanced")
      expect(enhanced.nativeTransfers).toEqual([{ fromUserAccount: from, toUserAccount: to, amount: 1_500_000n }])
      const raw = items.find((i) => i.kind === "raw" && isTransfer(i))!
      if (raw.kind !== "raw") return expect.fail("not raw")
      const at = raw.transaction.message.accountKeys.indexOf(to as never)
      expect(raw.meta.postBalances[at]! - raw.meta.preBalances[at]!).toBe(1_500_000n)
    }))

  it.scopedLive("a world API compress (a compressed NFT, compressed tokens) reaches the webhooks watching its owner", () =>
    Effect.gen(function*() {
      const server = yield* receiver([200])
      const emu = yield* Emulator.make({ webhooks: [] })
      const owner = dataset.address("deliveries:compress")
      for (const webhookType of ["raw", "enhanced"]) {
        const hook = { webhookURL: server.url, webhookType, accountAddresses: [owner] }
        expect((yield* post(emu, hook, { path: "/v0/webhooks" })).status).toBe(200)
      }
      const minted = yield* Effect.orDie(emu.world.mintFungible({ owner, amount: 9n }))
      const leaf = yield* Effect.orDie(emu.world.compress({ owner }))
      const tokens = yield* Effect.orDie(emu.world.compress({ owner, mint: minted.mint, amount: 4n }))
      yield* emu.webhookDeliveries.idle
      const seen = server.seen.map((s) => {
        const decoded = WebhookDelivery.decode(JSON.parse(s.body))
        if (Either.isLeft(decoded)) throw new Error(decoded.left.message)
        const item = decoded.right[0]!
        return `${item.kind} ${WebhookDelivery.signatureOf(item)}`
      })
      // Each of the three transactions to both webhooks (in any order: deliveries run concurrently).
      expect(seen.sort()).toEqual(
        [minted, leaf, tokens].flatMap((r) => [`enhanced ${r.signature}`, `raw ${r.signature}`]).sort()
      )
    }))
})
