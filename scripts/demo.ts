// `npm run demo`: the whole product in one run, against the local emulator and nothing else.
//   1. start the emulator;  2. `pulumi up` of examples/quickstart;  3. change one value and show
//   `pulumi preview --diff`;  4. refresh after a change made behind the stack's back;
//   5. destroy;  6. stop the emulator, and summarize.
// The quickstart is installed the way a user installs the package (npm pack, then npm install),
// in a temporary directory with its own offline Pulumi backend, all removed at the end.
import * as path from "node:path";
import axios from "axios";
import { startEmulator, type RunningEmulator } from "../emulator";
import { REPO, Stack, Workspace, engineDescription, type CommandResult } from "../harness/engine";
import { copyProgram } from "../harness/program";

const bold = (text: string) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text);
let step = 0;
function heading(text: string): void {
  step += 1;
  console.log(`\n${bold(`== ${step}/6 ${text}`)}`);
}

/** Prints what the CLI printed, indented, without its trailing blank lines. */
function show(result: CommandResult): void {
  console.log(result.stdout.trimEnd().replace(/^/gm, "   "));
}

// The demo's own reads of the field's name go over HTTP, with the demo's API key, so they share
// the key's rate limit and show in the call count. Kept over HTTP on purpose: the check that
// destroy put the name back should see what the platform answers, not the emulator's insides.
// There are two, made when no pulumi command is running, so they never meet a 429 themselves.
let ownReads = 0;
async function fieldName(emulator: RunningEmulator): Promise<string> {
  ownReads += 1;
  const { data } = await axios.get(`${emulator.url}/api/v2/public/slug/hubspot/config/globex`, {
    headers: { "x-api-key": emulator.apiKey, linked_account_id: "globex" },
  });
  return (data.fields as { id: string; name: string }[]).find((f) => f.id === "hs_pipeline")!.name;
}

/** The newest logged request's sequence number: the calls after it are `requests.list(cursor)`. */
function requestCursor(emulator: RunningEmulator): number {
  const all = emulator.requests.list();
  return all.length > 0 ? all[all.length - 1].seq : 0;
}

async function main(): Promise<void> {
  const started = Date.now();
  heading("Starting the local emulator");
  // The default rate limit, the platform's documented one: the demo shows the provider living
  // within it, so it must not be turned off.
  const emulator = await startEmulator({ quiet: true });
  const limit = emulator.rateLimit.get();
  const limitText =
    limit.requestsPerSecond === null
      ? "no rate limit"
      : `the platform's documented ${limit.requestsPerSecond} requests/s, burst ${limit.burst}`;
  console.log(`   ${emulator.url}  (API key ${emulator.apiKey}; control plane ${emulator.url}/_emulator/)`);
  console.log(`   Rate limit: ${limitText}, per credential`);
  const fixtureName = await fieldName(emulator);

  // Built from Go modules the first time on a machine without `pulumi` (minutes), cached after.
  const engine = engineDescription();
  console.log(`   Pulumi CLI: ${engine}`);
  const workspace = new Workspace();
  const summary: string[] = [];
  try {
    const dir = copyProgram(path.join(REPO, "examples/quickstart"), workspace.root);
    const stack = new Stack(workspace, dir);
    await stack.init(
      { "integration-platform:baseUrl": emulator.url },
      { "integration-platform:apiKey": emulator.apiKey },
    );

    heading("pulumi up: examples/quickstart declares every resource");
    const up = await stack.ok(["up", "--yes"]);
    show(up);
    summary.push(
      `up created ${/\+ (\d+) created/.exec(up.stdout)?.[1] ?? "?"} resources in ${(up.ms / 1000).toFixed(1)} s`,
    );

    heading("Changing one value (contactSyncEnabled: true -> false), then pulumi preview --diff");
    await stack.ok(["config", "set", "--type", "bool", "contactSyncEnabled", "false"]);
    // A cursor rather than clearing the log: the summary counts every call of the whole demo.
    const beforePreview = requestCursor(emulator);
    const preview = await stack.ok(["preview", "--diff"]);
    show(preview);
    summary.push(
      `preview --diff showed ${/~ (\d+) to update/.exec(preview.stdout)?.[1] ?? "0"} update, with ${emulator.requests.list(beforePreview).length} API calls`,
    );

    heading("Renaming a field behind the stack's back, then pulumi refresh");
    const config = emulator.store.configs.find({ linkedAccountId: "globex", slug: "hubspot", configId: "globex" })!;
    emulator.store.configs.fieldState(config, null, "hs_pipeline").name = "Renamed in the platform's UI";
    const refresh = await stack.ok(["refresh", "--yes", "--diff"]);
    show(refresh);
    summary.push(`refresh found ${/~ (\d+) updated/.exec(refresh.stdout)?.[1] ?? "0"} drifted resource`);

    heading("pulumi destroy");
    const destroy = await stack.ok(["destroy", "--yes", "--skip-preview"]);
    show(destroy);
    summary.push(`destroy deleted ${/- (\d+) deleted/.exec(destroy.stdout)?.[1] ?? "?"} resources`);
    const restored = (await fieldName(emulator)) === fixtureName;
    summary.push(
      `the hs_pipeline field is ${restored ? "back to" : "NOT back to"} its original name ("${fixtureName}")`,
    );
    const calls = emulator.requests.list();
    const rateLimited = calls.filter((c) => c.status === 429).length;
    summary.push(
      `${calls.length} API calls (${ownReads} of them the demo's own reads of the field's name), ${rateLimited} answered 429 (the emulator enforced ${limitText}, per credential)`,
    );
  } finally {
    heading("Stopping the emulator");
    await emulator.close();
    workspace.dispose();
  }
  console.log(`\n${bold("Summary")}`);
  for (const line of summary) console.log(`   - ${line}`);
  console.log(`   - the Pulumi CLI: ${engine}`);
  console.log(
    `   - total ${((Date.now() - started) / 1000).toFixed(1)} s; nothing was left running or written outside a temporary directory`,
  );
}

main().catch((error: Error) => {
  console.error(`\ndemo failed: ${error.message}`);
  process.exit(1);
});
