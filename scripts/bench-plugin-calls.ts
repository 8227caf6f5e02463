// The native plugin's own work per resource: the engine's calls for N resources of the benchmarks'
// mix (scripts/lib/workload.ts), sent straight to the plugin over gRPC as the engine sends them,
// with no engine and no program, against an in-process emulator with its rate limit and the
// provider's pacing off. Reports each phase's wall time and the plugin's CPU time (BENCHMARKS.md,
// "The plugin's calls"):
//
//   npx ts-node --transpile-only scripts/bench-plugin-calls.ts [--size N] [--profile DIR] -- <plugin command...>
//
// The phases: `up` (Check with no olds, then Create, one resource at a time) and the no-change
// preview (Check with olds, then Diff). With --profile, the command must be `node …`: it is run
// with --cpu-prof into DIR, and stopped so that the profile is written.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { startEmulator } from "../emulator";
import { seed, specs } from "./lib/workload";

const provproto = require("@pulumi/pulumi/proto/provider_pb");
const { ResourceProviderClient } = require("@pulumi/pulumi/proto/provider_grpc_pb");

/** The engine's marker of a secret value in a Struct (the SDK's `specialSigKey` and `specialSecretSig`). */
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";

/** What this script reads of the plugin's answers (the SDK's stubs are untyped JavaScript). */
interface Answer {
  getFailuresList(): { getReason(): string }[];
  getInputs(): structproto.Struct;
  getId(): string;
  getProperties(): structproto.Struct;
  getChanges(): number;
}

/** The plugin's user + system CPU time so far, in ms (Linux's /proc; fields 14 and 15, 10-ms ticks). */
function cpuMs(pid: number): number {
  const [utime, stime] = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ").slice(11, 13);
  return (Number(utime) + Number(stime)) * 10;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { size: { type: "string", default: "1000" }, profile: { type: "string" } },
    allowPositionals: true,
  });
  const n = Number(values.size);
  let command = positionals;
  if (values.profile) {
    // --cpu-prof writes its profile at exit: a preload turns SIGTERM into an exit.
    const preload = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-calls-")), "exit-on-term.js");
    fs.writeFileSync(preload, 'process.on("SIGTERM", () => process.exit(0));\n');
    command = [command[0], "--cpu-prof", `--cpu-prof-dir=${values.profile}`, "-r", preload, ...command.slice(1)];
  }
  // Limit off, though the platform has one (20/s, burst 5): this measures the plugin's own CPU per
  // call, which waiting on the limit would hide; the rate-limited benchmarks (bench.ts) keep it on.
  const emulator = await startEmulator({ rateLimit: "off", quiet: true });
  await seed(emulator, n);
  const started = Date.now();
  const child = spawn(command[0], [...command.slice(1), "127.0.0.1:1"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`the plugin exited (${code}) before printing its port`)));
      createInterface({ input: child.stdout! }).once("line", (line) => resolve(line.trim()));
    });
    const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const call = <T>(method: string, request: unknown): Promise<T> =>
      new Promise((resolve, reject) =>
        client[method](request, (error: Error | null, response: T) => (error ? reject(error) : resolve(response))),
      );
    const configure = new provproto.ConfigureRequest();
    const vars = configure.getVariablesMap();
    vars.set("integration-platform:config:baseUrl", emulator.url);
    vars.set("integration-platform:config:apiKey", emulator.apiKey);
    vars.set("integration-platform:config:requestsPerSecond", "0");
    await call("configure", configure);
    const startMs = Date.now() - started;
    const resources = specs(n, false).map((spec) => {
      // EnvVariableValue's value is a secret, as the SDK sends it.
      const args =
        spec.kind === "EnvVariableValue"
          ? { ...spec.args, value: { [SIG]: SECRET, value: spec.args.value } }
          : spec.args;
      return {
        urn: `urn:pulumi:dev::bench::integration-platform:index:${spec.kind}::${spec.name}`,
        news: structproto.Struct.fromJavaScript(args as Record<string, structproto.JavaScriptValue>),
      };
    });
    const phase = async (body: (r: (typeof resources)[number], i: number) => Promise<void>) => {
      const [t0, c0] = [Date.now(), cpuMs(child.pid!)];
      for (let i = 0; i < resources.length; i++) await body(resources[i], i);
      return { ms: Date.now() - t0, cpuMs: cpuMs(child.pid!) - c0 };
    };
    const created: { id: string; inputs: structproto.Struct; outputs: structproto.Struct }[] = [];
    const up = await phase(async (r) => {
      const check = new provproto.CheckRequest();
      check.setUrn(r.urn);
      check.setOlds(new structproto.Struct());
      check.setNews(r.news);
      const checked = await call<Answer>("check", check);
      if (checked.getFailuresList().length) throw new Error(`${r.urn}: ${checked.getFailuresList()[0].getReason()}`);
      const create = new provproto.CreateRequest();
      create.setUrn(r.urn);
      create.setProperties(checked.getInputs());
      const made = await call<Answer>("create", create);
      created.push({ id: made.getId(), inputs: checked.getInputs(), outputs: made.getProperties() });
    });
    const preview = await phase(async (r, i) => {
      const check = new provproto.CheckRequest();
      check.setUrn(r.urn);
      check.setOlds(created[i].inputs);
      check.setNews(r.news);
      const checked = await call<Answer>("check", check);
      const diff = new provproto.DiffRequest();
      diff.setUrn(r.urn);
      diff.setId(created[i].id);
      diff.setOlds(created[i].outputs);
      diff.setOldInputs(created[i].inputs);
      diff.setNews(checked.getInputs());
      const changes = (await call<Answer>("diff", diff)).getChanges();
      if (changes !== provproto.DiffResponse.DiffChanges.DIFF_NONE) throw new Error(`${r.urn}: a change after create`);
    });
    client.close();
    const per = (x: { ms: number; cpuMs: number }) =>
      `${x.ms} ms (${(x.ms / n).toFixed(2)} ms a resource), plugin CPU ${x.cpuMs} ms (${(x.cpuMs / n).toFixed(2)} ms a resource)`;
    console.log(`${n} resources; start to Configure answered: ${startMs} ms`);
    console.log(`up (Check + Create): ${per(up)}`);
    console.log(`preview, no change (Check + Diff): ${per(preview)}`);
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    await emulator.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
