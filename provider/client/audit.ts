// The audit log (docs/design/contract.md#audit-logs): the events the platform received. Only its
// pagination is documented, so its entries are passed through as the platform sends them.
import { z } from "zod";
import type { PlatformReader } from "./http";
import { Page, type PageList, type PageQuery } from "./pagination";

/** A page of audit log entries, whose shape is not documented. */
export const AuditEventPage = Page(z.looseObject({}));
/** One received event, as the audit log lists it: passed through as the platform sends it. */
export type AuditEvent = z.infer<typeof AuditEventPage>["docs"][number];

/** `GET /audit/event-received`. */
export function listAuditEvents(reader: PlatformReader, query: PageQuery = {}): PageList<AuditEvent> {
  return reader.list({ path: "/audit/event-received", auth: "tokenOrApiKey", response: AuditEventPage }, query);
}
