// Values, ids and names in the summary's Markdown (and in the raw HTML of `<summary>` lines): shown
// as they are, but never able to leave a code span, start formatting or show a secret.
import { containsUnknown } from "../../provider/resources/inputs";
import { printable } from "../text";
import { containsSecret } from "./values";

/** A value as compact JSON in a code span; secrets and unknowns as words. */
export function show(value: unknown): string {
  if (value === undefined) return "(none)";
  if (containsSecret(value)) return "(secret, not shown)";
  if (containsUnknown(value)) return "(known after `up`)";
  return code(JSON.stringify(value));
}

/** An id as a code span, without JSON quotes (it is always a string). */
export function showId(value: unknown): string {
  if (containsSecret(value)) return "(secret)";
  if (containsUnknown(value)) return "(known after `up`)";
  return code(typeof value === "string" ? value : JSON.stringify(value));
}

/** An id in raw HTML (a `<summary>` line), where Markdown is not read; secrets and unknowns as words. */
export function htmlId(value: unknown): string {
  if (containsSecret(value)) return "(secret)";
  if (containsUnknown(value)) return "(known after <code>up</code>)";
  const text = printable((typeof value === "string" ? value : (JSON.stringify(value) ?? "")).replace(/\s*\n\s*/g, " "));
  return `<code>${text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</code>`;
}

/** A Markdown code span that holds any text, backticks included (CommonMark 6.1). */
export function code(value: unknown): string {
  const text = printable((typeof value === "string" ? value : (JSON.stringify(value) ?? "")).replace(/\s*\n\s*/g, " "));
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Plain text safe in Markdown: characters that start formatting are escaped. */
export function escape(text: string): string {
  return printable(text).replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${c}`);
}
