/**
 * Example 6: a plain @solana/kit app against the emulator as a local cluster, with no solfx
 * package: only @solana/kit, @solana-program/system and @solana-program/token, `fetch` and
 * `node:http`. It airdrops a payer, creates a mint and two associated token accounts, mints,
 * transfers to a second owner (each transaction sent with kit's `sendAndConfirmTransactionFactory`
 * over HTTP and WebSocket), then reads it back as an app would: `getTokenAccountsByOwner`
 * (jsonParsed), `getTransaction`, DAS `getAsset`, the Wallet API of both owners, a webhook it
 * registered (delivered to a small receiver of its own) and an `accountSubscribe` notification.
 *
 * Run against a running emulator (`npm run -s emulator`, whose start line prints its url and key):
 *   node --import tsx examples/kit-app.ts 'http://127.0.0.1:8899/?api-key=KEY'
 * The WebSocket URL is the same with `ws://` (a second argument overrides it).
 */
import { getCreateAccountInstruction } from "@solana-program/system"
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS
} from "@solana-program/token"
import {
  airdropFactory,
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getSignatureFromTransaction,
  type Instruction,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type TransactionSigner
} from "@solana/kit"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { pathToFileURL } from "node:url"

const DECIMALS = 6
const MINTED = 1_000_000_000n // 1,000 tokens of 6 decimals
const SENT = 250_000_000n // 250 of them to the second owner
/** How long the app waits for a webhook delivery or a notification before it fails saying so. */
const WAIT_MS = 60_000

/** What the app saw, each read from the cluster after the transfer. */
export interface KitAppResult {
  readonly payer: string
  readonly recipient: string
  readonly mint: string
  readonly payerTokenAccount: string
  readonly recipientTokenAccount: string
  readonly signatures: { readonly airdrop: string; readonly setup: string; readonly transfer: string }
  /** The recipient's token accounts, jsonParsed: address, mint, owner and raw amount. */
  readonly tokenAccounts: ReadonlyArray<{ address: string; mint: string; owner: string; amount: string }>
  /** The transfer as getTransaction gives it (jsonParsed). */
  readonly transaction: {
    readonly slot: bigint
    readonly fee: bigint
    readonly err: unknown
    readonly preBalances: ReadonlyArray<bigint>
    readonly postBalances: ReadonlyArray<bigint>
    readonly accountKeys: ReadonlyArray<string>
    readonly preTokenBalances: ReadonlyArray<{ accountIndex: number; owner?: string; amount: string }>
    readonly postTokenBalances: ReadonlyArray<{ accountIndex: number; owner?: string; amount: string }>
  }
  /** DAS getAsset of the mint: its interface, supply and decimals. */
  readonly asset: { readonly interface: string; readonly supply: number; readonly decimals: number }
  /** The Wallet API of both owners: their balances of the mint (raw) and SOL, their history's signatures. */
  readonly wallets: Record<"payer" | "recipient", {
    readonly tokenBalance: string | undefined
    readonly solLamports: bigint
    readonly history: ReadonlyArray<string>
  }>
  /** The signatures the webhook delivered (the transfer among them). */
  readonly webhook: ReadonlyArray<string>
  /** The recipient token account's first notification after the transfer: its slot and parsed amount. */
  readonly notification: { readonly slot: bigint; readonly amount: string }
}

/** A JSON body of the service (REST or JSON-RPC over plain fetch), or a failure saying what answered. */
const fetchJson = async (url: URL | string, init?: RequestInit): Promise<any> => {
  const res = await fetch(url, init)
  const text = await res.text()
  if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${new URL(url).pathname}: ${res.status} ${text}`)
  return JSON.parse(text)
}

/** Waits for `check` to give a value, at most `WAIT_MS`, then fails with what it waited for. */
const waitFor = async <A>(what: string, check: () => A | undefined): Promise<A> => {
  const deadline = Date.now() + WAIT_MS
  for (;;) {
    const value = check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS} ms for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** A small webhook receiver on loopback: every signature delivered, in order. */
const webhookReceiver = async (authHeader: string) => {
  const delivered: Array<string> = []
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      if (req.headers.authorization !== authHeader) {
        res.writeHead(401).end()
        return
      }
      for (const item of JSON.parse(body) as Array<any>) {
        delivered.push(item.signature ?? item.transaction?.signatures?.[0])
      }
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    delivered,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/**
 * The app: `rpcUrl` is the cluster's HTTP URL with its `api-key`, `wsUrl` its WebSocket URL.
 * Lines go to `log` as it goes; the result is what it read back.
 */
export const main = async (
  rpcUrl: string,
  wsUrl = rpcUrl.replace(/^http/, "ws"),
  log: (line: string) => void = console.log
): Promise<KitAppResult> => {
  const rpc = createSolanaRpc(rpcUrl)
  const rpcSubscriptions = createSolanaRpcSubscriptions(wsUrl)
  const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })
  const airdrop = airdropFactory({ rpc, rpcSubscriptions })
  // The Helius APIs beside the RPC: same host, same key.
  const key = new URL(rpcUrl).searchParams.get("api-key") ?? ""
  const rest = (path: string) => {
    const url = new URL(path, rpcUrl)
    url.searchParams.set("api-key", key)
    return url
  }
  const abort = new AbortController()
  const hook = await webhookReceiver("Bearer kit-app")
  try {
    const payer = await generateKeyPairSigner()
    const recipient = await generateKeyPairSigner()
    const mint = await generateKeyPairSigner()

    const airdropSignature = await airdrop({
      recipientAddress: payer.address,
      lamports: lamports(2_000_000_000n),
      commitment: "confirmed"
    })
    log(`airdrop ${airdropSignature}: 2 SOL to ${payer.address}`)

    /** Signs `instructions` with a fresh blockhash and sends them, confirmed. */
    const send = async (instructions: ReadonlyArray<Instruction>, feePayer: TransactionSigner = payer) => {
      const { value: latest } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send()
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(feePayer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
        (m) => appendTransactionMessageInstructions(instructions, m)
      )
      const signed = await signTransactionMessageWithSigners(message)
      // The message had a blockhash lifetime; its signed transaction's type forgets it.
      assertIsTransactionWithBlockhashLifetime(signed)
      await sendAndConfirm(signed, { commitment: "confirmed" })
      return getSignatureFromTransaction(signed)
    }

    const [payerAta] = await findAssociatedTokenPda({
      owner: payer.address,
      mint: mint.address,
      tokenProgram: TOKEN_PROGRAM_ADDRESS
    })
    const [recipientAta] = await findAssociatedTokenPda({
      owner: recipient.address,
      mint: mint.address,
      tokenProgram: TOKEN_PROGRAM_ADDRESS
    })
    const space = BigInt(getMintSize())
    const rent = await rpc.getMinimumBalanceForRentExemption(space).send()
    const setup = await send([
      getCreateAccountInstruction({
        payer,
        newAccount: mint,
        lamports: rent,
        space,
        programAddress: TOKEN_PROGRAM_ADDRESS
      }),
      getInitializeMint2Instruction({ mint: mint.address, decimals: DECIMALS, mintAuthority: payer.address }),
      getCreateAssociatedTokenIdempotentInstruction({
        payer,
        ata: payerAta,
        owner: payer.address,
        mint: mint.address
      }),
      getCreateAssociatedTokenIdempotentInstruction({
        payer,
        ata: recipientAta,
        owner: recipient.address,
        mint: mint.address
      }),
      getMintToInstruction({ mint: mint.address, token: payerAta, mintAuthority: payer, amount: MINTED })
    ])
    log(`setup ${setup}: mint ${mint.address}, ${MINTED} to ${payerAta}`)

    // Watch what the transfer changes: the recipient's token account (WebSocket) and the
    // recipient (a webhook of the Helius API, delivered to this app's receiver).
    const notifications = await rpcSubscriptions
      .accountNotifications(recipientAta, { commitment: "confirmed", encoding: "jsonParsed" })
      .subscribe({ abortSignal: abort.signal })
    const notified: Array<{ slot: bigint; amount: string }> = []
    void (async () => {
      for await (const n of notifications) {
        const data = n.value.data as any
        notified.push({ slot: n.context.slot, amount: String(data?.parsed?.info?.tokenAmount?.amount) })
      }
    })().catch(() => undefined)
    const webhook = await fetchJson(rest("/v0/webhooks"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        webhookURL: hook.url,
        webhookType: "enhanced",
        transactionTypes: ["ANY"],
        accountAddresses: [recipient.address],
        authHeader: "Bearer kit-app"
      })
    })

    const transfer = await send([
      getTransferCheckedInstruction({
        source: payerAta,
        mint: mint.address,
        destination: recipientAta,
        authority: payer,
        amount: SENT,
        decimals: DECIMALS
      })
    ])
    log(`transfer ${transfer}: ${SENT} from ${payer.address} to ${recipient.address}`)

    const notification = await waitFor(
      "an accountSubscribe notification of the transfer",
      () => notified.find((n) => n.amount === SENT.toString())
    )
    log(`accountSubscribe: ${recipientAta} holds ${notification.amount} at slot ${notification.slot}`)
    await waitFor("the webhook's delivery of the transfer", () => hook.delivered.includes(transfer) ? true : undefined)
    log(`webhook ${webhook.webhookID}: delivered ${hook.delivered.join(", ")}`)
    await fetchJson(rest(`/v0/webhooks/${webhook.webhookID}`), { method: "DELETE" })

    // Read back, as an app does.
    const accounts = await rpc
      .getTokenAccountsByOwner(recipient.address, { programId: TOKEN_PROGRAM_ADDRESS }, {
        encoding: "jsonParsed",
        commitment: "confirmed"
      })
      .send()
    const tokenAccounts = accounts.value.map((a) => {
      const info = (a.account.data as any).parsed.info
      return { address: a.pubkey, mint: info.mint, owner: info.owner, amount: info.tokenAmount.amount }
    })
    log(`getTokenAccountsByOwner: ${tokenAccounts.map((a) => `${a.address} ${a.amount}`).join(", ")}`)

    const tx = await rpc
      .getTransaction(transfer, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0, commitment: "confirmed" })
      .send()
    if (tx === null) throw new Error(`getTransaction ${transfer}: null`)
    const tokenBalances = (list: ReadonlyArray<any> | undefined | null) =>
      (list ?? []).map((b) => ({ accountIndex: b.accountIndex, owner: b.owner, amount: b.uiTokenAmount.amount }))
    const transaction = {
      slot: tx.slot,
      fee: tx.meta!.fee,
      err: tx.meta!.err,
      preBalances: tx.meta!.preBalances,
      postBalances: tx.meta!.postBalances,
      accountKeys: tx.transaction.message.accountKeys.map((k) => k.pubkey),
      preTokenBalances: tokenBalances(tx.meta!.preTokenBalances),
      postTokenBalances: tokenBalances(tx.meta!.postTokenBalances)
    }
    log(`getTransaction: slot ${transaction.slot}, fee ${transaction.fee}`)

    // DAS is JSON-RPC beside the standard methods; kit's typed RPC does not know it, so plain fetch.
    const das = await fetchJson(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "kit-app", method: "getAsset", params: { id: mint.address } })
    })
    if (das.error !== undefined) throw new Error(`getAsset: ${JSON.stringify(das.error)}`)
    const asset = {
      interface: das.result.interface,
      supply: das.result.token_info?.supply,
      decimals: das.result.token_info?.decimals
    }
    log(`getAsset: ${asset.interface}, supply ${asset.supply}, decimals ${asset.decimals}`)

    const walletOf = async (owner: string) => {
      const balances = await fetchJson(rest(`/v1/wallet/${owner}/balances`))
      const history = await fetchJson(rest(`/v1/wallet/${owner}/history`))
      const token = (balances.balances as Array<any>).find((b) => b.mint === mint.address)
      const sol = (balances.balances as Array<any>).find((b) => b.symbol === "SOL")
      return {
        tokenBalance: token === undefined ? undefined : String(BigInt(Math.round(token.balance * 10 ** DECIMALS))),
        solLamports: BigInt(Math.round((sol?.balance ?? 0) * 1e9)),
        history: (history.data as Array<any>).map((h) => h.signature as string)
      }
    }
    const wallets = { payer: await walletOf(payer.address), recipient: await walletOf(recipient.address) }
    log(`wallet ${payer.address}: ${wallets.payer.tokenBalance} tokens, ${wallets.payer.history.length} transactions`)
    log(
      `wallet ${recipient.address}: ${wallets.recipient.tokenBalance} tokens, ${wallets.recipient.history.length} transactions`
    )

    return {
      payer: payer.address,
      recipient: recipient.address,
      mint: mint.address,
      payerTokenAccount: payerAta,
      recipientTokenAccount: recipientAta,
      signatures: { airdrop: airdropSignature, setup, transfer },
      tokenAccounts,
      transaction,
      asset,
      wallets,
      webhook: [...hook.delivered],
      notification
    }
  } finally {
    abort.abort()
    await hook.close()
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [rpcUrl, wsUrl] = process.argv.slice(2)
  if (rpcUrl === undefined) {
    console.error("usage: kit-app.ts <rpc url with ?api-key=KEY> [ws url]")
    process.exit(2)
  }
  main(rpcUrl, wsUrl).then(() => process.exit(0), (e) => {
    console.error(e)
    process.exit(1)
  })
}
