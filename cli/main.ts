#!/usr/bin/env node
// The package's command line, `pulumi-integration-platform`. `summarize` runs in CI after
// `pulumi preview --json` (and, with --drift, on a schedule after `pulumi preview --refresh`),
// `import` once per workspace brought under management; every failure says what to do instead
// and exits 2, which a workflow step reports as failed rather than posting a half summary or
// leaving a half project. Exit 1 is kept for "drift found", so a crash exits 3.
import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { AdviceError, ApiError, SettingsError } from "../provider/client/errors";
import { runImport } from "./import/run";
import { ImportInputError } from "./import/read";
import { moveShards, runShards, SHARD_COMMANDS, shardCount, ShardsError, type ShardCommand } from "./shards";
import { DEFAULT_MAX_CHARS, fullSummaryLink, mergePreviews, MIN_MAX_CHARS, parsePreview, PreviewJsonError, summarizeBounded, type PreviewJson, type ReportMode, type Summaries } from "./summary";

const COMMAND = "pulumi-integration-platform";

/** What `--help` prints. */
export const USAGE = `Usage: ${COMMAND} summarize <preview.json ... | -> [--drift] [--max-chars <n>] [--full <file>] [--full-link <url>]
       ${COMMAND} import --slug <slug> [--slug <slug> ...] [--linked-account <id> ...] --out <dir> [--force]
       ${COMMAND} shards <up | preview | refresh | destroy> --shards <n> [--stack <name>] [--cwd <dir>]
                 [--requests-per-second <n>] [--expect-no-changes]
       ${COMMAND} shards move --from <n> --to <n> [--stack <name>] [--cwd <dir>] [--dry-run]

summarize
  Reads the output of \`pulumi preview --json\` from a file, or from standard input when the
  file is -, and prints a Markdown summary of the integration platform changes: one folded
  block per linked account, its changes listed by app. Secret values are never printed.
  Several files (the previews of a sharded program's stacks) make one summary of them all.
  The summary fits a pull request comment: when the full one is longer than --max-chars,
  whole linked accounts are left out from the end of the list, and the last line says how
  many accounts and changes that is, and where the full summary is.

  --drift             Report drift instead: read the output of
                      \`pulumi preview --refresh --expect-no-changes --json\` and list, per linked
                      account and app, what the platform holds against what the program
                      declares (a changed secret shows as "[secret] changed"). Exits 1 when it
                      finds drift, 0 when it finds none, 2 when the preview failed or was not
                      refreshed, so drift could not be checked.
  --max-chars <n>     The most characters to print: default ${DEFAULT_MAX_CHARS}, at least ${MIN_MAX_CHARS}.
                      GitHub refuses a comment over 65536.
  --full <file>       Also write the full summary, with every change, to <file> (e.g. for the
                      CI job's step summary). The last line names the file.
  --full-link <url>   Where readers find the full summary (e.g. the CI run's page): the last
                      line links it instead of naming the file.

  Example (in a pull request's CI job):
    pulumi preview --json > preview.json
    npx ${COMMAND} summarize preview.json --full summary-full.md > summary.md

  Example (a scheduled drift check):
    pulumi preview --refresh --expect-no-changes --json > preview.json || true
    npx ${COMMAND} summarize --drift preview.json --full drift-full.md > drift.md

import
  Reads the live workspace (the linked accounts, their config of each app: fields and enabled
  workflows, and the env values of every scope) and writes a Pulumi TypeScript project to <dir>
  that declares it, one data line per linked account and app. Its first \`pulumi up\` adopts
  everything without a write to the platform. Encrypted env values are never written: the
  command prints the \`pulumi config set --secret\` line to run for each. Progress goes to
  standard error. The connection comes from the environment, as the provider's does:
  INTEGRATION_PLATFORM_BASE_URL and INTEGRATION_PLATFORM_API_KEY (and the other
  INTEGRATION_PLATFORM_* settings, e.g. INTEGRATION_PLATFORM_REQUESTS_PER_SECOND).

  --slug <slug>           An app to bring in (repeat for more). Required.
  --linked-account <id>   A linked account to bring in, by its id (repeat for more); default: all.
  --out <dir>             Where to write the project: a new or empty directory. Required.
  --force                 Write into a directory that is not empty, rewriting the project's files;
                          an earlier found.json's records are kept (delete it to record anew).

  Example:
    export INTEGRATION_PLATFORM_BASE_URL=https://api.example.com INTEGRATION_PLATFORM_API_KEY=...
    npx ${COMMAND} import --slug hubspot --out platform

shards
  Runs a command on every stack of a sharded program at once (docs/guides/scaling.md), through
  Pulumi's Automation API and the \`pulumi\` on PATH, each stack's output prefixed with its name.
  Stack i is named by --stack with {shard} replaced by i (the program reads its shard from the
  end of the name); \`up\` and \`preview\` create missing stacks, and every stack gets
  integration-platform:shards in its config. The connection comes from each stack's config or the environment, as the provider's
  does. Exit status: 0 when every stack succeeded, 1 when any failed (each one's error is shown).

  --shards <n>               How many shards (stacks). Required.
  --stack <name>             The stacks' names, ending with {shard} for the number (default shard-{shard}).
  --cwd <dir>                The program's directory (default: the current one).
  --requests-per-second <n>  What the API key allows in all (default: INTEGRATION_PLATFORM_REQUESTS_PER_SECOND,
                             else 20): each stack paces itself to an equal part, so that together they stay
                             within the platform's limit. A stack whose config sets requestsPerSecond keeps it.
  --expect-no-changes        Fail a stack whose up, preview or refresh would change anything.

shards move
  Re-shards from --from to --to stacks: each linked account whose shard changes has its
  top-level resources (and their children) moved to its new stack with \`pulumi state move\`.
  Nothing is called on the platform, so nothing is deleted, recreated or restored. Missing
  stacks are created; every stack's integration-platform:shards becomes --to. If it stops half
  way, run it again: it plans from where the resources are.

  --from <n>, --to <n>   The number of shards now, and the number wanted. Required.
  --dry-run              Print what would move, move nothing.

  Example (from 4 to 5 shards, then check that nothing changes):
    npx ${COMMAND} shards move --from 4 --to 5 --stack prod-{shard}
    npx ${COMMAND} shards preview --shards 5 --stack prod-{shard} --expect-no-changes

Options:
  -h, --help   Print this help.

Exit status: 0 when the summary or the project was written (with --drift: and no drift was
found), or every shard's command succeeded; 1 when --drift found drift (the report is printed),
or a shard's command failed; 2 for bad usage, unreadable input,
a --full file that cannot be written (then nothing is printed), a drift check whose preview
failed (the report says so), or an import that could not read the workspace or write <dir>
(then nothing was written); 3 for an unexpected failure.
`;

/** A usage or input problem: printed with the usage hint, exit status 2. */
class UsageError extends Error {}

/** Where the CLI reads and writes; tests pass their own. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  /** The environment `import` reads its connection from (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Whether stderr is a terminal, where `import` updates its progress in place (default: false). */
  stderrIsTTY?: boolean;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: () => readAll(process.stdin),
  env: process.env,
  stderrIsTTY: process.stderr.isTTY === true,
};

/** `summarize`'s options, checked. */
interface SummarizeOptions {
  sources: string[];
  mode: ReportMode;
  maxChars: number;
  full?: string;
  fullLink?: string;
}

/** Parses `summarize`'s arguments; every problem becomes a UsageError naming what to fix. */
function summarizeOptions(args: string[]): SummarizeOptions | "help" {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      "max-chars": { type: "string" },
      full: { type: "string" },
      "full-link": { type: "string" },
      drift: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help";
  if (positionals.length === 0) throw new UsageError("summarize needs the preview JSON file (or - for standard input), or several files, one per stack");
  if (positionals.includes("-") && positionals.length > 1) throw new UsageError("summarize reads standard input (-) only as its one input; pass several previews as files");
  const sources = positionals;
  const given = values["max-chars"];
  const maxChars = given === undefined ? DEFAULT_MAX_CHARS : /^\d+$/.test(given.trim()) ? Number(given.trim()) : NaN;
  if (!Number.isSafeInteger(maxChars) || maxChars < MIN_MAX_CHARS) {
    throw new UsageError(`--max-chars must be a whole number of characters, at least ${MIN_MAX_CHARS} (default ${DEFAULT_MAX_CHARS}); got ${JSON.stringify(given)}`);
  }
  const full = values.full;
  if (full !== undefined && !full.trim()) throw new UsageError("--full must name a file to write the full summary to, e.g. --full summary-full.md");
  // Writing the full summary over the preview would destroy the input of any later run.
  const input = sources.find((source) => source !== "-" && full !== undefined && path.resolve(full) === path.resolve(source));
  if (input !== undefined) {
    throw new UsageError(`--full names the preview file ${input} itself; give another file, e.g. --full summary-full.md`);
  }
  const fullLink = values["full-link"];
  if (fullLink !== undefined) {
    try {
      fullSummaryLink(fullLink);
    } catch (error) {
      throw new UsageError(`--full-link ${(error as Error).message}`);
    }
  }
  return { sources, mode: values.drift ? "drift" : "changes", maxChars, full, fullLink };
}

/** Reads and summarizes the previews (several: one summary of them all); every problem with an input becomes a UsageError naming it. */
async function summarizeSources({ sources, mode, maxChars, full, fullLink }: SummarizeOptions, io: Io): Promise<Summaries> {
  const previews: PreviewJson[] = [];
  for (const source of sources) previews.push(await readPreview(source, io));
  try {
    return summarizeBounded(mergePreviews(previews), maxChars, { link: fullLink, file: full }, mode);
  } catch (error) {
    // E.g. a preview without --refresh for --drift: a problem of the input, named like the others.
    const name = sources.length === 1 ? nameOf(sources[0]) : `one of ${sources.join(", ")}`;
    if (error instanceof PreviewJsonError) throw new UsageError(`${name} is ${error.message}`);
    throw error;
  }
}

/** How messages name an input. */
const nameOf = (source: string) => (source === "-" ? "standard input" : source);

/** Reads and checks one preview; every problem with it becomes a UsageError naming it. */
async function readPreview(source: string, io: Io): Promise<PreviewJson> {
  const name = nameOf(source);
  let text: string;
  try {
    text = source === "-" ? await io.readStdin() : await readFile(source, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (error as Error).message;
    throw new UsageError(`cannot read ${name}: ${why}`);
  }
  // With --expect-no-changes, a preview that fails early (no stack, no login) prints nothing.
  if (text.trim() === "") throw new UsageError(`${name} is empty; pass what \`pulumi preview --json\` printed on standard output (when it printed nothing, the preview failed: its log says why)`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    // Mixed-in progress text is the usual cause: stderr or a non-JSON preview redirected into the file.
    throw new UsageError(`${name} is not JSON (${(error as Error).message}); pass what \`pulumi preview --json\` printed on standard output, without stderr`);
  }
  try {
    return parsePreview(data);
  } catch (error) {
    if (error instanceof PreviewJsonError) throw new UsageError(`${name} is ${error.message}`);
    throw error;
  }
}

/** Parses `import`'s arguments; every problem becomes a UsageError naming what to fix. */
function importOptions(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      slug: { type: "string", multiple: true },
      "linked-account": { type: "string", multiple: true },
      out: { type: "string" },
      force: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help" as const;
  if (positionals.length > 0) throw new UsageError(`import takes no arguments besides its options; got ${positionals.map((p) => JSON.stringify(p)).join(", ")}`);
  const slugs = [...new Set((values.slug ?? []).map((s) => s.trim()))];
  if (slugs.length === 0 || slugs.includes("")) throw new UsageError("import needs --slug: name the app to bring in, e.g. --slug hubspot (repeat it for more apps)");
  if (!values.out?.trim()) throw new UsageError("import needs --out: name a new or empty directory for the project, e.g. --out platform");
  const ids = values["linked-account"]?.map((id) => id.trim());
  if (ids?.includes("")) throw new UsageError("--linked-account must not be empty: give a linked account's id, or leave the option out to bring in every account");
  return { slugs, linkedAccountIds: ids && [...new Set(ids)], out: values.out, force: values.force ?? false };
}

/** Runs `shards …`; resolves to the exit status. */
async function shardsCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      shards: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      stack: { type: "string", default: "shard-{shard}" },
      cwd: { type: "string", default: "." },
      "requests-per-second": { type: "string" },
      "expect-no-changes": { type: "boolean", default: false },
      "dry-run": { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  const [command, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`shards takes one command; got ${positionals.map((p) => JSON.stringify(p)).join(", ")}`);
  const stacks = { dir: values.cwd!, template: values.stack! };
  const shardsIo = { stdout: io.stdout, stderr: io.stderr, env: io.env };
  try {
    if (command === "move") {
      await moveShards({ ...stacks, from: shardCount("--from", values.from), to: shardCount("--to", values.to), dryRun: values["dry-run"] }, shardsIo);
      return 0;
    }
    if (!SHARD_COMMANDS.includes(command as ShardCommand)) {
      throw new UsageError(`shards needs a command: ${SHARD_COMMANDS.join(", ")} or move; got ${command === undefined ? "none" : JSON.stringify(command)}`);
    }
    const rate = values["requests-per-second"];
    const requestsPerSecond = rate === undefined ? undefined : Number(rate);
    if (requestsPerSecond !== undefined && !(Number.isFinite(requestsPerSecond) && requestsPerSecond > 0 && requestsPerSecond <= 1000)) {
      throw new UsageError(`--requests-per-second must be a number above 0, at most 1000 (the API key's limit in all); got ${JSON.stringify(rate)}`);
    }
    const options = { ...stacks, command: command as ShardCommand, shards: shardCount("--shards", values.shards), requestsPerSecond, expectNoChanges: values["expect-no-changes"] };
    return (await runShards(options, shardsIo)) > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof ShardsError) throw new UsageError(error.message);
    throw error;
  }
}

/** Runs the command line with `args` (without node and the script); resolves to the exit status. */
export async function main(args: string[], io: Io = processIo): Promise<number> {
  try {
    if (args[0] === "import") {
      const options = importOptions(args.slice(1));
      if (options === "help") {
        io.stdout(USAGE);
        return 0;
      }
      try {
        await runImport(options, { stdout: io.stdout, stderr: io.stderr, env: io.env ?? process.env, stderrIsTTY: io.stderrIsTTY ?? false });
      } catch (error) {
        // The platform's and the settings' messages already say what to check; none holds a secret.
        if (error instanceof ImportInputError || error instanceof ApiError || error instanceof SettingsError || error instanceof AdviceError) {
          const left = error instanceof ImportInputError ? error.leftChanged : [];
          const outcome = left.length === 0 ? `Nothing was written to ${options.out}.` : `These files could not be put back as they were: ${left.join(", ")}.`;
          io.stderr(`${COMMAND} import: ${error.message}\n${outcome}\n`);
          return 2;
        }
        throw error;
      }
      return 0;
    }
    if (args[0] === "shards") return await shardsCommand(args.slice(1), io);
    if (args[0] === "summarize") {
      const options = summarizeOptions(args.slice(1));
      if (options === "help") {
        io.stdout(USAGE);
        return 0;
      }
      const { bounded, full, changes, errors } = await summarizeSources(options, io);
      if (options.full !== undefined) {
        try {
          await writeFile(options.full, full);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          const why = code === "ENOENT" ? "its directory does not exist" : code === "EISDIR" ? "it is a directory" : code === "EACCES" ? "permission denied" : (error as Error).message;
          throw new UsageError(`cannot write the full summary to ${options.full}: ${why}; give a file in a directory that exists and can be written`);
        }
      }
      io.stdout(bounded);
      if (options.mode !== "drift") return 0;
      if (errors > 0) {
        io.stderr(`${COMMAND}: the preview failed with ${errors} error${errors === 1 ? "" : "s"}, so drift could not be checked in full; its log has the messages.\n`);
        return 2;
      }
      return changes > 0 ? 1 : 0;
    }
    const { values, positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: { help: { type: "boolean", short: "h" } } });
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    const [command, ...rest] = positionals;
    if (command === undefined) throw new UsageError("missing command: summarize, import or shards");
    // A command after `--` (`-- summarize preview.json`) ends up here: run it as if it came first.
    if (command === "summarize" || command === "import" || command === "shards") return await main([command, ...rest], io);
    throw new UsageError(`unknown command ${JSON.stringify(command)}: the commands are summarize, import and shards`);
  } catch (error) {
    // parseArgs throws a TypeError with an ERR_PARSE_ARGS_* code for unknown options.
    const parseProblem = typeof (error as NodeJS.ErrnoException).code === "string" && (error as NodeJS.ErrnoException).code!.startsWith("ERR_PARSE_ARGS");
    if (error instanceof UsageError || parseProblem) {
      io.stderr(`${COMMAND}: ${(error as Error).message}\nRun \`${COMMAND} --help\` for usage.\n`);
      return 2;
    }
    throw error;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (status) => {
      process.exitCode = status;
    },
    (error: unknown) => {
      process.stderr.write(`${COMMAND}: unexpected failure: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 3;
    },
  );
}
