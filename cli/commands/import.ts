// `import`: its arguments, and the exit status: 2, with nothing written, when the workspace could
// not be read or the project not written.
import { parseArgs } from "node:util";
import { AdviceError, ApiError, SettingsError } from "../../provider/client/errors";
import { ImportInputError } from "../import/read";
import { runImport } from "../import/run";
import type { Io } from "../io";
import { COMMAND, USAGE, UsageError } from "../usage";

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

/** Runs `import …`; resolves to the exit status. */
export async function importCommand(args: string[], io: Io): Promise<number> {
  const options = importOptions(args);
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
