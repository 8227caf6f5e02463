// `npm run bench:refresh [-- --sizes 300,1000]`: what a drift check and a refresh cost, in API
// calls and time, at the platform's documented rate limit.
//
// For each size N (resources) and each of the two places a tenant's env value can live: a stack
// of N / 3 tenants, each with a ConfigField, a WorkflowToggle and an EnvVariableValue
// (harness/tenants.ts), through the real CLI with the package installed from its tarball.
//   - workflow: the value is the tenant's BATCH_SIZE at a workflow (TENANT_WORKFLOW_PROGRAM);
//     the values of all tenants at a workflow are listed together, 100 per page.
//   - linked_account: the value is the tenant's ACCOUNT_QUOTA (TENANT_PROGRAM); the platform
//     requires `linked_account_id` to list such values, so each tenant's are listed on their own.
// The stack is created with the emulator's limit and the provider's pacing OFF: that is setup,
// not measured. Then both are put back to the documented limit (20 requests/s, burst 5) and the
// provider's default pacing, and the bench measures `pulumi preview --refresh
// --expect-no-changes --json` (the drift check) and `pulumi refresh --skip-preview --yes`, each
// from a fresh engine: wall time, API calls and 429s (the emulator's request log).
import * as fs from "node:fs";
import * as os from "node:os";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator";
import { Stack, succeeded, Workspace } from "../harness/engine";
import { writeProgram } from "../harness/program";
import { seedTenants, TENANT_PROGRAM, TENANT_WORKFLOW_PROGRAM } from "../harness/tenants";

/** The platform's documented limit, which the emulator enforces by default and the provider paces to. */
const LIMIT_PER_SECOND = 20;
const SHAPES = { workflow: TENANT_WORKFLOW_PROGRAM, linked_account: TENANT_PROGRAM };

interface Row {
  shape: string;
  tenants: number;
  resources: number;
  command: string;
  seconds: number;
  calls: number;
  limited: number;
}

/** Creates a stack of `tenants` tenants of one shape, then measures its drift check and its refresh. */
async function measure(shape: keyof typeof SHAPES, tenants: number): Promise<Row[]> {
  const emulator = await startEmulator({ quiet: true });
  const workspace = new Workspace();
  try {
    const ids = await seedTenants(emulator, "tenant", tenants);
    const stack = new Stack(
      workspace,
      writeProgram(workspace.root, `refresh-${shape}`, {
        "index.ts": SHAPES[shape],
        "tenants.json": JSON.stringify(ids),
      }),
    );
    await stack.init(
      { "integration-platform:baseUrl": emulator.url, "integration-platform:requestsPerSecond": "0" },
      { "integration-platform:apiKey": emulator.apiKey },
    );
    // Setup, not measured: without the limit, a 1000-resource stack is created in a minute instead of several.
    emulator.rateLimit.set({ rateLimit: "off" });
    await stack.ok(["up", "--yes", "--skip-preview"]);
    await stack.ok(["config", "rm", "integration-platform:requestsPerSecond"]);
    // refresh configures the provider from the settings the last `up` recorded
    // (docs/guides/limits-and-differences.md): a no-op `up` records the default pacing.
    await stack.ok(["up", "--yes", "--skip-preview"]);
    emulator.rateLimit.set({ rateLimit: "20/5" });

    const rows: Row[] = [];
    const commands: [string, string[], boolean][] = [
      ["preview --refresh --expect-no-changes --json", ["preview", "--refresh", "--expect-no-changes", "--json"], true],
      ["refresh --skip-preview", ["refresh", "--skip-preview", "--yes"], false],
    ];
    for (const [command, args] of commands) {
      emulator.rateLimit.reset();
      emulator.requests.clear();
      const started = performance.now();
      succeeded(await stack.run(args), `pulumi ${command}`);
      const seconds = (performance.now() - started) / 1000;
      const log = emulator.requests.list();
      rows.push({
        shape,
        tenants,
        resources: 3 * tenants,
        command,
        seconds,
        calls: log.length,
        limited: log.filter((r) => r.status === 429).length,
      });
    }
    return rows;
  } finally {
    workspace.dispose();
    await emulator.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "300,1000" },
      shapes: { type: "string", default: "workflow,linked_account" },
    },
  });
  const sizes = values.sizes.split(",").filter(Boolean).map(Number);
  const shapes = values.shapes.split(",").filter(Boolean);
  if (sizes.some((n) => !Number.isInteger(n) || n < 3))
    throw new Error("--sizes takes resource counts of at least 3, separated by commas (e.g. 300,1000)");
  const unknown = shapes.filter((s) => !(s in SHAPES));
  if (unknown.length > 0) throw new Error(`--shapes takes workflow and/or linked_account; got ${unknown.join(", ")}`);

  const loadBefore = os.loadavg()[0];
  const lines: string[] = [];
  for (const size of sizes) {
    for (const shape of shapes as (keyof typeof SHAPES)[]) {
      for (const r of await measure(shape, Math.round(size / 3))) {
        const floor = (r.calls - r.limited) / LIMIT_PER_SECOND;
        const line = `| ${r.resources} | ${r.tenants} | ${r.shape} | ${r.command} | ${r.seconds.toFixed(2)} | ${r.calls} | ${r.limited} | ${floor.toFixed(2)} | ${(r.calls / r.tenants).toFixed(2)} | ${(r.calls / r.resources).toFixed(2)} |`;
        process.stderr.write(`${line}\n`);
        lines.push(line);
      }
    }
  }
  const table = [
    `Machine: ${os.cpus().length} vCPUs (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average before the run ${loadBefore.toFixed(2)}.`,
    "",
    "| resources | tenants | env value at | command | wall (s) | API calls | answered 429 | rate floor (s) | calls / tenant | calls / resource |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...lines,
  ].join("\n");
  console.log(table);
  if (process.env.BENCH_OUT) fs.writeFileSync(process.env.BENCH_OUT, table + "\n");
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exitCode = 1;
});
