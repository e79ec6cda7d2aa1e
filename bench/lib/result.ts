/**
 * What a comparison hands back to `run.ts`: rows for the table and targets.
 * A comparison runs in a child process and prints this as its last stdout line.
 */

export interface Row {
  readonly contender: string
  /** The figure, formatted (a median time, a count, a size). */
  readonly value: string
  /** Against the reference of the comparison, e.g. `1.32×`. */
  readonly ratio?: string | undefined
  readonly note?: string | undefined
}

export interface Target {
  readonly name: string
  readonly target: string
  readonly measured: string
  /** undefined: not measured (reported as such). */
  readonly met: boolean | undefined
}

export interface ComparisonResult {
  readonly id: string
  readonly title: string
  /** What was run, how many repetitions: one paragraph. */
  readonly setup: string
  readonly tables: ReadonlyArray<{ readonly caption: string; readonly rows: ReadonlyArray<Row> }>
  readonly targets: ReadonlyArray<Target>
  /** Raw figures (every repetition), for RESULTS.md. */
  readonly raw: ReadonlyArray<string>
  readonly findings?: ReadonlyArray<string> | undefined
}

export const emit = (result: ComparisonResult): void => {
  process.stdout.write("\n" + JSON.stringify(result) + "\n")
}
