// Parsing of what clients and files send, with zod: a bad request becomes a 400 whose message names
// every offending field, a bad fixture a readable line.
import { z } from "zod";
import { badRequest } from "./errors";

/** Parses `input` with `schema`, or throws a 400 whose message names every offending field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, subject = "body"): z.output<S> {
  const result = schema.safeParse(input, { error: describeIssue });
  if (result.success) return result.data;
  throw badRequest(formatIssues(result.error.issues, subject));
}

/** Parses `input` with `schema`, or returns the issues as one readable line. */
export function safeParseState<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { ok: true; value: z.output<S> } | { ok: false; problem: string } {
  const result = schema.safeParse(input, { error: describeIssue });
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, problem: formatIssues(result.error.issues, "(root)") };
}

/** `fields[0].options[1].value: expected string, received number; slug: required (expected string)` */
export function formatIssues(issues: readonly z.core.$ZodIssue[], subject: string): string {
  const shown = issues.slice(0, 5).map((issue) => `${issuePath(issue.path, subject)}: ${issue.message}`);
  if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more`);
  return shown.join("; ");
}

/** Renders a zod path the way a JavaScript reader writes it: `workflows[0].fields[2].id`. */
export function issuePath(path: readonly PropertyKey[], subject: string): string {
  if (path.length === 0) return subject;
  return path
    .map((segment, index) =>
      typeof segment === "number" ? `[${segment}]` : `${index === 0 ? "" : "."}${String(segment)}`,
    )
    .join("");
}

// Zod's default messages ("Invalid input: expected string, received number") are written for
// developers of the schema; the emulator's clients need "what to send instead".
function describeIssue(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined
        ? `required (expected ${issue.expected})`
        : `expected ${issue.expected}, received ${describeType(issue.input)}`;
    case "invalid_value":
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_big":
      return `must be at most ${String(issue.maximum)}${unitOf(issue.origin)}`;
    case "too_small":
      if (issue.origin === "string" && Number(issue.minimum) === 1) return "must not be empty";
      return `must be at least ${String(issue.minimum)}${unitOf(issue.origin)}`;
    default:
      return undefined;
  }
}

function unitOf(origin: string): string {
  if (origin === "string") return " characters long";
  if (origin === "array") return " items long";
  return "";
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isNaN(value)) return "NaN";
  return typeof value;
}

/** True for `{...}` values, false for arrays, null and scalars. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
