/**
 * The byte layouts of the accounts the emulator serves and the bank runs on: SPL Token's mint
 * (82 bytes) and token account (165 bytes), Token-2022's (the same base layouts; with
 * extensions, the base padded to 165 bytes, the account-type byte, then type-length-value
 * extensions), and system accounts (no data). Encoding and decoding are exact inverses on
 * what they cover; extensions decode to their documented jsonParsed state where it is a few
 * fixed fields, else to `unparseableExtension`, as the RPC's parser does for one it does not know.
 *
 * Offsets are the programs' (spl-token `state.rs`, as `@solana-program/token`'s codecs read them):
 * every `COption` is a little-endian u32 tag (0 none, 1 some) and its value's bytes, always present.
 *
 * @internal
 */

import * as Base58 from "./Base58.js"

/** @internal */
export const SYSTEM_PROGRAM = "11111111111111111111111111111111"
/** @internal */
export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
/** @internal */
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"

/** @internal */
export const MINT_SIZE = 82
/** @internal */
export const ACCOUNT_SIZE = 165
/** Token-2022: where the account-type byte sits (after the base, a mint's padded to the account's size). */
const ACCOUNT_TYPE_OFFSET = ACCOUNT_SIZE

/**
 * The rent-exempt minimum for `dataLength` bytes, as the runtime computes it: (128 bytes of
 * account overhead + data) × 3,480 lamports per byte-year × 2 years.
 *
 * @internal
 */
export const rentExempt = (dataLength: number): bigint => BigInt(128 + dataLength) * 3_480n * 2n

/** A token program's jsonParsed name, or undefined for any other owner. @internal */
export const tokenProgramOf = (owner: string): "spl-token" | "spl-token-2022" | undefined =>
  owner === TOKEN_PROGRAM ? "spl-token" : owner === TOKEN_2022_PROGRAM ? "spl-token-2022" : undefined

/** @internal */
export interface Mint {
  readonly mintAuthority: string | null
  readonly supply: bigint
  readonly decimals: number
  readonly isInitialized: boolean
  readonly freezeAuthority: string | null
  /** Token-2022 only. */
  readonly extensions?: ReadonlyArray<Extension> | undefined
}

/** @internal */
export type AccountState = "uninitialized" | "initialized" | "frozen"

/** @internal */
export interface TokenAccount {
  readonly mint: string
  readonly owner: string
  readonly amount: bigint
  readonly delegate: string | null
  readonly state: AccountState
  /** Wrapped SOL: the rent-exempt reserve the account keeps; null for any other mint. */
  readonly isNative: bigint | null
  readonly delegatedAmount: bigint
  readonly closeAuthority: string | null
  /** Token-2022 only. */
  readonly extensions?: ReadonlyArray<Extension> | undefined
}

/**
 * A Token-2022 extension: its jsonParsed name and state (the RPC's `extensions` items), and its
 * raw type and bytes so that encoding gives back what was decoded.
 *
 * @internal
 */
export interface Extension {
  readonly type: number
  readonly bytes: Uint8Array
  readonly extension: string
  readonly state?: Readonly<Record<string, unknown>> | undefined
}

const STATES: ReadonlyArray<AccountState> = ["uninitialized", "initialized", "frozen"]

// -- bytes --------------------------------------------------------------------------------

const view = (data: Uint8Array) => new DataView(data.buffer, data.byteOffset, data.byteLength)

const readKey = (data: Uint8Array, at: number): string => Base58.encode(data.subarray(at, at + 32))

/** The base58 text of a 32-byte key. */
export const encodeKey = (bytes: Uint8Array): string => Base58.encode(bytes)

const writeKey = (data: Uint8Array, at: number, key: string) => {
  const bytes = Base58.decode(key)
  if (bytes === undefined || bytes.length !== 32) throw new Error(`not a 32-byte base58 address: ${key}`)
  data.set(bytes, at)
}

/** A `COption<Pubkey>`: a u32 tag and 32 bytes. Undefined when the tag is neither 0 nor 1. */
const readOptionKey = (data: Uint8Array, at: number): string | null | undefined => {
  const tag = view(data).getUint32(at, true)
  return tag === 0 ? null : tag === 1 ? readKey(data, at + 4) : undefined
}

const writeOptionKey = (data: Uint8Array, at: number, key: string | null) => {
  view(data).setUint32(at, key === null ? 0 : 1, true)
  if (key !== null) writeKey(data, at + 4, key)
}

const writeU64 = (data: Uint8Array, at: number, value: bigint) => {
  if (value < 0n || value >= 2n ** 64n) throw new Error(`not a u64: ${value}`)
  view(data).setBigUint64(at, value, true)
}

// -- mints --------------------------------------------------------------------------------

/**
 * A mint's bytes: 82 for SPL Token or a Token-2022 mint without extensions; with extensions,
 * 165 (the base padded), the account type (1, a mint) and the extensions.
 *
 * @internal
 */
export const encodeMint = (mint: Mint): Uint8Array => {
  const extensions = mint.extensions ?? []
  const data = new Uint8Array(extensions.length === 0 ? MINT_SIZE : withExtensionsSize(extensions))
  writeOptionKey(data, 0, mint.mintAuthority)
  writeU64(data, 36, mint.supply)
  data[44] = mint.decimals
  data[45] = mint.isInitialized ? 1 : 0
  writeOptionKey(data, 46, mint.freezeAuthority)
  if (extensions.length > 0) writeExtensions(data, 1, extensions)
  return data
}

/**
 * A mint's fields from its bytes, or undefined when they are not a mint's (a size that is
 * neither 82 nor a Token-2022 mint's with extensions, a bad option tag).
 *
 * @internal
 */
export const decodeMint = (data: Uint8Array, program: string = TOKEN_PROGRAM): Mint | undefined => {
  const is2022 = program === TOKEN_2022_PROGRAM
  if (data.length !== MINT_SIZE && !(is2022 && data.length > ACCOUNT_SIZE && data[ACCOUNT_TYPE_OFFSET] === 1)) {
    return undefined
  }
  const mintAuthority = readOptionKey(data, 0)
  const freezeAuthority = readOptionKey(data, 46)
  if (mintAuthority === undefined || freezeAuthority === undefined || data[45]! > 1) return undefined
  const extensions = data.length > MINT_SIZE ? readExtensions(data) : is2022 ? [] : undefined
  if (extensions === null) return undefined
  return {
    mintAuthority,
    supply: view(data).getBigUint64(36, true),
    decimals: data[44]!,
    isInitialized: data[45] === 1,
    freezeAuthority,
    ...(extensions === undefined ? {} : { extensions })
  }
}

// -- token accounts -----------------------------------------------------------------------

/**
 * A token account's bytes: 165, or for Token-2022 with extensions 165, the account type (2)
 * and the extensions.
 *
 * @internal
 */
export const encodeTokenAccount = (account: TokenAccount): Uint8Array => {
  const extensions = account.extensions ?? []
  const data = new Uint8Array(extensions.length === 0 ? ACCOUNT_SIZE : withExtensionsSize(extensions))
  writeKey(data, 0, account.mint)
  writeKey(data, 32, account.owner)
  writeU64(data, 64, account.amount)
  writeOptionKey(data, 72, account.delegate)
  data[108] = STATES.indexOf(account.state)
  view(data).setUint32(109, account.isNative === null ? 0 : 1, true)
  if (account.isNative !== null) writeU64(data, 113, account.isNative)
  writeU64(data, 121, account.delegatedAmount)
  writeOptionKey(data, 129, account.closeAuthority)
  if (extensions.length > 0) writeExtensions(data, 2, extensions)
  return data
}

/**
 * A token account's fields from its bytes, or undefined when they are not a token account's.
 *
 * @internal
 */
export const decodeTokenAccount = (
  data: Uint8Array,
  program: string = TOKEN_PROGRAM
): TokenAccount | undefined => {
  const is2022 = program === TOKEN_2022_PROGRAM
  if (data.length !== ACCOUNT_SIZE && !(is2022 && data.length > ACCOUNT_SIZE && data[ACCOUNT_TYPE_OFFSET] === 2)) {
    return undefined
  }
  const v = view(data)
  const delegate = readOptionKey(data, 72)
  const closeAuthority = readOptionKey(data, 129)
  const nativeTag = v.getUint32(109, true)
  const state = STATES[data[108]!]
  if (delegate === undefined || closeAuthority === undefined || nativeTag > 1 || state === undefined) return undefined
  const extensions = data.length > ACCOUNT_SIZE ? readExtensions(data) : is2022 ? [] : undefined
  if (extensions === null) return undefined
  return {
    mint: readKey(data, 0),
    owner: readKey(data, 32),
    amount: v.getBigUint64(64, true),
    delegate,
    state,
    isNative: nativeTag === 1 ? v.getBigUint64(113, true) : null,
    delegatedAmount: v.getBigUint64(121, true),
    closeAuthority,
    ...(extensions === undefined ? {} : { extensions })
  }
}

// -- Token-2022 extensions ----------------------------------------------------------------

const withExtensionsSize = (extensions: ReadonlyArray<Extension>) =>
  ACCOUNT_SIZE + 1 + extensions.reduce((n, e) => n + 4 + e.bytes.length, 0)

const writeExtensions = (data: Uint8Array, accountType: number, extensions: ReadonlyArray<Extension>) => {
  data[ACCOUNT_TYPE_OFFSET] = accountType
  let at = ACCOUNT_TYPE_OFFSET + 1
  for (const e of extensions) {
    view(data).setUint16(at, e.type, true)
    view(data).setUint16(at + 2, e.bytes.length, true)
    data.set(e.bytes, at + 4)
    at += 4 + e.bytes.length
  }
}

/** The extensions after the account-type byte; null when a length runs past the data. */
const readExtensions = (data: Uint8Array): ReadonlyArray<Extension> | null => {
  const out: Array<Extension> = []
  let at = ACCOUNT_TYPE_OFFSET + 1
  while (at + 4 <= data.length) {
    const type = view(data).getUint16(at, true)
    const length = view(data).getUint16(at + 2, true)
    // Type 0 (uninitialized) ends the list: what follows is unused space.
    if (type === 0) break
    if (at + 4 + length > data.length) return null
    out.push(extensionOf(type, data.slice(at + 4, at + 4 + length)))
    at += 4 + length
  }
  return out
}

/** An optional key as Token-2022 stores it in extensions: 32 bytes, all zero for none. */
const optionalKey = (bytes: Uint8Array, at: number): string | null =>
  bytes.subarray(at, at + 32).every((b) => b === 0) ? null : readKey(bytes, at)

/** The extension types whose state is a few fixed fields: their jsonParsed name and state. */
const KNOWN: Readonly<
  Record<number, readonly [string, number, ((b: Uint8Array) => Record<string, unknown>) | undefined]>
> = {
  2: ["transferFeeAmount", 8, (b) => ({ withheldAmount: Number(view(b).getBigUint64(0, true)) })],
  3: ["mintCloseAuthority", 32, (b) => ({ closeAuthority: optionalKey(b, 0) })],
  6: ["defaultAccountState", 1, (b) => ({ accountState: STATES[b[0]!] ?? "uninitialized" })],
  7: ["immutableOwner", 0, undefined],
  8: ["memoTransfer", 1, (b) => ({ requireIncomingTransferMemos: b[0] === 1 })],
  9: ["nonTransferable", 0, undefined],
  11: ["cpiGuard", 1, (b) => ({ lockCpi: b[0] === 1 })],
  12: ["permanentDelegate", 32, (b) => ({ delegate: optionalKey(b, 0) })],
  13: ["nonTransferableAccount", 0, undefined],
  14: ["transferHook", 64, (b) => ({ authority: optionalKey(b, 0), programId: optionalKey(b, 32) })],
  15: ["transferHookAccount", 1, (b) => ({ transferring: b[0] === 1 })],
  18: ["metadataPointer", 64, (b) => ({ authority: optionalKey(b, 0), metadataAddress: optionalKey(b, 32) })],
  20: ["groupPointer", 64, (b) => ({ authority: optionalKey(b, 0), groupAddress: optionalKey(b, 32) })],
  22: ["groupMemberPointer", 64, (b) => ({ authority: optionalKey(b, 0), memberAddress: optionalKey(b, 32) })]
}

const extensionOf = (type: number, bytes: Uint8Array): Extension => {
  const known = KNOWN[type]
  if (known === undefined || known[1] !== bytes.length) return { type, bytes, extension: "unparseableExtension" }
  const [extension, , state] = known
  return { type, bytes, extension, ...(state === undefined ? {} : { state: state(bytes) }) }
}

/**
 * The `immutableOwner` extension Token-2022 gives every associated token account.
 *
 * @internal
 */
export const IMMUTABLE_OWNER: Extension = { type: 7, bytes: new Uint8Array(0), extension: "immutableOwner" }
