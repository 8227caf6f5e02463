// `npm run bench [-- --sizes 50,200,1000]`: what the provider costs on top of the Pulumi engine.
//
// For each size N it runs two programs through the real CLI, in the same run, on the same
// engine and with the same (default) parallelism:
//   - ours:  N resources, a mix of the four kinds spread across N/4 linked accounts, with the
//            package installed from its tarball the way users install it, against the emulator;
//   - floor: N no-op dynamic resources (an inline provider that calls nothing) with the same inputs.
// Each goes through: up (create everything), preview with no changes, up after changing 10% of
// the resources, refresh, destroy. Reported: wall time and its ratio to the floor, API calls per
// resource (from the emulator's request log), state and `__provider` bytes per resource, the peak
// RSS of the dynamic provider host, and how time grows from N = 200 to N = 1000.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator, type RunningEmulator } from "../emulator";
import { Stack, Workspace, type StackExport } from "./lib/engine";
import { writeProgram } from "./lib/program";

const OPS = ["up (create)", "preview (no changes)", "up (10% changed)", "refresh", "destroy"] as const;
// `up` and `destroy` run with their preview, as users run them in CI; `refresh` without (see below).
type Op = (typeof OPS)[number];

interface Spec {
  kind: "ConfigField" | "WorkflowToggle" | "EnvVariableValue" | "ApplicationEvent";
  name: string;
  args: Record<string, unknown>;
}

interface Measured {
  ms: number;
  reads: number;
  writes: number;
  peakRssMb: number;
}

interface ProgramResult {
  ops: Record<Op, Measured>;
  stateBytesPerResource: number;
  providerBytesPerResource: number;
}

const OURS = `
import * as platform from "pulumi-integration-platform";
const specs: { kind: string; name: string; args: any }[] = require("./resources.json");
for (const s of specs) new (platform as any)[s.kind](s.name, s.args);
`;

// The floor: the cheapest dynamic resource the engine can run, with the same inputs.
const FLOOR = `
import * as pulumi from "@pulumi/pulumi";
const noop: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) { return { inputs: news }; },
  async diff(_id, olds, news) {
    const strip = (o: any) => JSON.stringify({ ...o, __provider: undefined });
    return { changes: strip(olds) !== strip(news) };
  },
  async create(inputs) { return { id: "noop", outs: inputs }; },
  async read(id, props) { return { id, props }; },
  async update(_id, _olds, news) { return { outs: news }; },
  async delete() {},
};
class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, args: any) { super(noop, name, args, {}, "bench", "Noop"); }
}
const specs: { kind: string; name: string; args: any }[] = require("./resources.json");
for (const s of specs) new Noop(s.name, s.args);
`;

/** The resource mix: per linked account a field, a toggle and an env value, plus one event. */
function specs(n: number, changed: boolean): Spec[] {
  const all: Spec[] = [];
  for (let i = 0; all.length < n; i += 1) {
    const account = `bench-${i}`;
    const bump = changed && i % 10 === 0; // every tenth unit changes: 10% of the resources
    const config = { slug: "hubspot", linkedAccountId: account, configId: account };
    all.push({ kind: "ConfigField", name: `field-${i}`, args: { ...config, fieldId: "hs_pipeline", name: `Pipeline ${i}${bump ? " v2" : ""}` } });
    all.push({ kind: "WorkflowToggle", name: `toggle-${i}`, args: { ...config, workflowId: "wf_hs_deal_alerts", enabled: !bump } });
    all.push({ kind: "EnvVariableValue", name: `env-${i}`, args: { definitionId: "64f0000000000000000000d6", linkedAccountId: account, value: String(100 + i + (bump ? 1 : 0)) } });
    all.push({ kind: "ApplicationEvent", name: `event-${i}`, args: { eventId: eventId(i), name: `bench.event.${i}${bump ? ".v2" : ""}`, response: { id: "e_1", n: i } } });
  }
  return all.slice(0, n);
}

function eventId(i: number): string {
  return `bench${String(i).padStart(19, "0")}`;
}

/** Gives the emulator the linked accounts, configs and events the mix addresses. */
async function seed(emulator: RunningEmulator, n: number): Promise<void> {
  const units = Math.ceil(n / 4);
  for (let i = 0; i < units; i += 1) {
    emulator.store.addLinkedAccount({ account_id: `bench-${i}`, name: `Bench ${i}` });
    emulator.store.upsertConfig({ linkedAccountId: `bench-${i}`, slug: "hubspot", configId: `bench-${i}` }, undefined);
  }
  await emulator.store.update((state) => {
    for (let i = 0; i < units; i += 1) {
      state.events.push({ _id: eventId(i), name: `bench.event.${i}`, raw_response: "{}", response: [] });
    }
  });
}

/** Samples the peak RSS (VmHWM) of every dynamic provider host process until stopped. */
function watchProviderHosts(): () => number {
  let peakKb = 0;
  const sample = () => {
    for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
      try {
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
        if (!cmdline.includes("cmd/dynamic-provider")) continue;
        const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
        if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      } catch {
        // The process ended between listing and reading: nothing to sample.
      }
    }
  };
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    sample();
    return Math.round(peakKb / 1024);
  };
}

async function measure(stack: Stack, emulator: RunningEmulator, args: string[]): Promise<Measured> {
  emulator.requests.clear();
  const stop = watchProviderHosts();
  const result = await stack.ok(args);
  const peakRssMb = stop();
  const calls = emulator.requests.list();
  return {
    ms: result.ms,
    reads: calls.filter((c) => c.method === "GET").length,
    writes: calls.filter((c) => c.method !== "GET").length,
    peakRssMb,
  };
}

function stateSizes(state: StackExport, n: number) {
  const text = JSON.stringify(state);
  const providers = (state.deployment.resources ?? []).reduce((sum, r) => {
    const inputs = r.inputs?.__provider;
    const outputs = r.outputs?.__provider;
    return sum + (typeof inputs === "string" ? Buffer.byteLength(inputs) : 0) + (typeof outputs === "string" ? Buffer.byteLength(outputs) : 0);
  }, 0);
  return { stateBytesPerResource: Math.round(Buffer.byteLength(text) / n), providerBytesPerResource: Math.round(providers / n) };
}

async function runProgram(kind: "ours" | "floor", n: number, emulator: RunningEmulator, root: string): Promise<ProgramResult> {
  const workspace = new Workspace();
  try {
    const dir = writeProgram(workspace.root, `bench-${kind}-${n}`, {
      "index.ts": kind === "ours" ? OURS : FLOOR,
      "resources.json": JSON.stringify(specs(n, false)),
    });
    const stack = new Stack(workspace, dir);
    await stack.init({ "integration-platform:baseUrl": emulator.url }, { "integration-platform:apiKey": emulator.apiKey });
    const ops = {} as Record<Op, Measured>;
    ops["up (create)"] = await measure(stack, emulator, ["up", "--yes"]);
    const sizes = stateSizes(await stack.exportState(), n);
    ops["preview (no changes)"] = await measure(stack, emulator, ["preview", "--expect-no-changes"]);
    fs.writeFileSync(path.join(dir, "resources.json"), JSON.stringify(specs(n, true)));
    ops["up (10% changed)"] = await measure(stack, emulator, ["up", "--yes"]);
    // --skip-preview: a previewed refresh reads every resource twice (once to preview, once to
    // apply), for both programs; the engine does that, not the provider.
    ops.refresh = await measure(stack, emulator, ["refresh", "--yes", "--skip-preview"]);
    ops.destroy = await measure(stack, emulator, ["destroy", "--yes"]);
    fs.writeFileSync(path.join(root, `${kind}-${n}.json`), JSON.stringify({ ops, ...sizes }, null, 2));
    return { ops, ...sizes };
  } finally {
    workspace.dispose();
  }
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { sizes: { type: "string", default: "50,200,1000" }, out: { type: "string" } } });
  const sizes = values.sizes!.split(",").map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 4)) throw new Error(`--sizes takes whole numbers of at least 4, e.g. 50,200,1000; got ${values.sizes}`);
  const out = values.out ?? fs.mkdtempSync(path.join(os.tmpdir(), "pip-bench-"));
  fs.mkdirSync(out, { recursive: true });

  const results: Record<number, { ours: ProgramResult; floor: ProgramResult }> = {};
  for (const n of sizes) {
    const emulator = await startEmulator({ quiet: true });
    try {
      await seed(emulator, n);
      process.stderr.write(`bench: N=${n}: floor ...\n`);
      const floor = await runProgram("floor", n, emulator, out);
      process.stderr.write(`bench: N=${n}: ours ...\n`);
      const ours = await runProgram("ours", n, emulator, out);
      results[n] = { ours, floor };
    } finally {
      await emulator.close();
    }
  }

  const lines: string[] = [];
  lines.push(`Machine: ${os.cpus().length} vCPUs (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average before the run ${os.loadavg()[0].toFixed(2)}.`, "");
  lines.push("| N | operation | ours (s) | floor (s) | ratio | reads / resource | writes / resource | writes / changed resource | peak RSS of provider host, ours / floor (MB) |");
  lines.push("|---|---|---|---|---|---|---|---|---|");
  for (const n of sizes) {
    const { ours, floor } = results[n];
    for (const op of OPS) {
      const o = ours.ops[op];
      const f = floor.ops[op];
      const changed = op === "up (10% changed)" ? Math.round(n / 10) : n;
      lines.push(
        `| ${n} | ${op} | ${fmt(o.ms / 1000)} | ${fmt(f.ms / 1000)} | ${fmt(o.ms / f.ms)} | ${fmt(o.reads / n)} | ${fmt(o.writes / n)} | ${fmt(o.writes / changed)} | ${o.peakRssMb} / ${f.peakRssMb} |`,
      );
    }
  }
  lines.push("", "| N | state bytes / resource, ours | floor | ratio | `__provider` bytes / resource, ours | floor |", "|---|---|---|---|---|---|");
  for (const n of sizes) {
    const { ours, floor } = results[n];
    lines.push(`| ${n} | ${ours.stateBytesPerResource} | ${floor.stateBytesPerResource} | ${fmt(ours.stateBytesPerResource / floor.stateBytesPerResource)} | ${ours.providerBytesPerResource} | ${floor.providerBytesPerResource} |`);
  }
  if (results[200] && results[1000]) {
    lines.push("", "| operation | ours: time at N=1000 / N=200 | floor: time at N=1000 / N=200 |", "|---|---|---|");
    for (const op of OPS) {
      lines.push(`| ${op} | ${fmt(results[1000].ours.ops[op].ms / results[200].ours.ops[op].ms)} | ${fmt(results[1000].floor.ops[op].ms / results[200].floor.ops[op].ms)} |`);
    }
  }
  const report = lines.join("\n");
  fs.writeFileSync(path.join(out, "report.md"), report + "\n");
  console.log(report);
  process.stderr.write(`bench: raw results in ${out}\n`);
}

main().catch((error: Error) => {
  console.error(`bench failed: ${error.message}`);
  process.exit(1);
});
