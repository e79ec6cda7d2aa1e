/**
 * The studio: one page at `/studio` that watches the emulator's world (a live feed of
 * transactions, a lookup box, webhooks and their deliveries, credits and requests per area over
 * time beside the plan's limits, the world API as forms), and the emulator's own JSON reads it
 * needs beside the service's API. Every path here takes the key as the world API does
 * (`?api-key=` or `X-Api-Key`), is never charged, and answers cross-origin only the origins
 * given with `--cors-origin` (`Cors`).
 *
 * - `GET /studio`: the page, one HTML document with its script and style inline (no CDN, nothing
 *   fetched at run time but the emulator's own API). The published package serves the bundle its
 *   build made (`dist/studio/index.html`, by `studio/build.mjs` at build and pack time); run from
 *   source, the emulator bundles the page on its first request (esbuild), so it is never stale.
 * - `GET /emulator/deliveries`: the project's webhooks and the last delivery attempts (status,
 *   attempt, latency), newest first.
 * - `GET /emulator/usage?seconds=60`: requests, credits and 429s per usage area, per second, from
 *   the request log; the plan, its limits per bucket and the 429s the plan limits sent.
 * - `GET /emulator/transactions/<signature>`: a landed transaction of the world, enhanced (type,
 *   native and token transfers, balance changes), as webhooks receive it.
 *
 * @example
 * // curl "http://127.0.0.1:8899/emulator/usage?api-key=$KEY&seconds=30"
 * // open  http://127.0.0.1:8899/studio?api-key=<its apiKey>  (the start line prints it as "studio")
 * @since 0.1.0
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { plans } from "@solfx/core/Plans"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import { readFile } from "node:fs/promises"
import type { Project } from "./Area.js"
import type * as PlanLimits from "./PlanLimits.js"
import type * as RequestLog from "./RequestLog.js"
import * as WebhookDeliveries from "./WebhookDeliveries.js"
import * as Wire from "./Wire.js"
import type * as World from "./World.js"

/**
 * What the studio's reads look at: the one world, its logs and its webhooks.
 *
 * @since 0.1.0
 * @category models
 */
export interface Sources {
  readonly world: World.World
  readonly log: RequestLog.RequestLog
  readonly deliveries: WebhookDeliveries.Deliverer
  readonly webhooks: () => ReadonlyArray<WebhookDeliveries.Owned>
  readonly planLimits: PlanLimits.PlanLimits | undefined
  readonly now: () => number
}

/** Attempts listed by `/emulator/deliveries`, newest first. */
const DELIVERIES_SHOWN = 200
/** The longest usage window, in seconds. */
const MAX_SECONDS = 600

const json = (status: number, body: unknown) =>
  HttpServerResponse.uint8Array(Wire.encode(body), {
    status,
    contentType: "application/json",
    headers: { "cache-control": "no-store" }
  })

const own = (path: string) => path.startsWith("/emulator/") || path === "/studio"

/**
 * Whether a GET path is one of the studio's (the page or the emulator's own reads).
 *
 * @since 0.1.0
 * @category predicates
 */
export const isStudioPath = (path: string): boolean => path === "/studio" || path.startsWith("/emulator/")

// -- the page ------------------------------------------------------------------------

interface Page {
  readonly html: string
  /** The inline script's hash, for the page's Content-Security-Policy. */
  readonly scriptHash: string
}

/**
 * The page's HTML: the build's output when running from `dist`, else bundled from the sources
 * (once per process). Why not always read a file: a file beside the sources could be stale.
 */
const loadHtml = async (): Promise<string> => {
  if (import.meta.url.endsWith(".ts")) {
    const build: { readonly buildStudioHtml: () => Promise<string> } = await import(
      new URL("../studio/build.mjs", import.meta.url).href
    )
    return build.buildStudioHtml()
  }
  return readFile(new URL("./studio/index.html", import.meta.url), "utf8")
}

let page: Promise<Page> | undefined
const loadPage = (): Promise<Page> => {
  page ??= loadHtml().then((html) => {
    const script = /<script type="module">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ""
    return { html, scriptHash: createHash("sha256").update(script).digest("base64") }
  })
  // A failed build is retried on the next request rather than kept.
  page.catch(() => (page = undefined))
  return page
}

const studioPage = (host: string | undefined) =>
  Effect.promise(() => loadPage().then((p) => p, (e: unknown) => e instanceof Error ? e : new Error(String(e))))
    .pipe(Effect.map((p) =>
      p instanceof Error
        ? json(503, { error: `the studio could not be built: ${p.message}` })
        : HttpServerResponse.text(p.html, {
          status: 200,
          contentType: "text/html; charset=utf-8",
          headers: {
            "cache-control": "no-store",
            // The key is in the page's URL: never sent on to anyone.
            "referrer-policy": "no-referrer",
            "x-content-type-options": "nosniff",
            // Only its own script runs (by hash): markup that slipped into the page could not run anything.
            "content-security-policy": [
              "default-src 'none'",
              `script-src 'sha256-${p.scriptHash}'`,
              "style-src 'unsafe-inline'",
              `connect-src 'self'${host === undefined ? "" : ` ws://${host}`}`,
              "img-src data:",
              "base-uri 'none'",
              "form-action 'none'",
              "frame-ancestors 'none'"
            ].join("; ")
          }
        })
    ))

// -- the reads -----------------------------------------------------------------------

const deliveries = (sources: Sources, project: Project) => {
  const hooks = sources.webhooks().filter((o) => o.project.id === project.id).map((o) => o.webhook)
  const ids = new Set(hooks.map((h) => h.webhookID))
  const attempts = sources.deliveries.attempts().filter((a) => ids.has(a.webhookID))
  return {
    webhooks: hooks.map((h) => {
      const mine = attempts.filter((a) => a.webhookID === h.webhookID)
      return {
        webhookID: h.webhookID,
        webhookURL: h.webhookURL,
        webhookType: h.webhookType,
        active: h.active,
        accountAddresses: h.accountAddresses.length,
        delivered: mine.filter((a) => a.ok).length,
        failed: mine.filter((a) => !a.ok).length
      }
    }),
    attempts: attempts.slice(-DELIVERIES_SHOWN).reverse()
  }
}

interface AreaSecond {
  requests: number
  credits: number
  limited: number
}

const usage = (sources: Sources, project: Project, query: URLSearchParams) => {
  const asked = Number(query.get("seconds") ?? "60")
  const seconds = Number.isInteger(asked) && asked > 0 ? Math.min(asked, MAX_SECONDS) : 60
  const now = sources.now()
  const end = Math.floor(now / 1000)
  const start = end - seconds + 1
  const series: Array<{ t: number; areas: Record<string, AreaSecond> }> = []
  for (let t = start; t <= end; t++) series.push({ t, areas: {} })
  const areas = new Set<string>()
  const totals: Record<string, AreaSecond> = {}
  for (const r of sources.log.records()) {
    // The studio's own reads are no area of the service.
    if (r.projectId !== project.id || own(r.operation.replace(/^[A-Z]+ /, ""))) continue
    const t = Math.floor(r.startedAt / 1000)
    const area = r.category ?? (r.status === 429 ? "rejected" : undefined)
    if (area === undefined || t < start || t > end) continue
    areas.add(area)
    const cell = (series[t - start]!.areas[area] ??= { requests: 0, credits: 0, limited: 0 })
    const total = (totals[area] ??= { requests: 0, credits: 0, limited: 0 })
    for (const c of [cell, total]) {
      c.requests += 1
      c.credits += r.credits
      if (r.status === 429) c.limited += 1
    }
  }
  const plan = project.plan
  return {
    now,
    seconds,
    areas: [...areas].sort(),
    series,
    totals,
    plan: {
      name: plan,
      enforced: sources.planLimits !== undefined,
      limits: Object.hasOwn(plans, plan) ? plans[plan as keyof typeof plans] : {},
      rejected: sources.planLimits?.stats().rejected ?? {},
      creditsLimit: project.creditsLimit,
      creditsUsed: project.creditsUsed + project.prepaidCreditsUsed
    }
  }
}

/**
 * The studio's routes for one emulator: the answer to a keyed GET of `path` by `project`, or
 * undefined when the path is not one of them.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (sources: Sources) =>
(
  path: string,
  query: URLSearchParams,
  project: Project,
  host: string | undefined
): Effect.Effect<HttpServerResponse.HttpServerResponse> | undefined => {
  if (path === "/studio") return studioPage(host)
  if (path === "/emulator/deliveries") return Effect.sync(() => json(200, deliveries(sources, project)))
  if (path === "/emulator/usage") return Effect.sync(() => json(200, usage(sources, project, query)))
  const signature = /^\/emulator\/transactions\/([1-9A-HJ-NP-Za-km-z]{32,90})$/.exec(path)?.[1]
  if (signature !== undefined) {
    return Effect.sync(() => {
      const landed = sources.world.transaction(signature)
      return landed === undefined
        ? json(404, { error: `no transaction ${signature} landed in this world` })
        : json(200, WebhookDelivery.encode([WebhookDeliveries.enhancedOf(landed)])[0])
    })
  }
  return undefined
}
