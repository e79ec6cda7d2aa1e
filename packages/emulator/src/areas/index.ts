/**
 * Every API area the emulator serves. Each area adds one line here.
 *
 * @since 0.1.0
 */
import type { Area } from "../Area.js"

/**
 * @since 0.1.0
 * @category areas
 */
export const areas: ReadonlyArray<Area> = [
]
