// Checking a resource's inputs: the shared schemas, and a check that names each bad property and
// lets the engine's unknown values through.
import { documented } from "../documented";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { idProblem } from "../client/ids";
import { objectType, typedAs } from "./schemaTypes";

/** The value the engine sends during preview for anything not yet known (pulumi/pulumi#6310). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when the value, or anything inside it, is not known yet. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** What zod's `error` option is handed, of which messages read only the refused value. */
type Refused = { input?: unknown };

/**
 * zod's `error` option for a value of the wrong kind: "must be <what>, not <its kind>". It names
 * what it got without echoing it, which may be a secret.
 */
export const mustBe =
  (what: string) =>
  (issue: Refused): string =>
    `must be ${what}, not ${describe(issue.input)}`;

/**
 * As mustBe, for a required property: a missing value "is required", where "not a undefined" would
 * not tell the user to add it. `missing` says what counts as missing.
 */
export const required =
  (what: string, missing: (input: unknown) => boolean = (input) => input === undefined) =>
  (issue: Refused): string =>
    missing(issue.input) ? "is required" : mustBe(what)(issue);

/**
 * An id the platform issues or the user chose, that reaches the platform unchanged in a path or
 * header (client/ids.ts).
 */
export const Id = z.string({ error: required("a string") }).superRefine((value, ctx) => {
  const problem = idProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** A string that says what else it got, without echoing it. */
const text = () => z.string({ error: required("a string") });

/** One `{name, value}` pair of a field's options or labels (docs/design/contract.md#config-fields). */
export const NameValue = objectType(
  "NameValue",
  z
    .object(
      documented("NameValue", {
        /** The option's or label's name. */
        name: text().min(1, "name must not be empty"),
        /** The option's or label's value. */
        value: text(),
      }),
    )
    .strict(),
);

/** A `{name, value}` list, as field options and labels take (docs/design/contract.md#config-fields). */
export const NameValueList = z.array(NameValue, { error: mustBe("a list of {name, value} objects") });

/** Whether a value is a plain object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Names a JavaScript value's kind for messages, without echoing the value itself. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** A zod type's name as messages say it. */
const KINDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  record: "an object",
};

/** Turns a zod issue into a reason; the path inside the property leads, e.g. `[0].value: ...`. */
function reasonOf(issue: z.core.$ZodIssue): string {
  const inner = issue.path
    .map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`))
    .join("")
    .replace(/^\./, "");
  let message =
    issue.code === "unrecognized_keys"
      ? `unknown ${issue.keys.length > 1 ? "keys" : "key"} ${issue.keys.join(", ")}`
      : issue.message;
  // A schema without its own words falls back to zod's ("Invalid input: expected string, received
  // number"): say it as the rest of the provider does.
  if (issue.code === "invalid_type" && message.startsWith("Invalid input"))
    message = `must be ${KINDS[issue.expected] ?? issue.expected}`;
  return inner ? `${inner}: ${message}` : message;
}

/**
 * Validates each property on its own, so that every bad property gets exactly one failure that
 * names it, and a property that holds an unknown value is passed through unchecked.
 */
export function checkProperties<Shape extends z.ZodRawShape>(
  shape: Shape,
  news: Record<string, unknown>,
): { inputs: Record<string, unknown>; failures: pulumi.dynamic.CheckFailure[]; known: Set<keyof Shape & string> } {
  const inputs: Record<string, unknown> = {};
  const failures: pulumi.dynamic.CheckFailure[] = [];
  const known = new Set<keyof Shape & string>();
  for (const [property, schema] of Object.entries(shape) as [keyof Shape & string, z.ZodType][]) {
    const value = news[property];
    if (containsUnknown(value)) {
      inputs[property] = value;
      continue;
    }
    const result = schema.safeParse(value);
    if (result.success) {
      if (result.data !== undefined) inputs[property] = result.data;
      known.add(property);
    } else {
      failures.push({ property, reason: reasonOf(result.error.issues[0]) });
    }
  }
  for (const property of Object.keys(news)) {
    if (!(property in shape) && property !== "__provider") {
      failures.push({
        property,
        reason: `is not a property of this resource (expected one of ${Object.keys(shape).join(", ")})`,
      });
    }
  }
  return { inputs, failures, known };
}

/**
 * A field's value, by the field's type: a string for text and select (one of its options' values),
 * a number for number, an object of strings for map. Checked against the field at preview.
 */
export const FieldValue = typedAs(
  { $ref: "pulumi.json#/Any" },
  z.union([z.string(), z.number(), z.record(z.string(), z.string())], {
    error: "must be a string (text and select fields), a number (number fields) or an object of strings (map fields)",
  }),
);
/** A field's value: a string, a number or an object of strings. */
export type FieldValue = z.output<typeof FieldValue>;
