// The emulator's dashboard as a person uses it, in Debian's Chromium (harness/browser.ts): each
// action clicks and types in the page, and every answer the page received is kept, so that a test
// can say what reached the browser as well as what it shows.
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../../harness/browser";

/** An open dashboard: the page, and the bodies of every response it received so far. */
export interface DashboardPage {
  page: Page;
  /** The text of every response the page received (its HTML, assets and every view it polled). */
  received(): Promise<string[]>;
  /** Opens a panel: "workspace", "journal", "webhooks" or "control". */
  open(tab: string): Promise<void>;
  /** Adds a fault rule through the form: a status answered `times` times to `method` requests on `path`. */
  addStatusFault(rule: { method: string; path: string; status: number; times: number }): Promise<void>;
  /** Sets the rate limit through the form ("RPS/BURST" or "off"). */
  setRateLimit(limit: string): Promise<void>;
  /** Picks a linked account in the workspace's table, and waits for its configs and env values. */
  showAccount(accountId: string): Promise<void>;
  /** Presses "Reset to the fixture" and accepts the confirmation. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Starts Chromium and opens the dashboard of the emulator at `url` (its base URL). */
export async function openDashboard(url: string): Promise<DashboardPage> {
  const browser: Browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
    const bodies: Promise<string>[] = [];
    page.on("response", (response) => bodies.push(response.text().catch(() => "")));
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${url}/_emulator/`);
    await page.waitForSelector("#accounts tbody tr[data-account]");
    const dashboard: DashboardPage = {
      page,
      received: () => Promise.all(bodies),
      async open(tab) {
        await page.click(`nav.tabs button[data-tab=${tab}]`);
        await page.waitForSelector(`#panel-${tab}:not([hidden])`);
      },
      async addStatusFault({ method, path, status, times }) {
        await dashboard.open("control");
        const form = page.locator("#fault-form");
        await form.locator("select[name=method]").selectOption(method);
        await form.locator("input[name=path]").fill(path);
        await form.locator("select[name=kind]").selectOption("status");
        await form.locator("input[name=status]").fill(String(status));
        await form.locator("input[name=times]").fill(String(times));
        await form.locator("button[type=submit]").click();
        await page.locator("#faults tbody tr[data-rule]", { hasText: path }).waitFor();
      },
      async setRateLimit(limit) {
        await dashboard.open("control");
        await page.locator("#rate-limit-form input[name=rateLimit]").fill(limit);
        await page.locator("#rate-limit-form button[type=submit]").click();
        await page.locator("#message.ok", { hasText: `Rate limit set to ${limit}` }).waitFor();
      },
      async showAccount(accountId) {
        await dashboard.open("workspace");
        await page.locator(`#accounts tr[data-account="${accountId}"] button`).click();
        await page.waitForSelector("#account-detail .config");
      },
      async reset() {
        page.once("dialog", (dialog) => void dialog.accept());
        await page.click("#reset");
        await page.locator("#message.ok", { hasText: "Reset to the fixture" }).waitFor();
      },
      async close() {
        await browser.close();
        if (errors.length > 0) throw new Error(`the dashboard's script failed: ${errors.join("; ")}`);
      },
    };
    return dashboard;
  } catch (error) {
    await browser.close();
    throw error;
  }
}
