import * as HelpDoc from "@effect/cli/HelpDoc"
import * as ValidationError from "@effect/cli/ValidationError"
import { describe, expect, it } from "@effect/vitest"
import * as Bundle from "@solfx/core/Bundle"
import { Unauthorized } from "@solfx/core/Errors"
import * as Transaction from "@solfx/core/Transaction"
import * as Kit from "@solfx/testing/Kit"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { inspect } from "../src/commands/Bundle.js"
import * as Failure from "../src/Failure.js"
import * as FaultSpec from "../src/FaultSpec.js"
import * as Format from "../src/Format.js"
import { hoist } from "../src/Globals.js"
import { jsonLine } from "../src/Output.js"
import * as Progress from "../src/Progress.js"
import * as Terminal from "../src/Terminal.js"
import * as WireTransaction from "../src/WireTransaction.js"

describe("Format", () => {
  it("shows raw amounts with their decimals, exactly", () => {
    expect(Format.amount(1_234_567_891n, 6)).toBe("1,234.567891")
    expect(Format.amount(5n, 9)).toBe("0.000000005")
    expect(Format.amount(18_446_744_073_709_551_615n, 0)).toBe("18,446,744,073,709,551,615")
    expect(Format.amount(-1_500n, 3)).toBe("-1.500")
    expect(Format.sol(1_500_000_000n)).toBe("1.500000000 SOL")
    expect(Format.uiAmount(12.5, 2)).toBe("12.50")
    expect(Format.usd(1234.5)).toBe("$1,234.50")
  })

  it("aligns tables: left text, right numbers", () => {
    const rows = [{ a: "x", n: "1" }, { a: "long", n: "1,000" }]
    const lines = Format.table(
      [{ header: "a", cell: (r) => r.a }, { header: "n", cell: (r) => r.n, align: "right" }],
      rows
    )
    expect(lines).toEqual(["A         N", "x         1", "long  1,000"])
  })

  it("makes values JSON-ready: Option, Either, Redacted, bytes, bigint", () => {
    const line = jsonLine({
      some: Option.some(1),
      none: Option.none(),
      right: Either.right("ok"),
      secret: Redacted.make("AUTH-hidden"),
      bytes: new Uint8Array([1, 2, 3]),
      big: 18_446_744_073_709_551_615n
    })
    expect(line).toBe(
      "{\"some\":1,\"none\":null,\"right\":\"ok\",\"secret\":\"<redacted>\",\"bytes\":\"AQID\",\"big\":18446744073709551615}"
    )
  })
})

describe("FaultSpec", () => {
  it("reads --delivery-faults, and names the key or the rule it refuses", () => {
    expect(FaultSpec.parseDelivery("duplicate=0.2,reorder=0.1,delay=0.05,delay-ms=300,seed=7")).toEqual(
      Either.right({ duplicate: 0.2, reorder: 0.1, delay: 0.05, delayMs: 300, seed: 7 })
    )
    expect(FaultSpec.parseDelivery("duplicate=1.5")).toEqual(
      Either.left("duplicate must be a number from 0 to 1, got \"1.5\"")
    )
    expect(FaultSpec.parseDelivery("dupe=0.1")).toEqual(
      Either.left("unknown key \"dupe\" (keys: duplicate, reorder, delay, delay-ms, seed)")
    )
  })

  it("reads the documented syntax", () => {
    expect(FaultSpec.parse("rate=0.2,kinds=429+500+reset")).toEqual(
      Either.right({ rate: 0.2, kinds: ["429", "500", "reset"] })
    )
    expect(FaultSpec.parse("rate=1,kinds=all,retry-after=2,slow-ms=50,seed=3,times=4")).toEqual(
      Either.right({
        rate: 1,
        kinds: ["429", "500", "503", "reset", "slow", "truncate", "malformed"],
        retryAfterSeconds: 2,
        slowMs: 50,
        seed: 3,
        times: 4
      })
    )
  })

  it("says what is wrong", () => {
    const left = (spec: string) => Either.getLeft(FaultSpec.parse(spec)).pipe(Option.getOrElse(() => "(parsed)"))
    expect(left("kinds=429")).toMatch(/rate=R is required/)
    expect(left("rate=2")).toMatch(/rate must be a number from 0 to 1/)
    expect(left("rate=0.1,kinds=418")).toMatch(/unknown fault kind "418"/)
    expect(left("rate=0.1,color=red")).toMatch(/unknown key "color"/)
    expect(left("rate")).toMatch(/expected key=value/)
  })
})

describe("Globals.hoist", () => {
  it("moves global options in front of the subcommand, values included", () => {
    expect(hoist(["node", "solfx", "das", "proofs", "A", "--json", "--api-key", "K", "--verify"])).toEqual(
      ["node", "solfx", "--json", "--api-key", "K", "das", "proofs", "A", "--verify"]
    )
    expect(hoist(["node", "solfx", "wallet", "identity", "--rpc-url=http://x", "W"])).toEqual(
      ["node", "solfx", "--rpc-url=http://x", "wallet", "identity", "W"]
    )
    expect(hoist(["node", "solfx", "metadata", "--", "--json"])).toEqual(["node", "solfx", "metadata", "--", "--json"])
  })
})

describe("Failure.report", () => {
  it("typed failure: exit 1, one line with the tag, the key scrubbed", () => {
    const error = new Unauthorized({
      operation: "getAssetProofBatch",
      status: 401,
      detail: "bad key SECRET-k1\nsecond line"
    })
    const report = Failure.report(Cause.fail(error), ["SECRET-k1"])
    expect(report.code).toBe(1)
    expect(Option.getOrThrow(report.line)).toBe(
      "Unauthorized: getAssetProofBatch: HTTP 401 bad key <redacted> second line"
    )
  })

  it("usage errors exit 2, @effect/cli's in the same `UsageError: <message>` line; control characters escaped", () => {
    expect(Failure.report(Cause.fail(new Failure.UsageError({ message: "no key" }))))
      .toEqual({ code: 2, line: Option.some("UsageError: no key") })
    expect(Failure.report(Cause.fail(ValidationError.invalidValue(HelpDoc.p("bad\u0007 value"))))).toEqual({
      code: 2,
      line: Option.some("UsageError: bad\\u0007 value")
    })
  })

  it("a defect is one line without a stack; an interruption is 130", () => {
    const report = Failure.report(Cause.die(new Error("boom")))
    expect(report.code).toBe(1)
    expect(Option.getOrThrow(report.line)).toBe("Error: boom")
    expect(Failure.report(Cause.interrupt(undefined as never)).code).toBe(130)
  })
})

describe("WireTransaction", () => {
  it.effect("builds the same bytes as @solana/kit for a legacy System transfer", () =>
    Effect.promise(async () => {
      const seed = new Uint8Array(32).fill(7)
      const payer = await Kit.signerFromSeed(seed)
      const to = (await Kit.signer()).address
      const blockhash = "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N"
      const theirs = await Kit.buildTransfers(payer, [[to, 1_234_567n]], { version: "legacy", blockhash })
      const ours = WireTransaction.transferTransaction(
        WireTransaction.fromSecretKey(seed),
        [{ to, lamports: 1_234_567n }],
        Transaction.decodeText(blockhash, "base58").pipe(Either.getOrThrow)
      )
      expect(WireTransaction.fromSecretKey(seed).address).toBe(payer.address)
      expect(ours).toBe(theirs.base64)
    }))

  it("builds tipped, signed transactions the parser and the bundle check accept", () => {
    const payer = WireTransaction.generateKeypair()
    const to = WireTransaction.generateKeypair().address
    const wire = [
      WireTransaction.transferTransaction(payer, [{ to, lamports: 5_000n }, { to: Kit.TIP, lamports: 10_000n }]),
      WireTransaction.transferTransaction(payer, [{ to, lamports: 1n }])
    ]
    const report = inspect(wire, "base64")
    expect(report.preflight).toBe("ok")
    const [first, second] = report.transactions
    expect(first).toMatchObject({ signed: true, tips: [{ to: Kit.TIP, lamports: 10_000n }] })
    expect(second).toMatchObject({ signed: true, tips: [], transfers: [{ from: payer.address, to, lamports: 1n }] })
    expect(report.bundleId).toBe(
      Kit.bundleIdOf(report.transactions.map((t) => ("signatures" in t ? t.signatures[0]! : "")))
    )
    const checked = Bundle.check(wire, "base64")
    expect(Either.isRight(checked)).toBe(true)
  })
})

describe("Progress.render", () => {
  it("with a known total: the bar, the count, the rate and the time left; without one, the count", () => {
    expect(Progress.render("mints", 2_500, 10_000, 5_000)).toBe(
      "mints [#######.....................] 2500/10000 500/s ETA 15s"
    )
    expect(Progress.render("mints", 30, 10_000, 60_000)).toBe(
      "mints [............................] 30/10000 0.5/s ETA 5h32m"
    )
    expect(Progress.render("mints", 10_000, 10_000, 20_000)).toBe(
      "mints [############################] 10000/10000 500/s"
    )
    expect(Progress.render("assets", 1_200, undefined, 3_000)).toBe("assets 1200")
  })
})

describe("Terminal", () => {
  it("fitWidth breaks a long help line at spaces, drops its padding, indents what follows", () => {
    const line = "  - das assets-by-owner [--sort created | updated]" + " ".repeat(30) + "Assets of an owner, by page"
    expect(Terminal.fitWidth(line, 40)).toBe(
      "  - das assets-by-owner [--sort created\n      | updated]  Assets of an owner, by\n      page"
    )
    expect(Terminal.fitWidth("short line\n  also short", 40)).toBe("short line\n  also short")
  })

  it("colors only a terminal, and never with NO_COLOR set", () => {
    expect(Terminal.colorEnabled({ isTTY: true }, {})).toBe(true)
    expect(Terminal.colorEnabled({ isTTY: true }, { NO_COLOR: "1" })).toBe(false)
    expect(Terminal.colorEnabled({ isTTY: true }, { NO_COLOR: "" })).toBe(true)
    expect(Terminal.colorEnabled({ isTTY: false }, {})).toBe(false)
    expect(Terminal.colorEnabled({}, {})).toBe(false)
    expect(Terminal.stripAnsi("\u001b[0;1mUSAGE\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007")).toBe(
      "USAGE link"
    )
  })

  it("a token name holding terminal escapes is shown escaped in a table, and exact in --json", () => {
    const name = "Evil\u001b[2J\u001b]0;pwned\u0007Token\r\nnext\u202e"
    const rows = [{ name, mint: "M1" }]
    const lines = Format.table([{ header: "name", cell: (r) => r.name }, { header: "mint", cell: (r) => r.mint }], rows)
    expect(lines).toHaveLength(2)
    for (const line of lines) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/)
    expect(lines[1]).toBe("Evil\\u001b[2J\\u001b]0;pwned\\u0007Token\\r\\nnext\\u202e  M1")
    // Columns stay aligned on the escaped width.
    expect(lines[0]!.indexOf("MINT")).toBe(lines[1]!.indexOf("M1"))
    expect(Format.fields([["name", name]])[0]).toBe("name: Evil\\u001b[2J\\u001b]0;pwned\\u0007Token\\r\\nnext\\u202e")
    expect(JSON.parse(jsonLine({ name }))).toEqual({ name })
  })

  it("usage errors echo short values, never long ones or a secret", () => {
    const key = "5c1e0f9a-3d7b-4c2e-9f61-2a8b7c4d0e13"
    expect(Terminal.hideValues("'abc' is not a integer")).toBe("'abc' is not a integer")
    expect(Terminal.hideValues(`'${key}' is not a integer`)).toBe("'<36 characters>' is not a integer")
    expect(Terminal.redact(`a ${key} b ${key}`, [key])).toBe("a <redacted> b <redacted>")
  })
})
