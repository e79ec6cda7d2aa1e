import { describe, expect, it } from "@effect/vitest"
import * as SubscriptionEndpoints from "@solfx/core/SubscriptionEndpoints"
import * as Either from "effect/Either"
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../..", import.meta.url))

describe("the subscriptions table", () => {
  it("checks params with its Schemas: the param and the rule", () => {
    const left = (e: SubscriptionEndpoints.Any, params: unknown) =>
      Either.match(SubscriptionEndpoints.check(e, params), { onLeft: (l) => [l.field, l.rule], onRight: () => [] })
    expect(left(SubscriptionEndpoints.account, ["0OIl+/notBase58address!!"])).toEqual([
      "params[0]",
      "base58 that decodes to exactly 32 bytes"
    ])
    expect(left(SubscriptionEndpoints.signature, ["abc"])[0]).toBe("params[0]")
    expect(left(SubscriptionEndpoints.logs, [{ mentions: ["1".repeat(60)] }])[0]).toBe("params[0].mentions[0]")
    expect(left(SubscriptionEndpoints.logs, ["some"])[1]).toContain("allWithVotes")
    // Config fields the table does not name pass as given; absent params read as [].
    expect(
      left(SubscriptionEndpoints.program, ["11111111111111111111111111111111", { encoding: "base64", filters: [] }])
    ).toEqual([])
    expect(left(SubscriptionEndpoints.slot, undefined)).toEqual([])
  })

  it("names every method once: the SDK and the emulator's PubSub read them from the table", () => {
    const names = SubscriptionEndpoints.all.flatMap((e) => [e.method, e.unsubscribe, e.notification])
    expect(new Set(names).size).toBe(names.length)
    const grep = spawnSync(
      "git",
      ["grep", "-n", "-w", "-E", names.join("|"), "--", "packages/subscriptions/src", "packages/emulator/src"],
      { cwd: root, encoding: "utf8" }
    )
    // git grep: 1 is "nothing found", 0 "found" (printed), anything else a failure to search.
    expect({ status: grep.status, found: grep.stdout.trim() }).toEqual({ status: 1, found: "" })
  })
})
