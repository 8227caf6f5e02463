// The generated Go program, main.go: the opening comment, then templates/main.go with the plan's
// data in it, every value a Go string literal (literals.ts), so no input can break out.
import type { ImportPlan, PlannedField, PlannedSetup, PlannedValue } from "./plan";
import type { NameValues } from "./fields";
import { goString } from "./literals";
import { openingWords } from "./native";
import { fillTemplate, templateText } from "./template";
import type { FieldValue } from "../../provider/resources/inputs";

/** An env value: its text, or the secret read from the stack's config. */
const valueSource = (value: PlannedValue) =>
  "text" in value ? `text(${goString(value.text)})` : `secret(${goString(value.secretKey)})`;

/** Env values as a `[]env` literal, by definition name. */
function envSource(values: Map<string, PlannedValue>, names: Map<string, string>): string {
  const entries = [...values].map(([id, value]) => `{${goString(names.get(id)!)}, ${valueSource(value)}}`);
  return `[]env{${entries.join(", ")}}`;
}

/** Options or labels: `list(...)`, which stays a list (declared) when empty. */
const nameValues = (items: NameValues) =>
  `list(${items.map((item) => `nameValue{${goString(item.name)}, ${goString(item.value)}}`).join(", ")})`;

/** A field's value as a Go literal: a string, a float64, or a map of strings. */
function valueLiteral(value: FieldValue): string {
  if (typeof value === "string") return goString(value);
  if (typeof value === "number") return `float64(${value})`;
  const entries = Object.entries(value).map(([key, text]) => `${goString(key)}: ${goString(text)}`);
  return `map[string]interface{}{${entries.join(", ")}}`;
}

/** A field as a `field` literal. */
function fieldSource(field: PlannedField): string {
  const parts = [`FieldID: ${goString(field.fieldId)}`];
  if (field.workflowId !== undefined) parts.push(`WorkflowID: str(${goString(field.workflowId)})`);
  if (field.name !== undefined) parts.push(`Name: str(${goString(field.name)})`);
  if (field.options !== undefined) parts.push(`Options: ${nameValues(field.options)}`);
  if (field.labels !== undefined) parts.push(`Labels: ${nameValues(field.labels)}`);
  if (field.value !== undefined) parts.push(`Value: ${valueLiteral(field.value)}`);
  return `{${parts.join(", ")}}`;
}

/** One setup's data line. */
function setupLine(setup: PlannedSetup, names: Map<string, string>): string {
  const parts = [`LinkedAccountID: ${goString(setup.linkedAccountId)}`, `Slug: ${goString(setup.slug)}`];
  if (setup.fields.length > 0) parts.push(`Fields: []field{${setup.fields.map(fieldSource).join(", ")}}`);
  if (setup.workflows.length > 0) parts.push(`Workflows: []string{${setup.workflows.map(goString).join(", ")}}`);
  if (setup.env.size > 0) parts.push(`Env: ${envSource(setup.env, names)}`);
  if (setup.workflowEnv.size > 0) {
    const workflows = [...setup.workflowEnv].map(
      ([workflowId, values]) => `{${goString(workflowId)}, ${envSource(values, names)}}`,
    );
    parts.push(`WorkflowEnv: []workflowEnv{${workflows.join(", ")}}`);
  }
  return `\t{${parts.join(", ")}},`;
}

/** The data the template's `//#data` blocks stand for, by block name. */
function dataOf(plan: ImportPlan): Record<string, string[]> {
  const names = new Map(plan.definitions.map((d) => [d.id, d.key]));
  return {
    definitions: plan.definitions.map(
      (d) => `\t${goString(d.key)}: {ID: ${goString(d.id)}, Encrypted: ${d.encrypted}},`,
    ),
    setups: plan.setups.map((s) => setupLine(s, names)),
    shared: plan.shared.map(
      (v) => `\t{${goString(names.get(v.definitionId)!)}, ${valueSource(v.value)}, ${goString(v.workflowId ?? "")}},`,
    ),
  };
}

/** The Go program: data first (one entry per linked account and app), then the loop that declares it. */
export function renderGo(plan: ImportPlan): string {
  const conditions = { env: plan.definitions.length > 0, secrets: plan.secrets.length > 0 };
  const body = fillTemplate(
    "templates/main.go",
    templateText("cli/import/templates/main.go"),
    conditions,
    dataOf(plan),
  );
  return [...openingWords(plan, true).map((line) => `// ${line}`), ...body].join("\n");
}
