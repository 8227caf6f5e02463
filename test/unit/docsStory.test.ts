// One story in every document (issue 65): what the user docs and the examples name exists as named.
// Every version of ours they name is package.json's (a snapshot's, one after it); every command and
// option of the command-line tools, every npm script, type token and repository file they name is
// there; and statements once found stale and corrected stay corrected (STALE, with the reason).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { commandNames, main } from "../../cli/main";

const REPO = path.resolve(__dirname, "../..");
const PACKAGE = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as {
  version: string;
  scripts: Record<string, string>;
};

/** The files users read or copy: the README, the user docs and every example (design notes are for maintainers). */
function userFiles(): string[] {
  const found: string[] = ["README.md"];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!["node_modules", "design", "venv", ".venv", "target", "bin", "obj"].includes(entry.name)) walk(rel);
      } else if (/\.(md|ya?ml|txt|xml|json|toml|csproj|mod|py|ts|go|java)$/.test(entry.name)) {
        if (!["package-lock.json", "go.sum"].includes(entry.name)) found.push(rel);
      }
    }
  };
  walk("docs");
  walk("examples");
  return found.filter((f) => !f.startsWith("docs/design/")).sort();
}

/** A line of a file, for messages. */
interface Place {
  file: string;
  line: number;
  text: string;
}

/** Every match of `pattern` (global) in the files, with the line it is on. */
function matches(files: Map<string, string>, pattern: RegExp): { at: Place; match: RegExpExecArray }[] {
  const found: { at: Place; match: RegExpExecArray }[] = [];
  for (const [file, text] of files) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split("\n").length;
      found.push({ at: { file, line, text: text.split("\n")[line - 1].trim() }, match: match as RegExpExecArray });
    }
  }
  return found;
}

const where = (at: Place): string => `${at.file}:${at.line}: ${at.text.slice(0, 160)}`;

// ---------------------------------------------------------------------------------------------
// Versions: each spelling of a version of ours, tied to one of our package names.

const V = String.raw`(\d+\.\d+\.\d+(?:[-.](?:dev|alpha|beta|rc)\.?\d+)?)`;
/** Where a version of ours is named: a package, plugin, module or artifact of ours next to it. */
const OUR_VERSIONS: RegExp[] = [
  new RegExp(String.raw`pulumi-integration-platform(?:-sdk|-tools|-emulator)?(?:@|-v?|==)${V}`, "g"),
  new RegExp(String.raw`pulumi-resource-integration-platform-v${V}`, "g"),
  new RegExp(String.raw`pulumi_integration_platform(?:_tools|_emulator)?(?:==|-)${V}`, "g"),
  new RegExp(String.raw`(?:plugin install resource|resource plugin) integration-platform[ -]v?${V}`, "g"),
  new RegExp(String.raw`integration-platform\s+resource\s+${V}`, "g"),
  new RegExp(String.raw`(?:sdk|webhooks)/go(?:@|/)v${V}`, "g"),
  new RegExp(String.raw`PulumiIntegrationPlatform[\w.]* --version ${V}`, "g"),
  new RegExp(String.raw`"pulumi-integration-platform(?:-sdk)?": "[\^~]?${V}"`, "g"),
  new RegExp(String.raw`<artifactId>integration-platform</artifactId>\s*<version>${V}</version>`, "g"),
  new RegExp(String.raw`/releases/(?:download|expanded_assets|tag)/v${V}`, "g"),
];

/** `a` before `b`, by their numbers (major, minor, patch). */
function before(a: string, b: string): boolean {
  const [x, y] = [a, b].map((v) => v.split(".").slice(0, 3).map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i];
  return false;
}

/** What is wrong with a version named for ours, or undefined: a release is this one, a snapshot the next. */
function versionProblem(named: string): string | undefined {
  const snapshot = /[-.](?:dev|alpha|beta|rc)\.?\d+$/.exec(named);
  if (!snapshot) return named === PACKAGE.version ? undefined : `names ${named}, the package is ${PACKAGE.version}`;
  const base = named.slice(0, snapshot.index);
  return before(PACKAGE.version, base)
    ? undefined
    : `names the snapshot ${named}, which must come after the package's ${PACKAGE.version}`;
}

// ---------------------------------------------------------------------------------------------
// The command-line tools: their commands and options, as their help prints them.

/** A command's help, printed in-process. */
async function helpOf(args: string[]): Promise<string> {
  let out = "";
  const write = (text: string) => (out += text);
  await main([...args, "--help"], { stdout: write, stderr: write, readStdin: async () => "", env: {} });
  return out;
}

/** The long options a help text names. */
const optionsIn = (help: string): Set<string> => new Set(help.match(/--[a-z][a-z-]*/g) ?? []);

/** The emulator's options, from its usage text (emulator/main.ts). */
function emulatorOptions(): Set<string> {
  const source = fs.readFileSync(path.join(REPO, "emulator/main.ts"), "utf8");
  const usage = /const USAGE = `([\s\S]*?)`;/.exec(source);
  assert.ok(usage, "emulator/main.ts has no USAGE text");
  return optionsIn(usage[1]);
}

/** The words of a command line after the tool's name, up to the end of the command. */
function commandWords(rest: string): string[] {
  return rest
    .split(/[`|;&)]|\s#|\\$/)[0]
    .trim()
    .split(/\s+/)
    .filter(Boolean);
}

// ---------------------------------------------------------------------------------------------
// Statements found stale, which must not come back.

/** A statement once found wrong in the docs: the pattern that finds it and why it is wrong. */
const STALE: [RegExp, string][] = [
  [/TypeScript only for now/, "the sharding helpers are in every SDK (Python's `stack_shard`, ...)"],
  [/no Python `sharded\.yml`/, "examples/github-actions/python/sharded.yml exists"],
  [
    /an `ApiError` subclass, exported from the package\./,
    "TypeScript's dynamic package exports them; through the plugin, the message reaches the program",
  ],
  [
    /[Uu]ntil (?:they are|the packages are) (?:on PyPI|published)/,
    "0.6.0 is published: the release workflow publishes it",
  ],
  [/not on the npm registry yet/, "0.6.0 is on the npm registry"],
  [/Until it is on Maven Central/, "the release workflow publishes the Java SDK to Maven Central"],
  [/No `pulumi import`(?! for dynamic)/, "the native provider's resources can be `pulumi import`ed"],
  [/there is no provider object/, "the native provider has explicit providers (`Provider`)"],
  [/not the field's value/, "ConfigField sets a field's value (`value`, since issue 64)"],
  [/with `pulumi-language-nodejs` beside it(?! for TypeScript)/, "only TypeScript programs need the Node.js host"],
];

// ---------------------------------------------------------------------------------------------

describe("docs: one story (versions, commands, options, type tokens, files)", function () {
  this.timeout(60_000);
  const names = userFiles();
  const files = new Map(names.map((f) => [f, fs.readFileSync(path.join(REPO, f), "utf8")]));
  const markdown = new Map([...files].filter(([f]) => f.endsWith(".md")));

  it("every version of ours that a document or example names is package.json's", () => {
    const problems = OUR_VERSIONS.flatMap((pattern) =>
      matches(files, pattern).flatMap(({ at, match }) => {
        const problem = versionProblem(match[1]);
        return problem ? [`${where(at)}\n    ${problem}`] : [];
      }),
    );
    assert.ok(matches(files, OUR_VERSIONS[0]).length > 5, "the version patterns found too little: fix them");
    assert.deepEqual(problems, []);
  });

  it("every command and long option of the command-line tools that a document names exists", async () => {
    const helps = new Map<string, Set<string>>();
    const COMMANDS = commandNames();
    for (const command of COMMANDS) helps.set(command, optionsIn(await helpOf([command])));
    helps.set("shards move", optionsIn(await helpOf(["shards", "move"])));
    helps.set("webhook send", optionsIn(await helpOf(["webhook", "send"])));
    const root = optionsIn(await helpOf([]));
    const problems: string[] = [];
    let checked = 0;
    for (const { at, match } of matches(markdown, /(?<![\w/-])pulumi-integration-platform (?!-)([^\n]*)/g)) {
      const words = commandWords(match[1]);
      if (words.length === 0 || !/^[a-z-]+$/.test(words[0])) continue;
      const [command, sub] = words;
      if (!COMMANDS.includes(command)) {
        if (!/^(?:-|<)/.test(command) && /^[a-z]+$/.test(command) && words.length > 1 && words[1].startsWith("--"))
          problems.push(`${where(at)}\n    no command ${command}: the commands are ${COMMANDS.join(", ")}`);
        continue;
      }
      const known = helps.get(`${command} ${sub}`) ?? helps.get(command)!;
      // `shards <pulumi command>` passes the rest to pulumi: only the options before it are shards'.
      const end = words.findIndex((w, i) => i > 0 && /^[a-z]+$/.test(w));
      const own = command === "shards" ? words.slice(1, end === -1 ? undefined : end) : words;
      for (const option of own.map((w) => /^--[a-z][a-z-]*/.exec(w)?.[0]).filter((o): o is string => !!o)) {
        checked++;
        if (!known.has(option) && !root.has(option))
          problems.push(
            `${where(at)}\n    ${command}${sub && helps.has(`${command} ${sub}`) ? ` ${sub}` : ""} has no ${option}`,
          );
      }
    }
    // The matching must find the docs' commands at all, or the check above proves nothing.
    assert.ok(checked > 30, `only ${checked} options of the command line found in the docs: fix the matching`);
    const emulator = emulatorOptions();
    for (const { at, match } of matches(markdown, /pulumi-integration-platform-emulator ([^\n]*)/g))
      for (const option of commandWords(match[1]).filter((w) => /^--[a-z]/.test(w)))
        if (!emulator.has(option.replace(/=.*$/, ""))) problems.push(`${where(at)}\n    the emulator has no ${option}`);
    assert.deepEqual(problems, []);
  });

  it("every `npm run` script, type token and repository file that a document names exists", () => {
    const schema = JSON.parse(fs.readFileSync(path.join(REPO, "sdk/schema.json"), "utf8")) as {
      resources: Record<string, unknown>;
      functions: Record<string, unknown>;
    };
    const tokens = new Set([...Object.keys(schema.resources), ...Object.keys(schema.functions)]);
    const dynamic = ["ConfigField", "ApplicationEvent", "WorkflowToggle", "EnvVariableValue"];
    const problems: string[] = [];
    for (const { at, match } of matches(markdown, /integration-platform:index:(\w+)/g))
      if (!tokens.has(match[0])) problems.push(`${where(at)}\n    no type ${match[0]} in sdk/schema.json`);
    for (const { at, match } of matches(markdown, /pulumi-nodejs:dynamic\/integration-platform:(\w+)/g))
      if (!dynamic.includes(match[1])) problems.push(`${where(at)}\n    no dynamic resource ${match[1]}`);
    for (const { at, match } of matches(markdown, /npm run ([a-z][\w:-]*)/g)) {
      const own = path.join(REPO, path.dirname(at.file), "package.json");
      const scripts = fs.existsSync(own) ? (JSON.parse(fs.readFileSync(own, "utf8")).scripts ?? {}) : PACKAGE.scripts;
      if (!(match[1] in scripts)) problems.push(`${where(at)}\n    no npm script ${match[1]}`);
    }
    // Paths of this repository (not `.github/workflows/…`, where a user copies a workflow to, nor Pulumi's `sdk/v3`).
    const repoPath =
      /`((?:(?:docs|examples|scripts|test|harness|provider|cli|emulator|contract|tools|\.ci)\/|sdk\/(?!v\d|go\/v\d|nodejs\/cmd))[^`\s]*)`/g;
    for (const { at, match } of matches(markdown, repoPath)) {
      const named = match[1].replace(/[:#].*$/, "").replace(/\/$/, "");
      if (/[<>*{}…]|\.\.\./.test(named)) continue; // a pattern, not a file
      if (!fs.existsSync(path.join(REPO, named))) problems.push(`${where(at)}\n    no ${named} in the repository`);
    }
    assert.deepEqual(problems, []);
  });

  it("no statement once found stale is back", () => {
    const problems = STALE.flatMap(([pattern, why]) =>
      matches(markdown, new RegExp(pattern.source, "g")).map(({ at }) => `${where(at)}\n    stale: ${why}`),
    );
    assert.deepEqual(problems, []);
  });
});
