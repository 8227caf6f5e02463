// Throughput and latency of the local emulator over loopback.
//
//   npx ts-node scripts/bench-emulator.ts [--requests N] [--concurrency C] [--max-seconds S] [--in-process]
//
// By default the emulator runs as a child process (its own event loop, as users run it) and this
// process only generates load. Every run is bounded by --requests per scenario and by --max-seconds.
import { spawn, type ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { availableParallelism, cpus, loadavg } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";

const API_KEY = "tk_emulator";
const DEFINITION_ID = "64f0000000000000000000d2"; // MAX_RETRIES in emulator/fixtures/default.json

interface Scenario {
  name: string;
  path: string;
  headers: Record<string, string>;
}

const SCENARIOS: Scenario[] = [
  {
    name: "GET /api/v2/public/env/definitions/:id",
    path: `/api/v2/public/env/definitions/${DEFINITION_ID}`,
    headers: { "x-api-key": API_KEY },
  },
  { name: "GET /_emulator/health", path: "/_emulator/health", headers: {} },
];

interface Result {
  scenario: string;
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      requests: { type: "string", default: "20000" },
      concurrency: { type: "string", default: "32" },
      "max-seconds": { type: "string", default: "30" },
      "in-process": { type: "boolean", default: false },
    },
  });
  const total = positive(values.requests, "--requests");
  const concurrency = positive(values.concurrency, "--concurrency");
  const maxSeconds = positive(values["max-seconds"], "--max-seconds");

  console.log(`machine: ${availableParallelism()} cpus (${cpus()[0]?.model ?? "unknown"}), node ${process.version}`);
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const where = values["in-process"] ? "in this process" : "child process";
  console.log(`emulator: ${where}; ${total} requests per scenario, concurrency ${concurrency}, cap ${maxSeconds} s\n`);

  const server = values["in-process"] ? await startInProcess() : await startChild();
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    const results: Result[] = [];
    for (const scenario of SCENARIOS) {
      await load(server.url, scenario, agent, Math.min(1000, total), concurrency, maxSeconds); // warm-up
      results.push(await load(server.url, scenario, agent, total, concurrency, maxSeconds));
    }
    console.table(
      results.map((r) => ({
        scenario: r.scenario,
        requests: r.requests,
        errors: r.errors,
        "req/s": Math.round(r.perSecond),
        "p50 ms": r.p50.toFixed(2),
        "p99 ms": r.p99.toFixed(2),
        "max ms": r.max.toFixed(2),
      })),
    );
  } finally {
    agent.destroy();
    await server.stop();
  }
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
}

/** Fires `total` GETs with `concurrency` workers, stopping early after `maxSeconds`. */
async function load(
  baseUrl: string,
  scenario: Scenario,
  agent: Agent,
  total: number,
  concurrency: number,
  maxSeconds: number,
): Promise<Result> {
  const latencies: number[] = [];
  let issued = 0;
  let errors = 0;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(maxSeconds) * 1_000_000_000n;
  const worker = async () => {
    while (issued < total && process.hrtime.bigint() < deadline) {
      issued++;
      const t0 = process.hrtime.bigint();
      const status = await get(`${baseUrl}${scenario.path}`, scenario.headers, agent).catch(() => 0);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (status !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return {
    scenario: scenario.name,
    requests: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies[latencies.length - 1],
  };
}

function get(url: string, headers: Record<string, string>, agent: Agent): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolvePromise(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

async function startInProcess(): Promise<{ url: string; stop(): Promise<void> }> {
  const { startEmulator } = await import("../emulator");
  // Rate limit off: this measures the emulator's own throughput on loopback, which the platform's
  // 20 requests/s would hide; test/emulator/rateLimit.test.ts covers the limit.
  const emulator = await startEmulator({ quiet: true, rateLimit: "off" });
  return { url: emulator.url, stop: () => emulator.close() };
}

async function startChild(): Promise<{ url: string; stop(): Promise<void> }> {
  const main = resolve(__dirname, "../emulator/main.ts");
  // Rate limit off, as for the in-process emulator above.
  const child: ChildProcess = spawn(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", main, "--port", "0", "--quiet", "--rate-limit", "off"],
    {
      cwd: resolve(__dirname, ".."),
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise<string>((resolvePromise, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${out}`)), 30_000);
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`emulator exited with ${code}: ${out}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolvePromise) => {
        child.once("exit", () => resolvePromise());
        child.kill("SIGTERM");
      }),
  };
}

function positive(text: string | undefined, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`${name} must be a positive integer`);
    process.exit(2);
  }
  return n;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
