// The session token refresh, which the platform decommissioned (docs/design/contract.md#authentication):
// every call gets 410 and a pointer to the credentials that replace it. Nothing is stored.
import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors";
import type { OperationDocs } from "../operationDoc";
import { defineObject } from "../platformObject";
import { accepts } from "../requests";

/** Where the refresh was: at the root, and under the API's prefix. */
const REFRESH_URLS = ["/session-token/refresh", `${API_PREFIX}/session-token/refresh`] as const;

/** The refresh at both places, as the OpenAPI document describes it. */
const sessionDocs: OperationDocs = Object.fromEntries(
  REFRESH_URLS.map((url, i) => [
    url,
    {
      post: {
        operationId: i === 0 ? "refreshSessionToken" : "refreshSessionTokenUnderPrefix",
        summary: "Decommissioned in v3.4.16: always 410, whatever the credentials",
        caller: "none",
        errors: { 410: "Always: use a personal access token or the API key instead" },
      },
    },
  ]),
);

/** The session token refresh, decommissioned in v3.4.16: always 410, whatever the credentials. */
function registerSessionRoutes(app: FastifyInstance): void {
  for (const url of REFRESH_URLS) {
    app.post(url, accepts("none"), async () => {
      throw new ApiError(
        410,
        "OPERATION_DECOMMISSIONED",
        "POST /session-token/refresh was decommissioned in v3.4.16; use a personal access token or the API key instead",
      );
    });
  }
}

/** The session: only its decommissioned refresh is left, answered 410. */
export const session = defineObject({ name: "session", state: {}, routes: registerSessionRoutes, docs: sessionDocs });
