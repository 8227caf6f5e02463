// ApplicationEvent: one application event's name and response structure
// (docs/design/contract.md#application-events). The API cannot read an event, so refresh sees no
// drift and delete restores only a declared `restoreOnDelete` (docs/resources/application-event.md).
import { documented } from "../documented";
import { z } from "zod";
import { unlessGone } from "../client/errors";
import { updateApplicationEvent, type ApplicationEventRecord } from "../client/applicationEvents";
import type { Session } from "../session";
import { defineResource } from "./definition";
import { Id, isRecord, mustBe, required } from "./inputs";
import { declareProperties, StateOf } from "./properties";
import { objectType, typedAs } from "./schemaTypes";

/** A sample of the event's response: a JSON object, nested objects allowed. */
export type EventResponseSample = { [key: string]: unknown };

/** An event definition: its name and a sample of its response. */
export interface EventDefinition {
  /** The event's name. */
  name: string;
  /** A sample of the response; the platform derives the declared keys from it. */
  response: EventResponseSample;
}

/** A declared response key, as the platform returns it. */
export interface DeclaredKey {
  /** Dot path of the property. */
  key: string;
  /** The platform's type: `text` or `object`. */
  type: string;
}

/** A JSON object: what the platform accepts as a response sample. */
const Sample = typedAs(
  { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } },
  z.custom<EventResponseSample>((value) => value !== null && typeof value === "object" && !Array.isArray(value), {
    error: required("an object (a sample of the event's response)"),
  }),
);

/** A declared response key, as the platform returns it. */
const DeclaredKeySchema = objectType(
  "DeclaredKey",
  z.object(
    documented("DeclaredKey", {
      /** Dot path of the property. */
      key: z.string(),
      /** The platform's type: `text` or `object`. */
      type: z.string(),
    }),
  ),
);

/** ApplicationEvent's properties, each declared once (see properties.ts). */
export const ApplicationEventProperties = declareProperties({
  identity: documented("ApplicationEvent", {
    /** The event's id on the platform. */
    eventId: Id,
  }),
  settings: documented("ApplicationEvent", {
    /** The event's name. */
    name: z
      .string({ error: required("a string") })
      .trim()
      .min(1, "must not be empty"),
    /**
     * A sample of the event's response, as a readable object. The platform declares one key per
     * property, with dot paths for nested properties (`user.id`), and keeps the sample itself.
     */
    response: Sample,
    /**
     * What the event is set back to on delete. The API cannot read an event, so this must be declared
     * to be restored.
     */
    restoreOnDelete: objectType(
      "EventDefinition",
      z
        .object(
          documented("EventDefinition", {
            /** The event's name. */
            name: z.string().trim().min(1, "must not be empty"),
            /** A sample of the response; the platform derives the declared keys from it. */
            response: Sample,
          }),
          { error: mustBe("{name, response}") },
        )
        .strict(),
    ).optional(),
  }),
  outputs: documented("ApplicationEvent", {
    /** The keys the platform declared from the sample, with dot paths for nested properties. */
    declaredKeys: z.array(DeclaredKeySchema),
    /** The sample as the platform stores it, serialized as a string. */
    rawResponse: z.string().optional(),
  }),
});

/** What an ApplicationEvent keeps in state: its inputs and what the platform declared from the sample. */
type ApplicationEventState = StateOf<typeof ApplicationEventProperties>;

/** Updates the event and picks our record out of the org's list. */
async function putEvent(
  session: Session,
  eventId: string,
  definition: EventDefinition,
): Promise<ApplicationEventRecord> {
  const events = await updateApplicationEvent(session.client, eventId, definition);
  const record = events.find((e) => e._id === eventId);
  if (!record) {
    throw new Error(
      `PUT /application/event/${eventId} succeeded, but the returned list has no event ${eventId}; ` +
        `run again, and report it if it persists`,
    );
  }
  return record;
}

function stateOf(inputs: ApplicationEventState, record: ApplicationEventRecord): ApplicationEventState {
  return {
    ...ApplicationEventProperties.inputsOf(inputs),
    declaredKeys: record.response.map(({ key, type }) => ({ key, type })),
    ...(typeof record.raw_response === "string" ? { rawResponse: record.raw_response } : {}),
  };
}

/** ApplicationEvent, defined once: the host serves its operations, the change summary its words. */
export const ApplicationEventDefinition = defineResource({
  type: "ApplicationEvent",
  description: "Declares one application event's name and response structure.",
  properties: ApplicationEventProperties,
  operations: {
    async create({ session, claim }, inputs) {
      const record = await putEvent(session, inputs.eventId, { name: inputs.name, response: inputs.response });
      claim(inputs.eventId);
      return { id: inputs.eventId, outs: stateOf(inputs, record) };
    },

    // No read operation exists for events (see the top of this file): refresh keeps the state.
    async read(_context, id, props) {
      return { id, props, inputs: ApplicationEventProperties.inputsOf(props) };
    },

    async update(context, _id, _olds, news) {
      const record = await putEvent(context.session, news.eventId, { name: news.name, response: news.response });
      return { outs: stateOf(news, record) };
    },

    async delete(context, id, props) {
      if (!props.restoreOnDelete || context.claimedByAnother(id)) return;
      await unlessGone(() => putEvent(context.session, props.eventId, props.restoreOnDelete!));
    },
  },
  importable: {
    why:
      "the API has no read of an event. Declare it in the program with restoreOnDelete: " +
      "create writes the declared name and response",
  },
  summary: {
    titled: ["name"],
    section: () => "Application events",
    title: (i, _o, t) => `event ${i.name !== undefined ? `${t.id(i.name)} ` : ""}(id ${t.id(i.eventId)})`,
    release: (i, _o, t) =>
      isRecord(i.restoreOnDelete)
        ? `the event goes back to ${t.code("restoreOnDelete")}`
        : `the event keeps its last declared name and response (no ${t.code("restoreOnDelete")})`,
  },
});
