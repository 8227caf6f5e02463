// Writes docs/resources/README.md's entry of each resource type, in RESOURCES' order
// (provider/resources/index.ts), between its markers (scripts/generatedSections.ts), so that a new
// type's entry is not one more file written by hand (docs/design/resources.md, "The count"). Each
// entry is derived, not copied by hand, from two places that exist anyway:
//   - its heading is the type's name and its sentence the definition's `description` (the one the
//     schema, the SDKs and the class's JSDoc carry): the page's lead cites the spec, which the index
//     need not;
//   - its examples are the first `ts` and the first `python` block of the type's page
//     (docs/resources/<page>.md), so that a page's example is the one to edit. The README's
//     TypeScript blocks are one program (test/unit/docs.test.ts compiles them chained by
//     `<!-- snippet: continues -->`, and its hand-written Lookups section uses the WorkflowToggle
//     example's `toggle`): each page's imports are gathered once at the top of the first entry's
//     blocks, and the later entries' blocks continue it.
// `npm run build` runs it; `--check` (npm run lint) fails when the README is not current, so a hand
// edit of an entry fails the lint.
//
//   npx ts-node --transpile-only scripts/gen-resource-index.ts [--check]
import * as fs from "node:fs";
import * as path from "node:path";
import { RESOURCES } from "../provider/resources";
import { pendingSections } from "./generatedSections";
import { pageOf } from "./gen-registration";
import { writeOrCheck } from "./lib/generated";

/** The resources' index page, whose section "resource entries" this script writes. */
export const INDEX_PAGE = path.join(__dirname, "..", "docs", "resources", "README.md");

/** What an entry is made of: the type's name, its definition's description, and its page's text. */
export interface Entry {
  type: string;
  description: string;
  page: string;
}

/** The lines of the first block of `language` in a page, which must be a whole program: no snippet marker. */
export function firstBlock(page: string, language: string, where: string): string[] {
  const lines = page.split("\n");
  const start = lines.findIndex((line) => line.trim() === "```" + language);
  if (start < 0) throw new Error(`${where} has no \`\`\`${language} block: the resources' index shows its first`);
  // A marked block (a fragment, a continuation) would not stand on its own in the index's program.
  if (/^\s*<!--\s*snippet:/.test(lines[start - 1] ?? ""))
    throw new Error(`${where}:${start + 1}: the first ${language} block is shown in the index: give it no marker`);
  const end = lines.findIndex((line, i) => i > start && line.trim() === "```");
  return lines.slice(start + 1, end);
}

/** A block's leading imports, and the rest without the blank lines after them. */
function splitImports(lines: string[], isImport: RegExp): { imports: string[]; body: string[] } {
  let i = 0;
  while (i < lines.length && (isImport.test(lines[i]) || (i > 0 && lines[i].trim() === ""))) i++;
  return { imports: lines.slice(0, i).filter((line) => line.trim() !== ""), body: lines.slice(i) };
}

/** Each language's import lines: single-line ones, which is how every page's examples import. */
const IMPORTS: Record<string, RegExp> = { ts: /^import .* from "[^"]+";$/, python: /^(import|from) \S/ };

/** The module an import line names, by which the gathered imports are sorted (`@pulumi/pulumi` first). */
const moduleOf = (line: string) => /"([^"]+)"/.exec(line)?.[1] ?? line;

/** One language's blocks of the index: each entry's, the first with every entry's imports. */
function blocksOf(entries: Entry[], language: string): string[] {
  const split = entries.map(({ type, page }) =>
    splitImports(firstBlock(page, language, `docs/resources/${pageOf(type)}.md`), IMPORTS[language]),
  );
  const imports = [...new Set(split.flatMap((s) => s.imports))].sort((a, b) => moduleOf(a).localeCompare(moduleOf(b)));
  return split.map(({ body }, i) => (i === 0 && imports.length > 0 ? [...imports, "", ...body] : body).join("\n"));
}

/** The section "resource entries": each type's heading, sentence, page link and examples. */
export function indexSection(entries: Entry[]): string {
  const ts = blocksOf(entries, "ts");
  const python = blocksOf(entries, "python");
  const parts = entries.map(({ type, description }, i) =>
    [
      `## ${type}`,
      "",
      description,
      `Reference: [${pageOf(type)}.md](${pageOf(type)}.md).`,
      "",
      // The first entry's block is the program's start; the others continue it.
      ...(i === 0 ? [] : ["<!-- snippet: continues -->"]),
      "```ts",
      ts[i],
      "```",
      "",
      "```python",
      python[i],
      "```",
    ].join("\n"),
  );
  return `\n\n${parts.join("\n\n")}\n\n`;
}

/** The entries of RESOURCES, each with its page as it is on disk. */
export function entries(): Entry[] {
  return RESOURCES.map(({ type, description }) => ({
    type,
    description,
    page: fs.readFileSync(path.join(path.dirname(INDEX_PAGE), `${pageOf(type)}.md`), "utf8"),
  }));
}

/** The index page, by path, when it differs from what RESOURCES and the pages give. */
export function pending(): Map<string, string> {
  const page = pendingSections(INDEX_PAGE, { "resource entries": indexSection(entries()) });
  return page === undefined ? new Map() : new Map([[INDEX_PAGE, page]]);
}

if (require.main === module) {
  writeOrCheck("gen-resource-index", pending(), "not derived from RESOURCES and the types' pages", "npm run build");
}
