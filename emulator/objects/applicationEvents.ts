// Application events (docs/design/contract.md#application-events): named events whose response
// structure is declared from a sample document. The public API renames one and redeclares it.
import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { notFound } from "../errors";
import type { OperationDocs } from "../operationDoc";
import { checkUnique, defineObject, idSchema, type Actor, type Issue, type StoreCore } from "../platformObject";
import { accepts, actorOf, pathParameter } from "../requests";
import { isPlainObject, parseInput } from "../validation";
import type { Audit } from "./audit";

/** One `{key, type}` entry of an application event's declared response structure. */
export const eventPropertySchema = z.object({ key: z.string(), type: z.string() });

/** A named application event; `response` is derived from the `raw_response` sample when omitted. */
export const applicationEventSchema = z
  .object({
    _id: idSchema,
    name: z.string(),
    raw_response: z.string(),
    response: z.array(eventPropertySchema).optional(),
  })
  .transform((event, ctx) => {
    if (event.response) return { ...event, response: event.response };
    const sample = parseSampleDocument(event.raw_response);
    if (sample === undefined) {
      ctx.addIssue({ code: "custom", path: ["raw_response"], message: "must be a JSON object" });
      return z.NEVER;
    }
    return { ...event, response: describeSample(sample) };
  });

/** One entry of an event's declared response structure. */
export type EventProperty = z.output<typeof eventPropertySchema>;
/** An application event. */
export type ApplicationEvent = z.output<typeof applicationEventSchema>;

/** The application events' part of the state. */
export interface ApplicationEventsState {
  events: ApplicationEvent[];
}

/** Returns the parsed object when `text` is a JSON object, else undefined. */
export function parseSampleDocument(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Declared response structure of a sample document: dot-path keys, "object" for nested objects
 * (which get their own entry and are walked), "text" for everything else. Arrays are not walked
 * because the platform's observed types are only text and object.
 */
export function describeSample(sample: Record<string, unknown>, prefix = ""): EventProperty[] {
  return Object.entries(sample).flatMap(([name, value]) => {
    const key = prefix + name;
    return isPlainObject(value)
      ? [{ key, type: "object" }, ...describeSample(value, `${key}.`)]
      : [{ key, type: "text" }];
  });
}

/** What the application events take of the store: their state and the audit log. */
export type ApplicationEventsStore = StoreCore<ApplicationEventsState> & { audit: Audit };

/** The application events' operations: `store.applicationEvents`. */
export class ApplicationEvents {
  constructor(private readonly store: ApplicationEventsStore) {}

  /** The application event with this id. */
  find(eventId: string): ApplicationEvent | undefined {
    return this.store.state.events.find((e) => e._id === eventId);
  }

  /** Every application event. */
  list(): ApplicationEvent[] {
    return this.store.state.events;
  }

  /** Renames an application event and declares its response structure from a sample; 404 when unknown. */
  async update(
    eventId: string,
    change: { name: string; response: Record<string, unknown> },
    actor: Actor,
  ): Promise<ApplicationEvent> {
    const event = this.find(eventId);
    if (!event) throw notFound("Event not found");
    Object.assign(event, {
      name: change.name,
      response: describeSample(change.response),
      raw_response: JSON.stringify(change.response),
    });
    await this.store.audit.recordChange("APPLICATION_EVENT_UPDATED", { resource_id: eventId }, actor);
    return event;
  }
}

/** An application event as the API answers it: its declared response structure, and the sample it came from. */
export const eventViewSchema = z.object({
  _id: z.string(),
  name: z.string(),
  response: z.array(eventPropertySchema),
  raw_response: z.string(),
});

/** An application event record (docs/design/contract.md#application-events). */
export function eventView({ _id, name, response, raw_response }: ApplicationEvent): z.output<typeof eventViewSchema> {
  return { _id, name, response, raw_response };
}

const SAMPLE_ERROR = "must be a JSON object, or a string holding a JSON object";

/** The event update body; `response` arrives as an object or as a JSON-encoded string of one. */
export const eventBodySchema = z
  .object({
    name: z.string(),
    response: z
      .unknown()
      .meta({
        description: "A sample document: a JSON object, or a string holding one",
        // The document's view of what the check below takes; zod's own would be "anything".
        override: { anyOf: [{ type: "object" }, { type: "string", contentMediaType: "application/json" }] },
      })
      .transform((value, ctx) => {
        const sample =
          typeof value === "string" ? parseSampleDocument(value) : isPlainObject(value) ? value : undefined;
        if (sample === undefined) {
          ctx.addIssue({ code: "custom", message: value === undefined ? `required (${SAMPLE_ERROR})` : SAMPLE_ERROR });
          return z.NEVER;
        }
        return sample;
      }),
  })
  .meta({ examples: [{ name: "contact.created", response: { contact: { id: "c_1", email: "ada@example.com" } } }] });

/** The path of one application event. */
export const eventParamsSchema = z.object({ event_id: pathParameter("The event's _id", "64f0000000000000000000e1") });

const EVENT_URL = `${API_PREFIX}/application/event/:event_id`;

/** The event update, as the OpenAPI document describes it. */
const eventDocs: OperationDocs = {
  [EVENT_URL]: {
    put: {
      operationId: "updateApplicationEvent",
      summary: "Renames an application event and declares its response structure from a sample document",
      caller: "api_key",
      params: { path: eventParamsSchema },
      body: eventBodySchema,
      answer: { schema: z.array(eventViewSchema), description: "Every application event, the updated one among them" },
      errors: { 400: "No name, or a response that is no JSON object", 404: "No event has this _id" },
    },
  },
};

/** Application event routes: update an event's name and declared response structure. */
function registerEventRoutes(app: FastifyInstance, store: { applicationEvents: ApplicationEvents }): void {
  app.put(EVENT_URL, accepts("api_key"), async (request) => {
    const { event_id } = parseInput(eventParamsSchema, request.params, "params");
    const body = parseInput(eventBodySchema, request.body);
    await store.applicationEvents.update(event_id, body, actorOf(request));
    return store.applicationEvents.list().map(eventView);
  });
}

/** Application events: their records, their update operation and its route. */
export const applicationEvents = defineObject({
  name: "applicationEvents",
  state: { events: z.array(applicationEventSchema).default([]) },
  checkReferences: (state: ApplicationEventsState, issue: Issue) =>
    checkUnique(issue, state.events, (e) => e._id, "events", "event _id"),
  operations: (store: ApplicationEventsStore) => new ApplicationEvents(store),
  routes: registerEventRoutes,
  docs: eventDocs,
});
