// `summarize`: its options and help, reading the previews, and the exit status: with --drift (or
// --drift-against-program), 1 when drift is found, 2 when the check failed and drift could not be checked;
// for a pull request's changes, 4 when they cross a limit set (--max-linked-accounts, --gates, …).
import { Command } from "commander";
import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { jsonProblem } from "../input";
import type { Io } from "../io";
import {
  DEFAULT_MAX_CHARS,
  fullSummaryLink,
  GATES_EXAMPLE,
  GatesFileError,
  isLimitValue,
  LIMIT_OPTIONS,
  mergePreviews,
  MIN_MAX_CHARS,
  parseGates,
  parsePreview,
  PreviewJsonError,
  summarizeBounded,
  type Limit,
  type Limits,
  type PreviewJson,
  type ReportMode,
  type Summaries,
} from "../summary";
import { engineEventsOf, previewOfEvents } from "../summary/refresh";
import { plural } from "../text";
import { COMMAND, INVOCATION, UsageError } from "../usage";

/** What each report reads, and the command that prints it: what a message about a wrong input tells the user to run. */
const INPUT: Record<ReportMode, { output: string; command: string; file: string; run: string }> = {
  changes: {
    output: "the output of `pulumi preview --json`",
    command: "pulumi preview --json",
    file: "preview.json",
    run: "preview",
  },
  drift: {
    output: "the output of `pulumi refresh --preview-only --json`",
    command: "PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi refresh --preview-only --json",
    file: "refresh.json",
    run: "refresh",
  },
  programDrift: {
    output: "the output of `pulumi preview --refresh --json`",
    command: "pulumi preview --refresh --expect-no-changes --json",
    file: "preview.json",
    run: "preview",
  },
};

/** The options as commander parsed them, before they are checked. */
interface GivenOptions {
  maxChars?: string;
  full?: string;
  fullLink?: string;
  drift?: boolean;
  driftAgainstProgram?: boolean;
  maxLinkedAccounts?: string;
  maxDeletes?: string;
  maxReplaces?: string;
  gates?: string;
}

/** `summarize`'s options, checked. */
interface SummarizeOptions {
  sources: string[];
  mode: ReportMode;
  maxChars: number;
  full?: string;
  fullLink?: string;
  /** The limits given on the command line: they override the gates file's. */
  limits: Limits;
  /** The gates file, read after the options are checked. */
  gates?: string;
}

/** The exit status of a changes summary that crosses a limit: its own, so CI tells it from bad usage (2). */
const OVER_LIMITS = 4;

/** The limits given as options, each checked: a whole number, 0 or more. */
function limitOptions(values: GivenOptions): Limits {
  const limits: Limits = {};
  for (const [limit, option] of Object.entries(LIMIT_OPTIONS) as [Limit, string][]) {
    const given = values[limit];
    if (given === undefined) continue;
    const value = /^\d+$/.test(given.trim()) ? Number(given.trim()) : NaN;
    if (!isLimitValue(value))
      throw new UsageError(
        `${option} must be a whole number, 0 or more (there is no limit unless one is given); got ` +
          `${JSON.stringify(given)}`,
      );
    limits[limit] = value;
  }
  return limits;
}

/** Checks `summarize`'s arguments; every problem becomes a UsageError naming what to fix. */
function summarizeOptions(positionals: string[], values: GivenOptions): SummarizeOptions {
  if (positionals.length === 0)
    throw new UsageError(
      "summarize needs the preview JSON file (or - for standard input), or several files, one per stack: e.g. " +
        "`pulumi preview --json > preview.json`, then `summarize preview.json`",
    );
  if (positionals.includes("-") && positionals.length > 1)
    throw new UsageError("summarize reads standard input (-) only as its one input; pass several previews as files");
  const sources = positionals;
  const given = values.maxChars;
  const maxChars = given === undefined ? DEFAULT_MAX_CHARS : /^\d+$/.test(given.trim()) ? Number(given.trim()) : NaN;
  if (!Number.isSafeInteger(maxChars) || maxChars < MIN_MAX_CHARS) {
    throw new UsageError(
      `--max-chars must be a whole number of characters, at least ${MIN_MAX_CHARS} (default ` +
        `${DEFAULT_MAX_CHARS}); got ${JSON.stringify(given)}`,
    );
  }
  const full = values.full;
  if (full !== undefined && !full.trim())
    throw new UsageError("--full must name a file to write the full summary to, e.g. --full summary-full.md");
  // Writing the full summary over the preview would destroy the input of any later run.
  const input = sources.find(
    (source) => source !== "-" && full !== undefined && path.resolve(full) === path.resolve(source),
  );
  if (input !== undefined) {
    throw new UsageError(
      `--full names the preview file ${input} itself; give another file, e.g. --full summary-full.md`,
    );
  }
  const fullLink = values.fullLink;
  if (fullLink !== undefined) {
    try {
      fullSummaryLink(fullLink);
    } catch (error) {
      throw new UsageError(`--full-link ${(error as Error).message}`);
    }
  }
  if (values.drift && values.driftAgainstProgram)
    throw new UsageError("--drift and --drift-against-program are two reports of different commands' output; give one");
  const limits = limitOptions(values);
  const gates = values.gates;
  const drift = values.drift ? "--drift" : values.driftAgainstProgram ? "--drift-against-program" : undefined;
  const gating = [
    ...Object.keys(limits).map((l) => LIMIT_OPTIONS[l as Limit]),
    ...(gates !== undefined ? ["--gates"] : []),
  ];
  // A drift report has no pull request to hold back: a limit there would be ignored, or read as drift.
  if (drift && gating.length > 0) {
    const named = gating.length === 1 ? gating[0] : `${gating.slice(0, -1).join(", ")} and ${gating.at(-1)}`;
    throw new UsageError(
      `${named} ${gating.length === 1 ? "limits" : "limit"} a pull request's changes, not a drift report: give ` +
        `${gating.length === 1 ? "it" : "them"} without ${drift}`,
    );
  }
  if (gates !== undefined && !gates.trim())
    throw new UsageError(`--gates must name a JSON file of limits, e.g. --gates gates.json holding ${GATES_EXAMPLE}`);
  return {
    sources,
    mode: values.drift ? "drift" : values.driftAgainstProgram ? "programDrift" : "changes",
    maxChars,
    full,
    fullLink,
    limits,
    gates,
  };
}

/**
 * The limits to check: the gates file's, each overridden by the option given for it. Every problem
 * with the file becomes a UsageError naming it and what is wrong.
 */
async function readLimits({ limits, gates }: SummarizeOptions): Promise<Limits> {
  if (gates === undefined) return limits;
  const name = `the gates file ${gates}`;
  let text: string;
  try {
    text = await readFile(gates, "utf8");
  } catch (error) {
    throw new UsageError(
      `cannot read ${name}: ${readProblem(error)}; give --gates the JSON file of limits kept in the repository`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${name} is not JSON (${jsonProblem(text, error)}); it should hold e.g. ${GATES_EXAMPLE}`);
  }
  try {
    return { ...parseGates(data), ...limits };
  } catch (error) {
    if (error instanceof GatesFileError)
      throw new UsageError(
        `${name} is not a file of limits: ${error.problems.join("; ")}. It should hold a whole number, 0 or ` +
          `more, for any of the limits, e.g. ${GATES_EXAMPLE}`,
      );
    throw error;
  }
}

/** Why a file could not be read, in words. */
function readProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT"
    ? "no such file"
    : code === "EISDIR"
      ? "it is a directory"
      : code === "EACCES"
        ? "permission denied"
        : (error as Error).message;
}

/**
 * Reads and summarizes the previews (several: one summary of them all); every problem with an input
 * becomes a UsageError naming it.
 */
async function summarizeSources(options: SummarizeOptions, io: Io): Promise<Summaries> {
  const { sources, mode, maxChars, full, fullLink } = options;
  // The gates file first: a wrong one is found before the previews, which may be large, are read.
  const limits = await readLimits(options);
  const previews: PreviewJson[] = [];
  for (const source of sources) previews.push(await readPreview(source, mode, io));
  try {
    // Merged first, so that a sharded program's limits count across all its stacks.
    return summarizeBounded(mergePreviews(previews), maxChars, { link: fullLink, file: full }, mode, limits);
  } catch (error) {
    // E.g. a preview without --refresh for --drift: a problem of the input, named like the others.
    const name = sources.length === 1 ? nameOf(sources[0]) : `one of ${sources.join(", ")}`;
    if (error instanceof PreviewJsonError) throw new UsageError(inputProblem(name, mode, error));
    throw error;
  }
}

/** How messages name an input. */
const nameOf = (source: string) => (source === "-" ? "standard input" : source);

/**
 * Reads and checks one preview; every problem with it becomes a UsageError naming it and what to run
 * to get the right file.
 */
async function readPreview(source: string, mode: ReportMode, io: Io): Promise<PreviewJson> {
  const name = nameOf(source);
  const input = INPUT[mode];
  let text: string;
  try {
    text = source === "-" ? await io.readStdin() : await readFile(source, "utf8");
  } catch (error) {
    throw new UsageError(
      `cannot read ${name}: ${readProblem(error)}; pass the file \`${input.command} > ${input.file}\` wrote, or - ` +
        `for standard input`,
    );
  }
  // With --expect-no-changes, a preview that fails early (no stack, no login) prints nothing.
  if (text.trim() === "")
    throw new UsageError(
      `${name} is empty; pass what \`${input.command}\` printed on standard output (when it printed nothing, ` +
        `the ${input.run} failed: its log says why)`,
    );
  // A refresh streams engine events, one JSON object a line (PULUMI_ENABLE_STREAMING_JSON_PREVIEW).
  const events = engineEventsOf(text);
  if (events) {
    try {
      return previewOfEvents(events);
    } catch (error) {
      if (error instanceof PreviewJsonError)
        throw new UsageError(
          `${name} is ${error.message}; run \`${INPUT.drift.command} > ${INPUT.drift.file}\` and pass that file`,
        );
      throw error;
    }
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    // Mixed-in progress text is the usual cause: stderr or a non-JSON preview redirected into the file.
    throw new UsageError(
      `${name} is not JSON (${jsonProblem(text, error)}); pass what \`${input.command}\` printed on standard ` +
        `output, without stderr: \`${input.command} > ${input.file}\``,
    );
  }
  try {
    return parsePreview(data);
  } catch (error) {
    if (error instanceof PreviewJsonError) throw new UsageError(inputProblem(name, mode, error));
    throw error;
  }
}

/**
 * A PreviewJsonError about `name`, as the message the user reads: a wrong shape says what the file is
 * not and what to run.
 */
function inputProblem(name: string, mode: ReportMode, error: PreviewJsonError): string {
  if (error.problems === undefined) return `${name} is ${error.message}`;
  const input = INPUT[mode];
  return (
    `${name} is not ${input.output}: ${error.problems.join("; ")}. Run \`${input.command} > ` +
    `${input.file}\` and pass that file`
  );
}

/** Summarizes, writes --full and prints; resolves to the exit status. */
async function runSummarize(options: SummarizeOptions, io: Io): Promise<number> {
  const { bounded, full, changes, errors, breaches } = await summarizeSources(options, io);
  if (options.full !== undefined) {
    try {
      await writeFile(options.full, full);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === "ENOENT"
          ? "its directory does not exist"
          : code === "EISDIR"
            ? "it is a directory"
            : code === "EACCES"
              ? "permission denied"
              : (error as Error).message;
      throw new UsageError(
        `cannot write the full summary to ${options.full}: ${why}; give a file in a directory that exists and ` +
          `can be written`,
      );
    }
  }
  io.stdout(bounded);
  // The summary is printed either way: its first lines say which limits were crossed.
  if (options.mode === "changes") return breaches.length > 0 ? OVER_LIMITS : 0;
  if (errors > 0) {
    io.stderr(
      `${COMMAND}: the preview failed with ${plural(errors, "error")}, so drift could not be checked in full; ` +
        `its log has the messages.\n`,
    );
    return 2;
  }
  return changes > 0 ? 1 : 0;
}

/** What `summarize --help` prints after the options: examples, and the exit status. */
const HELP_AFTER = `
Example (in a pull request's CI job):
  pulumi preview --json > preview.json
  ${INVOCATION} summarize preview.json --full summary-full.md > summary.md

Example (at most 50 linked accounts changed, nothing deleted or replaced):
  ${INVOCATION} summarize preview.json --max-linked-accounts 50 \\
    --max-deletes 0 --max-replaces 0 > summary.md
  # or the same limits kept in the repository, in gates.json:
  #   ${GATES_EXAMPLE}
  ${INVOCATION} summarize preview.json --gates gates.json > summary.md

Example (a scheduled drift check):
  PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi refresh --preview-only --json > refresh.json || true
  ${INVOCATION} summarize --drift refresh.json --full drift-full.md > drift.md

Exit status: 0 when the summary was written (with --drift or
--drift-against-program: and no drift was found); 1 when a drift report found
drift (the report is printed); 2 for bad usage, unreadable input or gates file,
a --full file that cannot be written (then nothing is printed), or a drift
check whose preview failed (the report says so); 3 for an unexpected failure;
4 when the change crosses a limit set with --max-linked-accounts, --max-deletes,
--max-replaces or --gates (the summary is printed, and its first lines say
which).
`;

/** `summarize`: its options and help; the action hands its exit status to `done`. */
export function summarizeCommand(io: Io, done: (status: number) => void): Command {
  return new Command("summarize")
    .summary("Print a pull request's summary of `pulumi preview --json`, or a drift report.")
    .usage(
      "<preview.json ... | ->\n         [--drift | --drift-against-program] [--max-chars <n>]\n         " +
        "[--full <file>] [--full-link <url>]\n         [--max-linked-accounts <n>] [--max-deletes <n>] " +
        "[--max-replaces <n>]\n         [--gates <file>]",
    )
    .description(
      "Reads the output of `pulumi preview --json` from a file, or from standard input when the file is -, and " +
        "prints a Markdown summary of the integration platform changes: one folded block per linked account, its " +
        "changes listed by app. Secret values are never printed. Several files (the previews of a sharded " +
        "program's stacks) make one summary of them all.\n\n" +
        "The summary fits a pull request comment: when the full one is longer than --max-chars, whole linked " +
        "accounts are left out from the end of the list, and the last line says how many accounts and changes " +
        "that is, and where the full summary is.\n\n" +
        "Limits on the change's reach (--max-linked-accounts, --max-deletes, --max-replaces, or a --gates file) " +
        "count across every preview given. When the change crosses one, the summary is still printed, its first " +
        "lines say which limit, the count and the first linked accounts, and the exit status is 4.",
    )
    .argument(
      "[preview.json...]",
      "The output of `pulumi preview --json` (or of the command --drift or --drift-against-program names), or " +
        "- for standard input.",
    )
    .option(
      "--drift",
      "Report drift instead, as Pulumi defines it: what the platform holds against what was last deployed. " +
        "Reads the output of `PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi refresh --preview-only --json` " +
        'and lists each changed or gone object per linked account and app (a changed secret shows as "[secret] ' +
        "changed\"). Without that variable the refresh's JSON counts drift but does not say where: the report " +
        "gives the count. Exits 1 when it finds drift, 0 when it finds none, 2 when the refresh failed, so drift " +
        "could not be checked.",
    )
    .option(
      "--drift-against-program",
      "Report what the platform holds against what the program declares instead: reads `pulumi preview " +
        "--refresh --expect-no-changes --json`. A program change not deployed yet shows as drift too. Exit " +
        "status as --drift's, 2 also for a preview that was not refreshed.",
    )
    .option(
      "--max-chars <n>",
      `The most characters to print: default ${DEFAULT_MAX_CHARS}, at least ${MIN_MAX_CHARS}. GitHub refuses a ` +
        `comment over 65536.`,
    )
    .option(
      "--full <file>",
      "Also write the full summary, with every change, to <file> (e.g. for the CI job's step summary). The " +
        "last line names the file.",
    )
    .option(
      "--full-link <url>",
      "Where readers find the full summary (e.g. the CI run's page): the last line links it instead of naming " +
        "the file.",
    )
    .option(
      "--max-linked-accounts <n>",
      "The most linked accounts the change may touch (with a create, update, replace or delete of an " +
        "integration platform object); more exits 4. No limit unless given.",
    )
    .option(
      "--max-deletes <n>",
      "The most integration platform objects the change may delete; more exits 4. No limit unless given.",
    )
    .option(
      "--max-replaces <n>",
      "The most integration platform objects the change may replace; more exits 4. No limit unless given.",
    )
    .option(
      "--gates <file>",
      `A JSON file of limits kept in the repository, any of ${GATES_EXAMPLE}; an option given on the command ` +
        "line overrides the file's value. Not with --drift or --drift-against-program.",
    )
    .addHelpText("after", HELP_AFTER)
    .action(async (sources: string[], values: GivenOptions) =>
      done(await runSummarize(summarizeOptions(sources, values), io)),
    );
}
