// Text every command prints or writes. Names and ids it did not choose (the program's, the
// platform's) are shown as they are, but never able to start a line, reorder what a reader sees,
// or run in a shell: docs/guides/security.md.

/** Control characters (line breaks included) and bidi controls, which a reader cannot see. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The text with every control or bidi character shown as a `\u` escape: one visible line. */
export function printable(text: string): string {
  return text.replace(HIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** `n` and the noun, singular or plural as `n` asks: "1 change", "2 changes". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The first `most` items, comma-separated, and how many more there are: "a, b and 3 more". */
export function listed(items: string[], most: number): string {
  const more = items.length - most;
  return more > 0 ? `${items.slice(0, most).join(", ")} and ${more} more` : items.join(", ");
}
