// Sections of a hand-written page that a script writes: what lies between
// `<!-- generated: NAME (HOW) -->` and `<!-- end generated -->`. The scripts that own them
// (gen-openapi.ts, gen-registration.ts, gen-resource-index.ts) rewrite them, and their `--check`
// (npm run lint) fails when one is not what they would write, so that a list or an example in the
// docs cannot drift from the code or the page it comes from.
import * as fs from "node:fs";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `page` with its section `name` holding `content`; throws when the page has no such section. */
export function withSection(page: string, name: string, content: string): string {
  const section = new RegExp(`(<!-- generated: ${escape(name)} \\([^)]*\\) -->)[^]*?(<!-- end generated -->)`);
  if (!section.test(page)) throw new Error(`no section "<!-- generated: ${name} (…) -->" … "<!-- end generated -->"`);
  return page.replace(section, (_, start: string, end: string) => `${start}${content}${end}`);
}

/** The file at `file` with these sections written, or undefined when it already holds them. */
export function pendingSections(file: string, sections: Record<string, string>): string | undefined {
  const current = fs.readFileSync(file, "utf8");
  let page = current;
  for (const [name, content] of Object.entries(sections)) page = withSection(page, name, content);
  return page === current ? undefined : page;
}

/** `items` joined by `separator`, lines broken between items before `width`, continuation lines indented. */
export function wrapped(items: string[], separator: string, width: number, indent = "", first = 0): string {
  const lines: string[] = [];
  let line = "";
  items.forEach((item, i) => {
    const piece = i < items.length - 1 ? `${item}${separator}` : item;
    const taken = (lines.length === 0 ? first : indent.length) + line.length;
    if (line && taken + piece.trimEnd().length > width) {
      lines.push(line.trimEnd());
      line = "";
    }
    line += piece;
  });
  lines.push(line);
  return lines.join(`\n${indent}`);
}
