import { beforeEach } from "vitest"

// One turn of the event loop before each test. Vitest's worker fails the run ("Timeout calling
// onTaskUpdate") when it cannot read its main process's answer within 60 s; a row of synchronous
// tests on a loaded machine can block it that long, microtask awaits between tests do not help.
beforeEach(() => new Promise<void>((resolve) => setImmediate(resolve)))
