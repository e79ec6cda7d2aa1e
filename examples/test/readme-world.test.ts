/**
 * Runs the README's world example (examples/readme/08b-emulator-world.ts): importing it
 * registers its test.
 */
import "../readme/08b-emulator-world.js"
