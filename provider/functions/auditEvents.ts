// Lookup of the audit log (`/audit/event-received`). docs/design/contract.md#audit-logs documents
// only its pagination, not its items, so items are returned as the platform sends them.
import { z } from "zod";
import { listAuditEvents } from "../client/audit";
import { listArgs, type ListArgs } from "./common";
import { defineLookup, type OutputTwin } from "./definition";

/** An audit log entry, in the platform's own (undocumented) shape. */
export const AuditEventSchema = z.record(z.string(), z.unknown());

/** An audit log entry, in the platform's own (undocumented) shape. */
export type AuditEvent = z.output<typeof AuditEventSchema>;

/** getAuditEvents, defined once (see definition.ts). */
export const AuditEventsLookup = defineLookup({
  name: "getAuditEvents",
  description:
    "Lists audit log entries, every page (newest first on the emulator), up to `maxItems`. " +
    "Each entry is in the platform's own (undocumented) shape.",
  args: listArgs,
  result: z.array(AuditEventSchema),
  listedAs: "events",
  run: (reader, a) => listAuditEvents(reader).all(a.maxItems),
});

/** Arguments of getAuditEvents: only the bound, since no filters are documented. */
export type GetAuditEventsArgs = ListArgs;

/**
 * Lists audit log entries, every page (newest first on the emulator), up to `maxItems`. Each entry is in the
 * platform's own (undocumented) shape.
 */
export const getAuditEvents: (args?: GetAuditEventsArgs) => Promise<AuditEvent[]> = AuditEventsLookup.inProgram;

/** getAuditEvents, taking Inputs and returning an Output. */
export const getAuditEventsOutput: OutputTwin<GetAuditEventsArgs, AuditEvent[]> =
  AuditEventsLookup.output(getAuditEvents);
