// Get Linked Accounts (docs/design/contract.md#linked-accounts): the query is parsed here, the
// matching (by name or by a linked account's env value) is the store's.
import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { badRequest } from "../errors";
import { paginate, paginationQuerySchema } from "../pagination";
import type { EmulatorContext } from "../context";
import { parseInput } from "../validation";
import { linkedAccountView } from "../views";
import { accepts } from "./shared";

const linkedAccountsQuerySchema = paginationQuerySchema.extend({
  search: z.string().optional(),
  env_variable_name: z.string().min(1).optional(),
  env_variable_value: z.string().optional(),
});

/** Get Linked Accounts: an org-admin operation, so bearer tokens are refused. */
export function registerLinkedAccountRoutes(app: FastifyInstance, { store }: EmulatorContext): void {
  app.get(`${API_PREFIX}/linked-account`, accepts("api_key"), async (request) => {
    const query = parseInput(linkedAccountsQuerySchema, request.query, "query");
    if ((query.env_variable_name === undefined) !== (query.env_variable_value === undefined)) {
      throw badRequest("env_variable_name and env_variable_value must be given together");
    }
    const envVariable =
      query.env_variable_name === undefined
        ? undefined
        : { name: query.env_variable_name, value: query.env_variable_value! };
    return paginate(store.findLinkedAccounts({ search: query.search, envVariable }), query, linkedAccountView);
  });
}
