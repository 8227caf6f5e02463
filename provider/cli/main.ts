#!/usr/bin/env node
// The package's command line, `pulumi-integration-platform`. It runs in CI after
// `pulumi preview --json`, so every failure says what to run instead and exits 2, which a
// workflow step reports as failed rather than posting a half summary.
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { PreviewJsonError, summarize } from "./summarize";

const COMMAND = "pulumi-integration-platform";

/** What `--help` prints. */
export const USAGE = `Usage: ${COMMAND} summarize <preview.json | ->

Reads the output of \`pulumi preview --json\` from a file, or from standard input when the
file is -, and prints a Markdown summary of the integration platform changes, grouped by
linked account and app. Secret values are never printed.

Example (in a pull request's CI job):
  pulumi preview --json > preview.json
  npx ${COMMAND} summarize preview.json > summary.md

Options:
  -h, --help   Print this help.

Exit status: 0 when the summary was written; 2 for bad usage or unreadable input.
`;

/** A usage or input problem: printed with the usage hint, exit status 2. */
class UsageError extends Error {}

/** Where the CLI reads and writes; tests pass their own. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
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
};

/** Reads and summarizes one preview; every problem with the input becomes a UsageError naming it. */
async function summarizeSource(source: string, io: Io): Promise<string> {
  const name = source === "-" ? "standard input" : source;
  let text: string;
  try {
    text = source === "-" ? await io.readStdin() : await readFile(source, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (error as Error).message;
    throw new UsageError(`cannot read ${name}: ${why}`);
  }
  if (text.trim() === "") throw new UsageError(`${name} is empty; pass what \`pulumi preview --json\` printed on standard output`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    // Mixed-in progress text is the usual cause: stderr or a non-JSON preview redirected into the file.
    throw new UsageError(`${name} is not JSON (${(error as Error).message}); pass what \`pulumi preview --json\` printed on standard output, without stderr`);
  }
  try {
    return summarize(data);
  } catch (error) {
    if (error instanceof PreviewJsonError) throw new UsageError(`${name} is ${error.message}`);
    throw error;
  }
}

/** Runs the command line with `args` (without node and the script); resolves to the exit status. */
export async function main(args: string[], io: Io = processIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: { help: { type: "boolean", short: "h" } } });
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    const [command, ...rest] = positionals;
    if (command === undefined) throw new UsageError("missing command: summarize");
    if (command !== "summarize") throw new UsageError(`unknown command ${JSON.stringify(command)}: the only command is summarize`);
    if (rest.length !== 1) throw new UsageError(`summarize takes one argument, the preview JSON file (or - for standard input); got ${rest.length}`);
    io.stdout(await summarizeSource(rest[0], io));
    return 0;
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
      process.exitCode = 1;
    },
  );
}
