/**
 * Snapshots of an emulator's state, as Hardhat's `evm_snapshot` / `evm_revert` give a test suite:
 * `snapshot()` returns an id, `restore(id)` puts back everything that happened since, and every
 * area then answers as it did when the snapshot was taken. The state is made of parts, each
 * saving a copy of itself and restoring it: the world's changes (`World.save`), the accounts
 * executed transactions and `setAccount` wrote (`Accounts.save`), bundle statuses, and whatever
 * else registers (the bank registers its SVM's state).
 *
 * @example
 * const id = emulator.snapshot()
 * // … land transactions, call the world API …
 * emulator.restore(id) // true: the world as it was
 * @since 0.1.0
 */

/**
 * One part of the state: a copy of it, and how to put a copy back.
 *
 * @since 0.1.0
 * @category models
 */
export interface Part {
  readonly save: () => unknown
  readonly restore: (saved: unknown) => void
}

/**
 * The snapshots of one emulator instance.
 *
 * @since 0.1.0
 * @category models
 */
export interface Snapshots {
  /** Adds a part saved and restored with the others (under a unique name). */
  readonly register: (name: string, part: Part) => void
  /** Saves every part; the id (`0x1`, `0x2`, … as Hardhat's) restores it, as often as wanted. */
  readonly snapshot: () => string
  /** Restores a snapshot: false (and nothing changed) for an id this instance never gave. */
  readonly restore: (id: string) => boolean
  /** Every part's copy, by name (what a `--state` file holds). */
  readonly save: () => Readonly<Record<string, unknown>>
  /** Restores copies made by `save` (a part missing from them is left as it is). */
  readonly load: (saved: Readonly<Record<string, unknown>>) => void
}

/**
 * Makes the snapshots of an instance.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (): Snapshots => {
  const parts = new Map<string, Part>()
  const taken = new Map<string, Readonly<Record<string, unknown>>>()
  const save = () => Object.fromEntries([...parts].map(([name, part]) => [name, part.save()]))
  const load = (saved: Readonly<Record<string, unknown>>) => {
    for (const [name, part] of parts) if (Object.hasOwn(saved, name)) part.restore(saved[name])
  }
  return {
    register: (name, part) => {
      if (parts.has(name)) throw new Error(`emulator: a snapshot part named ${name} is already registered`)
      parts.set(name, part)
    },
    snapshot: () => {
      const id = `0x${(taken.size + 1).toString(16)}`
      taken.set(id, save())
      return id
    },
    restore: (id) => {
      const saved = taken.get(id)
      if (saved === undefined) return false
      load(saved)
      return true
    },
    save,
    load
  }
}
