#!/usr/bin/env node
// The package's command line, `pulumi-integration-platform`: picks the command. Every failure says
// what to do instead and exits 2; exit 1 is kept for "drift found", so a crash exits 3.
import { parseArgs } from "node:util";
import { importCommand } from "./commands/import";
import { shardsCommand } from "./commands/shards";
import { summarizeCommand } from "./commands/summarize";
import { processIo, type Io } from "./io";
import { COMMAND, USAGE, UsageError } from "./usage";

export type { Io } from "./io";

/** Runs the command line with `args` (without node and the script); resolves to the exit status. */
export async function main(args: string[], io: Io = processIo): Promise<number> {
  try {
    if (args[0] === "import") return await importCommand(args.slice(1), io);
    if (args[0] === "shards") return await shardsCommand(args.slice(1), io);
    if (args[0] === "summarize") return await summarizeCommand(args.slice(1), io);
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
