// The generated Java program, App.java: the opening comment, then templates/App.java with the
// plan's data in it, every value a Java string literal (literals.ts), so no input can break out.
import type { NameValues } from "./fields";
import { javaString } from "./literals";
import { openingWords } from "./native";
import type { ImportPlan, PlannedField, PlannedSetup, PlannedValue } from "./plan";
import { fillTemplate, templateText } from "./template";
import type { FieldValue } from "../../provider/resources/inputs";

/**
 * Data lines per method: Java refuses a method of more than 64 KB of bytecode, which a few
 * thousand lines would pass, so the data is split into methods that each hand the list on.
 */
const LINES_PER_METHOD = 250;

/** An env value: its text, or the secret read from the stack's config. */
const valueSource = (value: PlannedValue) =>
  "text" in value ? `text(${javaString(value.text)})` : `secret(${javaString(value.secretKey)})`;

/** Options or labels, as the arguments of `options(...)` or `labels(...)`. */
const nameValues = (items: NameValues) =>
  items.map((item) => `nv(${javaString(item.name)}, ${javaString(item.value)})`).join(", ");

/** A field's value as a Java expression: a String, a Double, or a Map of Strings (as Gson reads found.json). */
function valueLiteral(value: FieldValue): string {
  if (typeof value === "string") return javaString(value);
  // Parsed from its text, so that every JSON number stays a valid literal (1e+21, 1000000000000000).
  if (typeof value === "number") return `Double.valueOf(${javaString(String(value))})`;
  const entries = Object.entries(value).map(([key, text]) => `Map.entry(${javaString(key)}, ${javaString(text)})`);
  return `Map.ofEntries(${entries.join(", ")})`;
}

/** A field as `field(...)` and its setters. */
function fieldSource(field: PlannedField): string {
  let source = `field(${javaString(field.fieldId)})`;
  if (field.workflowId !== undefined) source += `.workflowId(${javaString(field.workflowId)})`;
  if (field.name !== undefined) source += `.name(${javaString(field.name)})`;
  if (field.options !== undefined) source += `.options(${nameValues(field.options)})`;
  if (field.labels !== undefined) source += `.labels(${nameValues(field.labels)})`;
  if (field.value !== undefined) source += `.value(${valueLiteral(field.value)})`;
  return source;
}

/** One setup's data line. */
function setupLine(setup: PlannedSetup, names: Map<string, string>): string {
  let source = `setup(${javaString(setup.linkedAccountId)}, ${javaString(setup.slug)})`;
  if (setup.fields.length > 0) source += `.fields(${setup.fields.map(fieldSource).join(", ")})`;
  if (setup.workflows.length > 0) source += `.workflows(${setup.workflows.map(javaString).join(", ")})`;
  for (const [id, value] of setup.env) source += `.env(${javaString(names.get(id)!)}, ${valueSource(value)})`;
  for (const [workflowId, values] of setup.workflowEnv) {
    for (const [id, value] of values)
      source += `.workflowEnv(${javaString(workflowId)}, ${javaString(names.get(id)!)}, ${valueSource(value)})`;
  }
  return `        setups.add(${source});`;
}

/** `lines`, with a hand-over to a new method every LINES_PER_METHOD lines (`list` is the method's list). */
function inMethods(lines: string[], list: string, type: string, method: string): string[] {
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (i > 0 && i % LINES_PER_METHOD === 0) {
      const next = `${method}${i / LINES_PER_METHOD + 1}`;
      out.push(
        `        return ${next}(${list});`,
        "    }",
        "",
        `    private static List<${type}> ${next}(List<${type}> ${list}) {`,
      );
    }
    out.push(line);
  });
  return out;
}

/** The data the template's `//#data` blocks stand for, by block name. */
function dataOf(plan: ImportPlan): Record<string, string[]> {
  const names = new Map(plan.definitions.map((d) => [d.id, d.key]));
  return {
    definitions: plan.definitions.map(
      (d) => `        definitions.put(${javaString(d.key)}, new Definition(${javaString(d.id)}, ${d.encrypted}));`,
    ),
    setups: inMethods(
      plan.setups.map((s) => setupLine(s, names)),
      "setups",
      "Setup",
      "setups",
    ),
    shared: inMethods(
      plan.shared.map((v) => {
        const workflow = v.workflowId === undefined ? "null" : javaString(v.workflowId);
        const definition = javaString(names.get(v.definitionId)!);
        return `        shared.add(new Shared(${definition}, ${valueSource(v.value)}, ${workflow}));`;
      }),
      "shared",
      "Shared",
      "sharedEnvValues",
    ),
  };
}

/** The Java program: data first (one entry per linked account and app), then the loop that declares it. */
export function renderJava(plan: ImportPlan): string {
  const conditions = { env: plan.definitions.length > 0, secrets: plan.secrets.length > 0 };
  const body = fillTemplate(
    "templates/App.java",
    templateText("cli/import/templates/App.java"),
    conditions,
    dataOf(plan),
  );
  // Java reads a backslash-u in a comment as the character it escapes, even a line break: doubled, it is text.
  const head = openingWords(plan, true).map((line) => `// ${line.replace(/\\/g, "\\\\")}`);
  return [...head, ...body].join("\n");
}
