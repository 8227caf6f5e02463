import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { badRequest, notFound, workflowNotPublished } from "../errors";
import { isPlainObject, nameValueSchema, type App, type FieldDefinition, type WorkflowDefinition } from "../model";
import type { EmulatorContext } from "../context";
import { now } from "../store";
import { parseInput } from "../validation";
import { configFieldView, configView } from "../views";
import {
  accepts,
  commitChange,
  optionalHeader,
  requireConfig,
  requireHeader,
  requireLinkedAccount,
  requireLinkedAccountId,
} from "./shared";

const fieldInputSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  options: z.array(nameValueSchema).optional(),
  labels: z.array(nameValueSchema).optional(),
});

/** The spec's field update body (4.1). */
const specFieldBodySchema = z.object({
  slug: z.string(),
  config_id: z.string(),
  fields: z.array(fieldInputSchema),
  workflows: z.array(z.object({ id: z.string(), name: z.string().optional(), fields: z.array(fieldInputSchema) })),
});

/** The platform reference's field update body: just the value (slug and config_id may ride along). */
const valueFieldBodySchema = z.object({
  value: z.unknown(),
  slug: z.string().optional(),
  config_id: z.string().optional(),
});

const fieldQuerySchema = z.object({
  workflow_id: z.string().min(1).optional(),
  config_id: z.string().min(1).optional(),
});
const upsertConfigBodySchema = z.object({
  slug: z.string().min(1),
  config_id: z.string().min(1).optional(),
  labels: z.array(nameValueSchema).optional(),
});

type FieldParams = { fieldId: string };
type ConfigParams = { slug: string; config_id: string };
type FieldInput = z.output<typeof fieldInputSchema>;
type FieldBody =
  | ({ form: "spec" } & z.output<typeof specFieldBodySchema>)
  | ({ form: "value" } & z.output<typeof valueFieldBodySchema>);

/** Config routes: update a field (4.1), get a config, upsert a config. */
export function registerConfigRoutes(app: FastifyInstance, { store }: EmulatorContext): void {
  app.put<{ Params: FieldParams }>(`${API_PREFIX}/config/field/:fieldId`, accepts("api_key"), async (request) => {
    const { fieldId } = request.params;
    const query = parseInput(fieldQuerySchema, request.query, "query");
    const linkedAccountId = requireLinkedAccountId(request);
    const slug = requireHeader(request, "slug");
    const disableFieldOptions = parseDisableFieldOptions(request);
    const body = parseFieldBody(request.body);
    if (body.slug !== undefined && body.slug !== slug) {
      throw badRequest(`slug: the body's slug ${body.slug} does not match the slug header ${slug}`);
    }
    const configId = body.config_id ?? query.config_id ?? linkedAccountId;
    const { app: application, config } = requireConfig(store, { linkedAccountId, slug, configId });

    const bodyWorkflowId =
      body.form === "spec" ? body.workflows.find((w) => w.fields.some((f) => f.id === fieldId))?.id : undefined;
    const { definition, workflow } = resolveField(application, fieldId, query.workflow_id, bodyWorkflowId);
    if (workflow && !workflow.published) throw workflowNotPublished(workflow.id);

    const workflowId = workflow?.id ?? null;
    // Looked up before any state is touched, so that a refused body leaves the config as it was.
    const entry = body.form === "spec" ? bodyEntryFor(body, fieldId, workflowId) : undefined;
    const state = store.configFieldState(config, workflowId, fieldId);
    if (entry) {
      for (const property of ["name", "options", "labels"] as const) {
        if (entry[property] !== undefined) Object.assign(state, { [property]: entry[property] });
      }
    } else if (body.form === "value") {
      state.value = body.value;
    }
    config.updatedAt = now();
    await commitChange(store, request, "CONFIG_FIELD_UPDATED", {
      linked_account_id: linkedAccountId,
      slug,
      config_id: configId,
      workflow_id: workflowId,
      resource_id: fieldId,
    });
    return configFieldView(definition, state, disableFieldOptions);
  });

  app.get<{ Params: ConfigParams }>(
    `${API_PREFIX}/slug/:slug/config/:config_id`,
    accepts("api_key"),
    async (request) => {
      const { slug, config_id: configId } = request.params;
      const linkedAccountId = requireLinkedAccountId(request);
      const { app: application, config } = requireConfig(store, { linkedAccountId, slug, configId });
      return configView(application, config);
    },
  );

  app.post(`${API_PREFIX}/config`, accepts("api_key"), async (request) => {
    const linkedAccountId = requireLinkedAccountId(request);
    const body = parseInput(upsertConfigBodySchema, request.body);
    const application = store.app(body.slug);
    if (!application) throw notFound(`Application with slug ${body.slug} not found`);
    requireLinkedAccount(store, linkedAccountId);
    const key = { linkedAccountId, slug: body.slug, configId: body.config_id ?? linkedAccountId };
    const { config } = store.upsertConfig(key, body.labels);
    await store.commit();
    return configView(application, config);
  });
}

/** Tells the spec's body from the `{value}` body; a body with `fields` or `workflows` is the spec's. */
function parseFieldBody(body: unknown): FieldBody {
  if (isPlainObject(body) && "value" in body && !("fields" in body) && !("workflows" in body)) {
    return { form: "value", ...parseInput(valueFieldBodySchema, body) };
  }
  return { form: "spec", ...parseInput(specFieldBodySchema, body) };
}

function parseDisableFieldOptions(request: FastifyRequest): boolean {
  const value = optionalHeader(request, "disable_field_options");
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw badRequest('disable_field_options must be "true" or "false"');
}

/**
 * Finds the field's definition. An explicit `workflow_id` query is looked at first, then the
 * application's global fields, then the workflow whose body entry lists the field, and last the
 * one workflow of the application that has a field with this id.
 */
function resolveField(
  app: App,
  fieldId: string,
  queryWorkflowId: string | undefined,
  bodyWorkflowId: string | undefined,
): { definition: FieldDefinition; workflow: WorkflowDefinition | null } {
  const inWorkflow = (workflowId: string) => {
    const workflow = app.workflows.find((w) => w.id === workflowId);
    if (!workflow) throw notFound(`Workflow ${workflowId} not found`);
    const definition = workflow.fields.find((f) => f.id === fieldId);
    return definition && { definition, workflow };
  };
  if (queryWorkflowId !== undefined) {
    const found = inWorkflow(queryWorkflowId);
    if (found) return found;
  }
  const global = app.fields.find((f) => f.id === fieldId);
  if (global) return { definition: global, workflow: null };
  if (queryWorkflowId === undefined) {
    if (bodyWorkflowId !== undefined) {
      const found = inWorkflow(bodyWorkflowId);
      if (found) return found;
    } else {
      const owners = app.workflows.filter((w) => w.fields.some((f) => f.id === fieldId));
      if (owners.length === 1) return inWorkflow(owners[0].id)!;
    }
  }
  throw badRequest(`Field with id ${fieldId} not found`);
}

/** The body's entry for the field: in `fields` for a global field, in its workflow's `fields` otherwise. */
function bodyEntryFor(
  body: z.output<typeof specFieldBodySchema>,
  fieldId: string,
  workflowId: string | null,
): FieldInput {
  const entries = workflowId === null ? body.fields : (body.workflows.find((w) => w.id === workflowId)?.fields ?? []);
  const entry = entries.find((f) => f.id === fieldId);
  if (!entry) {
    const where = workflowId === null ? "fields" : `the fields of workflows entry ${workflowId}`;
    throw badRequest(`The body has no entry for field ${fieldId} in ${where}`);
  }
  return entry;
}
