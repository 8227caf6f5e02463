// The generated Pulumi YAML program, which is the project's Pulumi.yaml. Pulumi YAML can neither
// read a file nor loop, so each data line is a resource of its own and what destroy puts back is
// written inline: the restoreOnDelete values computed at import from found.json (declared.ts), the
// same the other languages compute at every `up`. Every value is a YAML double-quoted string
// (literals.ts), with `$` doubled so that Pulumi YAML never reads an id as an interpolation.
import { nativeToken } from "../../provider/typeTokens";
import { declaredSetups, declaredShared, type DeclaredEnvValue, type DeclaredValue } from "./declared";
import type { FoundRecord } from "./found";
import type { NameValues } from "./fields";
import { yamlString } from "./literals";
import { openingWords } from "./native";
import type { ImportPlan } from "./plan";
import type { FieldValue } from "../../provider/resources/inputs";

/** An env value: the text, or the stack's secret config value named by its key (letters, digits, `_`, `-`). */
const valueSource = (value: DeclaredValue) => ("text" in value ? yamlString(value.text) : `"\${${value.secretKey}}"`);

/** Options or labels as a flow sequence of `{name, value}`. */
const nameValues = (items: NameValues) =>
  `[${items.map((item) => `{ name: ${yamlString(item.name)}, value: ${yamlString(item.value)} }`).join(", ")}]`;

/** A field's value: a string double-quoted, a number as it is, an object of strings as a flow map. */
function fieldValue(value: FieldValue): string {
  if (typeof value === "string") return yamlString(value);
  if (typeof value === "number") return String(value);
  return `{ ${Object.entries(value)
    .map(([key, text]) => `${yamlString(key)}: ${yamlString(text)}`)
    .join(", ")} }`;
}

/** A field's declared properties, or its restoreOnDelete, as `key: value` pairs of a flow map. */
function fieldPairs(values: {
  name?: string;
  options?: NameValues;
  labels?: NameValues;
  value?: FieldValue;
}): string[] {
  return [
    ...(values.name !== undefined ? [`name: ${yamlString(values.name)}`] : []),
    ...(values.options !== undefined ? [`options: ${nameValues(values.options)}`] : []),
    ...(values.labels !== undefined ? [`labels: ${nameValues(values.labels)}`] : []),
    ...(values.value !== undefined ? [`value: ${fieldValue(values.value)}`] : []),
  ];
}

/** One env value entry, as a flow map. */
function envEntry(entry: DeclaredEnvValue): string {
  const pairs = [
    `definitionId: ${yamlString(entry.definitionId)}`,
    ...(entry.workflowId !== undefined ? [`workflowId: ${yamlString(entry.workflowId)}`] : []),
    `value: ${valueSource(entry.value)}`,
    ...(entry.adoptEncryptedValue !== undefined ? [`adoptEncryptedValue: ${entry.adoptEncryptedValue}`] : []),
    ...(entry.retainOnDelete !== undefined ? [`retainOnDelete: ${entry.retainOnDelete}`] : []),
    ...(entry.noValueBefore !== undefined ? [`noValueBefore: ${entry.noValueBefore}`] : []),
  ];
  return `{ ${pairs.join(", ")} }`;
}

/** One data line's LinkedAccountSetup, as a resource entry: one line per field, workflow and env value. */
function setupEntry(setup: ReturnType<typeof declaredSetups>[number]): string[] {
  const lines = [
    `  ${yamlString(setup.name, false)}:`,
    `    type: ${nativeToken("LinkedAccountSetup")}`,
    "    properties:",
    `      linkedAccountId: ${yamlString(setup.linkedAccountId)}`,
    `      slug: ${yamlString(setup.slug)}`,
  ];
  if (setup.fields.length > 0) {
    lines.push("      fields:");
    for (const field of setup.fields) {
      const pairs = [
        `fieldId: ${yamlString(field.fieldId)}`,
        ...(field.workflowId !== undefined ? [`workflowId: ${yamlString(field.workflowId)}`] : []),
        ...fieldPairs(field),
        ...(field.restoreOnDelete ? [`restoreOnDelete: { ${fieldPairs(field.restoreOnDelete).join(", ")} }`] : []),
      ];
      lines.push(`        - { ${pairs.join(", ")} }`);
    }
  }
  const workflows = Object.entries(setup.workflows);
  if (workflows.length > 0) {
    lines.push("      workflows:");
    for (const [workflowId, toggle] of workflows) {
      const restore = toggle.restoreOnDelete === undefined ? "" : `, restoreOnDelete: ${toggle.restoreOnDelete}`;
      lines.push(`        ${yamlString(workflowId, false)}: { enabled: true${restore} }`);
    }
  }
  if (setup.envValues.length > 0)
    lines.push("      envValues:", ...setup.envValues.map((e) => `        - ${envEntry(e)}`));
  return lines;
}

/** The program, as the project's Pulumi.yaml: the project's settings, the secrets it reads, then one resource each. */
export function renderYaml(plan: ImportPlan, project: string, description: string, found: FoundRecord[]): string {
  const lines = [
    ...openingWords(plan, false).map((line) => `# ${line}`),
    "# Pulumi YAML cannot read found.json: the restoreOnDelete values below are what it held at",
    "# import, written inline; README.md says how to keep them when you change the data.",
    `name: ${project}`,
    `description: ${yamlString(description)}`,
    "runtime: yaml",
  ];
  if (plan.secrets.length > 0) {
    lines.push("config:");
    for (const s of plan.secrets) lines.push(`  ${yamlString(s.key, false)}:`, "    type: string", "    secret: true");
  }
  lines.push("resources:");
  for (const setup of declaredSetups(plan, found)) lines.push(...setupEntry(setup));
  for (const shared of declaredShared(plan)) {
    lines.push(
      `  ${yamlString(shared.name, false)}:`,
      `    type: ${nativeToken("EnvVariableValue")}`,
      "    properties:",
      `      definitionId: ${yamlString(shared.definitionId)}`,
      ...(shared.workflowId !== undefined ? [`      workflowId: ${yamlString(shared.workflowId)}`] : []),
      `      value: ${valueSource(shared.value)}`,
      `      adoptEncryptedValue: ${shared.adoptEncryptedValue}`,
      "    options:",
      "      retainOnDelete: true",
    );
  }
  return `${lines.join("\n")}\n`;
}
