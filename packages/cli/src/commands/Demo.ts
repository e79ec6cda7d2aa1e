/**
 * `solfx demo [--seed N]`: the main job (see `Demo.ts`). Always on an embedded
 * emulator: the tour needs addresses with data, which the emulator names.
 *
 * @since 0.1.0
 */

import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { root } from "../Globals.js"

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "demo",
  {
    seed: Options.integer("seed").pipe(
      Options.withDescription("Seed of the emulator's dataset (default 42)"),
      Options.optional
    )
  },
  (o) =>
    Effect.gen(function*() {
      const globals = yield* root
      // Loaded on demand, with the emulator: other commands do not pay for them.
      const Demo = yield* Effect.promise(() => import("../Demo.js"))
      return yield* Demo.run({ json: globals.json, seed: Option.getOrUndefined(o.seed) })
    })
).pipe(
  Command.withDescription("The main job: a tour of every API area on an embedded emulator (--emulator is implied)")
)
