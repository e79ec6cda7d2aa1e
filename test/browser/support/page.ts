// The page's script: the shared program over the browser's own fetch and WebSocket.
import * as Socket from "@effect/platform/Socket"
import { type Input, run } from "./program.js"
;(globalThis as any).runProgram = (input: Input) => run(input, Socket.layerWebSocketConstructorGlobal)
