// The generated project's index.ts: data first, one line per linked account and app, then the
// loops that declare it. The code around the data is programTemplate.ts, which the compiler
// checks; every value is written as a JSON literal, so no input can break out.
import { plural, printable } from "../text";
import { fillTemplate, templateText } from "./template";
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
    const workflows = [...setup.workflowEnv].map(
      ([workflowId, values]) => `${key(workflowId)}: ${envSource(values, names)}`,
    );
    parts.push(`workflowEnv: { ${workflows.join(", ")} }`);
  }
  return `  { ${parts.join(", ")} },`;
}

/** One shared env value's data line: [definition, value, workflow id]. */
function sharedLine(value: ImportPlan["shared"][number], names: Map<string, string>): string {
  const parts = [JSON.stringify(names.get(value.definitionId)), valueSource(value.value)];
  if (value.workflowId) parts.push(JSON.stringify(value.workflowId));
  return `  [${parts.join(", ")}],`;
}

/** The program's opening comment and imports: they name what was read, and `pulumi` only where env values need it. */
function head(plan: ImportPlan): string[] {
  const accounts = `${plural(plan.accountsRead, "linked account")} (${printable(plan.slugs.join(", "))})`;
  return [
    `// The integration platform setup of ${accounts}, brought in from the`,
    "// live workspace by `pulumi-integration-platform import`. The data comes first, one line per",
    "// linked account and app; the loops after it declare the resources. The first `pulumi up` takes",
    "// every object over without a write to the platform. `pulumi destroy` puts back what the import",
    "// found, which found.json holds apart from the data; README.md says more, and what the import",
    "// could not bring in.",
    ...(plan.definitions.length > 0 ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as platform from "pulumi-integration-platform";',
    "",
  ];
}

/** The data the template's `//#data` blocks stand for, by block name. */
function dataOf(plan: ImportPlan): Record<string, string[]> {
  const names = new Map(plan.definitions.map((d) => [d.id, d.key]));
  return {
    definitions: plan.definitions.map(
      (d) => `  ${key(d.key)}: { id: ${JSON.stringify(d.id)}, encrypted: ${d.encrypted} },`,
    ),
    envComment: [
      `  /** The linked account's own env values (scope linked_account); they go with its ${plan.slugs[0]} setup. */`,
    ],
    setups: plan.setups.map((s) => setupLine(s, names)),
    shared: plan.shared.map((v) => sharedLine(v, names)),
  };
}

/** The program: data first (one line per linked account and app), then the loops that declare it. */
export function renderProgram(plan: ImportPlan): string {
  const conditions = { env: plan.definitions.length > 0, secrets: plan.secrets.length > 0 };
  const body = fillTemplate(
    "programTemplate.ts",
    templateText("cli/import/programTemplate.ts"),
    conditions,
    dataOf(plan),
  );
  return [...head(plan), ...body].join("\n");
}
