/**
 * The world's accounts as the chain holds them: the byte layouts round-trip and read real
 * accounts (kit's test-validator dumps), and every kind of address an area serves has an
 * account that agrees with it (seeded wallets, DAS token accounts and their mints, world mints,
 * the bank's overlay first).
 */
import { describe, expect, it } from "@effect/vitest"
import { base58ByteLength, encodeBase58 } from "@solfx/core/Primitives"
import * as Transaction from "@solfx/core/Transaction"
import * as RealFixtures from "@solfx/testing/RealFixtures"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import * as Fs from "node:fs"
import * as Accounts from "../src/Accounts.js"
import * as DasTokenAccounts from "../src/areas/digitalAssets/TokenAccounts.js"
import * as Emulator from "../src/Emulator.js"
import * as Layout from "../src/internal/AccountLayout.js"
import * as AssetSeed from "../src/seed/DigitalAssets.js"
import * as WalletActivity from "../src/seed/WalletActivity.js"
import * as Wallets from "../src/seed/Wallets.js"

const anyKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(encodeBase58)
const keys = Array.from({ length: 3 }, (_, i) => encodeBase58(new Uint8Array(32).fill(i + 1)))
const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })
const optKey = fc.option(anyKey, { nil: null })

describe("AccountLayout", () => {
  it("a mint and a token account encode to 82 and 165 bytes and decode to what was encoded", () => {
    fc.assert(
      fc.property(
        optKey,
        u64,
        fc.integer({ min: 0, max: 255 }),
        optKey,
        (mintAuthority, supply, decimals, freezeAuthority) => {
          const mint = { mintAuthority, supply, decimals, isInitialized: true, freezeAuthority }
          const data = Layout.encodeMint(mint)
          expect(data.length).toBe(82)
          expect(Layout.decodeMint(data)).toEqual(mint)
        }
      )
    )
    fc.assert(fc.property(
      anyKey,
      anyKey,
      u64,
      optKey,
      fc.constantFrom("initialized" as const, "frozen" as const),
      fc.option(u64, { nil: null }),
      u64,
      optKey,
      (mint, owner, amount, delegate, state, isNative, delegatedAmount, closeAuthority) => {
        const account = { mint, owner, amount, delegate, state, isNative, delegatedAmount, closeAuthority }
        const data = Layout.encodeTokenAccount(account)
        expect(data.length).toBe(165)
        expect(Layout.decodeTokenAccount(data)).toEqual(account)
      }
    ))
  })

  it("Token-2022: an account with immutableOwner is 170 bytes, type byte 2, and decodes its extension", () => {
    const account = {
      mint: keys[1]!,
      owner: keys[2]!,
      amount: 5n,
      delegate: null,
      state: "initialized" as const,
      isNative: null,
      delegatedAmount: 0n,
      closeAuthority: null,
      extensions: [Layout.IMMUTABLE_OWNER]
    }
    const data = Layout.encodeTokenAccount(account)
    expect(data.length).toBe(170)
    expect(data[165]).toBe(2)
    const back = Layout.decodeTokenAccount(data, Layout.TOKEN_2022_PROGRAM)
    expect(back?.extensions?.map((e) => e.extension)).toEqual(["immutableOwner"])
    // SPL Token does not read Token-2022's extended layout.
    expect(Layout.decodeTokenAccount(data, Layout.TOKEN_PROGRAM)).toBeUndefined()
    // The programs' ids as core's transaction parser knows them, each a 32-byte key.
    expect([Layout.TOKEN_PROGRAM, Layout.TOKEN_2022_PROGRAM]).toEqual([
      Transaction.TOKEN_PROGRAM,
      Transaction.TOKEN_2022_PROGRAM
    ])
    expect([Layout.TOKEN_PROGRAM, Layout.TOKEN_2022_PROGRAM].map(base58ByteLength)).toEqual([32, 32])
    expect(Layout.rentExempt(82)).toBe(1_461_600n)
    expect(Layout.rentExempt(165)).toBe(2_039_280n)
    expect(Layout.rentExempt(0)).toBe(890_880n)
  })

  it.skipIf(!RealFixtures.present("_account-dumps"))(
    "reads kit's test-validator dumps as kit's jsonParsed expects",
    () => {
      const dump = (name: string) =>
        JSON.parse(Fs.readFileSync(RealFixtures.path("_account-dumps", name), "utf8")).account as {
          data: [string, string]
        }
      const mint = Layout.decodeMint(Buffer.from(dump("kit-fixture-spl-token-mint.json").data[0], "base64"))
      expect(mint).toEqual({
        mintAuthority: "Gh9ZwEmdLJ8DscKNTkTqPbNwLNNBjuSzaG9Vp2KGtKJr",
        supply: 1690580887590527729n,
        decimals: 6,
        isInitialized: true,
        freezeAuthority: null
      })
      const bytes = Buffer.from(dump("kit-fixture-spl-token-account.json").data[0], "base64")
      const account = Layout.decodeTokenAccount(bytes)
      expect(account).toMatchObject({
        mint: "Gh9ZwEmdLJ8DscKNTkTqPbNwLNNBjuSzaG9Vp2KGtKJr",
        owner: "6UsGbaMgchgj4wiwKKuE1v5URHdcDfEiMSM25QpesKir",
        amount: 9999999779500000n,
        state: "initialized",
        isNative: null
      })
      // Encoding what was decoded gives the dump's bytes back.
      expect(Buffer.from(Layout.encodeTokenAccount(account!))).toEqual(bytes)
    }
  )
})

describe("Accounts", () => {
  it.scoped("seeded wallets, DAS token accounts and their mints, world mints; the overlay first", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed: 42 })
      const ds = emu.dataset
      const accounts = emu.accounts
      const wallet = Wallets.walletAt(ds, 3)
      const sol = accounts.get(wallet)!
      expect(sol.owner).toBe(Layout.SYSTEM_PROGRAM)
      expect(sol.data.length).toBe(0)
      expect(sol.lamports).toBe(WalletActivity.seededLamports(ds, wallet))
      expect(sol.rentEpoch).toBe(Accounts.RENT_EPOCH_EXEMPT)
      expect(accounts.get(ds.address("nobody"))).toBeUndefined()

      // A DAS token account of the sample owner, and its mint.
      const seeded = DasTokenAccounts.ownerAccounts(ds, AssetSeed.sampleOwner(ds)).at(7)
      const account = accounts.get(seeded.address)!
      expect(account.owner).toBe(Layout.TOKEN_PROGRAM)
      expect(account.lamports).toBe(2_039_280n)
      expect(Layout.decodeTokenAccount(account.data)).toMatchObject({
        mint: seeded.mint,
        owner: seeded.owner,
        amount: seeded.amount
      })
      const mint = accounts.get(seeded.mint)!
      expect(Layout.decodeMint(mint.data)?.decimals).toBe(DasTokenAccounts.mintDecimals(ds, seeded.mint))
      const listed = accounts.tokenAccountsByOwner(AssetSeed.sampleOwner(ds))
      expect(Array.isArray(listed) && listed.includes(seeded.address)).toBe(true)

      // A seeded wallet's token account: the Wallet API's token program.
      const held = Wallets.walletTokenAccounts(ds, wallet, false).at(0)
      const heldAccount = accounts.get(held.address)!
      const program = Wallets.walletMintProgram(ds, held.mint) === "token-2022"
        ? Layout.TOKEN_2022_PROGRAM
        : Layout.TOKEN_PROGRAM
      expect(heldAccount.owner).toBe(program)
      expect(accounts.get(held.mint)!.owner).toBe(program)

      // A world mint: its supply as minted.
      const receipt = yield* emu.world.mintFungible({ owner: wallet, amount: 1234n, decimals: 2 })
      expect(Layout.decodeMint(accounts.get(receipt.mint!)!.data)).toMatchObject({ supply: 1234n, decimals: 2 })
      expect(Layout.decodeTokenAccount(accounts.get(receipt.tokenAccount!)!.data)?.amount).toBe(1234n)

      // The bank's write wins, and a closed account is gone.
      accounts.write(wallet, { ...sol, lamports: 1n })
      expect(accounts.get(wallet)?.lamports).toBe(1n)
      accounts.write(receipt.tokenAccount!, undefined)
      expect(accounts.get(receipt.tokenAccount!)).toBeUndefined()
      expect(accounts.byOwnerProgram(Layout.TOKEN_PROGRAM)).toMatchObject({ _tag: "TooMany" })
    }))
})
