// workerd (through miniflare): a Worker whose fetch handler runs the smoke against the emulator whose
// start line is the request's body, and answers its result as JSON.
import { smoke } from "./smoke.mjs"

export default {
  async fetch(request) {
    try {
      return Response.json(await smoke(await request.json()))
    } catch (e) {
      return new Response(String(e?.stack ?? e), { status: 500 })
    }
  }
}
