// Records real webhook deliveries from the emulator, for the signature checks in Python, Go and Java
// (webhooks/): each is the exact body a receiver got, its x-cobalt-signature and the key it was signed
// with. The checks' tests read webhooks/testdata/deliveries.json, or the file WEBHOOK_DELIVERIES names,
// which test/emulator/webhookChecks.test.ts records fresh with recordWebhookDeliveries on every run.
//
//   npx ts-node --transpile-only scripts/record-webhook-deliveries.ts [--out webhooks/testdata/deliveries.json]
import * as fs from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { Command } from "commander";
import { startEmulator, type RunningEmulator } from "../emulator";

/**
 * The header the platform signs in (contract/webhooks.ts's WEBHOOK_SIGNATURE_HEADER), written out:
 * the scripts import the emulator and the harness, not the contract (docs/design/imports.md).
 */
const SIGNATURE_HEADER = "x-cobalt-signature";

/** One delivery as a receiver got it: the key it was signed with, the body's exact text, and the header. */
export interface RecordedDelivery {
  apiKey: string;
  body: string;
  signature: string;
}

/** Where the checks' tests find the committed recording. */
export const DEFAULT_DELIVERIES_FILE = path.join(__dirname, "..", "webhooks", "testdata", "deliveries.json");

/**
 * The keys the emulators sign with: the default one, and one longer than SHA-256's 64-byte block,
 * which HMAC hashes before use, so that a check that skips that step fails on it.
 */
const KEYS = ["tk_emulator", `tk_live_${"0123456789abcdef".repeat(5)}`];

/** A workflow name with what a byte-exact check must survive: JSON escapes, accents, and a character beyond the BMP. */
const NON_ASCII_NAME = 'Sync "contacts" → CRM, été 🚀';

/** How long the deliveries of one emulator may take to arrive. */
const ARRIVAL_TIMEOUT_MS = 10_000;

/** A node:http receiver on 127.0.0.1 that keeps each request's raw body and signature header, and answers 204. */
async function startRecorder(): Promise<{
  url: string;
  received: { raw: Buffer; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}> {
  const received: { raw: Buffer; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ raw: Buffer.concat(chunks), headers: request.headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Asks for runs that end each of the four ways, one with a non-ASCII name; returns each run's final status by id. */
async function runAllEvents(emulator: RunningEmulator): Promise<Map<string, string>> {
  const config = emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
  for (const workflow of ["wf_hs_contact_sync", "wf_hs_deal_alerts"])
    emulator.store.configs.workflowState(config, workflow).enabled = true;
  // The fixture's names are ASCII; a user's may not be, and the payload carries it as UTF-8.
  emulator.store.applications.find("hubspot")!.workflows.find((w) => w.id === "wf_hs_contact_sync")!.name =
    NON_ASCII_NAME;
  const run = (workflow_id: string, outcome: string, delay_ms = 0) =>
    emulator.runs.start({ linked_account_id: "acme", slug: "hubspot", workflow_id, outcome, delay_ms });
  const runs = [
    await run("wf_hs_contact_sync", "completed"),
    await run("wf_hs_deal_alerts", "errored"),
    await run("wf_hs_deal_alerts", "timed_out"),
    // A stop ends a running run; this one would otherwise run for a minute.
    await run("wf_hs_contact_sync", "completed", 60_000),
  ];
  await emulator.runs.stop(runs[3].instance_id);
  return new Map(runs.map((r) => [r.instance_id, r.status]));
}

/**
 * Starts an emulator per signing key, in-process, with a receiver registered; asks for runs that end
 * each of the four ways; and returns every delivery the receivers got, byte for byte.
 */
export async function recordWebhookDeliveries(): Promise<RecordedDelivery[]> {
  const deliveries: RecordedDelivery[] = [];
  for (const apiKey of KEYS) {
    const recorder = await startRecorder();
    const emulator = await startEmulator({
      quiet: true,
      apiKey,
      webhooks: { receivers: [recorder.url], backoffMs: 50 },
    });
    try {
      const runs = await runAllEvents(emulator);
      const deadline = Date.now() + ARRIVAL_TIMEOUT_MS;
      while (recorder.received.length < runs.size || emulator.webhooks.pending > 0) {
        if (Date.now() > deadline)
          throw new Error(
            `the receiver got ${recorder.received.length} of ${runs.size} deliveries in ${ARRIVAL_TIMEOUT_MS} ms`,
          );
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const got = recorder.received.map(({ raw, headers }) => recorded(apiKey, raw, headers));
      // One delivery per run, saying how it ended: the four ways, COMPLETED, ERRORED, TIMED_OUT and STOPPED.
      const reported = got.map((d) => JSON.parse(d.body) as { instance_id: string; status: string });
      const asked = [...runs].map(([id, status]) => `${id} ${status}`).sort();
      if (JSON.stringify(reported.map((p) => `${p.instance_id} ${p.status}`).sort()) !== JSON.stringify(asked))
        throw new Error(`the deliveries do not report the runs asked for, one each: ${asked.join(", ")}`);
      deliveries.push(...got);
    } finally {
      await emulator.close();
      await recorder.close();
    }
  }
  return deliveries;
}

/** One received request as a recording; the file holds the body as text, so it must be UTF-8 that survives the trip. */
function recorded(apiKey: string, raw: Buffer, headers: IncomingHttpHeaders): RecordedDelivery {
  const body = raw.toString("utf8");
  if (!Buffer.from(body, "utf8").equals(raw)) throw new Error("a delivery's body is not valid UTF-8");
  const signature = headers[SIGNATURE_HEADER];
  if (typeof signature !== "string") throw new Error(`a delivery came without one ${SIGNATURE_HEADER} header`);
  return { apiKey, body, signature };
}

/** Writes deliveries as the checks' tests read them: a JSON array of {apiKey, body, signature}. */
export function writeDeliveries(file: string, deliveries: RecordedDelivery[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(deliveries, null, 2)}\n`);
}

if (require.main === module) {
  const options = new Command()
    .name("record-webhook-deliveries.ts")
    .description("Records real, signed webhook deliveries from the emulator for the Python, Go and Java checks' tests.")
    .option("--out <file>", "the file to write", path.relative(process.cwd(), DEFAULT_DELIVERIES_FILE))
    .parse()
    .opts<{ out: string }>();
  recordWebhookDeliveries().then(
    (deliveries) => {
      writeDeliveries(options.out, deliveries);
      console.log(`record-webhook-deliveries: ${deliveries.length} deliveries written to ${options.out}`);
    },
    (error: Error) => {
      console.error(`record-webhook-deliveries: ${error.message}`);
      process.exit(1);
    },
  );
}
