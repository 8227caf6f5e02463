// The command's name, the overview `--help` prints, and how a usage problem is told: in the
// product's words, with the help to read for the command it concerns. Each command's own help
// lives beside its options, in cli/commands/.
import type { CommanderError } from "commander";
import type { Io } from "./io";
import { isSingleExecutable } from "../contract/packageFiles";
import { printable } from "./text";

/** The command's name, as users type it and messages start with it. */
export const COMMAND = "pulumi-integration-platform";

/**
 * How a user runs the command, for examples: the release's executable by its name, the npm package's
 * through npx.
 */
export const INVOCATION = isSingleExecutable() ? COMMAND : `npx ${COMMAND}`;

/** What the overview says above the list of commands. */
export const OVERVIEW =
  "The integration platform's command line, beside Pulumi: summarizes a `pulumi preview --json` for a pull " +
  "request (or reports drift), writes a Pulumi program from a live workspace, runs a command on every stack of a " +
  "sharded program, and sends a signed workflow event to a webhook receiver.";

/** What the overview says below the list of commands: where each command's help is, and the exit statuses. */
export const OVERVIEW_AFTER = `
Run \`${COMMAND} <command> --help\` for a command's options,
examples and exit status; \`${COMMAND} shards move --help\` for
re-sharding's.

Exit status: 0 when the summary or the project was written (with --drift or
--drift-against-program: and no drift was found), or every shard's command
succeeded; 1 when a drift report found drift (the report is printed), or a
shard's command failed; 2 for bad usage, unreadable input, a --full file that
cannot be written (then nothing is printed), a drift check whose preview
failed (the report says so), or an import that could not read the workspace
or write <dir> (then nothing was written); 3 for an unexpected failure.
\`summarize\` exits 4 when the change crosses a limit set with
--max-linked-accounts, --max-deletes, --max-replaces or --gates (the summary
is printed). \`webhook send\` exits 0 when the receiver answered 2xx, 1 when
it did not.
`;

/** A usage or input problem: printed with the usage hint, exit status 2. */
export class UsageError extends Error {}

/** Prints a usage problem as `pulumi-integration-platform: <message>` and the help to read; returns exit status 2. */
export function usageProblem(io: Io, message: string, command: string): number {
  const help = command === "" ? `${COMMAND} --help` : `${COMMAND} ${command} --help`;
  io.stderr(`${COMMAND}: ${message}\nRun \`${help}\` for usage.\n`);
  return 2;
}

/**
 * Commander's message for a parse error, in the product's words: its "error: " prefix dropped, and a
 * missing value said plainly.
 */
export function parseProblem(error: CommanderError): string {
  // An unknown option is quoted as typed: each line shown without control or bidi characters.
  const message = error.message
    .replace(/^error: /, "")
    .split("\n")
    .map(printable)
    .join("\n");
  if (error.code === "commander.optionMissingArgument") {
    // "option '--max-chars <n>' argument missing": name the option and show it with its value.
    const flags = /option '([^']+)'/.exec(message)?.[1];
    if (flags) {
      const long = flags.split(/[\s,]+/).find((flag) => flag.startsWith("--")) ?? flags.split(/[\s,]+/)[0];
      const value = /<[^>]+>/.exec(flags)?.[0] ?? "<value>";
      return `${long} needs a value: ${long} ${value}`;
    }
  }
  return message;
}
