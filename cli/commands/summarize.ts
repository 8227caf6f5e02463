// `summarize`: its arguments, reading the previews, and the exit status: with --drift (or
// --drift-against-program), 1 when drift is found, 2 when the check failed and drift could not be checked.
import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { Io } from "../io";
import { DEFAULT_MAX_CHARS, fullSummaryLink, mergePreviews, MIN_MAX_CHARS, parsePreview, PreviewJsonError, summarizeBounded, type PreviewJson, type ReportMode, type Summaries } from "../summary";
import { engineEventsOf, previewOfEvents } from "../summary/refresh";
import { plural } from "../text";
import { COMMAND, USAGE, UsageError } from "../usage";

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
      "drift-against-program": { type: "boolean", default: false },
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
  if (values.drift && values["drift-against-program"]) throw new UsageError("--drift and --drift-against-program are two reports of different commands' output; give one");
  return { sources, mode: values.drift ? "drift" : values["drift-against-program"] ? "programDrift" : "changes", maxChars, full, fullLink };
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
  // A refresh streams engine events, one JSON object a line (PULUMI_ENABLE_STREAMING_JSON_PREVIEW).
  const events = engineEventsOf(text);
  if (events) {
    try {
      return previewOfEvents(events);
    } catch (error) {
      if (error instanceof PreviewJsonError) throw new UsageError(`${name} is ${error.message}`);
      throw error;
    }
  }
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

/** Runs `summarize …`; resolves to the exit status. */
export async function summarizeCommand(args: string[], io: Io): Promise<number> {
  const options = summarizeOptions(args);
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
  if (options.mode === "changes") return 0;
  if (errors > 0) {
    io.stderr(`${COMMAND}: the preview failed with ${plural(errors, "error")}, so drift could not be checked in full; its log has the messages.\n`);
    return 2;
  }
  return changes > 0 ? 1 : 0;
}
