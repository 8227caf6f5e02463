// The command's name, its help text, and the error that prints the usage hint.
import { DEFAULT_MAX_CHARS, MIN_MAX_CHARS } from "./summary";

/** The command's name, as users type it and messages start with it. */
export const COMMAND = "pulumi-integration-platform";

/** What `--help` prints. */
export const USAGE = `Usage: ${COMMAND} summarize <preview.json ... | -> [--drift | --drift-against-program] [--max-chars <n>] [--full <file>] [--full-link <url>]
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

  --drift             Report drift instead, as Pulumi defines it: what the platform holds
                      against what was last deployed. Reads the output of
                      \`PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi refresh --preview-only --json\`
                      and lists each changed or gone object per linked account and app (a
                      changed secret shows as "[secret] changed"). Without that variable the
                      refresh's JSON counts drift but does not say where: the report gives the
                      count. Exits 1 when it finds drift, 0 when it finds none, 2 when the
                      refresh failed, so drift could not be checked.
  --drift-against-program
                      Report what the platform holds against what the program declares instead:
                      reads \`pulumi preview --refresh --expect-no-changes --json\`. A program change
                      not deployed yet shows as drift too. Exit status as --drift's, 2 also for a
                      preview that was not refreshed.
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
    PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi refresh --preview-only --json > refresh.json || true
    npx ${COMMAND} summarize --drift refresh.json --full drift-full.md > drift.md

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

Exit status: 0 when the summary or the project was written (with --drift or
--drift-against-program: and no drift was found), or every shard's command succeeded; 1 when a
drift report found drift (the report is printed),
or a shard's command failed; 2 for bad usage, unreadable input,
a --full file that cannot be written (then nothing is printed), a drift check whose preview
failed (the report says so), or an import that could not read the workspace or write <dir>
(then nothing was written); 3 for an unexpected failure.
`;

/** A usage or input problem: printed with the usage hint, exit status 2. */
export class UsageError extends Error {}
