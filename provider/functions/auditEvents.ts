// Lookup of the audit log (`/audit/event-received`). The spec and the facts document only its
// pagination, not its items, so items are returned as the platform sends them.
import { z } from "zod";
import { ListArgs, lookup, maxItems, outputVersion } from "./common";

/** An audit log entry, in the platform's own (undocumented) shape. */
export type AuditEvent = Record<string, unknown>;

/** Arguments of getAuditEvents: only the bound, since no filters are documented. */
export type GetAuditEventsArgs = ListArgs;

const schema = z.object({ maxItems }).strict();

/** Lists audit log entries, every page (newest first on the emulator), up to `maxItems`. */
export const getAuditEvents: (args?: GetAuditEventsArgs) => Promise<AuditEvent[]> = lookup(
  "getAuditEvents",
  schema,
  (reader, a) => reader.listAuditEvents().all(a.maxItems),
);

/** getAuditEvents, taking Inputs and returning an Output. */
export const getAuditEventsOutput = outputVersion(getAuditEvents);
