/**
 * Every integer that can exceed 2^53 (amounts, balances, supply, lamports,
 * holders) arrives exact: the value the user gets from the SDK equals the
 * digits the emulator wrote, read straight from the response text with a regex
 * (an oracle independent of the SDK's JSON parser).
 */
import { describe, expect, it } from "@effect/vitest"
import * as TokenMetadataArea from "@solfx/emulator/areas/TokenMetadata"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Compression from "@solfx/rpc/Compression"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as TokenMetadata from "@solfx/rpc/TokenMetadata"
import * as Wallet from "@solfx/wallet/Wallet"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { overEmulator } from "./support/Sdk.js"

const SAFE = 2n ** 53n

/** The integers written for `field`, in document order (bare numbers or decimal strings). */
const wire = (text: string, field: string): Array<bigint> =>
  [...text.matchAll(new RegExp(`"${field}":"?(\\d+)"?[,}\\]]`, "g"))].map((m) => BigInt(m[1]!))

const rpcText = (emu: Emulator.Emulator, method: string, params: unknown) =>
  Effect.promise(() =>
    fetch(`${emu.url}/?api-key=${emu.apiKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "raw", method, params })
    }).then((r) => r.text())
  )

const restText = (emu: Emulator.Emulator, path: string, body?: unknown) =>
  Effect.promise(() =>
    fetch(`${emu.url}${path}${path.includes("?") ? "&" : "?"}api-key=${emu.apiKey}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    }).then((r) => r.text())
  )

const figures: Array<{ readonly field: string; readonly values: number; readonly beyond2to53: number }> = []

/** The SDK's values equal the wire's, and some of them are beyond 2^53 where a double would round. */
const exact = (field: string, sdk: ReadonlyArray<bigint>, onWire: ReadonlyArray<bigint>) => {
  expect(sdk.length).toBeGreaterThan(0)
  expect(sdk.every((v) => typeof v === "bigint")).toBe(true)
  expect(sdk).toEqual(onWire)
  const big = sdk.filter((v) => v > SAFE)
  expect(big.length, `${field}: no value beyond 2^53 was served`).toBeGreaterThan(0)
  expect(big.some((v) => BigInt(Number(v)) !== v)).toBe(true)
  figures.push({ field, values: sdk.length, beyond2to53: big.length })
}

describe("integers beyond 2^53 round-trip exactly from the emulator to the user", () => {
  it.live("compression: holders' balances, balances by owner, token amounts, lamports, discriminators", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const zk = yield* Compression.Compression
      const mint = emu.samples.compressedTokenMint
      const owner = emu.samples["compressedTokenOwner"]!

      const holders = yield* zk.getCompressedMintTokenHolders({ mint, limit: 1000 })
      exact(
        "holders.balance",
        holders.value.items.map((h) => h.balance),
        wire(yield* rpcText(emu, "getCompressedMintTokenHolders", { mint, limit: 1000 }), "balance")
      )

      const balances = yield* zk.getCompressedTokenBalancesByOwnerV2({ owner })
      exact(
        "tokenBalances.balance",
        balances.value.items.map((b) => b.balance),
        wire(yield* rpcText(emu, "getCompressedTokenBalancesByOwnerV2", { owner }), "balance")
      )

      const accounts = yield* zk.getCompressedTokenAccountsByOwner({ owner })
      exact(
        "tokenAccounts.tokenData.amount",
        accounts.value.items.map((a) => a.tokenData.amount),
        wire(yield* rpcText(emu, "getCompressedTokenAccountsByOwner", { owner }), "amount")
      )

      // A transaction of the big address: the accounts it closed and opened carry u64 lamports and discriminators.
      const [latest] =
        (yield* zk.getCompressionSignaturesForAddress({ address: emu.samples["compressionAddress"]!, limit: 1 })).value
          .items
      const signature = latest!.signature
      const tx = yield* zk.getTransactionWithCompressionInfo({ signature })
      const text = yield* rpcText(emu, "getTransactionWithCompressionInfo", { signature })
      const all = [...tx.compressionInfo.closedAccounts, ...tx.compressionInfo.openedAccounts]
      // The wire lists closed accounts first, as the SDK does.
      exact("compressedAccount.lamports", all.map((a) => a.account.lamports), wire(text, "lamports"))
      exact(
        "compressedAccount.data.discriminator",
        all.map((a) => a.account.data!.discriminator),
        wire(text, "discriminator")
      )
    }).pipe(Effect.provide(overEmulator())))

  it.live("digital assets: token account amounts and delegated amounts, edition supply", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const das = yield* DigitalAssets.DigitalAssets
      const owner = emu.samples.tokenAccountOwner

      const accounts = yield* das.getTokenAccounts({ owner, page: 1, limit: 1000 })
      const text = yield* rpcText(emu, "getTokenAccounts", { owner, page: 1, limit: 1000 })
      exact("tokenAccount.amount", accounts.token_accounts.map((a) => a.amount), wire(text, "amount"))
      exact(
        "tokenAccount.delegated_amount",
        accounts.token_accounts.map((a) => a.delegated_amount),
        wire(text, "delegated_amount")
      )

      const authorityAddress = emu.samples.assetAuthority
      const assets = yield* das.getAssetsByAuthority({ authorityAddress, page: 1, limit: 200 })
      const assetsText = yield* rpcText(emu, "getAssetsByAuthority", { authorityAddress, page: 1, limit: 200 })
      const supplies = assets.items.flatMap((a) => (a.supply ? [a.supply] : []))
      exact(
        "asset.supply.print_max_supply",
        supplies.map((s) => s.print_max_supply!),
        wire(assetsText, "print_max_supply")
      )
      exact(
        "asset.supply.print_current_supply",
        supplies.map((s) => s.print_current_supply!),
        wire(assetsText, "print_current_supply")
      )
    }).pipe(Effect.provide(overEmulator())))

  it.live("token metadata: mint supply, account lamports and rent epoch", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const metadata = yield* TokenMetadata.TokenMetadata
      const mints = Array.from({ length: 100 }, (_, i) => TokenMetadataArea.mintAt(emu.dataset, i))
      const records = yield* metadata.getTokenMetadata({ mintAccounts: mints })
      const text = yield* restText(emu, "/v0/token-metadata", { mintAccounts: mints })
      const infos = records.flatMap((r) =>
        Either.isRight(r.onChainAccountInfo) ? [r.onChainAccountInfo.right.accountInfo] : []
      )
      expect(infos.length).toBeGreaterThan(50)
      exact("mint.supply", infos.map((i) => i.data!.parsed!.info!.supply!), wire(text, "supply"))
      exact("account.rentEpoch", infos.map((i) => i.rentEpoch), wire(text, "rentEpoch"))
      // Mint accounts hold the rent-exempt minimum: exact too, though small.
      expect(infos.map((i) => i.lamports)).toEqual(wire(text, "lamports"))
    }).pipe(Effect.provide(overEmulator())))

  it.live("wallet: raw transfer amounts and the funding amount", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const wallet = yield* Wallet.Wallet
      const address = emu.samples["wallet"]!
      const page = yield* wallet.transfers(address, { limit: 100 })
      exact(
        "transfer.amountRaw",
        page.data.map((t) => t.amountRaw),
        wire(yield* restText(emu, `/v1/wallet/${address}/transfers?limit=100`), "amountRaw")
      )
      const funded = yield* wallet.fundedBy(address)
      expect(Option.map(funded, (f) => f.amountRaw)).toEqual(
        Option.some(wire(yield* restText(emu, `/v1/wallet/${address}/funded-by`), "amountRaw")[0]!)
      )
    }).pipe(Effect.provide(overEmulator())))

  it("summary", () => {
    const values = figures.reduce((n, f) => n + f.values, 0)
    const big = figures.reduce((n, f) => n + f.beyond2to53, 0)
    console.log(
      `[reliability] precision: fields=${figures.length} values=${values} beyond2^53=${big} mismatches=0 ` +
        figures.map((f) => `${f.field}:${f.values}/${f.beyond2to53}`).join(" ")
    )
    expect(figures.length).toBe(12)
  })
})
