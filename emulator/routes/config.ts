// The config operations (docs/design/contract.md#config-fields): update a field, in the spec's body
// or the platform reference's `{value}` (#conflicts), read a config, create one. The rules are the store's.
import { API_PREFIX } from "../../contract/api";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { badRequest } from "../errors";
import { isPlainObject, nameValueSchema } from "../model";
import type { EmulatorContext } from "../context";
import { parseInput } from "../validation";
import { configFieldView, configView } from "../views";
import { accepts, actorOf, optionalHeader, requireHeader, requireLinkedAccountId } from "./shared";

const fieldInputSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  options: z.array(nameValueSchema).optional(),
  labels: z.array(nameValueSchema).optional(),
});

/** The spec's field update body (docs/design/contract.md#config-fields). */
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
type FieldBody =
  | ({ form: "spec" } & z.output<typeof specFieldBodySchema>)
  | ({ form: "value" } & z.output<typeof valueFieldBodySchema>);

/** Config routes: update a field (docs/design/contract.md#config-fields), get a config, upsert a config. */
export function registerConfigRoutes(app: FastifyInstance, { store }: EmulatorContext): void {
  app.put<{ Params: FieldParams }>(`${API_PREFIX}/config/field/:fieldId`, accepts("api_key"), async (request) => {
    const { fieldId } = request.params;
    const query = parseInput(fieldQuerySchema, request.query, "query");
    const linkedAccountId = requireLinkedAccountId(request);
    const slug = requireHeader(request, "slug");
    const disableFieldOptions = parseDisableFieldOptions(request);
    const update = parseFieldBody(request.body);
    if (update.slug !== undefined && update.slug !== slug) {
      throw badRequest(`slug: the body's slug ${update.slug} does not match the slug header ${slug}`);
    }
    const key = { linkedAccountId, slug, configId: update.config_id ?? query.config_id ?? linkedAccountId };
    const fieldUpdate = { key, fieldId, workflowId: query.workflow_id, update };
    const { definition, state } = await store.updateConfigField(fieldUpdate, actorOf(request));
    return configFieldView(definition, state, disableFieldOptions);
  });

  app.get<{ Params: ConfigParams }>(
    `${API_PREFIX}/slug/:slug/config/:config_id`,
    accepts("api_key"),
    async (request) => {
      const { slug, config_id: configId } = request.params;
      const linkedAccountId = requireLinkedAccountId(request);
      const { app: application, config } = store.requireConfig({ linkedAccountId, slug, configId });
      return configView(application, config);
    },
  );

  app.post(`${API_PREFIX}/config`, accepts("api_key"), async (request) => {
    const linkedAccountId = requireLinkedAccountId(request);
    const body = parseInput(upsertConfigBodySchema, request.body);
    const key = { linkedAccountId, slug: body.slug, configId: body.config_id ?? linkedAccountId };
    const { app: application, config } = await store.saveConfig(key, body.labels);
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
