// Update Application Event (docs/design/contract.md#application-events): the body's sample may come
// as an object or as JSON text; the store renames the event and declares its structure.
import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { isPlainObject, parseSampleDocument } from "../model";
import type { EmulatorContext } from "../context";
import { parseInput } from "../validation";
import { eventView } from "../views";
import { accepts, actorOf } from "./shared";

const SAMPLE_ERROR = "must be a JSON object, or a string holding a JSON object";

/** The event update body; `response` arrives as an object or as a JSON-encoded string of one. */
const eventBodySchema = z.object({
  name: z.string(),
  response: z.unknown().transform((value, ctx) => {
    const sample = typeof value === "string" ? parseSampleDocument(value) : isPlainObject(value) ? value : undefined;
    if (sample === undefined) {
      ctx.addIssue({ code: "custom", message: value === undefined ? `required (${SAMPLE_ERROR})` : SAMPLE_ERROR });
      return z.NEVER;
    }
    return sample;
  }),
});

/** Application event routes: update an event's name and declared response structure. */
export function registerEventRoutes(app: FastifyInstance, { store }: EmulatorContext): void {
  const url = `${API_PREFIX}/application/event/:event_id`;
  app.put<{ Params: { event_id: string } }>(url, accepts("api_key"), async (request) => {
    const body = parseInput(eventBodySchema, request.body);
    await store.updateApplicationEvent(request.params.event_id, body, actorOf(request));
    return store.applicationEvents().map(eventView);
  });
}
