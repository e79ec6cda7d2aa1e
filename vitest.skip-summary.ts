/**
 * A reporter that ends the run with what was skipped and why, grouped by the
 * reason each test gave (`ctx.skip(reason)`), for example
 * "9 skipped: ../shared/fixtures/real absent". A test skipped without a reason
 * is listed by name, so that no skip goes unexplained.
 */
import type { RunnerTask, RunnerTestFile } from "vitest"
import type { Reporter } from "vitest/node"

const skippedTests = (task: RunnerTask): Array<RunnerTask> =>
  task.type === "suite"
    ? task.tasks.flatMap(skippedTests)
    : task.mode === "skip" || task.mode === "todo" || task.result?.state === "skip"
    ? [task]
    : []

const fullName = (task: RunnerTask): string => {
  const names = [task.name]
  for (let suite = task.suite; suite !== undefined && suite !== task.file; suite = suite.suite) {
    names.unshift(suite.name)
  }
  return names.join(" > ")
}

export class SkipSummary implements Reporter {
  // `onFinished`, not `onTestRunEnd`: it runs after the default reporter's own summary, so this one prints last.
  onFinished(files: ReadonlyArray<RunnerTestFile> = []): void {
    const byReason = new Map<string, number>()
    const unexplained: Array<string> = []
    for (const file of files) {
      for (const test of file.tasks.flatMap(skippedTests)) {
        // The runner records `ctx.skip(note)`'s note; vitest 3's task types do not declare it.
        const note = (test.result as { readonly note?: string } | undefined)?.note
        if (note === undefined || note === "") unexplained.push(`${file.projectName ?? ""}: ${fullName(test)}`)
        else byReason.set(note, (byReason.get(note) ?? 0) + 1)
      }
    }
    const lines = [...byReason].sort(([, a], [, b]) => b - a).map(([reason, n]) => `  ${n} skipped: ${reason}`)
    if (unexplained.length > 0) {
      lines.push(`  ${unexplained.length} skipped without a reason:`, ...unexplained.map((name) => `    ${name}`))
    }
    process.stdout.write(lines.length === 0 ? " Skipped: none\n" : ` Skipped:\n${lines.join("\n")}\n`)
  }
}
