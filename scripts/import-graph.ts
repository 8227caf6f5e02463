// Draws the import graph into docs/design/imports.md: dependency-cruiser reads the imports and
// checks them against .dependency-cruiser.cjs; this script folds the modules into the rooms a
// reader thinks in (provider/client, cli/import, emulator/objects…) and writes a Mermaid picture,
// the breaking imports in red, with their list. `--check` fails when the page is not current.
//
//   npx ts-node --transpile-only scripts/import-graph.ts [--check] [--root <checkout>] [--print]
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Command } from "commander";

/** The page, and the markers between which the current graph is written. */
const PAGE = path.join(__dirname, "..", "docs", "design", "imports.md");
const BEGIN = "<!-- graph:current:begin (npm run graph) -->";
const END = "<!-- graph:current:end -->";

/** The folders the rules govern, as npm run lint cruises them. */
export const CRUISED = ["provider", "cli", "emulator", "contract", "harness", "scripts", "test"];

/** One import as dependency-cruiser reports it (the fields this script reads). */
interface Dependency {
  resolved: string;
  circular?: boolean;
  valid: boolean;
  rules?: { name: string }[];
}

/** The room a module is drawn in: a product file's folder two deep, the rest by top folder. */
export function roomOf(source: string): string {
  const parts = source.split("/");
  if (["provider", "cli", "emulator"].includes(parts[0]) && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  if (["provider", "cli", "emulator"].includes(parts[0])) return source.replace(/\.ts$/, "");
  return parts[0];
}

/** The modules and their imports, from dependency-cruiser's JSON report of `root`. */
function cruise(root: string): { source: string; dependencies: Dependency[] }[] {
  const folders = CRUISED.filter((folder) => fs.existsSync(path.join(root, folder)));
  const bin = path.join(__dirname, "..", "node_modules", ".bin", "depcruise");
  const args = [...folders, "--config", ".dependency-cruiser.cjs", "--output-type", "json"];
  const out = execFileSync(bin, args, { cwd: root, maxBuffer: 256 * 1024 * 1024, encoding: "utf8" });
  return JSON.parse(out).modules;
}

/** The graph as Markdown: the rooms' imports in Mermaid, then each breaking import by file. */
export function render(root: string): string {
  const edges = new Map<string, boolean>();
  const breaking: string[] = [];
  for (const module of cruise(root)) {
    if (module.source.startsWith("node_modules") || !/^[a-z]/.test(module.source)) continue;
    for (const dependency of module.dependencies) {
      if (dependency.resolved.startsWith("node_modules") || dependency.resolved.startsWith("node:")) continue;
      if (!CRUISED.some((folder) => dependency.resolved.startsWith(`${folder}/`))) continue;
      const from = roomOf(module.source);
      const to = roomOf(dependency.resolved);
      const bad = !dependency.valid;
      if (bad) breaking.push(`${module.source} → ${dependency.resolved} (${ruleNames(dependency)})`);
      if (from === to) continue;
      const key = `${from} ${to}`;
      edges.set(key, (edges.get(key) ?? false) || bad);
    }
  }
  return [mermaid(edges), "", list(breaking)].join("\n");
}

/** The rules an import breaks, by name. */
function ruleNames(dependency: Dependency): string {
  return (dependency.rules ?? []).map((rule) => rule.name).join(", ");
}

/** The rooms and their imports as a Mermaid flowchart, breaking imports in red. */
function mermaid(edges: Map<string, boolean>): string {
  const rooms = [...new Set([...edges.keys()].flatMap((key) => key.split(" ")))].sort();
  const id = (room: string) => `n${rooms.indexOf(room)}`;
  const lines = ["```mermaid", "flowchart LR"];
  for (const room of rooms) lines.push(`  ${id(room)}["${room}"]`);
  const red: number[] = [];
  [...edges.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .forEach(([key, bad], index) => {
      const [from, to] = key.split(" ");
      lines.push(`  ${id(from)} --> ${id(to)}`);
      if (bad) red.push(index);
    });
  if (red.length > 0) lines.push(`  linkStyle ${red.join(",")} stroke:#d00,stroke-width:3px`);
  lines.push("```");
  return lines.join("\n");
}

/** The breaking imports, one per line, or a line saying there are none. */
function list(breaking: string[]): string {
  if (breaking.length === 0) return "No import breaks a rule: no circle, none running back up a layer.";
  const unique = [...new Set(breaking)].sort();
  return [`${unique.length} imports break a rule:`, "", ...unique.map((line) => `- \`${line}\``)].join("\n");
}

/** The page with `graph` written between the markers. */
function withGraph(page: string, graph: string): string {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${PAGE} lacks the markers ${BEGIN} … ${END}`);
  return `${page.slice(0, start + BEGIN.length)}\n${graph}\n${page.slice(end)}`;
}

if (require.main === module) {
  const options = new Command()
    .option("--check", "fail when the page does not hold the current graph")
    .option("--print", "print the graph instead of writing the page")
    .option("--root <checkout>", "the checkout to draw", path.join(__dirname, ".."))
    .parse()
    .opts<{ check?: boolean; print?: boolean; root: string }>();
  const graph = render(options.root);
  if (options.print) {
    process.stdout.write(`${graph}\n`);
  } else {
    const page = fs.readFileSync(PAGE, "utf8");
    const next = withGraph(page, graph);
    if (options.check && next !== page) {
      console.error(`${PAGE} does not show the current import graph: run \`npm run graph\` and commit it.`);
      process.exit(1);
    }
    if (!options.check) fs.writeFileSync(PAGE, next);
  }
}
