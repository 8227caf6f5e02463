// `pulumi-integration-platform import`: reads a live workspace with the provider's own settings and
// client, and writes a project whose first `pulumi up` adopts it without a write. Checks run before
// the first request and nothing is written until all was read, so a failure leaves no file behind.
import * as path from "node:path";
import { openClient } from "../../provider/connection";
import { resolveSettings, SETTINGS } from "../../provider/settings";
import { ownManifest } from "../manifest";
import { plural, printable } from "../text";
import { INVOCATION } from "../usage";
import { foundRecords, keepEarlierFound } from "./found";
import { chooseLanguage, type Language } from "./language";
import { planImport } from "./plan";
import { renderProject } from "./project";
import { checkFixtureFile, fixtureOf, writeFixtureFile } from "./fixture";
import { ImportInputError, readWorkspace, type ReadProgress, type WorkspaceRead } from "./read";
import { secretCommands } from "./readme";
import { checkOutDir, earlierFound, writeProject } from "./write";

/** What the user asked for. */
export interface ImportOptions {
  /** The apps to bring in, by slug. */
  slugs: string[];
  /** The linked accounts to bring in; all of them when undefined. */
  linkedAccountIds?: string[];
  /** The directory to write the project to, as the user gave it; none writes only the fixture. */
  out?: string;
  /** A file to write an emulator fixture of what was read to. */
  fixture?: string;
  /** Rewrite the project's files in a directory that is not empty. */
  force: boolean;
  /** The project's language, as asked for; else the existing Pulumi.yaml's, else TypeScript. */
  language?: Language;
}

/** Where the command writes, and the environment its settings come from. */
export interface ImportIo {
  /** The report: what was written, the secrets to set, what was not brought in. */
  stdout: (text: string) => void;
  /** Progress. */
  stderr: (text: string) => void;
  /** The environment the connection settings come from. */
  env: NodeJS.ProcessEnv;
  /** Whether stderr is a terminal: progress then updates one line in place. */
  stderrIsTTY: boolean;
}

/** The Pulumi project's name: the directory's, with what Pulumi refuses in a name replaced. */
export function projectName(dir: string): string {
  const name = path
    .basename(path.resolve(dir))
    .replace(/[^A-Za-z0-9_.-]/g, "-")
    .replace(/^[-.]+/, "");
  return name || "platform-setup";
}

/** Progress on stderr: one line updated in place on a terminal, else a line per tenth of the accounts. */
function progressOn(io: ImportIo): ReadProgress {
  const started = performance.now();
  const seconds = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  return {
    phase: (text) => io.stderr(`${text}...\n`),
    accounts(done, total) {
      const line = `Read ${done} of ${total} linked accounts (${seconds()})`;
      if (io.stderrIsTTY) io.stderr(`\r${line}${done === total ? "\n" : ""}`);
      else if (done === 0) io.stderr(`Reading ${total} linked accounts: their configs and env values...\n`);
      else if (done === total || done % Math.max(1, Math.ceil(total / 10)) === 0) io.stderr(`${line}\n`);
    },
  };
}

/** The connection settings, from the same environment variables the provider falls back to. */
function settingsFrom(env: NodeJS.ProcessEnv) {
  const missing = [SETTINGS.baseUrl, SETTINGS.apiKey].filter((s) => !env[s.env]?.trim());
  if (missing.length > 0) {
    throw new ImportInputError(
      `the import reads its connection from the environment; set ${missing.map((s) => s.env).join(" and ")} ` +
        "(the platform's address, e.g. https://api.example.com, and an API key: listing linked accounts and env " +
        "definitions needs one, a bearer token is not enough)",
    );
  }
  // Read from the environment alone: every message names the variables, not stack config keys.
  return resolveSettings(undefined, env, "environment");
}

/** The README's first step, named in the command's last words. */
const FIRST_STEP: Record<Language, string> = {
  typescript: "npm install",
  python: "a venv and pip install",
  go: "go mod tidy",
  yaml: "pulumi plugin install",
  java: "the SDK's jar in your Maven repository",
};

/** Writes the fixture of what was read; returns the report's lines about it. */
async function fixtureWritten(read: WorkspaceRead, file: string, asGiven: string): Promise<string[]> {
  const { fixture, counts, notes } = fixtureOf(read);
  await writeFixtureFile(file, fixture);
  return [
    `Wrote the fixture ${asGiven}: ${plural(counts.linkedAccounts, "linked account")}, ` +
      `${plural(counts.configs, "config")}, ${plural(counts.envValues, "env value")} ` +
      `(${counts.placeholders} encrypted ones as placeholders). Start an emulator from it:`,
    `  pulumi-integration-platform-emulator --fixtures ${asGiven}`,
    "Not in the fixture:",
    ...notes.map((line) => `  - ${line}`),
    "",
  ];
}

/** The command as the user would run it again, for the project's README. */
function commandLine(options: ImportOptions): string {
  const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const args = [
    ...options.slugs.flatMap((s) => ["--slug", quote(s)]),
    ...(options.linkedAccountIds ?? []).flatMap((id) => ["--linked-account", quote(id)]),
    ...(options.language && options.language !== "typescript" ? ["--language", options.language] : []),
    "--out",
    quote(options.out ?? "."),
  ];
  return `${INVOCATION} import ${args.join(" ")}`;
}

/**
 * Imports the workspace: read, plan, write, report. Throws ImportInputError, ApiError or SettingsError
 * (each saying what to fix, naming environment variables) with nothing written.
 */
export async function importWorkspace(options: ImportOptions, io: ImportIo): Promise<void> {
  const settings = settingsFrom(io.env);
  const fixtureFile =
    options.fixture === undefined ? undefined : await checkFixtureFile(options.fixture, options.force);
  if (options.out === undefined) {
    const read = await readWorkspace(openClient(settings), options, progressOn(io));
    return io.stdout((await fixtureWritten(read, fixtureFile!, options.fixture!)).join("\n"));
  }
  const target = await checkOutDir(options.out, options.force);
  const earlier = target.existed ? await earlierFound(target.dir, options.out) : undefined;
  const language = await chooseLanguage(options.language, target.dir, options.out);
  const manifest = ownManifest();

  const started = performance.now();
  const read = await readWorkspace(
    openClient(settings),
    { slugs: options.slugs, linkedAccountIds: options.linkedAccountIds },
    progressOn(io),
  );
  const seconds = (performance.now() - started) / 1000;

  const plan = planImport(read);
  const found = earlier && keepEarlierFound(earlier, foundRecords(plan));
  const files = renderProject(plan, {
    project: projectName(options.out),
    language,
    command: commandLine({ ...options, language }),
    versions: {
      package: `^${manifest.version}`,
      pulumi: manifest.dependencies["@pulumi/pulumi"],
      typescript: manifest.devDependencies?.typescript ?? "^5",
      typesNode: manifest.devDependencies?.["@types/node"] ?? "^22",
    },
    found: found?.records,
  });
  await writeProject(target.dir, target.existed, files, options.out);
  const fixtureLines = fixtureFile ? await fixtureWritten(read, fixtureFile, options.fixture!) : [];

  const { counts } = plan;
  const out: string[] = [
    `Wrote ${options.out}: ${Object.keys(files).join(", ")}`,
    `Brought in ${plural(read.accounts.length, "linked account")} (${options.slugs.join(", ")}) as ` +
      `${plural(plan.setups.length, "setup")}: ` +
      `${plural(counts.fields, "field")}, ${plural(counts.workflows, "enabled workflow")}, ` +
      `${plural(counts.envValues, "env value")} (${counts.encrypted} encrypted), ` +
      `read with ${read.calls} API calls in ${seconds.toFixed(1)} s.`,
    ...(found
      ? [
          `Kept the ${plural(found.kept, "record")} of the earlier found.json (what destroy puts back: what ` +
            `the first import found) and added ${plural(found.added, "record")} for new data lines; ` +
            "delete found.json before importing to record what the platform holds now instead.",
        ]
      : []),
    "",
  ];
  if (plan.secrets.length > 0) {
    out.push(
      `Set the encrypted env values in the stack, in ${options.out}, before \`pulumi up\`: the platform never ` +
        `shows them. Each command prompts for its value:`,
      ...secretCommands(plan).map((line) => `  ${line}`),
      "",
    );
  }
  out.push("Not brought in:", ...plan.notBroughtIn.map((line) => `  - ${printable(line)}`), "");
  out.push(...fixtureLines);
  out.push(
    `Next: follow ${path.join(options.out, "README.md")}: ${FIRST_STEP[language]}, pulumi stack init, the connection ` +
      `settings${plan.secrets.length ? " and the secrets above" : ""}, then \`pulumi up\`, which adopts ` +
      `everything without a write to the platform.`,
    "",
  );
  io.stdout(out.join("\n"));
}
