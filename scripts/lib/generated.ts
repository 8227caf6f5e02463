// What every generator of a committed file does last (gen-descriptions, gen-registration,
// gen-resource-index, gen-dashboard, gen-openapi): write the files that differ, or with `--check`
// (npm run lint) fail naming them, so that a generated file cannot drift from what it is made from.
import * as fs from "node:fs";
import * as path from "node:path";

const REPO = path.resolve(__dirname, "../..");

/** The file at `file` as `text` if it differs from what is there: a map for `writeOrCheck`. */
export function staleFile(file: string, text: string): Map<string, string> {
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  return current === text ? new Map() : new Map([[file, text]]);
}

/**
 * Writes each stale file (path → its generated text) and says so; with `--check`, writes nothing and
 * exits 1 with `<files>: <problem>; run \`<command>\`, then commit` when any is stale.
 */
export function writeOrCheck(generator: string, stale: Map<string, string>, problem: string, command: string): void {
  const shown = [...stale.keys()].map((file) => path.relative(REPO, file)).join(", ");
  if (process.argv.includes("--check")) {
    if (stale.size === 0) return;
    console.error(`${shown}: ${problem}; run \`${command}\`, then commit`);
    process.exit(1);
  }
  for (const [file, text] of stale) fs.writeFileSync(file, text);
  if (stale.size > 0) console.log(`${generator}: wrote ${shown}`);
}
