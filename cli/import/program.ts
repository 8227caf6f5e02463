// The generated project's index.ts: data first, one line per linked account and app, then the
// loops that declare it. Every value is written as a JSON literal, so no input can break out.
import { plural, printable } from "../text";
import type { ImportPlan, PlannedSetup, PlannedValue } from "./plan";

/** A name TypeScript takes as a bare object key. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A TypeScript object key: bare when it can be, quoted otherwise. `__proto__`, bare or quoted,
 * would set the object's prototype instead of a key, so it is a computed key.
 */
const key = (name: string) =>
  name === "__proto__" ? `[${JSON.stringify(name)}]` : IDENTIFIER.test(name) ? name : JSON.stringify(name);

/**
 * A value as TypeScript source on one line, or as JSON with `JSON.stringify` for `name`; strings
 * are JSON-quoted, so no input can break out of them.
 */
export function literal(value: unknown, name: (key: string) => string = key): string {
  if (value === undefined) return "undefined";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value === null)
    return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => literal(item, name)).join(", ")}]`;
  const entries = Object.entries(value as object).filter(([, v]) => v !== undefined);
  return entries.length === 0 ? "{}" : `{ ${entries.map(([k, v]) => `${name(k)}: ${literal(v, name)}`).join(", ")} }`;
}

/** An env value as TypeScript source: its text, or the secret read from the stack's config. */
const valueSource = (value: PlannedValue) =>
  "text" in value ? JSON.stringify(value.text) : `secret(${JSON.stringify(value.secretKey)})`;

/** Env values by definition, as a TypeScript object literal keyed by the definitions' names. */
function envSource(values: Map<string, PlannedValue>, names: Map<string, string>): string {
  return `{ ${[...values].map(([id, value]) => `${key(names.get(id)!)}: ${valueSource(value)}`).join(", ")} }`;
}

/** One setup's data line. */
function setupLine(setup: PlannedSetup, names: Map<string, string>): string {
  const parts = [`linkedAccountId: ${JSON.stringify(setup.linkedAccountId)}`, `slug: ${JSON.stringify(setup.slug)}`];
  if (setup.fields.length > 0) parts.push(`fields: ${literal(setup.fields)}`);
  if (setup.workflows.length > 0) parts.push(`workflows: ${literal(setup.workflows)}`);
  if (setup.env.size > 0) parts.push(`env: ${envSource(setup.env, names)}`);
  if (setup.workflowEnv.size > 0) {
    parts.push(
      `workflowEnv: { ${[...setup.workflowEnv].map(([workflowId, values]) => `${key(workflowId)}: ${envSource(values, names)}`).join(", ")} }`,
    );
  }
  return `  { ${parts.join(", ")} },`;
}

/** The program: data first (one line per linked account and app), then the loops that declare it. */
export function renderProgram(plan: ImportPlan): string {
  const names = new Map(plan.definitions.map((d) => [d.id, d.key]));
  const hasEnv = plan.definitions.length > 0;
  const out: string[] = [];
  out.push(
    `// The integration platform setup of ${plural(plan.accountsRead, "linked account")} (${printable(plan.slugs.join(", "))}), brought in from the`,
    "// live workspace by `pulumi-integration-platform import`. The data comes first, one line per",
    "// linked account and app; the loops after it declare the resources. The first `pulumi up` takes",
    "// every object over without a write to the platform. `pulumi destroy` puts back what the import",
    "// found, which found.json holds apart from the data; README.md says more, and what the import",
    "// could not bring in.",
    ...(hasEnv ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as platform from "pulumi-integration-platform";',
    "",
  );
  if (plan.secrets.length > 0) {
    out.push(
      "const config = new pulumi.Config();",
      "/** An encrypted env value: the platform never shows it, so it comes from this stack's secret config (README.md). */",
      "const secret = (key: string) => config.requireSecret(key);",
      "",
    );
  }
  if (hasEnv) {
    out.push(
      "/** The env variable definitions the values below use, by name. */",
      "const definitions = {",
      ...plan.definitions.map((d) => `  ${key(d.key)}: { id: ${JSON.stringify(d.id)}, encrypted: ${d.encrypted} },`),
      "};",
      "type DefinitionName = keyof typeof definitions;",
      "/** Env values by definition name: the text, or `secret(key)` for an encrypted one. */",
      "type EnvValues = { [name in DefinitionName]?: string | pulumi.Output<string> };",
      "",
    );
  }
  out.push(
    "/** One linked account's setup of one app, in its config named after the account. */",
    "interface Setup {",
    "  linkedAccountId: string;",
    "  slug: string;",
    "  /** Field names, options and labels this config holds that differ from the app's own. */",
    "  fields?: platform.SetupField[];",
    "  /** Workflows enabled in this config; the others are not managed. */",
    "  workflows?: string[];",
  );
  if (hasEnv) {
    out.push(
      `  /** The linked account's own env values (scope linked_account); they go with its ${plan.slugs[0]} setup. */`,
      "  env?: EnvValues;",
      "  /** The linked account's env values of workflows of this app, by workflow id. */",
      "  workflowEnv?: Record<string, EnvValues>;",
    );
  }
  out.push("}", "", "const setups: Setup[] = [", ...plan.setups.map((s) => setupLine(s, names)), "];", "");
  out.push(
    "/** What the import found in one data line's config: found.json holds one per line, as read. */",
    "interface Found {",
    "  linkedAccountId: string;",
    "  slug: string;",
    "  /** The fields as the line declared them, with the name, options and labels found. */",
    "  fields?: platform.SetupField[];",
    "  /** Whether each workflow of the config was enabled. */",
    "  workflows: Record<string, boolean>;",
    "  /** The linked account's env values found, by definition id (`definition/workflow` for a workflow's); absent in older imports. */",
    "  env?: string[];",
    "}",
    "",
    "/**",
    " * What the import found, frozen in found.json apart from the data above: `pulumi destroy`, or",
    " * removing a line, a field or a workflow, puts it back however the data was changed since",
    " * (README.md). Declaring it writes nothing.",
    " */",
    'const found = new Map((require("./found.json") as Found[]).map((was) => [JSON.stringify([was.linkedAccountId, was.slug]), was]));',
    "",
    "/**",
    " * A field's restoreOnDelete: the value found of each of name, options and labels that it declares.",
    " * None when it declares one that was not found (declared since): ConfigField then puts back what",
    " * it recorded when it took each over.",
    " */",
    'function restoreField(field: platform.SetupField, was?: Found): platform.SetupField["restoreOnDelete"] {',
    "  const then = was?.fields?.find((f) => f.fieldId === field.fieldId && f.workflowId === field.workflowId);",
    '  const declared = (["name", "options", "labels"] as const).filter((key) => field[key] !== undefined);',
    "  if (!then || declared.some((key) => then[key] === undefined)) return undefined;",
    "  return Object.fromEntries(declared.map((key) => [key, then[key]]));",
    "}",
    "",
    "/** A workflow's restoreOnDelete: whether it was found enabled; none for one its config did not list. */",
    "function restoreWorkflow(workflowId: string, was?: Found): boolean | undefined {",
    "  return was && Object.hasOwn(was.workflows, workflowId) ? was.workflows[workflowId] : undefined;",
    "}",
    "",
  );

  if (hasEnv) {
    out.push(
      "/** Env values of the org, the workspace, and workflows for every linked account: [definition, value, workflow id]. */",
      "const sharedEnvValues: [DefinitionName, string | pulumi.Output<string>, string?][] = [",
      ...plan.shared.map(
        (v) =>
          `  [${[JSON.stringify(names.get(v.definitionId)), valueSource(v.value), ...(v.workflowId ? [JSON.stringify(v.workflowId)] : [])].join(", ")}],`,
      ),
      "];",
      "",
      "/**",
      " * Env values as LinkedAccountSetup takes them. Those the import found are kept on the platform by",
      " * `pulumi destroy` (retainOnDelete), since end users' running workflows read them; an encrypted one",
      " * is taken over as the platform holds it (adoptEncryptedValue: README.md). One the import did not",
      " * find (added to the data since) declares noValueBefore: destroy deletes it.",
      " */",
      "function envValues(values: EnvValues = {}, was?: Found, workflowId?: string): platform.SetupEnvValue[] {",
      "  return Object.entries(values).map(([name, value]) => {",
      "    const definition = definitions[name as DefinitionName];",
      "    const key = workflowId ? `${definition.id}/${workflowId}` : definition.id;",
      "    if (was?.env && !was.env.includes(key)) return { definitionId: definition.id, workflowId, value: value!, noValueBefore: true };",
      "    return { definitionId: definition.id, workflowId, value: value!, adoptEncryptedValue: definition.encrypted, retainOnDelete: true };",
      "  });",
      "}",
      "",
    );
  }
  out.push(
    "for (const setup of setups) {",
    "  const was = found.get(JSON.stringify([setup.linkedAccountId, setup.slug]));",
    "  new platform.LinkedAccountSetup(`${setup.linkedAccountId}-${setup.slug}`, {",
    "    linkedAccountId: setup.linkedAccountId,",
    "    slug: setup.slug,",
    "    // What destroy puts back comes from found.json, not from the data (a restoreOnDelete written in the data wins).",
    "    fields: setup.fields?.map((field) => ({ restoreOnDelete: restoreField(field, was), ...field })),",
    "    workflows: Object.fromEntries(",
    "      (setup.workflows ?? []).map((workflowId) => [workflowId, { enabled: true, restoreOnDelete: restoreWorkflow(workflowId, was) }]),",
    "    ),",
  );
  if (hasEnv) {
    out.push(
      "    envValues: [",
      "      ...envValues(setup.env, was),",
      "      ...Object.entries(setup.workflowEnv ?? {}).flatMap(([workflowId, values]) => envValues(values, was, workflowId)),",
      "    ],",
    );
  }
  out.push("  });", "}", "");
  if (hasEnv) {
    out.push(
      "for (const [name, value, workflowId] of sharedEnvValues) {",
      "  const definition = definitions[name];",
      "  new platform.EnvVariableValue(",
      "    workflowId ? `env/${name}/${workflowId}` : `env/${name}`,",
      "    { definitionId: definition.id, workflowId, value, adoptEncryptedValue: definition.encrypted },",
      "    { retainOnDelete: true },",
      "  );",
      "}",
      "",
    );
  }
  return out.join("\n");
}
