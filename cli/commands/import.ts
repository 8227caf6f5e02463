// `import`: its options and help, and the exit status: 2, with nothing written, when the workspace
// could not be read or the project not written.
import { Command } from "commander";
import { AdviceError, ApiError, SettingsError } from "../../provider/client/errors";
import { ImportInputError } from "../import/read";
import { importWorkspace } from "../import/importWorkspace";
import { isLanguage, LANGUAGES } from "../import/language";
import type { Io } from "../io";
import { COMMAND, INVOCATION, UsageError } from "../usage";

/** The options as commander parsed them, before they are checked. */
interface GivenOptions {
  slug?: string[];
  linkedAccount?: string[];
  out?: string;
  fixture?: string;
  force?: boolean;
  language?: string;
}

/** Collects a repeatable option's values, in order. */
const repeated = (value: string, earlier: string[] | undefined) => [...(earlier ?? []), value];

/** Checks `import`'s arguments; every problem becomes a UsageError naming what to fix. */
function importOptions(positionals: string[], values: GivenOptions) {
  if (positionals.length > 0)
    throw new UsageError(
      `import takes no arguments besides its options; got ${positionals.map((p) => JSON.stringify(p)).join(", ")}`,
    );
  const slugs = [...new Set((values.slug ?? []).map((s) => s.trim()))];
  if (slugs.length === 0 || slugs.includes(""))
    throw new UsageError(
      "import needs --slug: name the app to bring in, e.g. --slug hubspot (repeat it for more apps)",
    );
  if (values.fixture !== undefined && !values.fixture.trim())
    throw new UsageError("--fixture must not be empty: name the file to write, e.g. --fixture workspace.json");
  if (!values.out?.trim() && values.fixture === undefined)
    throw new UsageError(
      "import needs --out: name a new or empty directory for the project, e.g. --out platform " +
        "(or --fixture FILE alone for an emulator fixture of the workspace)",
    );
  if (values.out !== undefined && !values.out.trim())
    throw new UsageError("--out must not be empty: name a new or empty directory for the project");
  const ids = values.linkedAccount?.map((id) => id.trim());
  if (ids?.includes(""))
    throw new UsageError(
      "--linked-account must not be empty: give a linked account's id, or leave the option out to bring in " +
        "every account",
    );
  const language = values.language?.trim();
  if (language !== undefined && !isLanguage(language))
    throw new UsageError(`--language must be one of ${LANGUAGES.join(", ")}; got ${JSON.stringify(values.language)}`);
  return {
    slugs,
    linkedAccountIds: ids && [...new Set(ids)],
    out: values.out,
    fixture: values.fixture,
    force: values.force ?? false,
    language,
  };
}

/** Imports the workspace; resolves to the exit status. */
async function importExitStatus(options: ReturnType<typeof importOptions>, io: Io): Promise<number> {
  try {
    await importWorkspace(options, {
      stdout: io.stdout,
      stderr: io.stderr,
      env: io.env ?? process.env,
      stderrIsTTY: io.stderrIsTTY ?? false,
    });
  } catch (error) {
    // The platform's and the settings' messages already say what to check; none holds a secret.
    if (
      error instanceof ImportInputError ||
      error instanceof ApiError ||
      error instanceof SettingsError ||
      error instanceof AdviceError
    ) {
      const left = error instanceof ImportInputError ? error.leftChanged : [];
      const outcome =
        left.length === 0
          ? `Nothing was written${options.out === undefined ? "" : ` to ${options.out}`}.`
          : `These files could not be put back as they were: ${left.join(", ")}.`;
      io.stderr(`${COMMAND} import: ${error.message}\n${outcome}\n`);
      return 2;
    }
    throw error;
  }
  return 0;
}

/** `import`: its options and help; the action hands its exit status to `done`. */
export function importCommand(io: Io, done: (status: number) => void): Command {
  return (
    new Command("import")
      .summary("Write a Pulumi program that declares a live workspace, for its first `pulumi up` to adopt.")
      .usage(
        "--slug <slug> [--slug <slug> ...]\n         [--linked-account <id> ...] --out <dir> " +
          "[--fixture <file>] [--language <language>] [--force]",
      )
      .description(
        "Reads the live workspace (the linked accounts, their config of each app: fields and enabled " +
          "workflows, and the env values of every scope) and writes a Pulumi project to <dir>, in TypeScript, " +
          "Python, Go, YAML or Java (--language), that " +
          "declares it, one data line per linked account and app. Its first `pulumi up` adopts everything " +
          "without a write to the platform. Encrypted env values are never written: the command prints the " +
          "`pulumi config set --secret` line to run for each. Progress goes to standard error.\n\n" +
          "The connection comes from the environment only (no stack's config is read): " +
          "INTEGRATION_PLATFORM_BASE_URL and INTEGRATION_PLATFORM_API_KEY, and the other INTEGRATION_PLATFORM_* " +
          "settings, e.g. INTEGRATION_PLATFORM_REQUESTS_PER_SECOND.",
      )
      .option("--slug <slug>", "An app to bring in (repeat for more). Required.", repeated)
      .option(
        "--linked-account <id>",
        "A linked account to bring in, by its id (repeat for more); default: all.",
        repeated,
      )
      .option(
        "--out <dir>",
        "Where to write the project: a new or empty directory. Required, unless --fixture is given.",
      )
      .option(
        "--fixture <file>",
        "Also write an emulator fixture of what was read to <file> (alone, without --out: only the fixture), " +
          "for CI to run the emulator with your workspace's shape; encrypted values become placeholders.",
      )
      .option(
        "--language <language>",
        `The project's language: ${LANGUAGES.join(", ")}. Default: the language of the Pulumi.yaml already in ` +
          "<dir> (with --force), else typescript. Python, Go, YAML and Java use the native provider.",
      )
      .option(
        "--force",
        "Write into a directory that is not empty, rewriting the project's files; an earlier found.json's " +
          "records are kept (delete it to record anew). Replace an existing --fixture file.",
      )
      // Stray words are refused by importOptions, in words that say what import takes.
      .allowExcessArguments()
      .addHelpText(
        "after",
        `
Example:
  export INTEGRATION_PLATFORM_BASE_URL=https://api.example.com INTEGRATION_PLATFORM_API_KEY=...
  ${INVOCATION} import --slug hubspot --out platform
  ${INVOCATION} import --slug hubspot --language python --out platform
  ${INVOCATION} import --slug hubspot --fixture ci/workspace.json

Exit status: 0 when the project was written; 2 for bad usage, or an import that
could not read the workspace or write <dir> (then nothing was written); 3 for an
unexpected failure.
`,
      )
      .action(async (values: GivenOptions, command: Command) =>
        done(await importExitStatus(importOptions(command.args, values), io)),
      )
  );
}
