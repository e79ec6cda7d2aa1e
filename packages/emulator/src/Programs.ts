/**
 * Programs loaded into the bank beside its default ones, as `solana-test-validator --bpf-program`
 * loads them: `--program <id>=<file.so>` names a program id (a base58 32-byte address) and its
 * ELF. `parse` reads the flag (no file touched, so the CLI can check it before the emulator is
 * loaded); `read` reads the file and refuses one that is not an ELF for the SBF/BPF machine, with
 * the reason, before the bank sees it (LiteSVM's own answer to a bad file is "Offset or value is
 * out of bounds").
 *
 * @example
 * // solfx emulator --program Counter111111111111111111111111111111111111=./target/deploy/counter.so
 * const program = Programs.parse("Counter111111111111111111111111111111111111=./counter.so")
 * @since 0.1.0
 */

import * as Either from "effect/Either"
import * as Fs from "node:fs"
import type { Program } from "./Bank.js"
import * as Base58 from "./internal/Base58.js"

/** ELF machines of Solana programs: EM_BPF (247, sBPF v1 and v2) and EM_SBF (263, sBPF v3). */
const MACHINES = new Set([247, 263])

/**
 * A `--program` flag's value, `<id>=<file.so>`, as a program to load; or why it is refused (the id
 * is not a 32-byte base58 address, or there is no file part).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (flag: string): Either.Either<Program, string> => {
  const at = flag.indexOf("=")
  if (at <= 0 || at === flag.length - 1) {
    return Either.left(`--program must be <program id>=<file.so>, got ${JSON.stringify(flag)}`)
  }
  const programId = flag.slice(0, at)
  const path = flag.slice(at + 1)
  if (Base58.decode(programId)?.length !== 32) {
    return Either.left(`--program: the program id must be a base58 32-byte address, got ${JSON.stringify(programId)}`)
  }
  return Either.right({ programId, path })
}

/**
 * Checks an ELF's header: its magic, 64-bit little-endian, and a Solana program's machine.
 *
 * @since 0.1.0
 * @category validation
 */
export const elfProblem = (bytes: Uint8Array): string | undefined => {
  if (bytes.length < 64 || bytes[0] !== 0x7f || bytes[1] !== 0x45 || bytes[2] !== 0x4c || bytes[3] !== 0x46) {
    return "is not an ELF file (a program is the .so that cargo build-sbf writes)"
  }
  if (bytes[4] !== 2 || bytes[5] !== 1) return "is not a 64-bit little-endian ELF, as Solana programs are"
  const machine = bytes[18]! | (bytes[19]! << 8)
  if (!MACHINES.has(machine)) return `is an ELF for machine ${machine}, not a Solana program (BPF 247 or SBF 263)`
  return undefined
}

/**
 * A program with its bytes, read from its path (bytes given are checked as they are); or why it
 * is refused, naming the program and the file.
 *
 * @since 0.1.0
 * @category files
 */
export const read = (program: Program): Either.Either<Program & { readonly bytes: Uint8Array }, string> => {
  const name = `--program ${program.programId}=${program.path ?? "<bytes>"}`
  let bytes = program.bytes
  if (bytes === undefined) {
    if (program.path === undefined) return Either.left(`${name}: needs a path or bytes`)
    try {
      bytes = new Uint8Array(Fs.readFileSync(program.path))
    } catch (e) {
      return Either.left(`${name}: cannot be read (${e instanceof Error ? e.message : String(e)})`)
    }
  }
  if (Base58.decode(program.programId)?.length !== 32) {
    return Either.left(`${name}: the program id must be a base58 32-byte address`)
  }
  const problem = elfProblem(bytes)
  return problem === undefined ? Either.right({ ...program, bytes }) : Either.left(`${name}: the file ${problem}`)
}
