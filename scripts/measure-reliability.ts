// Measurements behind the figures in docs/guides/reliability.md that the test suite does not print
// itself. Not a test (npm test does not run it): each prints what it measured.
//
//   npm run build --silent && npx ts-node --transpile-only scripts/measure-reliability.ts <name>
//
//   sidecars [kills]  kills `pulumi up` at varied points, `kills` times (default 12) with the
//                     default file backend and as many with `?metadata=skip`; counts the kills
//                     after which the stack could not be read
//   orphans           kills `pulumi` alone; how long the plugins it started stay alive
//   pending           after a kill while creating: what `refresh`, `up` and
//                     `refresh --clear-pending-creates` do with the pending creates
//   baseline          an interrupted create whose write landed: what `destroy` restores afterwards
//   async-throw       how long `preview` takes to report a failing lookup, awaited in the exported
//                     async function and started at module load
//   verbose-file      whether `-v=9` without --logtostderr writes a secret input to a file
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../emulator";
import { Stack, Workspace } from "../harness/engine";
import { writeProgram } from "../harness/program";
import { fullSpec, recoverInterruptedUp, specProgram, waitFor, writeSpec, writesIn } from "../harness/reliability";

/** An emulator, a workspace and one stack of the spec program, connected to each other. */
async function setup(name: string) {
  const emulator = await startEmulator({ quiet: true });
  const workspace = new Workspace();
  const stack = new Stack(workspace, specProgram(workspace, name), name);
  await stack.init(
    { "integration-platform:baseUrl": emulator.url },
    { "integration-platform:apiKey": emulator.apiKey },
  );
  return { emulator, workspace, stack };
}

/** Answered writes in the emulator's log. */
const answered = (emulator: RunningEmulator) =>
  writesIn(emulator.requests.list()).filter((e) => e.status >= 200 && e.status < 300).length;

const MEASUREMENTS: Record<string, (arg?: string) => Promise<void>> = {
  async sidecars(arg) {
    const kills = Number(arg ?? 12);
    for (const skip of [false, true]) {
      const emulator = await startEmulator({ quiet: true });
      const workspace = new Workspace();
      const backend = path.join(workspace.root, "backend");
      const probe = new Stack(
        workspace,
        specProgram(workspace, "sidecars"),
        "sidecars",
        skip ? { PULUMI_BACKEND_URL: `file://${backend}?metadata=skip` } : {},
      );
      await probe.init(
        { "integration-platform:baseUrl": emulator.url },
        { "integration-platform:apiKey": emulator.apiKey },
      );
      writeSpec(probe.dir, fullSpec("v0"));
      await probe.ok(["up", "--yes", "--skip-preview"]);
      let unreadable = 0;
      for (let i = 1; i <= kills; i++) {
        writeSpec(probe.dir, fullSpec(`v${i}`));
        emulator.requests.clear();
        const up = probe.start(["up", "--yes", "--skip-preview"]);
        // 48 of the 57 resources change (the toggles stay enabled): kill after 1 to 45 writes.
        const target = 1 + ((i * 7) % 45);
        await waitFor("the kill point", () => answered(emulator) >= target);
        up.killAll();
        await up.exited;
        const exported = await probe.run(["stack", "export"]);
        if (exported.code !== 0) unreadable++;
        // Repair (only ever needed without metadata=skip), then recover for the next round.
        await recoverInterruptedUp(probe, backend);
      }
      console.log(
        `${skip ? "file backend with ?metadata=skip" : "default file backend"}: ${unreadable} of ${kills} kills left a stack that could not be read`,
      );
      workspace.dispose();
      await emulator.close();
    }
  },

  async orphans() {
    const { emulator, workspace, stack } = await setup("orphans");
    writeSpec(stack.dir, fullSpec("o"));
    const up = stack.start(["up", "--yes", "--skip-preview"]);
    await waitFor("three writes", () => answered(emulator) >= 3);
    const killedAt = Date.now();
    up.kill();
    await up.exited;
    const writesAtKill = writesIn(emulator.requests.list()).length;
    let last = -1;
    while (Date.now() - killedAt < 120_000 && last !== 0) {
      const alive = up.plugins().length;
      if (alive !== last)
        console.log(
          `${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill of pulumi: ${alive} processes it started are alive`,
        );
      last = alive;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    console.log(
      `after 120 s: ${up.plugins().length} alive; writes at the kill ${writesAtKill}, now ${writesIn(emulator.requests.list()).length}`,
    );
    up.killAll();
    workspace.dispose();
    await emulator.close();
  },

  async pending() {
    const { emulator, workspace, stack } = await setup("pending");
    writeSpec(stack.dir, fullSpec("p"));
    emulator.faults.add([{ method: "POST", path: "^/api/v2/public/env/values$", action: { delayMs: 2000 }, times: 1 }]);
    const up = stack.start(["up", "--yes", "--skip-preview"]);
    await waitFor("the held write", () => emulator.faults.list()[0].fired === 1);
    up.killAll();
    await up.exited;
    const pending = async () =>
      ((await stack.exportState()).deployment as { pending_operations?: { type: string }[] }).pending_operations?.map(
        (op) => op.type,
      ) ?? [];
    const locked = await stack.run(["up", "--yes", "--skip-preview"]);
    console.log(
      `up before cancel: exit ${locked.code}: ${(locked.stdout + locked.stderr).split("\n").find((l) => l.startsWith("error:"))}`,
    );
    await stack.ok(["cancel", "--yes"]);
    console.log(`after cancel, pending: ${JSON.stringify(await pending())}`);
    const refresh = await stack.run(["refresh", "--yes", "--skip-preview"]);
    console.log(
      `refresh (non-interactive, no flag): exit ${refresh.code}, pending after: ${JSON.stringify(await pending())}`,
    );
    const again = await stack.run(["up", "--yes", "--skip-preview"]);
    console.log(
      `up: exit ${again.code}, warns: ${/pending operations from previous deployment/.test(again.stdout + again.stderr)}, pending after: ${JSON.stringify(await pending())}`,
    );
    const cleared = await stack.run(["refresh", "--yes", "--skip-preview", "--clear-pending-creates"]);
    console.log(
      `refresh --clear-pending-creates: exit ${cleared.code}, pending after: ${JSON.stringify(await pending())}`,
    );
    workspace.dispose();
    await emulator.close();
  },

  async baseline() {
    const { emulator, workspace, stack } = await setup("baseline");
    const ids = { slug: "hubspot", linkedAccountId: "acme", configId: "acme" };
    writeSpec(stack.dir, {
      toggles: [{ name: "toggle", args: { ...ids, workflowId: "wf_hs_deal_alerts", enabled: true } }],
      fields: [{ name: "field", args: { ...ids, fieldId: "hs_pipeline", name: "Managed name" } }],
    });
    const observe = () => {
      const config = emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
      return {
        enabled: config.workflows.find((w) => w.id === "wf_hs_deal_alerts")?.enabled ?? false,
        nameOverride: config.fields.find((f) => f.id === "hs_pipeline")?.name ?? null,
      };
    };
    const before = observe();
    // Both creates' writes are held; pulumi alone is killed, and the platform carries them out.
    emulator.faults.add([{ method: "PUT", path: "/workflows/|/config/field/", action: { delayMs: 3000 }, times: 2 }]);
    const up = stack.start(["up", "--yes", "--skip-preview"]);
    await waitFor("both writes held", () => emulator.faults.list()[0].fired === 2);
    up.kill();
    await new Promise((resolve) => setTimeout(resolve, 3500));
    up.killAll();
    await up.exited;
    await recoverInterruptedUp(stack, path.join(workspace.root, "backend"));
    await stack.ok(["destroy", "--yes", "--skip-preview"]);
    console.log(
      `before the stack: ${JSON.stringify(before)}; after the interrupted create, the recovery and destroy: ${JSON.stringify(observe())}`,
    );
    workspace.dispose();
    await emulator.close();
  },

  async "async-throw"() {
    const { emulator, workspace, stack } = await setup("asyncthrow");
    for (const unawaited of [false, true]) {
      writeSpec(stack.dir, { lookups: [{ fn: "getAuditEvents", args: { maxItems: "ten" }, unawaited }] });
      const preview = await stack.run(["preview"]);
      const reported = preview.stdout.includes("getAuditEvents: invalid arguments: maxItems: must be a number");
      console.log(
        `${unawaited ? "started at module load" : "awaited in the exported async function"}: exit ${preview.code} after ${preview.ms} ms, message shown: ${reported}`,
      );
    }
    // The same without this package: a plain exception in the exported async function.
    fs.writeFileSync(
      path.join(stack.dir, "index.js"),
      'module.exports = async () => { throw new Error("plain failure"); };\n',
    );
    const plain = await stack.run(["preview"]);
    console.log(
      `a plain throw in the exported async function, package not loaded: exit ${plain.code} after ${plain.ms} ms, message shown: ${plain.stdout.includes("plain failure")}`,
    );
    workspace.dispose();
    await emulator.close();
  },

  async "verbose-file"() {
    const workspace = new Workspace();
    const tmp = path.join(workspace.root, "tmp");
    fs.mkdirSync(tmp);
    const secret = `probe-${randomBytes(8).toString("hex")}`;
    const dir = writeProgram(workspace.root, "verbose", {
      "index.js": [
        'const pulumi = require("@pulumi/pulumi");',
        'const echo = { async create() { return { id: "echo-1", outs: {} }; } };',
        "class Echo extends pulumi.dynamic.Resource { constructor(name, message) { super(echo, name, { message }, {}); } }",
        'new Echo("echo", new pulumi.Config().requireSecret("probe"));',
      ].join("\n"),
      "Pulumi.yaml": "name: verbose\nruntime: nodejs\nmain: index.js\n",
      "package.json": JSON.stringify({ name: "verbose", private: true, main: "index.js" }),
    });
    const stack = new Stack(workspace, dir, "verbose", { TMPDIR: tmp });
    await stack.init({}, { probe: secret });
    await stack.ok(["up", "--yes", "-v=9"]);
    for (const file of fs.readdirSync(tmp).filter((f) => f.startsWith("pulumi."))) {
      console.log(
        `${file}: holds the secret input in plaintext: ${fs.readFileSync(path.join(tmp, file), "utf8").includes(secret)}`,
      );
    }
    workspace.dispose();
  },
};

const [name, arg] = process.argv.slice(2);
const measurement = MEASUREMENTS[name];
if (!measurement) {
  console.error(`usage: measure-reliability.ts <${Object.keys(MEASUREMENTS).join(" | ")}> [argument]`);
  process.exit(2);
}
measurement(arg).catch((error) => {
  console.error(error);
  process.exit(1);
});
