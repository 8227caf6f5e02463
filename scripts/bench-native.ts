// `npm run bench:native [-- --size 1000]`: the native provider against the dynamic resources, the
// same workload in one run: N resources (the mix of scripts/lib/workload.ts) in one stack, through
// the real CLI, against the emulator at its default limit (the platform's documented 20 requests/s,
// burst 5) with the provider's default pacing. Both programs are the same TypeScript, one importing
// the dynamic package, the other the generated SDK. Reported per program: `up` (with its preview,
// as CI runs it), `preview` with no change and `destroy`, each with its calls and the rate floor
// (calls answered / 20 per second); and the state's bytes per resource.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator, type RunningEmulator } from "../emulator";
import { DEFAULT_REQUESTS_PER_SECOND } from "../provider/settings";
import { Stack, Workspace } from "../harness/engine";
import { nodeSdkInstall } from "../harness/languages";
import { nativePath } from "../harness/native";
import { measure, seed, specs, stateSizes, type Measured } from "./lib/workload";

const PROGRAMS = {
  dynamic: `import * as platform from "pulumi-integration-platform";`,
  native: `import * as platform from "pulumi-integration-platform-sdk";`,
};
type Program = keyof typeof PROGRAMS;
const OPS = {
  up: ["up", "--yes"],
  "preview (no changes)": ["preview", "--expect-no-changes"],
  destroy: ["destroy", "--yes"],
} as const;
type Op = keyof typeof OPS;

interface Result {
  ops: Record<Op, Measured>;
  stateBytesPerResource: number;
  providerBytesPerResource: number;
}

async function runProgram(program: Program, n: number, emulator: RunningEmulator): Promise<Result> {
  await emulator.store.reset();
  await seed(emulator, n);
  const workspace = new Workspace();
  try {
    const dir = path.join(workspace.root, `bench-${program}-${n}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: bench-${program}\nruntime: nodejs\n`);
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: `bench-${program}`, private: true, main: "index.ts" }),
    );
    fs.writeFileSync(path.join(dir, "resources.json"), JSON.stringify(specs(n, false)));
    fs.writeFileSync(
      path.join(dir, "index.ts"),
      `${PROGRAMS[program]}\nconst specs: { kind: string; name: string; args: any }[] = require("./resources.json");\nfor (const s of specs) new (platform as any)[s.kind](s.name, s.args);\n`,
    );
    // Both packages in one install: the dynamic package also brings the native provider's plugin.
    fs.symlinkSync(path.join(nodeSdkInstall(), "node_modules"), path.join(dir, "node_modules"), "dir");
    const stack = new Stack(workspace, dir, "dev", { PATH: nativePath() });
    await stack.init(
      { "integration-platform:baseUrl": emulator.url },
      { "integration-platform:apiKey": emulator.apiKey },
    );
    const ops = {} as Record<Op, Measured>;
    ops.up = await measure(stack, emulator, [...OPS.up]);
    const sizes = stateSizes(await stack.exportState(), n);
    ops["preview (no changes)"] = await measure(stack, emulator, [...OPS["preview (no changes)"]]);
    ops.destroy = await measure(stack, emulator, [...OPS.destroy]);
    return { ops, ...sizes };
  } finally {
    workspace.dispose();
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
/** The time the limit needs for the calls that were answered (429s are not answers). */
const floorMs = (m: Measured) => ((m.calls - m.rateLimited) / DEFAULT_REQUESTS_PER_SECOND) * 1000;

function table(n: number, results: Record<Program, Result>): string[] {
  const lines = [
    `N = ${n} resources in one stack, default limit (${DEFAULT_REQUESTS_PER_SECOND}/s, burst 5), default pacing:`,
    "",
    "| command | dynamic: wall (calls, 429s) | native: wall (calls, 429s) | rate floor (native's calls / 20 per s) | native / floor | native / dynamic |",
    "|---|---|---|---|---|---|",
  ];
  for (const op of Object.keys(OPS) as Op[]) {
    const [d, nat] = [results.dynamic.ops[op], results.native.ops[op]];
    const floor = floorMs(nat);
    lines.push(
      `| ${op} | ${seconds(d.ms)} s (${d.calls}, ${d.rateLimited}) | ${seconds(nat.ms)} s (${nat.calls}, ${nat.rateLimited}) | ${seconds(floor)} s | ${floor > 0 ? (nat.ms / floor).toFixed(2) : "–"} | ${(nat.ms / d.ms).toFixed(2)} |`,
    );
  }
  lines.push(
    "",
    `State per resource: dynamic ${results.dynamic.stateBytesPerResource} bytes (of which __provider ${results.dynamic.providerBytesPerResource}), native ${results.native.stateBytesPerResource} bytes (__provider ${results.native.providerBytesPerResource}).`,
  );
  return lines;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { size: { type: "string", default: "1000" }, out: { type: "string", default: "benchmarks/native.json" } },
  });
  const n = Number(values.size);
  if (!Number.isInteger(n) || n < 4) throw new Error(`--size must be a whole number of at least 4; got ${values.size}`);
  const emulator = await startEmulator({ quiet: true });
  try {
    const results = {} as Record<Program, Result>;
    for (const program of ["dynamic", "native"] as Program[]) {
      process.stderr.write(`bench-native: ${program}, N = ${n} ...\n`);
      results[program] = await runProgram(program, n, emulator);
    }
    fs.writeFileSync(values.out!, `${JSON.stringify({ n, measuredAt: new Date().toISOString(), results }, null, 2)}\n`);
    console.log(table(n, results).join("\n"));
  } finally {
    await emulator.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
