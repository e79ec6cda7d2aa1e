/**
 * The studio's script: plain DOM, no framework. Every text it shows goes through `text` nodes
 * (never `innerHTML`), so names, memos and addresses, which anyone can set, show as text. It
 * calls the emulator through the SDK itself (`@solfx/sdk/neutral` over the browser's fetch,
 * `@solfx/subscriptions` over its WebSocket) and the emulator's own JSON reads (`/emulator/...`).
 * The key comes from the page's URL, is kept in memory and is never written into the page.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as Socket from "@effect/platform/Socket"
import { Config, DigitalAssets, HttpTransport, Wallet } from "@solfx/sdk/neutral"
import { Subscriptions } from "@solfx/subscriptions"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

// -- DOM, safely -----------------------------------------------------------------------

type Child = Node | string | number | bigint | null | undefined | false

/** An element with attributes and children; strings become text nodes, so nothing is parsed as HTML. */
const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | ((e: Event) => void)> = {},
  ...children: ReadonlyArray<Child | ReadonlyArray<Child>>
): HTMLElementTagNameMap[K] => {
  const el = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === "function") el.addEventListener(k, v)
    else if (v === true) el.setAttribute(k, "")
    else if (v !== false) el.setAttribute(k, v)
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue
    el.append(c instanceof Node ? c : document.createTextNode(String(c)))
  }
  return el
}

const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T
const fill = (el: HTMLElement, ...children: ReadonlyArray<Child | ReadonlyArray<Child>>) => {
  el.replaceChildren()
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue
    el.append(c instanceof Node ? c : document.createTextNode(String(c)))
  }
}

// -- formats ---------------------------------------------------------------------------

const short = (s: string) => (s.length > 14 ? `${s.slice(0, 6)}…${s.slice(-6)}` : s)
const units = (raw: bigint, decimals: number): string => {
  const neg = raw < 0n
  const abs = neg ? -raw : raw
  const scale = 10n ** BigInt(decimals)
  const frac = decimals === 0 ? "" : (abs % scale).toString().padStart(decimals, "0").replace(/0+$/, "")
  return `${neg ? "-" : ""}${(abs / scale).toLocaleString("en-US")}${frac === "" ? "" : `.${frac}`}`
}
const sol = (lamports: bigint) => `${units(lamports, 9)} SOL`
const signed = (s: string) => (s.startsWith("-") ? s : `+${s}`)
const time = (ms: number) => new Date(ms).toLocaleTimeString("en-GB")

/** An address or signature as a button that looks it up (keyboard: Tab to it, Enter). */
const link = (value: string) =>
  h("button", { type: "button", class: "link mono", title: value, click: () => lookup(value) }, short(value))

// -- the SDK ---------------------------------------------------------------------------

const apiKey = new URLSearchParams(location.search).get("api-key") ?? ""
const config = Config.layer({ apiKey, baseUrl: location.origin, allowInsecureHttp: true, retry: { times: 1 } })
const runtime = ManagedRuntime.make(
  Layer.mergeAll(
    Layer.mergeAll(DigitalAssets.layer, Wallet.layer).pipe(
      Layer.provide(HttpTransport.layer),
      Layer.provide(FetchHttpClient.layer)
    ),
    Subscriptions.layer.pipe(Layer.provide(Socket.layerWebSocketConstructorGlobal))
  ).pipe(Layer.provide(config))
)

/** The emulator's own routes (not part of the service's API): JSON, keyed by header. */
const own = async (path: string, body?: unknown): Promise<any> => {
  const res = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "x-api-key": apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const json = await res.json().catch(() => ({ error: `HTTP ${res.status}` }))
  if (!res.ok) throw new Error(typeof json?.error === "string" ? json.error : `HTTP ${res.status}`)
  return json
}

const errorText = (e: unknown) =>
  e instanceof Error ? e.message : typeof e === "object" && e !== null && "message" in e ? String(e.message) : String(e)

// -- the live feed ---------------------------------------------------------------------

const FEED_ROWS = 50

const feedRow = (n: {
  signature: string
  slot: number
  err: unknown
  keys: ReadonlyArray<string>
  pre: ReadonlyArray<bigint>
  post: ReadonlyArray<bigint>
}) => {
  const solChanges = n.keys.flatMap((k, i) => {
    const d = (n.post[i] ?? 0n) - (n.pre[i] ?? 0n)
    return d === 0n ? [] : [h("div", {}, link(k), " ", h("span", { class: d > 0n ? "up" : "down" }, signed(sol(d))))]
  })
  const type = h("td", {}, n.err === null ? "…" : "FAILED")
  const tokens = h("td", {}, "…")
  const row = h(
    "tr",
    { "data-signature": n.signature },
    h("td", {}, time(Date.now())),
    h("td", {}, link(n.signature)),
    h("td", { class: "num" }, n.slot.toLocaleString("en-US")),
    type,
    h("td", {}, solChanges.length === 0 ? "—" : solChanges),
    tokens
  )
  // The type and the token changes: the enhanced form of the same transaction.
  own(`/emulator/transactions/${n.signature}`).then((tx) => {
    if (n.err === null) fill(type, String(tx.type ?? "UNKNOWN"))
    const changes = (tx.accountData ?? []).flatMap((a: any) =>
      (a.tokenBalanceChanges ?? []).map((c: any) =>
        h(
          "div",
          {},
          link(String(c.userAccount)),
          " ",
          h(
            "span",
            { class: String(c.rawTokenAmount.tokenAmount).startsWith("-") ? "down" : "up" },
            signed(units(BigInt(c.rawTokenAmount.tokenAmount), Number(c.rawTokenAmount.decimals)))
          ),
          " ",
          link(String(c.mint))
        )
      )
    )
    fill(tokens, changes.length === 0 ? "—" : changes)
  }, () => fill(tokens, "—"))
  return row
}

const startFeed = () => {
  const body = byId("feed-rows")
  const status = byId("feed-status")
  runtime.runFork(
    Effect.flatMap(Subscriptions.Subscriptions, (s) =>
      s.transaction({}).pipe(
        Stream.runForEach((event) =>
          Effect.sync(() => {
            if (event._tag === "Gap") {
              status.textContent = "Reconnected: some transactions may be missing from the feed."
              return
            }
            const n = event.value
            const tx: any = n.transaction.transaction
            byId("feed-empty").hidden = true
            body.prepend(feedRow({
              signature: n.signature,
              slot: Number(n.slot),
              err: n.transaction.meta?.err ?? null,
              keys: tx?.message?.accountKeys ?? [],
              pre: n.transaction.meta?.preBalances ?? [],
              post: n.transaction.meta?.postBalances ?? []
            }))
            while (body.children.length > FEED_ROWS) body.lastElementChild?.remove()
            status.textContent = `Live. Last: slot ${Number(n.slot).toLocaleString("en-US")}.`
          })
        )
      )).pipe(
        Effect.tapErrorCause(() =>
          Effect.sync(() => (status.textContent = "The feed's socket failed: reload to retry."))
        ),
        Effect.ignore
      )
  )
  status.textContent = "Live: waiting for the next transaction."
}

// -- lookup ----------------------------------------------------------------------------

const table = (head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<Child | ReadonlyArray<Child>>>) =>
  h(
    "table",
    {},
    h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c)))))
  )

const lookupSignature = async (signature: string) => {
  const tx = await own(`/emulator/transactions/${signature}`)
  return [
    h("h3", {}, "Transaction ", h("span", { class: "mono" }, short(signature))),
    h(
      "dl",
      {},
      h("dt", {}, "Type"),
      h("dd", {}, String(tx.type)),
      h("dt", {}, "Slot"),
      h("dd", {}, Number(tx.slot).toLocaleString("en-US")),
      h("dt", {}, "Fee payer"),
      h("dd", {}, link(String(tx.feePayer))),
      h("dt", {}, "Fee"),
      h("dd", {}, sol(BigInt(tx.fee))),
      h("dt", {}, "Status"),
      h("dd", {}, tx.transactionError === null || tx.transactionError === undefined ? "succeeded" : "failed")
    ),
    table(
      ["From", "To", "Amount"],
      [
        ...(tx.nativeTransfers ?? []).map((t: any) => [
          link(t.fromUserAccount),
          link(t.toUserAccount),
          sol(BigInt(t.amount))
        ]),
        ...(tx.tokenTransfers ?? []).map((t: any) => [
          t.fromUserAccount === "" ? "(minted)" : link(t.fromUserAccount),
          link(t.toUserAccount),
          h("span", {}, String(t.tokenAmount), " ", link(t.mint))
        ])
      ]
    )
  ]
}

const lookupMint = (mint: string, asset: any) =>
  runtime.runPromise(Effect.gen(function*() {
    const das = yield* DigitalAssets.DigitalAssets
    const accounts = yield* das.getTokenAccounts({ mint, limit: 1000 })
    const decimals = Number(asset.token_info?.decimals ?? 0)
    const top = [...accounts.token_accounts].sort((a, b) => (b.amount > a.amount ? 1 : b.amount < a.amount ? -1 : 0))
      .slice(0, 10)
    const name = asset.content?.metadata?.name
    return [
      h("h3", {}, "Mint ", h("span", { class: "mono" }, short(mint)), name ? ` (${String(name)})` : ""),
      h(
        "dl",
        {},
        h("dt", {}, "Supply"),
        h("dd", {}, asset.token_info?.supply === undefined ? "—" : units(BigInt(asset.token_info.supply), decimals)),
        h("dt", {}, "Decimals"),
        h("dd", {}, decimals),
        h("dt", {}, "Holders"),
        h("dd", {}, accounts.token_accounts.length)
      ),
      h("h4", {}, "Top holders"),
      table(
        ["Owner", "Token account", "Amount"],
        top.map((t) => [link(t.owner), link(t.address), units(t.amount, decimals)])
      )
    ]
  }))

const lookupAddress = (address: string) =>
  runtime.runPromise(Effect.gen(function*() {
    const wallet = yield* Wallet.Wallet
    const das = yield* DigitalAssets.DigitalAssets
    const [balances, nfts, history] = yield* Effect.all([
      wallet.balances(address, { showNfts: false, limit: 100 }),
      das.getAssetsByOwner({ ownerAddress: address, limit: 50 }),
      wallet.history(address, { limit: 10 })
    ], { concurrency: 3 })
    const solEntry = balances.balances.find((b) => b.mint === "So11111111111111111111111111111111111111112")
    const tokens = balances.balances.filter((b) => b !== solEntry)
    return [
      h("h3", {}, "Account ", h("span", { class: "mono", title: address }, short(address))),
      h(
        "dl",
        {},
        h("dt", {}, "SOL"),
        h("dd", { "data-testid": "sol-balance" }, solEntry === undefined ? "0 SOL" : `${String(solEntry.balance)} SOL`)
      ),
      h("h4", {}, `Tokens (${tokens.length})`),
      tokens.length === 0
        ? h("p", {}, "None.")
        : table(
          ["Mint", "Name", "Balance"],
          tokens.map((b) => [link(b.mint), b.name ?? b.symbol ?? "—", String(b.balance)])
        ),
      h("h4", {}, `NFTs (${nfts.total ?? nfts.items.length})`),
      nfts.items.length === 0
        ? h("p", {}, "None.")
        : table(
          ["Asset", "Name", "Compressed"],
          nfts.items.map((a: any) => [
            link(a.id),
            String(a.content?.metadata?.name ?? "—"),
            a.compression?.compressed ? "yes" : "no"
          ])
        ),
      h("h4", {}, "History"),
      history.data.length === 0
        ? h("p", {}, "None.")
        : table(
          ["Signature", "Slot", "Changes"],
          history.data.map((e) => [
            link(e.signature),
            e.slot.toLocaleString("en-US"),
            e.balanceChanges.map((c) => `${signed(String(c.amount))} ${c.mint === "SOL" ? "SOL" : short(c.mint)}`)
              .join(", ") || "—"
          ])
        )
    ]
  }))

/** Looks up what the box holds: a signature, a mint, or any other address. */
async function lookup(value: string) {
  const input = byId<HTMLInputElement>("lookup-input")
  const out = byId("lookup-result")
  input.value = value
  const query = value.trim()
  if (query === "") return
  fill(out, h("p", { class: "muted" }, "Looking up…"))
  try {
    if (query.length > 50) return fill(out, ...(await lookupSignature(query)))
    const asset = await runtime.runPromise(
      Effect.flatMap(DigitalAssets.DigitalAssets, (das) => das.getAsset({ id: query })).pipe(Effect.option)
    )
    const isMint = Option.isSome(asset) && (asset.value as any).token_info !== undefined &&
      (asset.value as any).interface !== "V1_NFT" && (asset.value as any).interface !== "ProgrammableNFT"
    fill(out, ...(isMint ? await lookupMint(query, asset.value) : await lookupAddress(query)))
  } catch (e) {
    fill(out, h("p", { class: "error", role: "alert" }, `Lookup failed: ${errorText(e)}`))
  }
}

// -- webhooks --------------------------------------------------------------------------

const refreshWebhooks = async () => {
  const d = await own("/emulator/deliveries")
  fill(
    byId("webhooks"),
    d.webhooks.length === 0 ? h("p", {}, "No webhooks. Create one with the Webhooks API (POST /v0/webhooks).") : table(
      ["Webhook", "URL", "Type", "State", "Delivered", "Failed"],
      d.webhooks.map((w: any) => [
        h("span", { class: "mono", title: w.webhookID }, short(w.webhookID)),
        String(w.webhookURL),
        String(w.webhookType),
        w.active ? "active" : h("span", { class: "error" }, "disabled"),
        w.delivered,
        w.failed === 0 ? "0" : h("span", { class: "error" }, w.failed)
      ])
    )
  )
  fill(
    byId("deliveries"),
    d.attempts.length === 0 ? h("p", {}, "No deliveries yet.") : table(
      ["When", "Webhook", "Transaction", "Attempt", "Status", "Latency"],
      d.attempts.slice(0, 20).map((a: any) => [
        time(a.at),
        short(String(a.webhookID)),
        link(String(a.signature)),
        a.attempt,
        h("span", { class: a.ok ? "up" : "error" }, a.status === 0 ? "no answer" : a.status),
        `${a.latencyMs} ms`
      ])
    )
  )
}

// -- usage chart (SVG of our own: a few stacked bars need no charting library) ----------

const COLORS = ["#3b82f6", "#f59e0b", "#10b981", "#ef4444", "#8b5cf6", "#ec4899", "#14b8a6", "#64748b"]
const SVG = "http://www.w3.org/2000/svg"
const svg = (tag: string, attrs: Record<string, string | number>, text?: string) => {
  const el = document.createElementNS(SVG, tag)
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v))
  if (text !== undefined) el.textContent = text
  return el
}

const chart = (u: any, field: "requests" | "credits", title: string) => {
  const W = 560
  const H = 140
  const pad = { l: 40, b: 18, t: 8 }
  const totals: Array<number> = u.series.map((s: any) =>
    Object.values(s.areas).reduce((n: number, a: any) => n + a[field], 0)
  )
  const max = Math.max(1, ...totals)
  const bw = (W - pad.l) / u.series.length
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "aria-label": `${title} per second, last ${u.seconds} s`
  })
  root.append(
    svg("text", { x: 0, y: 12, class: "axis" }, String(max)),
    svg("text", { x: 0, y: H - pad.b, class: "axis" }, "0")
  )
  root.append(svg("line", { x1: pad.l, x2: W, y1: H - pad.b, y2: H - pad.b, class: "base" }))
  u.series.forEach((s: any, i: number) => {
    let y = H - pad.b
    u.areas.forEach((area: string, j: number) => {
      const v = s.areas[area]?.[field] ?? 0
      if (v === 0) return
      const hgt = (v / max) * (H - pad.b - pad.t)
      y -= hgt
      const r = svg("rect", {
        x: pad.l + i * bw + 1,
        y,
        width: Math.max(1, bw - 2),
        height: hgt,
        fill: COLORS[j % COLORS.length]!
      })
      r.append(svg("title", {}, `${area}: ${v} ${field}`))
      root.append(r)
    })
  })
  root.append(
    svg("text", { x: pad.l, y: H - 2, class: "axis" }, `-${u.seconds}s`),
    svg("text", { x: W - 24, y: H - 2, class: "axis" }, "now")
  )
  return h("figure", {}, h("figcaption", {}, title), root)
}

const refreshUsage = async () => {
  const u = await own("/emulator/usage?seconds=60")
  const legend = h(
    "ul",
    { class: "legend" },
    u.areas.map((a: string, j: number) =>
      h(
        "li",
        {},
        h("span", { class: "swatch", style: `background:${COLORS[j % COLORS.length]}` }),
        `${a}: ${u.totals[a].requests} req, ${u.totals[a].credits} credits${
          u.totals[a].limited ? `, ${u.totals[a].limited} × 429` : ""
        }`
      )
    )
  )
  const limits = Object.entries(u.plan.limits as Record<string, number>)
  fill(
    byId("usage"),
    h("div", { class: "charts" }, chart(u, "requests", "Requests"), chart(u, "credits", "Credits")),
    u.areas.length === 0 ? h("p", { class: "muted" }, "No calls in the last minute.") : legend,
    h(
      "p",
      {},
      `Plan ${u.plan.name}${
        u.plan.enforced ? " (limits enforced)" : " (limits not enforced: start with --plan)"
      }. Credits used `,
      Number(u.plan.creditsUsed).toLocaleString("en-US"),
      " of ",
      Number(u.plan.creditsLimit).toLocaleString("en-US"),
      "."
    ),
    table(
      ["Bucket", "Limit (req/s)", "429s sent"],
      limits.map(([bucket, limit]) => [bucket, limit, u.plan.rejected[bucket] ?? 0])
    )
  )
}

// -- world forms -----------------------------------------------------------------------

const WORLD: ReadonlyArray<{
  call: string
  title: string
  fields: ReadonlyArray<{ name: string; label: string; placeholder?: string; optional?: boolean }>
  body: (v: Record<string, string>) => unknown
}> = [
  {
    call: "fund",
    title: "Fund",
    fields: [{ name: "address", label: "Address" }, { name: "sol", label: "SOL", placeholder: "1.5" }],
    body: (v) => ({ address: v.address, lamports: toRaw(v.sol!, 9) })
  },
  {
    call: "mintFungible",
    title: "Mint a token",
    fields: [
      { name: "owner", label: "Owner" },
      { name: "amount", label: "Amount (raw units)", placeholder: "1000000" },
      { name: "decimals", label: "Decimals", placeholder: "6", optional: true },
      { name: "name", label: "Name", optional: true }
    ],
    body: (v) => ({
      owner: v.owner,
      amount: v.amount,
      ...(v.decimals ? { decimals: Number(v.decimals) } : {}),
      ...(v.name ? { name: v.name } : {})
    })
  },
  {
    call: "transfer",
    title: "Transfer",
    fields: [
      { name: "from", label: "From" },
      { name: "to", label: "To" },
      { name: "sol", label: "SOL (or leave empty)", placeholder: "0.25", optional: true },
      { name: "mint", label: "Token mint", optional: true },
      { name: "amount", label: "Token amount (raw)", optional: true }
    ],
    body: (v) => ({
      from: v.from,
      to: v.to,
      ...(v.sol ? { lamports: toRaw(v.sol, 9) } : {}),
      ...(v.mint ? { mint: v.mint, amount: v.amount } : {})
    })
  },
  {
    call: "advanceSlots",
    title: "Advance slots",
    fields: [{ name: "slots", label: "Slots", placeholder: "10" }],
    body: (v) => ({ slots: Number(v.slots) })
  }
]

/** A decimal string in UI units to raw units (no floating point). */
function toRaw(ui: string, decimals: number): string {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(ui.trim())
  if (m === null || (m[1] === "" && (m[2] ?? "") === "")) return ui
  const frac = (m[2] ?? "").padEnd(decimals, "0")
  return frac.length > decimals ? ui : (BigInt(m[1] || "0") * 10n ** BigInt(decimals) + BigInt(frac || "0")).toString()
}

const worldForms = () =>
  WORLD.map((f) => {
    const out = h("p", { class: "result", role: "status" })
    const form = h(
      "form",
      {
        class: "world",
        "data-call": f.call,
        submit: (e) => {
          e.preventDefault()
          const data = new FormData(form)
          const v = Object.fromEntries(f.fields.map((x) => [x.name, String(data.get(x.name) ?? "").trim()]))
          fill(out, "Sending…")
          own(`/emulator/world/${f.call}`, f.body(v)).then(
            (r) =>
              fill(
                out,
                "Landed",
                r.signature ? [" ", link(String(r.signature))] : "",
                r.slot !== undefined ? ` at slot ${Number(r.slot).toLocaleString("en-US")}` : "",
                r.mint ? [", mint ", link(String(r.mint))] : ""
              ),
            (e) => fill(out, h("span", { class: "error" }, errorText(e)))
          )
        }
      },
      h("h3", {}, f.title),
      f.fields.map((x) => {
        const id = `${f.call}-${x.name}`
        return h(
          "label",
          { for: id },
          x.label,
          h("input", {
            id,
            name: x.name,
            autocomplete: "off",
            spellcheck: "false",
            ...(x.placeholder ? { placeholder: x.placeholder } : {}),
            required: x.optional !== true
          })
        )
      }),
      h("button", { type: "submit" }, f.title),
      out
    )
    return form
  })

// -- start -----------------------------------------------------------------------------

const every = (ms: number, f: () => Promise<void>) => {
  let running = false
  const tick = () => {
    if (running || document.hidden) return
    running = true
    f().catch(() => undefined).finally(() => (running = false))
  }
  tick()
  setInterval(tick, ms)
}

const main = () => {
  if (apiKey === "") {
    fill(
      byId("app"),
      h("p", { class: "error", role: "alert" }, "Open the studio with its key: the start line's \"studio\" URL.")
    )
    return
  }
  byId("host").textContent = location.host
  fill(byId("forms"), worldForms())
  byId("lookup-form").addEventListener("submit", (e) => {
    e.preventDefault()
    void lookup(byId<HTMLInputElement>("lookup-input").value)
  })
  startFeed()
  every(2000, refreshWebhooks)
  every(2000, refreshUsage)
  ;(globalThis as any).solfxStudioReady = true
}

main()
