/**
 * What every example shares: the Layer of an in-process emulator with every solfx
 * service pointed at it, and a runner for `node --import tsx examples/<name>.ts`.
 * Against the real service, provide `Solfx.layerConfig` (reads `SOLFX_*`) instead.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Emulator from "@solfx/emulator/Emulator"
import { Solfx } from "@solfx/sdk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"

/** Everything an example may need: the services, the emulator's handle, Node's file system and path. */
export type ExampleServices = Solfx.Services | Emulator.EmulatorHandle | NodeContext.NodeContext

/** An in-process emulator on a free port, every service pointed at it, and Node's platform services. */
export const emulatorLayer = (options: Emulator.Options = {}): Layer.Layer<ExampleServices> =>
  Solfx.layerNode.pipe(Layer.provideMerge(Emulator.layerTest(options)), Layer.provideMerge(NodeContext.layer))

/** Whether the module at `url` is the script node was started with. */
export const isMain = (url: string): boolean =>
  process.argv[1] !== undefined && url === pathToFileURL(resolve(process.argv[1])).href

/** Runs an example against a fresh in-process emulator, until it ends or Ctrl-C. */
export const runExample = <A, E>(
  program: (emulator: Emulator.Emulator) => Effect.Effect<A, E, ExampleServices>,
  options: Emulator.Options = {}
): void =>
  Effect.flatMap(Emulator.EmulatorHandle, program).pipe(Effect.provide(emulatorLayer(options)), NodeRuntime.runMain)
