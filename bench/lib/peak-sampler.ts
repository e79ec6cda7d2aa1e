/**
 * Samples a process's RSS every 20 ms and keeps what made it up at the highest
 * sample: V8's heap spaces (committed sizes) and the memory outside the heap
 * (array buffers, other external memory). Used by the memory clients, which
 * print it beside the kernel's high-water mark, so a peak can be read as
 * "which space grew" rather than one number.
 */
import { getHeapSpaceStatistics } from "node:v8"

const MB = 1024 * 1024

/** The lines a memory client prints around its walk, so a trace of its collections can be cut to the walk. */
export const WALK_START = "walk-start"
export const WALK_END = "walk-end"

/** Committed MB of each heap space, and what lies outside the heap, at one moment. */
export interface Breakdown {
  readonly rssMb: number
  /** V8 heap spaces by name (new, old, code, large_object, new_large_object...), committed MB. */
  readonly spacesMb: Readonly<Record<string, number>>
  readonly arrayBuffersMb: number
  /** External memory other than array buffers. */
  readonly otherExternalMb: number
}

export const breakdown = (): Breakdown => {
  const m = process.memoryUsage()
  const spacesMb: Record<string, number> = {}
  for (const s of getHeapSpaceStatistics()) {
    if (s.space_size > 0) spacesMb[s.space_name.replace(/_space$/, "")] = s.space_size / MB
  }
  return {
    rssMb: m.rss / MB,
    spacesMb,
    arrayBuffersMb: m.arrayBuffers / MB,
    otherExternalMb: (m.external - m.arrayBuffers) / MB
  }
}

/** Starts sampling; `stop` returns the breakdown at the highest RSS seen (one last sample included). */
export const start = (): { readonly stop: () => Breakdown } => {
  let peak = breakdown()
  const sample = () => {
    const b = breakdown()
    if (b.rssMb > peak.rssMb) peak = b
  }
  const timer = setInterval(sample, 20)
  return {
    stop: () => {
      clearInterval(timer)
      sample()
      return peak
    }
  }
}
