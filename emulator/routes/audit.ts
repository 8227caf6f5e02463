// The audit log's public operation (docs/design/contract.md#audit-logs): the store's entries,
// newest first, one page at a time.
import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { paginate, paginationQuerySchema } from "../pagination";
import type { EmulatorContext } from "../context";
import { parseInput } from "../validation";
import { auditView } from "../views";
import { accepts } from "./shared";

/** Audit log of received events, newest first; accepts the API key or a bearer token. */
export function registerAuditRoutes(app: FastifyInstance, { store }: EmulatorContext): void {
  app.get(`${API_PREFIX}/audit/event-received`, accepts("api_key_or_bearer"), async (request) => {
    const query = parseInput(paginationQuerySchema, request.query, "query");
    return paginate(store.auditNewestFirst(), query, auditView);
  });
}
