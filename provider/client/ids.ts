// Ids that go into a request's path or headers must reach the platform exactly as declared. URL
// parsing drops `.` and `..` segments (`%2e` too), and HTTP clients strip or reject what a header
// cannot carry, so such an id would address another object: it is refused instead, at preview
// (resources' Id schema) and again before any request (the client). docs/guides/security.md.
import { AdviceError } from "./errors";

/**
 * The longest id accepted. The platform's own ids are 24 hex digits, slugs and workflow ids short
 * words; a customer's linked account id is its own choice, so the bound is generous.
 */
export const MAX_ID_LENGTH = 256;

/** Why an id cannot be sent as it is, or undefined when it can. Never quotes the id. */
export function idProblem(value: string): string | undefined {
  if (value.trim() === "") return "must not be empty or whitespace";
  if (value !== value.trim()) return "must not start or end with whitespace";
  if (value === "." || value === "..") return `must not be "." or "..", which a URL resolves to another path`;
  if (value.length > MAX_ID_LENGTH) return `must be at most ${MAX_ID_LENGTH} characters long`;
  if (/[^\x20-\x7e]/.test(value)) {
    return (
      "must hold only printable ASCII characters: control characters, " +
      "line breaks and other characters cannot reach the platform unchanged in a path or a header"
    );
  }
  return undefined;
}

/** An id that cannot be sent as it is; no request was sent. */
export class InvalidIdError extends AdviceError {}

/** Returns `value` when it can be sent as the id `name`; throws an InvalidIdError otherwise. */
export function sendableId(name: string, value: string): string {
  const problem = idProblem(value);
  if (problem) throw new InvalidIdError(`${name} ${problem}; no request was sent. Fix the id where it is declared.`);
  return value;
}

/** One path segment of an operation: the id `name`, checked to reach the platform unchanged, then percent-encoded. */
export function segment(name: string, id: string): string {
  return encodeURIComponent(sendableId(name, id));
}
