/**
 * One real answer of every entry of the endpoint table, as the emulator serves it:
 * each entry is called once through the SDK (its derived client, largest page it
 * allows) via a recording loopback proxy, which keeps the request and the
 * response body byte for byte. The decode and per-call comparisons run on these
 * bodies, so they cover every response schema without a hand-kept list: an entry
 * without a request below is reported as a missing row, not silently dropped.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Config from "@solfx/core/Config"
import type * as Endpoint from "@solfx/core/Endpoint"
import * as Endpoints from "@solfx/core/Endpoints"
import * as Derive from "@solfx/http/Derive"
import * as HttpTransport from "@solfx/http/HttpTransport"
import { build, signer, TIP, transfer } from "@solfx/testing/Kit"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import type * as Emu from "./emulator.js"

/** A recorded exchange: what the SDK sent and the emulator's answer, as bytes. */
export interface Recorded {
  readonly entry: Endpoint.Endpoint
  /** The params the SDK was called with. */
  readonly input: unknown
  readonly method: string
  /** Path and query, the API key's value replaced by `{key}`. */
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly requestBody: string | undefined
  readonly status: number
  readonly text: string
}

type Samples = Emu.RunningEmulator["samples"]

/** The params of one call per entry, paged entries at their largest page. */
const requests = (s: Samples, projectId: string): Readonly<Record<string, () => Promise<unknown>>> => {
  const of = (x: unknown) => () => Promise.resolve(x)
  return {
    getTokenAccounts: of({ owner: s["dasOwner"], limit: 1000 }),
    getAssetsByAuthority: of({ authorityAddress: s["dasBigAuthority"], page: 1, limit: 1000 }),
    getSignaturesForAsset: of({ id: s["dasCompressedAsset"], limit: 1000 }),
    getAssetProofBatch: of({ ids: [s["dasCompressedAsset"]] }),
    getAsset: of({ id: s["dasCompressedAsset"] }),
    getAssetBatch: of({ ids: [s["dasCompressedAsset"], s["dasUncompressedAsset"]] }),
    getAssetProof: of({ id: s["dasCompressedAsset"] }),
    getAssetsByOwner: of({ ownerAddress: s["dasAssetOwner"], page: 1, limit: 1000 }),
    getAssetsByGroup: of({ groupKey: "collection", groupValue: s["dasCollection"], page: 1, limit: 1000 }),
    getAssetsByCreator: of({ creatorAddress: s["dasCreator"], page: 1, limit: 1000 }),
    searchAssets: of({ ownerAddress: s["dasAssetOwner"], page: 1, limit: 1000 }),
    getNftEditions: of({ mint: s["dasMasterEdition"], page: 1, limit: 1000 }),
    getCompressionSignaturesForOwner: of({ owner: s["compressionProgram"], limit: 1000 }),
    getCompressedTokenAccountsByOwnerV2: of({ owner: s["compressedTokenOwner"], limit: 1000 }),
    getCompressedAccountsByOwnerV2: of({ owner: s["compressionProgram"], limit: 1000 }),
    getMultipleCompressedAccountsV2: of({ hashes: [s["compressedAccountHash"]] }),
    getValidityProofV2: of({ hashes: [s["compressedAccountHash"]], newAddressesWithTrees: [] }),
    getTransactionWithCompressionInfoV2: of({ signature: s["compressionSignature"] }),
    getIndexerSlot: of([]),
    getIndexerHealth: of([]),
    getCompressionSignaturesForAddress: of({ address: s["compressionAddress"], limit: 1000 }),
    getCompressedMintTokenHolders: of({ mint: s["compressedMint"], limit: 1000 }),
    getLatestNonVotingSignatures: of({ limit: 1000 }),
    getCompressedTokenAccountsByOwner: of({ owner: s["compressedTokenOwner"], limit: 1000 }),
    getValidityProof: of({ hashes: [s["compressedAccountHash"]] }),
    getCompressedTokenBalancesByOwnerV2: of({ owner: s["compressedTokenOwner"], limit: 1000 }),
    getCompressionSignaturesForTokenOwner: of({ owner: s["compressedTokenOwner"], limit: 1000 }),
    getTransactionWithCompressionInfo: of({ signature: s["compressionSignature"] }),
    sendBundle: async () => {
      const payer = await signer()
      const tx = await build({ version: 0, payer, instructions: [transfer(payer, TIP, 5000n)] })
      return [[tx.base64], { encoding: "base64" }]
    },
    getBundleStatuses: of([["0".repeat(64)]]),
    "POST /v0/token-metadata": of({ mintAccounts: [s["tokenMetadataMint"]] }),
    "GET /v1/wallet/{wallet}/identity": of({ wallet: s["wallet"] }),
    "POST /v1/wallet/batch-identity": of({ addresses: [s["wallet"]] }),
    "GET /v1/wallet/{wallet}/balances": of({ wallet: s["wallet"], limit: 100 }),
    "GET /v1/wallet/{wallet}/history": of({ wallet: s["wallet"], limit: 100 }),
    "GET /v1/wallet/{wallet}/transfers": of({ wallet: s["wallet"], limit: 100 }),
    "GET /v1/wallet/{wallet}/funded-by": of({ wallet: s["wallet"] }),
    "GET /v0/admin/projects/{id}/usage": of({ id: projectId }),
    "GET /v0/webhooks": of({})
  }
}

const readAll = async (req: IncomingMessage): Promise<Buffer> => {
  const parts: Array<Buffer> = []
  for await (const part of req) parts.push(part as Buffer)
  return Buffer.concat(parts)
}

/**
 * Calls every entry once through the SDK, through a proxy to `emu`, and returns
 * what was exchanged, by entry name; entries without a request, or whose call
 * failed, are in `missing` with why.
 */
export const record = async (emu: Emu.RunningEmulator): Promise<{
  readonly bodies: ReadonlyMap<string, Recorded>
  readonly missing: ReadonlyArray<readonly [string, string]>
}> => {
  let last: Omit<Recorded, "entry" | "input"> | undefined
  const proxy = createServer(async (req, res) => {
    const body = await readAll(req)
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === "string" && !["host", "connection", "content-length"].includes(k)) headers[k] = v
    }
    const upstream = await fetch(`${emu.url}${req.url}`, {
      method: req.method!,
      headers,
      ...(body.length > 0 ? { body: body.toString("utf8") } : {})
    })
    const text = await upstream.text()
    last = {
      method: req.method!,
      url: req.url!.split(emu.apiKey).join("{key}"),
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.split(emu.apiKey).join("{key}")])),
      requestBody: body.length > 0 ? body.toString("utf8") : undefined,
      status: upstream.status,
      text
    }
    res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" })
    res.end(text)
  })
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  const runtime = ManagedRuntime.make(
    HttpTransport.layer.pipe(
      Layer.provide(NodeHttpClient.layerUndici),
      Layer.provide(Layer.succeed(Config.SolfxConfig, Config.make({ apiKey: emu.apiKey, baseUrl: url })))
    )
  )
  const params = requests(emu.samples, emu.projectId)
  const bodies = new Map<string, Recorded>()
  const missing: Array<readonly [string, string]> = []
  try {
    for (const entry of Endpoints.all) {
      const request = params[entry.name]
      if (request === undefined) {
        missing.push([entry.name, "no request in bench/lib/bodies.ts"])
        continue
      }
      last = undefined
      const input = await request()
      const exit = await runtime.runPromiseExit(
        Effect.flatMap(Derive.client(entry), (c) => c.call(input as never))
      )
      if (exit._tag === "Failure" || last === undefined) {
        missing.push([entry.name, exit._tag === "Failure" ? String(exit.cause).slice(0, 200) : "nothing recorded"])
      } else {
        bodies.set(entry.name, { entry, input, ...(last as Omit<Recorded, "entry" | "input">) })
      }
    }
  } finally {
    await runtime.dispose()
    await new Promise((resolve) => proxy.close(resolve))
  }
  return { bodies, missing }
}
