// A real browser for the dashboard's test, its screenshots and its benchmark: Debian's Chromium,
// driven by playwright-core, which downloads no browser of its own. .ci/run installs Chromium.
import * as fs from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Where Debian's package puts Chromium; PULUMI_IP_CHROMIUM names another build. */
export const CHROMIUM = process.env.PULUMI_IP_CHROMIUM ?? "/usr/bin/chromium";

/**
 * Headless, and quiet on the network: without the background-networking flags Chromium calls
 * Google's services at start, which this project's machines cannot reach (and a test must not).
 */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Starts Chromium; fails, saying how to install it, when it is not there (a test must not skip for that). */
export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not at ${CHROMIUM}: install Debian's with \`apt-get install -y --no-install-recommends chromium\` ` +
        "(.ci/run does), or set PULUMI_IP_CHROMIUM to another build",
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
