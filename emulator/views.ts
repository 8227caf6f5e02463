// Wire shapes of the platform's responses, built from the stored state. Every read of an env
// value goes through `visibleValue`, so an encrypted value cannot leak through a forgotten route.
import {
  REDACTED,
  type App,
  type ApplicationEvent,
  type AuditEntry,
  type Config,
  type EnvDefinition,
  type EnvValue,
  type FieldDefinition,
  type FieldState,
  type LinkedAccount,
  type NameValue,
  type WorkflowDefinition,
} from "./model";

/** A config field as the field update operation returns it (docs/design/contract.md#config-fields). */
export interface ConfigFieldView {
  required: boolean;
  id: string;
  name: string;
  has_dynamic_map_fields: boolean;
  field_type: string;
  options: NameValue[];
  dynamic_slot_identifier: string;
  hidden: boolean;
}

/** A config field inside a get-config response: the 2.1 object plus labels and value. */
export interface ConfigFieldDetailView extends ConfigFieldView {
  labels: NameValue[];
  value: unknown;
}

/** A workflow with its toggle, as the workflow toggle operation lists it. */
export interface WorkflowSummaryView {
  id: string;
  name: string;
  description: string;
  enabled: boolean;
}

/** The get-config / upsert-config response. */
export interface ConfigView {
  slug: string;
  config_id: string;
  fields: ConfigFieldDetailView[];
  workflows: (WorkflowSummaryView & { fields: ConfigFieldDetailView[] })[];
  field_errors: unknown[];
  labels: NameValue[];
}

/** The config's override over the field definition; `disableFieldOptions` empties `options`. */
export function configFieldView(
  definition: FieldDefinition,
  state: FieldState | undefined,
  disableFieldOptions = false,
): ConfigFieldView {
  return {
    required: definition.required,
    id: definition.id,
    name: state?.name ?? definition.name,
    has_dynamic_map_fields: definition.has_dynamic_map_fields,
    field_type: definition.field_type,
    options: disableFieldOptions ? [] : (state?.options ?? definition.options),
    dynamic_slot_identifier: definition.dynamic_slot_identifier,
    hidden: definition.hidden,
  };
}

function configFieldDetailView(definition: FieldDefinition, states: FieldState[]): ConfigFieldDetailView {
  const state = states.find((s) => s.id === definition.id);
  return { ...configFieldView(definition, state), labels: state?.labels ?? [], value: state?.value ?? null };
}

/** Published workflows only: drafts are blocked from public routes. */
export function publishedWorkflows(app: App): WorkflowDefinition[] {
  return app.workflows.filter((w) => w.published);
}

/** The config's published workflows with their toggles. */
export function workflowSummaries(app: App, config: Config): WorkflowSummaryView[] {
  return publishedWorkflows(app).map((workflow) => workflowSummaryView(workflow, config));
}

function workflowSummaryView(workflow: WorkflowDefinition, config: Config): WorkflowSummaryView {
  const enabled = config.workflows.find((w) => w.id === workflow.id)?.enabled ?? false;
  return { id: workflow.id, name: workflow.name, description: workflow.description, enabled };
}

/** The whole config as get config returns it; `labels` is an addition of the emulator. */
export function configView(app: App, config: Config): ConfigView {
  return {
    slug: config.slug,
    config_id: config.config_id,
    fields: app.fields.map((f) => configFieldDetailView(f, config.fields)),
    workflows: publishedWorkflows(app).map((workflow) => {
      const states = config.workflows.find((w) => w.id === workflow.id)?.fields ?? [];
      return {
        ...workflowSummaryView(workflow, config),
        fields: workflow.fields.map((f) => configFieldDetailView(f, states)),
      };
    }),
    field_errors: [],
    labels: config.labels,
  };
}

/** An application event record (docs/design/contract.md#application-events). */
export function eventView({ _id, name, response, raw_response }: ApplicationEvent) {
  return { _id, name, response, raw_response };
}

/** An env variable definition. */
export function envDefinitionView(d: EnvDefinition) {
  const { _id, org_id, name, description, scope, var_format, encrypted, created_by, updated_by, createdAt, updatedAt } =
    d;
  return { _id, org_id, name, description, scope, var_format, encrypted, created_by, updated_by, createdAt, updatedAt };
}

/** The value a client may see: "[REDACTED]" for encrypted definitions. */
export function visibleValue(definition: EnvDefinition, value: EnvValue): string {
  return definition.encrypted ? REDACTED : value.value;
}

/** An env value as `POST /env/values` returns it. */
export function envValueView(definition: EnvDefinition, v: EnvValue) {
  return {
    _id: v._id,
    variable_definition_id: v.variable_definition_id,
    org_id: v.org_id,
    environment: v.environment,
    linked_account_id: v.linked_account_id,
    workflow_id: v.workflow_id,
    value: visibleValue(definition, v),
    created_by: v.created_by,
    updated_by: v.updated_by,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
}

/** An env value as `GET /env/values/:scope` lists it, with its definition populated. */
export function envValueListItemView(definition: EnvDefinition, v: EnvValue) {
  const { _id, name, scope, encrypted } = definition;
  return {
    _id: v._id,
    variable_definition_id: { _id, name, scope, encrypted },
    value: visibleValue(definition, v),
    linked_account_id: v.linked_account_id,
    workflow_id: v.workflow_id,
    updatedAt: v.updatedAt,
  };
}

/** An env value as `GET /env/value/:definition_id` returns it. */
export function envValueLookupView(definition: EnvDefinition, v: EnvValue) {
  const { name, scope, encrypted } = definition;
  return { value: visibleValue(definition, v), encrypted, name, scope, variable_definition_id: definition._id };
}

/** A linked account list item. */
export function linkedAccountView({ _id, account_id, name, environment, udf, createdAt, updatedAt }: LinkedAccount) {
  return { _id, account_id, name, environment, udf, createdAt, updatedAt };
}

/** An audit log item (the emulator's own shape; the platform does not document one). */
export function auditView(entry: AuditEntry) {
  const { _id, event_type, linked_account_id, slug, config_id, workflow_id, resource_id, auth, createdAt } = entry;
  return { _id, event_type, linked_account_id, slug, config_id, workflow_id, resource_id, auth, createdAt };
}
