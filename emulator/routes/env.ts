// The env variable operations (docs/design/contract.md#env-variables): definitions are read-only,
// values are listed, read, set and deleted; the store (store.ts) holds the rules.
import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { ENV_SCOPES, VAR_FORMATS } from "../model";
import { paginate, paginationQuerySchema } from "../pagination";
import type { EmulatorContext } from "../context";
import { parseInput } from "../validation";
import { envDefinitionView, envValueListItemView, envValueLookupView, envValueView } from "../views";
import { accepts, actorOf } from "./shared";

const placement = {
  linked_account_id: z.string().min(1).optional(),
  workflow_id: z.string().min(1).optional(),
};
const definitionsQuerySchema = paginationQuerySchema.extend({
  scope: z.enum(ENV_SCOPES).optional(),
  var_format: z.enum(VAR_FORMATS).optional(),
  name: z.string().optional(),
});
const placementQuerySchema = z.object(placement);
const scopeParamsSchema = z.object({ scope: z.enum(ENV_SCOPES) });
const valuesQuerySchema = paginationQuerySchema.extend({ variable_definition_id: z.string().optional(), ...placement });
const setValueBodySchema = z.object({
  variable_definition_id: z.string().min(1),
  value: z.string(),
  // null is read as "absent": clients often serialise unset optional ids that way.
  linked_account_id: z.string().min(1).nullish(),
  workflow_id: z.string().min(1).nullish(),
});

/** Env variable routes: definitions (read-only) and values (list, get, upsert, delete). */
export function registerEnvRoutes(app: FastifyInstance, { store }: EmulatorContext): void {
  const env = `${API_PREFIX}/env`;

  // Listing definitions is an org-admin operation: the platform refuses bearer tokens there.
  app.get(`${env}/definitions`, accepts("api_key"), async (request) => {
    const query = parseInput(definitionsQuerySchema, request.query, "query");
    return paginate(store.findEnvDefinitions(query), query, envDefinitionView);
  });

  app.get<{ Params: { id: string } }>(`${env}/definitions/:id`, accepts("api_key_or_bearer"), async (request) => {
    return { definition: envDefinitionView(store.requireEnvDefinition(request.params.id)) };
  });

  app.get(`${env}/values/:scope`, accepts("api_key_or_bearer"), async (request) => {
    const { scope } = parseInput(scopeParamsSchema, request.params, "params");
    const query = parseInput(valuesQuerySchema, request.query, "query");
    const page = paginate(store.findEnvValues(scope, query), query, ({ definition, value }) =>
      envValueListItemView(definition, value),
    );
    return { status: "success", ...page };
  });

  app.get<{ Params: { definition_id: string } }>(
    `${env}/value/:definition_id`,
    accepts("api_key_or_bearer"),
    async (request) => {
      const query = parseInput(placementQuerySchema, request.query, "query");
      const { definition, value } = store.envValueAt(request.params.definition_id, query);
      return envValueLookupView(definition, value);
    },
  );

  app.post(`${env}/values`, accepts("api_key_or_bearer"), async (request) => {
    const body = parseInput(setValueBodySchema, request.body);
    const { definition, value } = await store.putEnvValue(body, actorOf(request));
    return envValueView(definition, value);
  });

  app.delete<{ Params: { value_id: string } }>(
    `${env}/values/:value_id`,
    accepts("api_key_or_bearer"),
    async (request) => {
      await store.removeEnvValue(request.params.value_id, actorOf(request));
      return { status: "success", message: "Variable value deleted" };
    },
  );
}
