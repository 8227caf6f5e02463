// How fast the emulator's dashboard is with a large workspace: an in-process emulator seeded with N
// linked accounts (each with a config and env values) and a journal of J entries, the page opened in
// Debian's Chromium, a new browser context per run (no cache): its first contentful paint, and the
// time until the first page of linked accounts and of the journal are on screen; then the views it
// reads over HTTP, timed from Node.js, each with the size of its answer.
//
//   npx ts-node --transpile-only scripts/bench-dashboard.ts [--tenants 100,1000,10000] [--journal 10000]
//     [--runs 5] [--svg FILE]
//
// Each figure is the median of --runs, with the minimum and maximum; BENCHMARKS.md, "The emulator's dashboard".
import * as fs from "node:fs";
import * as os from "node:os";
import { parseArgs } from "node:util";
import type { Browser } from "playwright-core";
import { startEmulator, type RunningEmulator } from "../emulator";
import { launchChromium } from "../harness/browser";
import { seedTenants } from "../harness/tenants";
import { logLogSvg } from "./lib/plot";

const { values } = parseArgs({
  options: {
    tenants: { type: "string", default: "100,1000,10000" },
    journal: { type: "string", default: "10000" },
    runs: { type: "string", default: "5" },
    svg: { type: "string" },
  },
});
const TENANTS = values.tenants.split(",").map(Number);
const JOURNAL = Number(values.journal);
const RUNS = Number(values.runs);

/** Median, minimum and maximum. */
interface Spread {
  median: number;
  min: number;
  max: number;
}

function spread(samples: number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted[sorted.length - 1] };
}

const ms = (t: Spread) => `${t.median.toFixed(1)} (${t.min.toFixed(1)}–${t.max.toFixed(1)})`;

/**
 * A journal of `entries` API calls, as a long `pulumi up` over the tenants leaves it: reads and
 * writes naming each tenant in turn, one in 50 answered 429 by the rate limit, one in 97 a fault.
 */
function fillJournal(emulator: RunningEmulator, tenants: string[], entries: number): void {
  const started = Date.now() - entries * 50;
  for (let i = 0; i < entries; i++) {
    const tenant = tenants[i % tenants.length];
    const write = i % 3 === 2;
    emulator.requests.record({
      time: new Date(started + i * 50).toISOString(),
      method: write ? "PATCH" : "GET",
      path: write
        ? `/api/v2/public/slug/hubspot/config/${tenant}/workflows/wf_hs_deal_alerts`
        : `/api/v2/public/slug/hubspot/config/${tenant}`,
      query: {},
      status: i % 50 === 49 ? 429 : i % 97 === 96 ? 503 : 200,
      auth: "api_key",
      durationMs: 1.5,
      linkedAccountId: tenant,
      ...(i % 50 === 49 && { rateLimited: true as const }),
      ...(i % 97 === 96 && i % 50 !== 49 && { fault: "status" as const }),
    });
  }
}

/** The page's first load, in a new context: paint and marks since navigation start, and the bytes it received. */
async function loadPage(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
  try {
    const page = await context.newPage();
    // Each address once: what the first load asks for, not the polls that follow it.
    const sizes = new Map<string, Promise<number>>();
    page.on("response", (response) => {
      if (!sizes.has(response.url()))
        sizes.set(
          response.url(),
          response.body().then(
            (b) => b.length,
            () => 0,
          ),
        );
    });
    await page.goto(`${url}/_emulator/`);
    await page.waitForFunction(() =>
      ["dashboard:accounts-shown", "dashboard:journal-shown"].every(
        (mark) => performance.getEntriesByName(mark).length,
      ),
    );
    const times = await page.evaluate(() => ({
      fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      accounts: performance.getEntriesByName("dashboard:accounts-shown")[0].startTime,
      journal: performance.getEntriesByName("dashboard:journal-shown")[0].startTime,
    }));
    return { ...times, bytes: (await Promise.all(sizes.values())).reduce((a, b) => a + b, 0) };
  } finally {
    await context.close();
  }
}

/** Median time of a view over HTTP, after one call to warm it, and the size of its answer. */
async function view(url: string): Promise<{ time: Spread; bytes: number }> {
  const get = async () => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return (await response.arrayBuffer()).byteLength;
  };
  const bytes = await get();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await get();
    times.push(performance.now() - started);
  }
  return { time: spread(times), bytes };
}

/** What the page reads, and the name each has in the tables. */
function viewsOf(emulator: RunningEmulator) {
  const base = `${emulator.url}/_emulator/dashboard`;
  const lastSeq = emulator.requests.window({ limit: 0 }).lastSeq;
  return {
    "linked accounts, page 1 of 50": `${base}/linked-accounts?page=1&limit=50`,
    "linked accounts, searched (all scanned)": `${base}/linked-accounts?q=tenant-99&limit=50`,
    "one linked account": `${base}/linked-accounts/tenant-7`,
    "journal, newest 100": `${base}/journal?limit=100`,
    "journal, one account's (all scanned)": `${base}/journal?account=tenant-7&limit=100`,
    "journal poll, nothing new": `${base}/journal?since=${lastSeq}&limit=500`,
    summary: `${base}/summary`,
  };
}

type ViewName = keyof ReturnType<typeof viewsOf>;

async function benchOne(browser: Browser, tenants: number) {
  const emulator = await startEmulator({ quiet: true });
  try {
    const ids = await seedTenants(emulator, "tenant", tenants, { existingSetup: true });
    fillJournal(emulator, ids, JOURNAL);
    const loads = [];
    for (let i = 0; i < RUNS; i++) loads.push(await loadPage(browser, emulator.url));
    const page = {
      fcp: spread(loads.map((l) => l.fcp)),
      accounts: spread(loads.map((l) => l.accounts)),
      journal: spread(loads.map((l) => l.journal)),
      bytes: loads[0].bytes,
    };
    const views = {} as Record<ViewName, Awaited<ReturnType<typeof view>>>;
    for (const [name, url] of Object.entries(viewsOf(emulator))) views[name as ViewName] = await view(url);
    return { tenants: emulator.store.state.linkedAccounts.length, page, views };
  } finally {
    await emulator.close();
  }
}

async function main(): Promise<void> {
  const browser = await launchChromium();
  const results: Awaited<ReturnType<typeof benchOne>>[] = [];
  try {
    console.log(
      `node ${process.version}, Chromium ${browser.version()}, ${os.cpus().length} vCPUs (${os.cpus()[0]?.model}), ` +
        `load ${os.loadavg()[0].toFixed(2)}; journal ${JOURNAL} entries; medians of ${RUNS} runs (min–max), ms`,
    );
    for (const tenants of TENANTS) results.push(await benchOne(browser, tenants));
  } finally {
    await browser.close();
  }
  console.log(
    "\n| linked accounts | first contentful paint | accounts' first page shown | journal's first page shown | bytes received |",
  );
  console.log("|---|---|---|---|---|");
  for (const r of results)
    console.log(
      `| ${r.tenants} | ${ms(r.page.fcp)} | ${ms(r.page.accounts)} | ${ms(r.page.journal)} | ${r.page.bytes} |`,
    );
  const names = Object.keys(results[0].views) as ViewName[];
  console.log(
    `\n| view (GET /_emulator/dashboard/…) | ${results.map((r) => `${r.tenants} accounts: ms (bytes)`).join(" | ")} |`,
  );
  console.log(`|---|${results.map(() => "---").join("|")}|`);
  for (const name of names)
    console.log(
      `| ${name} | ${results.map((r) => `${ms(r.views[name].time)} (${r.views[name].bytes})`).join(" | ")} |`,
    );
  if (values.svg) fs.writeFileSync(values.svg, plotOf(results));
}

/** The medians against the linked accounts, in seconds: the page's first paint and pages, and the views behind them. */
function plotOf(results: Awaited<ReturnType<typeof benchOne>>[]): string {
  const of = (pick: (r: (typeof results)[number]) => Spread) =>
    results.map((r): [number, number] => [r.tenants, pick(r).median / 1000]);
  return logLogSvg({
    title: "The emulator's dashboard: first paint and first pages in Chromium, and its views over HTTP",
    subtitle: `medians of ${RUNS} runs; a journal of ${JOURNAL} entries; both axes logarithmic; 2 cores`,
    xLabel: "linked accounts in the state (each with a HubSpot config and env values)",
    series: [
      { name: "first paint", color: "#1f77b4", points: of((r) => r.page.fcp) },
      { name: "accounts shown", color: "#2ca02c", points: of((r) => r.page.accounts) },
      { name: "journal shown", color: "#9467bd", points: of((r) => r.page.journal) },
      { name: "GET accounts", color: "#ff7f0e", points: of((r) => r.views["linked accounts, page 1 of 50"].time) },
      {
        name: "GET search",
        color: "#8c564b",
        points: of((r) => r.views["linked accounts, searched (all scanned)"].time),
      },
      { name: "GET journal", color: "#d62728", points: of((r) => r.views["journal, newest 100"].time) },
    ],
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
