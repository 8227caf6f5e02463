// The generated programs' code comes from templates that each language's own tools check
// (programTemplate.ts, and templates/ for Python, Go and Java): this fills one with a plan's data.
import * as fs from "node:fs";
import * as path from "node:path";
import { packageAsset, type PackageFile } from "../../contract/packageFiles";

/** A template's text: the single executable's asset, else the file beside this module (ts-node) or in dist/. */
export function templateText(file: PackageFile): string {
  return packageAsset(file) ?? fs.readFileSync(path.join(__dirname, path.relative("cli/import", file)), "utf8");
}

/**
 * A template marker line: `//#begin`, `//#if <condition>`, `//#data <block>` or `//#end`, after
 * the language's comment (`//`, or `#` in Python: `##begin`).
 */
const MARKER = /^\s*(?:\/\/|#)#(begin|if|data|end)(?: (\w+))?$/;

/**
 * The template's lines after `//#begin`, each `//#data` block's stand-ins replaced by `data`'s
 * lines and each `//#if` block left out unless its condition holds; the markers themselves go.
 */
export function fillTemplate(
  file: string,
  template: string,
  conditions: Record<string, boolean>,
  data: Record<string, string[]>,
): string[] {
  const out: string[] = [];
  /** Per open block: whether its lines are kept. */
  const open: boolean[] = [];
  let begun = false;
  const keeping = () => begun && open.every(Boolean);
  for (const line of template.split("\n")) {
    const marker = MARKER.exec(line);
    if (!marker) {
      if (keeping()) out.push(line);
      continue;
    }
    const [, command, name] = marker;
    if (command === "begin") begun = true;
    else if (command === "end") open.pop();
    else if (!(name in (command === "if" ? conditions : data)))
      throw new Error(`${file}: no ${command} named ${JSON.stringify(name)}`);
    else if (command === "if") open.push(conditions[name]);
    else {
      if (keeping()) out.push(...data[name]);
      open.push(false);
    }
  }
  return out;
}
