// Text the CLI prints or writes from names and ids it did not choose (the program's, the
// platform's): shown as it is, but never able to start a line, reorder what a reader sees, or
// run in a shell. docs/guides/security.md.

/** Control characters (line breaks included) and bidi controls, which a reader cannot see. */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The text with every control or bidi character shown as a `\u` escape: one visible line. */
export function printable(text: string): string {
  return text.replace(HIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
