#!/usr/bin/env node
// The package's command line, `pulumi-integration-platform`: commander parses it into the commands
// of cli/commands/. Every usage or input problem says what to do instead and exits 2; exit 1 is
// kept for "drift found" and "a shard failed", so a crash exits 3.
import { Command, CommanderError } from "commander";
import { importCommand } from "./commands/import";
import { shardsCommand } from "./commands/shards";
import { summarizeCommand } from "./commands/summarize";
import { webhookCommand } from "./commands/webhook";
import { processIo, type Io } from "./io";
import { ownManifest } from "./manifest";
import { COMMAND, OVERVIEW, OVERVIEW_AFTER, parseProblem, UsageError, usageProblem } from "./usage";

export type { Io } from "./io";

/** The commands, in the order the overview lists them: each made afresh for a run, writing through its io. */
const COMMANDS: readonly ((io: Io, done: (status: number) => void) => Command)[] = [
  summarizeCommand,
  importCommand,
  shardsCommand,
  webhookCommand,
];

/** The commands' names, as users type them after `pulumi-integration-platform`, in the overview's order. */
export function commandNames(): string[] {
  return COMMANDS.map((command) => command(processIo, () => {}).name());
}

/** How a command is named after `pulumi-integration-platform`: "", "import", "shards move". */
function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/** Every command of the tree, the root first. */
function everyCommand(command: Command): Command[] {
  return [command, ...command.commands.flatMap((sub) => everyCommand(sub as Command))];
}

/** What one run found out: the exit status an action set, and the command a problem concerns. */
interface Outcome {
  status: number;
  command: string;
}

/**
 * The command line as commander sees it, writing through `io`; a fresh one per run, as commander keeps
 * parsed values.
 */
function program(io: Io, outcome: Outcome): Command {
  const done = (status: number) => {
    outcome.status = status;
  };
  const root = new Command(COMMAND)
    .usage("<command> [options]")
    .description(OVERVIEW)
    .version(ownManifest().version, "-V, --version", "Print the version.")
    // Options before the command are the root's, after it the command's own: `shards move --stack` is move's.
    .enablePositionalOptions()
    // No `help` command: `<command> --help` is the one way, and commander's `help` knows no `shards move`.
    .helpCommand(false)
    .addHelpText("after", OVERVIEW_AFTER)
    // A word that is no command (or none) reaches this action, which says what the commands are.
    .argument("[command]")
    .allowExcessArguments()
    .action((command: string | undefined) => {
      const names = root.commands.map((sub) => sub.name());
      const commands = `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
      if (command === undefined) throw new UsageError(`missing command: the commands are ${commands}`);
      if (command === "help")
        throw new UsageError(`there is no help command: run \`${COMMAND} <command> --help\` for a command's help`);
      throw new UsageError(`unknown command ${JSON.stringify(command)}: the commands are ${commands}`);
    });
  for (const command of COMMANDS) root.addCommand(command(io, done));
  // A problem an action throws concerns the command whose action it is.
  root.hook("preAction", (_root, action) => {
    outcome.command = pathOf(action);
  });
  for (const command of everyCommand(root)) {
    command
      .helpOption("-h, --help", "Print this help.")
      // A command's name alone in the list of commands: its options and arguments are in its own help.
      .configureHelp({ subcommandTerm: (sub) => sub.name() })
      // Commander's own exit would end the process: main resolves to the status instead.
      .exitOverride()
      .configureOutput({
        writeOut: io.stdout,
        writeErr: io.stderr,
        // main prints the problem, in the product's format; this records which command's help to point at.
        outputError: () => {
          outcome.command = pathOf(command);
        },
      });
  }
  return root;
}

/** Runs the command line with `args` (without node and the script); resolves to the exit status. */
export async function main(args: string[], io: Io = processIo): Promise<number> {
  const outcome: Outcome = { status: 0, command: "" };
  // `npm exec pulumi-integration-platform -- import …` and scripts' `-- "$@"` put a `--` before the
  // command: it ends no option there, and would make the command's own options its arguments.
  const argv = args[0] === "--" ? args.slice(1) : args;
  try {
    await program(io, outcome).parseAsync(argv, { from: "user" });
    return outcome.status;
  } catch (error) {
    // --help and --version end the parse with exit code 0; anything else commander refuses is a usage problem.
    if (error instanceof CommanderError)
      return error.exitCode === 0 ? 0 : usageProblem(io, parseProblem(error), outcome.command);
    if (error instanceof UsageError) return usageProblem(io, error.message, outcome.command);
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
