// Strings as quoted literals of each language `import` writes, so that no id or name the platform
// returns can end its string, start code or a line, or hide from a reader: a quote and a backslash
// are escaped, and so is every character a reader cannot see or a parser may take for a line break
// (controls, format characters such as bidi overrides and zero-width ones, line and paragraph
// separators, a lone surrogate). Printable Unicode stays as it is, so names read as on the platform.

/** What each literal escapes besides its quote and backslash. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|\p{Cs}/gu;

/** A code point as `\u` and four hex digits, or `\U` and eight above the BMP (Python, Go and YAML read both). */
const unicodeEscape = (code: number) =>
  code > 0xffff ? `\\U${code.toString(16).padStart(8, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;

/** Escapes `text` with `escape` for each hidden character, after `quoteAndBackslash` made the rest safe. */
function escaped(text: string, quoteAndBackslash: (s: string) => string, escape: (code: number) => string): string {
  return quoteAndBackslash(text).replace(HIDDEN, (c) => escape(c.codePointAt(0)!));
}

/** A Python string literal (double quotes; `\u` escapes, which Python reads as the same character). */
export function pythonString(text: string): string {
  return `"${escaped(text, (s) => s.replace(/[\\"]/g, (c) => `\\${c}`), unicodeEscape)}"`;
}

/**
 * A Go interpreted string literal. Go's strings are UTF-8, which cannot hold a lone surrogate: it
 * becomes U+FFFD, as Go's encoding/json makes it of found.json (the same value on both sides).
 */
export function goString(text: string): string {
  const body = escaped(
    text,
    (s) => s.replace(/[\\"]/g, (c) => `\\${c}`),
    (code) => (code >= 0xd800 && code <= 0xdfff ? "\\ufffd" : unicodeEscape(code)),
  );
  return `"${body}"`;
}

/**
 * A Java string literal. Java turns every `\u` escape into its character before it reads the
 * source, so a `\u` escape of a quote, a backslash or a line break would end the string: those
 * are written as `\"`, `\\` and octal escapes, and `\u` only for the other hidden characters.
 */
export function javaString(text: string): string {
  const body = escaped(
    text,
    (s) => s.replace(/[\\"]/g, (c) => `\\${c}`),
    // Above the BMP, the two UTF-16 code units, which is how Java holds the character.
    (code) =>
      code < 0x80
        ? `\\${code.toString(8).padStart(3, "0")}`
        : code > 0xffff
          ? String.fromCodePoint(code)
              .split("")
              .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`)
              .join("")
          : `\\u${code.toString(16).padStart(4, "0")}`,
  );
  return `"${body}"`;
}

/**
 * A YAML double-quoted scalar, for a Pulumi YAML program: Pulumi YAML reads `${...}` in a string as
 * an interpolation and `$$` as `$`, so every `$` is doubled. YAML cannot hold a lone surrogate
 * either: it becomes U+FFFD. `dollars: false` for a map key, which Pulumi YAML does not interpolate.
 */
export function yamlString(text: string, dollars = true): string {
  const body = escaped(
    dollars ? text.replace(/\$/g, "$$$$") : text,
    (s) => s.replace(/[\\"]/g, (c) => `\\${c}`),
    (code) => (code >= 0xd800 && code <= 0xdfff ? "\\ufffd" : unicodeEscape(code)),
  );
  return `"${body}"`;
}
