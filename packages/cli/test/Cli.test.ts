/**
 * `solfx` as a child process against an emulator running in this process: every
 * command at least once, `--json` lines, exit codes 0/1/2, usage errors, the key
 * never printed, and `bundle inspect` offline on kit-built transactions.
 */
import { describe, expect, layer } from "@effect/vitest"
import * as Json from "@solfx/core/Json"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Kit from "@solfx/testing/Kit"
import * as Effect from "effect/Effect"
import { morePagesNote } from "../src/Handler.js"
import { exited, firstLine, jsonLines, type Result, solfx, start } from "./support/Cli.js"

const envOf = (emu: Emulator.Emulator, key = emu.apiKey): Record<string, string> => ({
  SOLFX_API_KEY: key,
  SOLFX_RPC_URL: emu.url,
  SOLFX_REST_URL: emu.url,
  SOLFX_V0_URL: emu.url,
  SOLFX_ADMIN_URL: emu.url
})

/** Runs commands concurrently (a few at a time: each is a node process). */
const all = <A>(effects: ReadonlyArray<Effect.Effect<A>>) => Effect.all(effects, { concurrency: 3 })

/** Success: exit 0, and nothing on stderr but the "more pages" note of a first page (see CliTerminal.test.ts). */
const ok = (r: Result, what: string) => {
  expect(r.stderr.replace(`${morePagesNote}\n`, ""), `${what}: stderr`).toBe("")
  expect(r.code, `${what}: exit code (stderr: ${r.stderr})`).toBe(0)
  return r
}

const noStack = (r: Result) => {
  expect(r.stderr).not.toMatch(/^\s+at /m)
  expect(r.stderr).not.toMatch(/\.ts:\d+/)
}

/** The failure line of a typed failure: exactly one line, `<Tag>: <message>`; exit 1 (2 for a refused argument). */
const failureLine = (r: Result, tag: string, code: 1 | 2 = 1) => {
  expect(r.code, r.stderr).toBe(code)
  noStack(r)
  const lines = r.stderr.split("\n").filter((l) => l !== "")
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(new RegExp(`^${tag}: \\S`))
}

const rpc = (emu: Emulator.Emulator, method: string, params: unknown) =>
  Effect.promise(async () => {
    const res = await fetch(`${emu.url}/?api-key=${emu.apiKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "1", method, params })
    })
    return Json.parse(await res.text()) as any
  })

const delta = (emu: Emulator.Emulator, operation: string) => {
  const before = emu.count(operation)
  return () => emu.count(operation) - before
}

// Simulated slots of 200 ms, finalized after 4: a sent bundle finalizes in about a second, and a
// blockhash stays valid 30 s (150 blocks) while a child process starts under load.
// Live services (excludeTestServices): the emulator and the children run on real time.
layer(Emulator.layer({ slotMs: 200, sizes: { "bundles.finalizeDepth": 4 } }), {
  timeout: 300_000,
  excludeTestServices: true
})("solfx", (it) => {
  describe("offline", () => {
    it.effect("bundle inspect gives a kit-built bundle's id with no request and no config", () =>
      Effect.gen(function*() {
        const emu = yield* Emulator.EmulatorHandle
        const before = emu.requests.length
        const [tx0, tx1] = yield* Effect.promise(async () => {
          const payer = await Kit.signer()
          const to = (await Kit.signer()).address
          return [
            await Kit.buildTransfers(payer, [[to, 5_000n], [Kit.TIP, 10_000n]], { version: 0 }),
            await Kit.buildTransfers(payer, [[to, 7_000n]], { version: "legacy" })
          ]
        })
        const expected = Kit.bundleIdOf([tx0!.signature, tx1!.signature])
        const [json, human, malformed] = yield* all([
          solfx(["bundle", "inspect", tx0!.base64, tx1!.base64, "--json"]),
          solfx(["bundle", "inspect", "--encoding", "base58", tx0!.base58, tx1!.base58]),
          solfx(["bundle", "inspect", tx0!.base64, "AAAA"])
        ])
        ok(json!, "inspect --json")
        const [report] = jsonLines(json!.stdout)
        expect(report.bundleId).toBe(expected)
        expect(report.preflight).toBe("ok")
        expect(report.transactions[0]).toMatchObject({
          signatures: [tx0!.signature],
          signed: true,
          version: 0,
          tips: [{ to: Kit.TIP, lamports: 10_000 }]
        })
        expect(report.transactions[1]).toMatchObject({ signatures: [tx1!.signature], signed: true, tips: [] })
        expect(report.transactions[1].transfers[0].lamports).toBe(7_000)
        ok(human!, "inspect base58")
        expect(human!.stdout).toContain(`bundleId:  ${expected}`)
        expect(human!.stdout).toMatch(/signed: +yes/)
        // A transaction that cannot be read: the report, then the typed error, exit 1.
        failureLine(malformed!, "MalformedTransaction")
        expect(malformed!.stdout).toContain("transaction 1: MalformedTransaction")
        expect(emu.requests.length).toBe(before)
      }))

    it.effect("usage errors exit 2 with a message, never a stack trace", () =>
      Effect.gen(function*() {
        const emu = yield* Emulator.EmulatorHandle
        const results = yield* all([
          solfx(["wallet", "identity"], { env: envOf(emu) }),
          solfx(["emulator", "--faults", "rate=2"]),
          solfx(["das", "proofs", "x", "--limit", "abc"], { env: envOf(emu) })
        ])
        for (const r of results) {
          expect(r.code, r.stderr).toBe(2)
          expect(r.stderr.trim()).not.toBe("")
          expect(r.stdout).toBe("")
          noStack(r)
        }
        expect(results[0]!.stderr).toContain("Missing argument")
        expect(results[1]!.stderr).toContain("rate must be a number from 0 to 1")
      }))
  })

  it.effect("typed failures exit 1 with `<Tag>: message` on stderr; the key never appears", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const wallet = emu.samples.wallet
      const secret = "SECRET-cli-test-key-0001"
      const [wrongKey, badWallet, noKey] = yield* all([
        // A wrong key given as a flag: the service answers 401; the key is printed nowhere.
        solfx(["das", "proofs", emu.samples.compressedNft, "--api-key", secret, "--json"], { env: envOf(emu) }),
        solfx(["wallet", "identity", "not-a-wallet!"], { env: envOf(emu) }),
        solfx(["wallet", "identity", wallet])
      ])
      failureLine(wrongKey!, "Unauthorized")
      // An argument the SDK refuses before sending is a bad argument: exit 2, as the README says.
      failureLine(badWallet!, "InvalidRequest", 2)
      expect(badWallet!.stderr).toContain("wallet")
      for (const r of [wrongKey!, badWallet!]) {
        expect(r.stdout + r.stderr).not.toContain(secret)
        expect(r.stdout + r.stderr).not.toContain(emu.apiKey)
      }
      // No key at all is a usage error (2), not a failed request.
      expect(noKey!.code).toBe(2)
      expect(noKey!.stderr).toMatch(/^UsageError: no API key/)
    }))

  it.effect("das: token accounts (--all streams one line per item), assets, signatures, proofs --verify", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const env = envOf(emu)
      const tokenRequests = delta(emu, "getTokenAccounts")
      const [accounts, assets, signatures, proofs] = yield* all([
        solfx(["das", "token-accounts", emu.samples.tokenAccountOwner, "--all", "--limit", "1000", "--json"], { env }),
        solfx([
          "das",
          "assets-by-authority",
          emu.samples.assetAuthority,
          "--limit",
          "3",
          "--sort",
          "created",
          "--direction",
          "asc"
        ], { env }),
        solfx(["das", "asset-signatures", emu.samples.compressedNft, "--limit", "5", "--json"], { env }),
        solfx([
          "das",
          "proofs",
          emu.samples.compressedNft,
          emu.samples.uncompressedNft,
          "--verify",
          "--json"
        ], { env })
      ])
      const rows = jsonLines(ok(accounts!, "token-accounts").stdout)
      expect(rows.length).toBeGreaterThan(1000)
      expect(new Set(rows.map((r) => r.address)).size).toBe(rows.length)
      expect(tokenRequests()).toBe(Math.ceil(rows.length / 1000))
      const lines = ok(assets!, "assets-by-authority").stdout.trimEnd().split("\n")
      expect(lines).toHaveLength(4)
      expect(lines[0]).toMatch(/^ID +INTERFACE +COMPRESSED +OWNER$/)
      const sigs = jsonLines(ok(signatures!, "asset-signatures").stdout)
      expect(sigs).toHaveLength(5)
      expect(sigs[0]).toEqual({ signature: expect.any(String), kind: expect.any(String) })
      const [compressed, plain] = jsonLines(ok(proofs!, "proofs").stdout)
      expect(compressed).toMatchObject({ id: emu.samples.compressedNft, verified: true })
      expect(compressed.proof.length).toBeGreaterThan(0)
      expect(plain).toEqual({ id: emu.samples.uncompressedNft, proof: null, verified: false })
    }))

  it.effect("das: asset <id>, assets-by-owner, search --owner --compressed agree with each other", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const env = envOf(emu)
      const owner = emu.samples.nftOwner
      const [owned, table, found] = yield* all([
        solfx(["das", "assets-by-owner", owner, "--limit", "40", "--json"], { env }),
        solfx(["das", "assets-by-owner", owner, "--limit", "2"], { env }),
        solfx(["das", "search", "--owner", owner, "--compressed", "--limit", "10", "--json"], { env })
      ])
      const assets = jsonLines(ok(owned!, "assets-by-owner").stdout)
      expect(assets).toHaveLength(40)
      expect(assets.every((a) => a.ownership.owner === owner)).toBe(true)
      const lines = ok(table!, "assets-by-owner (table)").stdout.trimEnd().split("\n")
      expect(lines).toHaveLength(3)
      expect(lines[0]).toMatch(/^ID +INTERFACE +COMPRESSED +OWNER$/)
      const compressed = jsonLines(ok(found!, "search").stdout)
      expect(compressed).toHaveLength(10)
      expect(compressed.every((a) => a.compression.compressed && a.ownership.owner === owner)).toBe(true)
      // The owner's compressed assets, as its full list has them, in the same order.
      expect(compressed.map((a) => a.id)).toEqual(
        assets.filter((a) => a.compression.compressed).slice(0, 10).map((a) => a.id)
      )
      const one = ok(yield* solfx(["das", "asset", assets[0].id, "--json"], { env }), "asset")
      expect(jsonLines(one.stdout)).toEqual([assets[0]])
      const unknown = yield* solfx(["das", "asset", emu.samples.assetAuthority], { env })
      failureLine(unknown, "JsonRpcError")
      expect(unknown.stderr).toContain("Asset Not Found")
    }))

  it.effect("zk: all eight methods; integers beyond 2^53 keep every digit; holders stream in order", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const env = envOf(emu)
      const owner = emu.samples.compressedTokenOwner
      const mint = emu.samples.compressedTokenMint
      const holderRequests = delta(emu, "getCompressedMintTokenHolders")
      const results = yield* all([
        solfx(["zk", "token-accounts", owner, "--limit", "5", "--json"], { env }),
        solfx(["zk", "mint-holders", mint, "--all", "--limit", "1000", "--json"], { env }),
        solfx(["zk", "signatures-for-address", emu.samples.compressionAddress, "--limit", "3"], { env }),
        solfx(["zk", "token-balances", owner, "--mint", mint, "--json"], { env }),
        solfx(["zk", "token-owner-signatures", owner, "--limit", "2", "--json"], { env }),
        solfx(["zk", "latest-signatures", "--limit", "3", "--json"], { env }),
        solfx(["zk", "validity-proof", "--hash", emu.samples.compressedAccountHash, "--json"], { env }),
        solfx(["zk", "transaction", emu.samples.compressionSignature, "--json"], { env })
      ])
      const [accounts, holders, addressSigs, balances, ownerSigs, latest, proof, transaction] = results.map((r, i) =>
        ok(r, `zk #${i}`)
      )
      // The raw wire amounts, read losslessly: the CLI prints the same digits.
      const raw = yield* rpc(emu, "getCompressedTokenAccountsByOwner", { owner, limit: 5 })
      const amounts: Array<string> = raw.result.value.items.map((i: any) => String(i.tokenData.amount))
      expect(amounts.some((a) => BigInt(a) > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true)
      const lines = accounts!.stdout.trimEnd().split("\n")
      expect(lines).toHaveLength(amounts.length)
      lines.forEach((line, i) => expect(line).toContain(`"amount":${amounts[i]}`))

      const holderRows = jsonLines(holders!.stdout, Json.parse)
      expect(holderRows.length).toBeGreaterThan(1000)
      expect(holderRequests()).toBe(Math.ceil(holderRows.length / 1000))
      const balancesOf = holderRows.map((h) => BigInt(h.balance))
      expect(balancesOf.every((b, i) => i === 0 || balancesOf[i - 1]! >= b)).toBe(true)

      expect(addressSigs!.stdout.trimEnd().split("\n")).toHaveLength(4)
      expect(jsonLines(balances!.stdout).every((b) => b.mint === mint)).toBe(true)
      expect(jsonLines(ownerSigs!.stdout)).toHaveLength(2)
      expect(jsonLines(latest!.stdout)).toHaveLength(3)
      const [validity] = jsonLines(proof!.stdout)
      expect(validity.value.leaves).toEqual([emu.samples.compressedAccountHash])
      expect(validity.context.slot).toBeGreaterThan(0)
      const [tx] = jsonLines(transaction!.stdout)
      expect(tx.compressionInfo.closedAccounts.length + tx.compressionInfo.openedAccounts.length).toBeGreaterThan(0)
    }))

  it.effect("wallet: balances and transfers stream every page; identity, identities, history, funded-by", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const env = envOf(emu)
      const wallet = emu.samples.wallet
      const transferRequests = delta(emu, "GET /v1/wallet/:wallet/transfers")
      const results = yield* all([
        solfx(["wallet", "balances", wallet, "--all", "--json"], { env }),
        solfx(["wallet", "transfers", wallet, "--all", "--limit", "100", "--json"], { env }),
        solfx(["wallet", "history", wallet, "--limit", "3"], { env }),
        // Global options anywhere, and --api-key overriding a wrong SOLFX_API_KEY.
        solfx(["--json", "wallet", "identity", wallet, "--api-key", emu.apiKey], { env: envOf(emu, "wrong-key") }),
        solfx(["wallet", "funded-by", wallet, "--json"], { env }),
        solfx(["wallet", "identities", wallet, emu.samples.unknownAddress, emu.samples.walletDomain, "--json"], {
          env
        })
      ])
      const [balances, transfers, history, identity, fundedBy, identities] = results.map((r, i) =>
        ok(r, `wallet #${i}`)
      )
      const rows = jsonLines(balances!.stdout)
      expect(rows.length).toBeGreaterThan(100)
      expect(rows[0].mint).toBe("So11111111111111111111111111111111111111112")
      const transferRows = jsonLines(transfers!.stdout)
      expect(transferRows.length).toBeGreaterThan(100)
      expect(new Set(transferRows.map((t) => t.signature)).size).toBe(transferRows.length)
      expect(transferRequests()).toBe(Math.ceil(transferRows.length / 100))
      const historyLines = history!.stdout.trimEnd().split("\n")
      expect(historyLines).toHaveLength(4)
      expect(historyLines[0]).toMatch(/^TIME +SLOT +FEE \(SOL\)/)
      expect(jsonLines(identity!.stdout)[0].address).toBe(wallet)
      expect(jsonLines(fundedBy!.stdout)[0]).toMatchObject({
        funder: expect.any(String),
        signature: expect.any(String)
      })
      const ids = jsonLines(identities!.stdout)
      expect(ids.map((i) => i.wallet)).toEqual([wallet, emu.samples.unknownAddress, emu.samples.walletDomain])
      expect(ids[0].identity.address).toBe(wallet)
      expect(ids[1].identity).toBeNull()
    }))

  it.effect("metadata: 250 mints from stdin in 3 requests, in order, with a per-part error; no progress bar when piped", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const env = envOf(emu)
      const label = emu.samples.metadataMintLabel
      const mints = [
        emu.samples.metadataBrokenMint,
        ...Array.from({ length: 249 }, (_, i) => emu.dataset.address(`${label}${i}`))
      ]
      const requests = delta(emu, "POST /v0/token-metadata")
      const [json, human] = yield* all([
        solfx(["metadata", "--json"], { env, input: mints.join("\n") + "\n" }),
        solfx([
          "metadata",
          emu.samples.metadataMint,
          emu.samples.metadataBrokenMint,
          "--off-chain",
          "--no-cache"
        ], { env })
      ])
      const records = jsonLines(ok(json!, "metadata stdin").stdout)
      expect(records.map((r) => r.account)).toEqual(mints)
      expect(requests()).toBe(3 + 1)
      expect(records[0].onChainMetadata.error).toMatchObject({ part: "onChainMetadata", mint: mints[0] })
      const lines = ok(human!, "metadata args").stdout.trimEnd().split("\n")
      expect(lines[0]).toMatch(/^MINT +NAME +SYMBOL +SUPPLY +ERRORS$/)
      expect(lines[2]).toContain("onChainMetadata:")
      expect(lines.at(-1)).toBe("2 mint(s), 1 with part errors")
    }))

  it.effect("bundle send --wait lands a kit-built tipped bundle under the local id; bundle status reads it", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const env = envOf(emu)
      const payer = yield* Effect.promise(() => Kit.signer())
      // A fee payer needs lamports in the world, as on the chain: fund it first.
      yield* emu.world.fund({ address: payer.address, lamports: 1_000_000_000n })
      // Signed over the emulator's current blockhash; the new account gets at least its rent-exempt minimum.
      const blockhash = emu.ledger.bank.blockhash().blockhash
      const txs = yield* Effect.promise(async () => {
        const to = (await Kit.signer()).address
        return [
          await Kit.buildTransfers(payer, [[to, 1_000_000n]], { blockhash }),
          await Kit.buildTransfers(payer, [[to, 2_000n]], { blockhash }),
          await Kit.buildTransfers(payer, [[Kit.TIP, 10_000n]], { blockhash })
        ]
      })
      const expected = Kit.bundleIdOf(txs.map((t) => t.signature))
      const sent = ok(
        yield* solfx(["bundle", "send", ...txs.map((t) => t.base64), "--region", "fra", "--wait", "--json"], { env }),
        "send"
      )
      const [result] = jsonLines(sent.stdout)
      expect(result.bundleId).toBe(expected)
      expect(result.outcome).toMatchObject({ _tag: "Landed", status: "finalized" })
      const status = ok(yield* solfx(["bundle", "status", expected, "0".repeat(64), "--json"], { env }), "status")
      const [landed, unknown] = jsonLines(status.stdout)
      expect(landed).toMatchObject({ bundleId: expected, status: { confirmation_status: "finalized" } })
      expect(landed.status.transactions).toEqual(txs.map((t) => t.signature))
      expect(unknown).toEqual({ bundleId: "0".repeat(64), status: null })
    }))

  it.effect("usage and webhooks: the project's record and the key's webhooks, auth headers hidden", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const env = envOf(emu)
      const [usage, webhooks, humanUsage] = yield* all([
        solfx(["usage", emu.projectId, "--json"], { env }),
        solfx(["webhooks", "--json"], { env }),
        // No projectId: with --emulator, the embedded emulator's own project.
        solfx(["usage", "--emulator"])
      ])
      const [record] = jsonLines(ok(usage!, "usage").stdout)
      expect(record.creditsUsed).toBeGreaterThan(0)
      expect(record.subscriptionDetails.billingCycle.start).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      expect(ok(humanUsage!, "usage human").stdout).toMatch(/credits used: +[\d,]+/)
      const hooks = jsonLines(ok(webhooks!, "webhooks").stdout)
      expect(hooks.length).toBeGreaterThan(0)
      for (const h of hooks) {
        expect(typeof h.webhookID).toBe("string")
        if (h.authHeader !== undefined && h.authHeader !== null) expect(h.authHeader).toBe("<redacted>")
      }
    }))

  it.effect("emulator: prints its start line first, serves with the given key and faults, stops on Ctrl-C", () =>
    Effect.gen(function*() {
      const child = start([
        "emulator",
        "--port",
        "0",
        "--seed",
        "7",
        "--api-key",
        "cli-emulator-key",
        "--faults",
        "rate=1,kinds=503"
      ])
      const line = yield* Effect.promise(() => firstLine(child))
      const info = JSON.parse(line)
      expect(Object.keys(info)).toEqual(["url", "apiKey", "projectId", "samples", "studio"])
      expect(info.apiKey).toBe("cli-emulator-key")
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(typeof info.samples.wallet).toBe("string")
      const status = yield* Effect.promise(() =>
        fetch(`${info.url}/?api-key=cli-emulator-key`, {
          method: "POST",
          body: JSON.stringify({ jsonrpc: "2.0", id: "1", method: "getLatestNonVotingSignatures", params: {} })
        }).then((r) => r.status)
      )
      expect(status).toBe(503)
      child.kill("SIGINT")
      const exit = yield* Effect.promise(() => exited(child))
      expect(exit.code).toBe(130)
    }))

  it.effect("demo: every section of the tour, one JSON line each", () =>
    Effect.gen(function*() {
      const result = ok(yield* solfx(["demo", "--json"]), "demo")
      const sections = jsonLines(result.stdout, Json.parse)
      expect(sections.map((s) => s.section)).toHaveLength(8)
      const [das, wallet, metadata, zk, bundle, live, webhooks, usage] = sections
      expect(das).toMatchObject({ assets: 10_000, distinct: 10_000 })
      expect(das.verifiedProofs).toBe(das.compressed)
      expect(wallet.balances).toBeGreaterThan(100)
      expect(metadata).toMatchObject({ mints: 250, requests: 3 })
      expect(metadata.withPartErrors).toBeGreaterThan(0)
      expect(zk.descending).toBe(true)
      expect(bundle.bundleId).toBe(bundle.localId)
      expect(bundle.outcome).toBe("Landed")
      // One landing seen three ways: the socket's notification, the receiver's delivery, the signature RPC.
      expect(live.landings).toBeGreaterThanOrEqual(1)
      expect(live.delivered).toBeGreaterThanOrEqual(1)
      expect(live.landed).toBe(true)
      expect(live.signatures).toBeGreaterThanOrEqual(live.landings)
      expect(webhooks.webhooks).toBeGreaterThanOrEqual(1)
      expect(usage.usage.usage.websocket).toBeGreaterThan(0)
      expect(usage.usage.usage.webhook).toBeGreaterThan(0)
      expect(usage.usage.creditsUsed).toBeGreaterThanOrEqual(usage.tourCredits)
      expect(usage.tourCredits).toBeGreaterThan(0)
    }))
})
