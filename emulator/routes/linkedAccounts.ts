import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { badRequest } from "../errors";
import { paginate, paginationQuerySchema } from "../pagination";
import type { EmulatorContext } from "../context";
import type { EmulatorStore } from "../store";
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
    const search = query.search?.toLowerCase();
    const withValue =
      query.env_variable_name === undefined
        ? undefined
        : accountsWithEnvValue(store, query.env_variable_name, query.env_variable_value!);
    const matching = store.state.linkedAccounts.filter(
      (a) =>
        (search === undefined || a.name.toLowerCase().includes(search)) &&
        (withValue === undefined || withValue.has(a.account_id)),
    );
    return paginate(matching, query, linkedAccountView);
  });
}

/** Accounts holding a linked_account-scope value of the named definition equal to `value`. */
function accountsWithEnvValue(store: EmulatorStore, name: string, value: string): Set<string> {
  const definition = store.envDefinitionByName(name);
  // Matching on an encrypted value would let a caller guess secrets one request at a time.
  if (!definition || definition.scope !== "linked_account" || definition.encrypted) return new Set();
  return new Set(
    store.state.envValues
      .filter((v) => v.variable_definition_id === definition._id && v.value === value && v.linked_account_id !== null)
      .map((v) => v.linked_account_id!),
  );
}
