// The dashboard's screenshots in docs/emulator.md ("Dashboard"): an emulator with some history (a
// workspace of 120 more linked accounts, API calls with a 429 and injected faults, webhook
// deliveries that failed and were retried), each panel opened in Debian's Chromium and captured.
//
//   npx ts-node --transpile-only scripts/dashboard-screenshots.ts [--out docs/images]
import * as fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { Page } from "playwright-core";
import { startEmulator, type RunningEmulator } from "../emulator";
import { launchChromium } from "../harness/browser";
import { seedTenants } from "../harness/tenants";

const { values } = parseArgs({ options: { out: { type: "string", default: "docs/images" } } });
const OUT = path.resolve(values.out);

/** A receiver that answers 500 to a delivery's first attempt and 200 to the next. */
async function flakyReceiver(): Promise<{ server: Server; url: string }> {
  let calls = 0;
  const server = createServer((request, response) => {
    request.resume();
    response.statusCode = calls++ % 2 === 0 ? 500 : 200;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` };
}

/** Some history: what a `pulumi up` and a test's runs leave in the journal and the delivery log. */
async function makeHistory(emulator: RunningEmulator, receiverUrl: string): Promise<void> {
  const api = (method: string, route: string, headers: Record<string, string> = {}, body?: unknown) =>
    fetch(`${emulator.url}/api/v2/public${route}`, {
      method,
      headers: { "x-api-key": emulator.apiKey, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const control = (method: string, route: string, body?: unknown) =>
    fetch(`${emulator.url}/_emulator${route}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const acme = { linked_account_id: "acme" };
  await api("GET", "/linked-account?page=1&limit=100");
  await api("GET", "/slug/hubspot/config/acme", acme);
  await api("PATCH", "/slug/hubspot/config/acme/workflows/wf_hs_deal_alerts", acme, { enabled: true });
  await api(
    "POST",
    "/env/values",
    {},
    { variable_definition_id: "64f0000000000000000000d6", linked_account_id: "acme", value: "750" },
  );
  await control("POST", "/faults", {
    rules: [{ method: "GET", path: "^/api/v2/public/env/", action: { status: 503, retryAfter: 1 }, times: 1 }],
  });
  await api("GET", "/env/values/linked_account?linked_account_id=globex");
  // Past the burst of 5: the rate limit answers 429.
  await Promise.all(Array.from({ length: 7 }, () => api("GET", "/env/definitions")));
  await control("POST", "/faults", {
    rules: [{ path: "^/api/v2/public/audit/", action: { delayMs: 1500 }, probability: 0.1 }],
  });
  await control("POST", "/webhooks/receivers", { url: receiverUrl });
  await control("POST", "/webhooks/receivers", { url: "http://127.0.0.1:9/closed", events: ["errored"] });
  for (const outcome of ["COMPLETED", "ERRORED"])
    await control("POST", "/workflow-runs", {
      linked_account_id: "acme",
      slug: "hubspot",
      workflow_id: "wf_hs_deal_alerts",
      outcome,
    });
  // The deliveries' retries: 50 ms, then 100 and 200 ms (the emulator's backoff below).
  const deadline = Date.now() + 10_000;
  while (emulator.webhooks.pending > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

async function shoot(page: Page, tab: string, ready: string, file: string, before?: () => Promise<void>) {
  await page.click(`nav.tabs button[data-tab=${tab}]`);
  await page.waitForSelector(ready);
  await before?.();
  // One poll more, so that the counts in the header are the latest.
  await page.waitForTimeout(2_200);
  await page.screenshot({ path: path.join(OUT, file), fullPage: true });
  console.log(`wrote ${path.relative(process.cwd(), path.join(OUT, file))}`);
}

async function main(): Promise<void> {
  fs.mkdirSync(OUT, { recursive: true });
  const receiver = await flakyReceiver();
  const emulator = await startEmulator({ quiet: true, webhooks: { backoffMs: 50, timeoutMs: 500 } });
  const browser = await launchChromium();
  try {
    await seedTenants(emulator, "tenant", 120, { existingSetup: true });
    await makeHistory(emulator, receiver.url);
    const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
    await page.goto(`${emulator.url}/_emulator/`);
    await page.waitForSelector("#accounts tbody tr[data-account]");
    await shoot(page, "workspace", "#accounts tbody tr[data-account]", "dashboard-workspace.png", async () => {
      await page.click("#accounts tr[data-account=acme] button");
      await page.waitForSelector("#account-detail .config");
    });
    await shoot(page, "journal", "#journal tbody tr[data-seq]", "dashboard-journal.png");
    await shoot(page, "webhooks", "#deliveries tbody tr[data-delivery]", "dashboard-webhooks.png");
    await shoot(page, "control", "#faults tbody tr[data-rule]", "dashboard-control.png");
  } finally {
    await browser.close();
    await emulator.close();
    receiver.server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
