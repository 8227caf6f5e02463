// `npx ts-node --transpile-only scripts/compare-wire.ts --checkouts <old>,<new> [--resources 400]`: whether two
// builds of the package send the platform the same requests. Each checkout's package (its built dist/, packed as
// users install it) runs the bench's workload (`npm run bench`'s program: N resources of the four kinds over N/4
// linked accounts) through the real CLI: up, a no-change preview, up with 10% changed, refresh, the checkout's own
// `import` of the workspace, destroy; then a program that calls every lookup. A recording proxy stands between
// the provider (and the CLI) and the emulator and keeps each request's method, path and query, headers and body (an
// id the emulator made at random written as the request that made it). The two recordings must be the same, each
// command's requests compared as a multiset (the engine runs resources in parallel, so their order is not the
// program's). Exits 1 naming the first differences.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs, promisify } from "node:util";
import { startEmulator, type RunningEmulator } from "../emulator";
import { Stack, Workspace } from "../harness/engine";
import { installTarball, packTarball, writeProgram } from "../harness/program";
import { seed, specs } from "./lib/workload";

const OURS = `
import * as platform from "pulumi-integration-platform";
const specs: { kind: string; name: string; args: any }[] = require("./resources.json");
for (const s of specs) new (platform as any)[s.kind](s.name, s.args);
`;

/** Every lookup, each once, as a program's own calls (the audit log's after the workload's writes). */
const LOOKUPS = `
import * as platform from "pulumi-integration-platform";
export = async () => ({
  definitions: (await platform.getEnvDefinitions()).length,
  values: (await platform.getEnvValues({ scope: "linked_account", linkedAccountId: "acme" })).length,
  accounts: (await platform.getLinkedAccounts({})).length,
  audit: (await platform.getAuditEvents({ maxItems: 20 })).length,
});
`;

/** Headers that say nothing of what was asked: the connection's own. */
const TRANSPORT_HEADERS = new Set(["host", "connection", "keep-alive"]);

/**
 * A recording proxy in front of the emulator: each request as one line of text, by the command it came in. The ids
 * the emulator makes at random (an env value's `_id`) are written as the request that created them, so that two runs
 * compare: `@created:<hash of that request>`.
 */
async function startRecorder(target: string): Promise<{ url: string; take(): string[]; close(): Promise<void> }> {
  let lines: string[] = [];
  const created = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const headers = Object.entries(req.headers)
        .filter(([name]) => !TRANSPORT_HEADERS.has(name))
        .sort(([a], [b]) => a.localeCompare(b));
      const line = JSON.stringify({ method: req.method, url: req.url, headers, body: body.toString("utf8") });
      lines.push(line);
      const forward = http.request(
        `${target}${req.url}`,
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (answer) => {
          const answered: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => answered.push(chunk));
          answer.on("end", () => {
            const text = Buffer.concat(answered).toString("utf8");
            const id = req.method === "POST" ? /"_id":"([0-9a-f]{24})"/.exec(text)?.[1] : undefined;
            if (id && !line.includes(id)) created.set(id, createHash("sha256").update(line).digest("hex").slice(0, 12));
            res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(answered));
          });
        },
      );
      forward.on("error", () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const named = (line: string) =>
    line.replace(/[0-9a-f]{24}/g, (id) => (created.has(id) ? `@created:${created.get(id)}` : id));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    take: () => [lines.map(named), (lines = [])][0].sort(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Runs the checkout's own `import` of every linked account's hubspot and slack configs, pacing off; in a child
 * process waited for without blocking, since the recording proxy answers it from this one.
 */
async function importWorkspace(checkout: string, url: string, apiKey: string, root: string): Promise<void> {
  const cli = path.join(checkout, "dist", "cli", "main.js");
  const out = path.join(root, "imported");
  const env = {
    ...process.env,
    INTEGRATION_PLATFORM_BASE_URL: url,
    INTEGRATION_PLATFORM_API_KEY: apiKey,
    INTEGRATION_PLATFORM_REQUESTS_PER_SECOND: "0",
  };
  await promisify(execFile)("node", [cli, "import", "--slug", "hubspot", "--slug", "slack", "--out", out], { env });
}

/** One checkout's recording: each command's requests, sorted. */
async function record(checkout: string, n: number): Promise<Record<string, string[]>> {
  const packDir = fs.mkdtempSync(path.join(os.tmpdir(), "pip-wire-pack-"));
  const install = installTarball(packTarball(checkout, packDir));
  // Limit and pacing off, though the platform has one (20/s, burst 5): a 429's retry would add requests that depend
  // on timing, not on the client; the pacing is proven by test/e2e/rateLimit.test.ts.
  const emulator: RunningEmulator = await startEmulator({ quiet: true, rateLimit: "off" });
  const recorder = await startRecorder(emulator.url);
  const workspace = new Workspace();
  const recorded: Record<string, string[]> = {};
  try {
    await seed(emulator, n);
    const files = { "index.ts": OURS, "resources.json": JSON.stringify(specs(n, false)) };
    const dir = writeProgram(workspace.root, "wire", files, install);
    const stack = new Stack(workspace, dir);
    const config = { "integration-platform:baseUrl": recorder.url, "integration-platform:requestsPerSecond": "0" };
    await stack.init(config, { "integration-platform:apiKey": emulator.apiKey });
    const steps: [string, string[], (() => void | Promise<void>)?][] = [
      ["up", ["up", "--yes"]],
      ["preview (no change)", ["preview", "--expect-no-changes"]],
      [
        "up (10% changed)",
        ["up", "--yes"],
        () => fs.writeFileSync(path.join(dir, "resources.json"), JSON.stringify(specs(n, true))),
      ],
      ["refresh", ["refresh", "--yes", "--skip-preview"]],
      // The command-line tools' reads: `import` of the whole workspace (its own process, not the engine).
      ["import (the CLI)", [], () => importWorkspace(checkout, recorder.url, emulator.apiKey, workspace.root)],
      ["destroy", ["destroy", "--yes"]],
      ["lookups", ["up", "--yes"], () => fs.writeFileSync(path.join(dir, "index.ts"), LOOKUPS)],
    ];
    for (const [name, args, before] of steps) {
      await before?.();
      if (args.length > 0) await stack.ok(args);
      recorded[name] = recorder.take();
      process.stderr.write(`compare-wire: ${path.basename(checkout)}: ${name}: ${recorded[name].length} requests\n`);
    }
    return recorded;
  } finally {
    workspace.dispose();
    await recorder.close();
    await emulator.close();
    fs.rmSync(packDir, { recursive: true, force: true });
  }
}

/** The lines one sorted list holds more often than the other. */
function extra(a: string[], b: string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of b) counts.set(line, (counts.get(line) ?? 0) + 1);
  return a.filter((line) => {
    const left = counts.get(line) ?? 0;
    counts.set(line, left - 1);
    return left <= 0;
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { checkouts: { type: "string" }, resources: { type: "string" } } });
  const checkouts = (values.checkouts ?? "").split(",").filter(Boolean);
  const n = Number(values.resources ?? "400");
  if (checkouts.length !== 2 || !Number.isInteger(n) || n < 4)
    throw new Error("usage: compare-wire.ts --checkouts <old>,<new> [--resources 400] (each a built checkout)");
  const [before, after] = [await record(checkouts[0], n), await record(checkouts[1], n)];
  let differ = 0;
  for (const name of Object.keys(before)) {
    const [gone, added] = [extra(before[name], after[name]), extra(after[name], before[name])];
    const same = gone.length === 0 && added.length === 0;
    console.log(
      `${name}: ${before[name].length} and ${after[name].length} requests, ${same ? "the same" : "DIFFERENT"}`,
    );
    for (const line of gone.slice(0, 5)) console.log(`  only before: ${line}`);
    for (const line of added.slice(0, 5)) console.log(`  only after:  ${line}`);
    if (!same) differ++;
  }
  process.exit(differ === 0 ? 0 : 1);
}

main().catch((error: Error) => {
  console.error(`compare-wire failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
