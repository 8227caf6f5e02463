// The generated Python program, __main__.py: the head, then templates/__main__.py with the plan's
// data in it, every value a Python string literal (literals.ts), so no input can break out.
import type { ImportPlan, PlannedField, PlannedSetup, PlannedValue } from "./plan";
import { pythonString } from "./literals";
import { openingWords } from "./native";
import { fillTemplate, templateText } from "./template";

/** A value as a Python literal: strings quoted, dicts with the keys given (their order kept). */
function literal(value: unknown): string {
  if (typeof value === "string") return pythonString(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return String(value);
  if (value === null || value === undefined) return "None";
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  const entries = Object.entries(value as object).filter(([, v]) => v !== undefined);
  return `{${entries.map(([k, v]) => `${pythonString(k)}: ${literal(v)}`).join(", ")}}`;
}

/** An env value: its text, or the secret read from the stack's config. */
const valueSource = (value: PlannedValue) =>
  "text" in value ? pythonString(value.text) : `secret(${pythonString(value.secretKey)})`;

/** Env values by definition name, as a dict literal. */
function envSource(values: Map<string, PlannedValue>, names: Map<string, string>): string {
  return `{${[...values].map(([id, value]) => `${pythonString(names.get(id)!)}: ${valueSource(value)}`).join(", ")}}`;
}

/** A field as the data declares it, with the SDK's argument names. */
const fieldData = (field: PlannedField) => ({
  field_id: field.fieldId,
  workflow_id: field.workflowId,
  name: field.name,
  options: field.options,
  labels: field.labels,
  value: field.value,
});

/** One setup's data line. */
function setupLine(setup: PlannedSetup, names: Map<string, string>): string {
  const parts = [`"linked_account_id": ${pythonString(setup.linkedAccountId)}`, `"slug": ${pythonString(setup.slug)}`];
  if (setup.fields.length > 0) parts.push(`"fields": ${literal(setup.fields.map(fieldData))}`);
  if (setup.workflows.length > 0) parts.push(`"workflows": ${literal(setup.workflows)}`);
  if (setup.env.size > 0) parts.push(`"env": ${envSource(setup.env, names)}`);
  if (setup.workflowEnv.size > 0) {
    const workflows = [...setup.workflowEnv].map(
      ([workflowId, values]) => `${pythonString(workflowId)}: ${envSource(values, names)}`,
    );
    parts.push(`"workflow_env": {${workflows.join(", ")}}`);
  }
  return `    {${parts.join(", ")}},`;
}

/** The data the template's `##data` blocks stand for, by block name. */
function dataOf(plan: ImportPlan): Record<string, string[]> {
  const names = new Map(plan.definitions.map((d) => [d.id, d.key]));
  return {
    definitions: plan.definitions.map(
      (d) => `    ${pythonString(d.key)}: {"id": ${pythonString(d.id)}, "encrypted": ${literal(d.encrypted)}},`,
    ),
    setups: plan.setups.map((s) => setupLine(s, names)),
    shared: plan.shared.map((v) => {
      const parts = [pythonString(names.get(v.definitionId)!), valueSource(v.value)];
      if (v.workflowId) parts.push(pythonString(v.workflowId));
      return `    (${parts.join(", ")}),`;
    }),
  };
}

/** The Python program: data first (one entry per linked account and app), then the loops that declare it. */
export function renderPython(plan: ImportPlan): string {
  const conditions = { env: plan.definitions.length > 0, secrets: plan.secrets.length > 0 };
  const body = fillTemplate(
    "templates/__main__.py",
    templateText("cli/import/templates/__main__.py"),
    conditions,
    dataOf(plan),
  );
  const head = [
    ...openingWords(plan, true).map((line) => `# ${line}`),
    "import json",
    "import os",
    "",
    "import pulumi",
    "import pulumi_integration_platform as platform",
    "",
  ];
  return [...head, ...body].join("\n");
}
