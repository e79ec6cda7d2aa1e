/**
 * An account's bytes agree with every area that shows it, on seeds 42, 7 and 1234, fast-check
 * choosing what to look at, all over raw HTTP: getAccountInfo's bytes of a token account are the
 * mint, owner, amount, delegate and state DAS's getTokenAccounts lists; a seeded wallet's SOL and
 * token accounts (getBalance, getTokenAccountsByOwner over both token programs) are its Wallet
 * API balances, each on the token program its balance names; a world mint and its account after
 * the world API moved them are what DAS and the Wallet API show.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Json from "@solfx/core/Json"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import * as Emulator from "../src/Emulator.js"
import * as Layout from "../src/internal/AccountLayout.js"
import * as Wallets from "../src/seed/Wallets.js"
import { get, post, rpc } from "./support/Http.js"

const SEEDS = [42, 7, 1234] as const
const RUNS = 4
const NATIVE_MINT = "So11111111111111111111111111111111111111112"

const call = (emu: Emulator.Emulator, method: string, params: unknown) =>
  Effect.map(rpc(emu, method, params), (r) => {
    const body = Json.parse(r.text) as any
    if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`)
    return body.result
  })

const property = <A>(arb: fc.Arbitrary<A>, check: (a: A) => Effect.Effect<void>, seed: number) =>
  Effect.promise(() => fc.assert(fc.asyncProperty(arb, (a) => Effect.runPromise(check(a))), { numRuns: RUNS, seed }))

/** The account's bytes, from getAccountInfo base64. */
const bytesOf = (emu: Emulator.Emulator, address: string) =>
  Effect.map(call(emu, "getAccountInfo", [address, { encoding: "base64", commitment: "processed" }]), (r) => ({
    owner: r.value?.owner as string | undefined,
    data: r.value === null ? undefined : new Uint8Array(Buffer.from(r.value.data[0], "base64"))
  }))

const rawOf = (amount: number, decimals: number) => BigInt(Math.round(amount * 10 ** decimals))

describe.each(SEEDS)("accounts agree with every area, seed %i", (seed) => {
  it.scopedLive(
    "getAccountInfo's bytes of DAS's token accounts are what getTokenAccounts lists",
    () =>
      Effect.gen(function*() {
        const emu = yield* Emulator.make({ seed })
        const owner = emu.samples.tokenAccountOwner
        const page = (yield* post(emu, {
          jsonrpc: "2.0",
          id: "1",
          method: "getTokenAccounts",
          params: { owner, limit: 1000, options: { showZeroBalance: true } }
        })).text
        const listed = (Json.parse(page) as any).result.token_accounts as Array<any>
        expect(listed.length).toBeGreaterThan(0)
        yield* property(fc.constantFrom(...listed), (t) =>
          Effect.gen(function*() {
            const { data, owner: program } = yield* bytesOf(emu, t.address)
            expect(program).toBe(Layout.TOKEN_PROGRAM)
            const account = Layout.decodeTokenAccount(data!)!
            expect(account).toMatchObject({
              mint: t.mint,
              owner: t.owner,
              amount: BigInt(t.amount),
              delegate: t.delegate ?? null,
              delegatedAmount: BigInt(t.delegated_amount),
              state: t.frozen ? "frozen" : "initialized"
            })
            // The mint exists, as the account's program's mint.
            const mint = yield* bytesOf(emu, t.mint)
            expect(mint.owner).toBe(Layout.TOKEN_PROGRAM)
            expect(Layout.decodeMint(mint.data!)).toBeDefined()
          }), seed)
      }),
    300_000
  )

  it.scopedLive(
    "a seeded wallet's SOL and token accounts are its Wallet API balances, on their token programs",
    () =>
      Effect.gen(function*() {
        const emu = yield* Emulator.make({ seed })
        yield* property(fc.nat({ max: 40 }), (i) =>
          Effect.gen(function*() {
            const wallet = Wallets.walletAt(emu.dataset, i)
            const query = { limit: "100", showZeroBalance: "true" }
            const balances = new Map<string, { raw: bigint; program: string }>()
            for (let page = 1;; page++) {
              const r = yield* get(emu, `/v1/wallet/${wallet}/balances`, { query: { ...query, page: String(page) } })
              expect(r.status, r.text).toBe(200)
              for (const b of r.json.balances as Array<any>) {
                balances.set(b.mint, { raw: rawOf(b.balance, b.decimals), program: b.tokenProgram })
              }
              if (!r.json.pagination.hasMore) break
            }
            const sol = yield* call(emu, "getBalance", [wallet, { commitment: "processed" }])
            expect(BigInt(sol.value)).toBe(balances.get(NATIVE_MINT)!.raw)
            const held = new Map<string, { raw: bigint; program: string }>()
            for (const program of [Layout.TOKEN_PROGRAM, Layout.TOKEN_2022_PROGRAM]) {
              const r = yield* call(emu, "getTokenAccountsByOwner", [wallet, { programId: program }, {
                encoding: "jsonParsed",
                commitment: "processed"
              }])
              for (const k of r.value as Array<any>) {
                const info = k.account.data.parsed.info
                expect(info.owner).toBe(wallet)
                expect(k.account.data.program).toBe(program === Layout.TOKEN_PROGRAM ? "spl-token" : "spl-token-2022")
                held.set(info.mint, {
                  raw: BigInt(info.tokenAmount.amount),
                  program: program === Layout.TOKEN_PROGRAM ? "spl-token" : "token-2022"
                })
              }
            }
            // Every fungible balance (SOL aside) is a token account of that amount, on its program.
            for (const [mint, b] of balances) {
              if (mint === NATIVE_MINT) continue
              expect(held.get(mint), `${wallet}: ${mint}`).toEqual(b)
            }
          }), seed)
      }),
    300_000
  )

  it.scopedLive(
    "what the world API made and moved: its mint and accounts as DAS and the Wallet API show them",
    () =>
      Effect.gen(function*() {
        const emu = yield* Emulator.make({ seed })
        const from = Wallets.walletAt(emu.dataset, 2)
        const to = emu.dataset.address("fresh:recipient")
        const minted = yield* emu.world.mintFungible({ owner: from, amount: 5_000n, decimals: 3 })
        const moved = yield* emu.world.transfer({ from, to, mint: minted.mint!, amount: 1_234n })
        const asset = (yield* call(emu, "getAsset", { id: minted.mint })) as any
        const mint = Layout.decodeMint((yield* bytesOf(emu, minted.mint!)).data!)!
        expect(mint).toMatchObject({ supply: BigInt(asset.token_info.supply), decimals: asset.token_info.decimals })
        const sent = Layout.decodeTokenAccount((yield* bytesOf(emu, moved.tokenAccount!)).data!)!
        expect(sent).toMatchObject({ mint: minted.mint, owner: to, amount: 1_234n })
        const balances = (yield* get(emu, `/v1/wallet/${to}/balances`)).json.balances as Array<any>
        const shown = balances.find((b) => b.mint === minted.mint)
        expect(rawOf(shown.balance, shown.decimals)).toBe(sent.amount)
        const supply = yield* call(emu, "getTokenSupply", [minted.mint])
        expect(supply.value.amount).toBe("5000")
      }),
    300_000
  )
})
