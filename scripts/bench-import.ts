// `npm run bench:import [-- --sizes 200,1000 --runs 2]`: how long `pulumi-integration-platform
// import` takes, and how many API calls it makes, at the platform's documented rate limit.
//
// For each size N: a fresh emulator enforcing its default limit (20 requests/s, burst 5, per
// credential) with the default fixture's 3 linked accounts plus N tenants, each with a setup made
// outside Pulumi (harness/tenants.ts, `existingSetup`: a renamed field, an enabled workflow,
// an env value, and every tenth an encrypted one); then the built command line
// (dist/cli/main.js, `import --slug hubspot`) in a child process, with the provider's
// default settings, as a user runs it. Reported: wall time (the process's, Node's start
// included), API calls and 429s (the emulator's request log), the rate floor (calls answered
// other than 429 ÷ 20 per second) and the size of the index.ts it wrote.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator";
import { REPO } from "../harness/engine";
import { seedTenants } from "../harness/tenants";

const BIN = path.join(REPO, "dist/cli/main.js");
/** The platform's documented limit, which the emulator enforces by default and the provider paces to. */
const LIMIT_PER_SECOND = 20;

interface Result {
  accounts: number;
  seconds: number;
  calls: number;
  limited: number;
  rateFloor: number;
  bytes: number;
  lines: number;
  dataLines: number;
}

/** Runs the import once against a fresh emulator holding `tenants` tenants. */
async function measure(tenants: number, dir: string): Promise<Result> {
  const emulator = await startEmulator({ quiet: true });
  try {
    await seedTenants(emulator, "tenant", tenants, { existingSetup: true });
    emulator.requests.clear();
    const started = performance.now();
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [BIN, "import", "--slug", "hubspot", "--out", dir],
        {
          env: {
            ...process.env,
            INTEGRATION_PLATFORM_BASE_URL: emulator.url,
            INTEGRATION_PLATFORM_API_KEY: emulator.apiKey,
          },
          maxBuffer: 64 * 1024 * 1024,
        },
        (error, out, err) => (error ? reject(new Error(`import failed: ${err}`)) : resolve(out)),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const log = emulator.requests.list();
    const writes = log.filter((r) => r.method !== "GET");
    if (writes.length > 0)
      throw new Error(`the import wrote to the platform: ${writes.map((r) => `${r.method} ${r.path}`).join(", ")}`);
    const limited = log.filter((r) => r.status === 429).length;
    const program = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
    const accounts = Number(/^Brought in (\d+) linked accounts?/m.exec(stdout)?.[1]);
    return {
      accounts,
      seconds,
      calls: log.length,
      limited,
      rateFloor: (log.length - limited) / LIMIT_PER_SECOND,
      bytes: Buffer.byteLength(program),
      lines: program.split("\n").length,
      dataLines: program.split("\n").filter((line) => line.startsWith("  { linkedAccountId: ")).length,
    };
  } finally {
    await emulator.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { sizes: { type: "string", default: "200,1000" }, runs: { type: "string", default: "2" } },
  });
  const sizes = values.sizes.split(",").filter(Boolean).map(Number);
  const runs = Number(values.runs);
  if (sizes.some((n) => !Number.isInteger(n) || n < 0) || !Number.isInteger(runs) || runs < 1) {
    throw new Error(
      "--sizes takes whole numbers separated by commas (e.g. 200,1000), --runs a whole number of at least 1",
    );
  }
  if (!fs.existsSync(BIN))
    throw new Error(`${BIN} is missing: run \`npm run build\` first (npm run bench:import does)`);

  const loadBefore = os.loadavg()[0];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pip-bench-import-"));
  const rows: string[] = [];
  try {
    for (const tenants of sizes) {
      for (let run = 1; run <= runs; run++) {
        const r = await measure(tenants, path.join(tmp, `n${tenants}-run${run}`));
        const row = `| ${r.accounts} | ${run} | ${r.seconds.toFixed(2)} | ${r.calls} | ${r.limited} | ${r.rateFloor.toFixed(2)} | ${(r.seconds / r.rateFloor).toFixed(2)} | ${(r.calls / r.accounts).toFixed(2)} | ${r.bytes} | ${r.lines} | ${r.dataLines} |`;
        process.stderr.write(`${row}\n`);
        rows.push(row);
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(
    [
      `Machine: ${os.cpus().length} vCPUs (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average before the run ${loadBefore.toFixed(2)}.`,
      "",
      "| linked accounts | run | wall (s) | API calls | answered 429 | rate floor (s) | wall ÷ rate floor | calls / account | index.ts bytes | index.ts lines | data lines |",
      "|---|---|---|---|---|---|---|---|---|---|---|",
      ...rows,
    ].join("\n"),
  );
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exitCode = 1;
});
