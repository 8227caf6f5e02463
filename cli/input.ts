// What is wrong with a JSON input, in the product's words: neither the JSON parser's message nor
// zod's ("Invalid input: expected array, received undefined") reaches the user.
import type { z } from "zod";
import { printable } from "./text";

/** Why `text` is not JSON, from the parser's error: where it goes wrong, and what is there. */
export function jsonProblem(text: string, error: unknown): string {
  const trimmed = text.trimStart();
  // Progress text redirected into the file is the usual cause: show how the file starts.
  if (!/^[[{"\d-]|^(true|false|null)\b/.test(trimmed))
    return `it starts with ${JSON.stringify(printable(trimmed.split("\n")[0].slice(0, 40)))}`;
  const message = error instanceof Error ? error.message : "";
  if (/end of (JSON )?input|Unterminated/i.test(message)) return "it ends before the JSON does: the file was cut short";
  const at = /position (\d+)/.exec(message);
  if (at) {
    const before = text.slice(0, Number(at[1]));
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    return `it stops being JSON at line ${line}, column ${column}`;
  }
  const token = /Unexpected token '(.+?)'/.exec(message);
  if (token) return `it stops being JSON at ${JSON.stringify(printable(token[1]))}`;
  return "it is not valid JSON";
}

/** What a JSON value is, as a reader would say it. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return "text";
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return "true or false";
  return "an object";
}

/** What a schema's type is, in the same words. */
const WANTED: Record<string, string> = {
  array: "a list",
  string: "text",
  number: "a number",
  boolean: "true or false",
  object: "an object",
  record: "an object",
};

/** A path into the document as a reader finds it: `steps[0].urn`. */
function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
    .join("")
    .replace(/^\./, "");
}

/** The value at `path` in `data`, or undefined where there is none. */
function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path)
    value = typeof value === "object" && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

/** One schema problem of `data`, in words: "`steps` is missing; it should be a list". */
export function shapeProblem(issue: z.core.$ZodIssue, data: unknown): string {
  const where = issue.path.length === 0 ? "the document" : `\`${printable(pathText(issue.path))}\``;
  const value = valueAt(data, issue.path);
  if (issue.code === "invalid_type") {
    const wanted = WANTED[issue.expected] ?? issue.expected;
    return value === undefined
      ? `${where} is missing; it should be ${wanted}`
      : `${where} is ${kindOf(value)}; it should be ${wanted}`;
  }
  if (issue.code === "invalid_format" && "prefix" in issue)
    return `${where} should start with ${JSON.stringify(issue.prefix)}`;
  if (issue.code === "invalid_value")
    return `${where} should be ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}`;
  if (issue.code === "unrecognized_keys")
    return `${where} has properties it should not: ${issue.keys.map((k) => `\`${printable(k)}\``).join(", ")}`;
  return `${where} is ${kindOf(value)} of a form that cannot be read`;
}

/** The first `most` problems of a failed parse, in words. */
export function shapeProblems(error: z.ZodError, data: unknown, most = 3): string[] {
  return error.issues.slice(0, most).map((issue) => shapeProblem(issue, data));
}
