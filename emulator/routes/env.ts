import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { badRequest, notFound } from "../errors";
import { ENV_SCOPES, VAR_FORMATS, scopeIdProblem, varFormatProblem, type EnvScope, type EnvValueIds } from "../model";
import { paginate, paginationQuerySchema } from "../pagination";
import type { EmulatorContext } from "../context";
import type { EmulatorStore } from "../store";
import { parseInput } from "../validation";
import { envDefinitionView, envValueListItemView, envValueLookupView, envValueView } from "../views";
import { accepts, actorOf, commitChange, requireLinkedAccount, requirePublishedWorkflow } from "./shared";

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
    const name = query.name?.toLowerCase();
    const matching = store.state.envDefinitions.filter(
      (d) =>
        (query.scope === undefined || d.scope === query.scope) &&
        (query.var_format === undefined || d.var_format === query.var_format) &&
        (name === undefined || d.name.toLowerCase().includes(name)),
    );
    return paginate(matching, query, envDefinitionView);
  });

  app.get<{ Params: { id: string } }>(`${env}/definitions/:id`, accepts("api_key_or_bearer"), async (request) => {
    return { definition: envDefinitionView(requireDefinition(store, request.params.id)) };
  });

  app.get(`${env}/values/:scope`, accepts("api_key_or_bearer"), async (request) => {
    const { scope } = parseInput(scopeParamsSchema, request.params, "params");
    const query = parseInput(valuesQuerySchema, request.query, "query");
    requireFittingIds(scope, query);
    const definitions = new Map(store.state.envDefinitions.filter((d) => d.scope === scope).map((d) => [d._id, d]));
    const matching = store.state.envValues.filter(
      (v) =>
        definitions.has(v.variable_definition_id) &&
        (query.variable_definition_id === undefined || v.variable_definition_id === query.variable_definition_id) &&
        (query.linked_account_id === undefined || v.linked_account_id === query.linked_account_id) &&
        (query.workflow_id === undefined || v.workflow_id === query.workflow_id),
    );
    const page = paginate(matching, query, (v) => envValueListItemView(definitions.get(v.variable_definition_id)!, v));
    return { status: "success", ...page };
  });

  app.get<{ Params: { definition_id: string } }>(
    `${env}/value/:definition_id`,
    accepts("api_key_or_bearer"),
    async (request) => {
      const query = parseInput(placementQuerySchema, request.query, "query");
      const definition = requireDefinition(store, request.params.definition_id);
      requireFittingIds(definition.scope, query);
      const value = store.envValueFor(definition._id, query.linked_account_id ?? null, query.workflow_id ?? null);
      if (!value) throw notFound("Variable value not found");
      return envValueLookupView(definition, value);
    },
  );

  app.post(`${env}/values`, accepts("api_key_or_bearer"), async (request) => {
    const body = parseInput(setValueBodySchema, request.body);
    const definition = requireDefinition(store, body.variable_definition_id);
    requireFittingIds(definition.scope, body);
    const linkedAccountId = body.linked_account_id ?? null;
    const workflowId = body.workflow_id ?? null;
    if (linkedAccountId !== null) requireLinkedAccount(store, linkedAccountId);
    if (workflowId !== null) requirePublishedWorkflow(store.workflow(workflowId)?.workflow, workflowId);
    const formatProblem = varFormatProblem(definition.var_format, body.value);
    if (formatProblem) throw badRequest(formatProblem);

    const value = store.setEnvValue({
      definition,
      value: body.value,
      linkedAccountId,
      workflowId,
      actor: actorOf(request),
    });
    // Audit entries never carry the value: it may be a secret.
    await commitChange(store, request, "ENV_VALUE_SET", {
      linked_account_id: linkedAccountId,
      workflow_id: workflowId,
      resource_id: value._id,
    });
    return envValueView(definition, value);
  });

  app.delete<{ Params: { value_id: string } }>(
    `${env}/values/:value_id`,
    accepts("api_key_or_bearer"),
    async (request) => {
      const deleted = store.deleteEnvValue(request.params.value_id);
      if (!deleted) throw notFound("Variable value not found");
      await commitChange(store, request, "ENV_VALUE_DELETED", {
        linked_account_id: deleted.linked_account_id,
        workflow_id: deleted.workflow_id,
        resource_id: deleted._id,
      });
      return { status: "success", message: "Variable value deleted" };
    },
  );
}

function requireDefinition(store: EmulatorStore, definitionId: string) {
  const definition = store.envDefinition(definitionId);
  if (!definition) throw notFound("Variable definition not found");
  return definition;
}

function requireFittingIds(scope: EnvScope, ids: EnvValueIds): void {
  const problem = scopeIdProblem(scope, ids);
  if (problem) throw badRequest(problem);
}
