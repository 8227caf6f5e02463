// A webhook receiver for the platform's workflow events, with nothing but Node.js and the
// package's signature check. docs/guides/webhook-receivers.md walks through it; the e2e suite
// (test/e2e/webhooks.test.ts) runs it against the emulator.
import { createServer, type Server } from "node:http";
import {
  parseWebhookPayload,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookPayload,
} from "pulumi-integration-platform/webhooks";

/** What the receiver needs: the API key deliveries are signed with, and what to do with each event. */
export interface ReceiverOptions {
  apiKey: string;
  onEvent: (payload: WebhookPayload) => void | Promise<void>;
}

/** The largest body accepted; the platform's payload is a few hundred bytes. */
const MAX_BODY_BYTES = 64 * 1024;

/** An HTTP server that answers 204 to a signed event, 401 to a bad signature, 400 to a bad body. */
export function createWebhookReceiver({ apiKey, onEvent }: ReceiverOptions): Server {
  return createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) request.destroy();
      else chunks.push(chunk);
    });
    request.on("end", async () => {
      // The raw bytes, exactly as received: the signature covers them, not a re-serialized object.
      const rawBody = Buffer.concat(chunks);
      try {
        verifyWebhookSignature(rawBody, request.headers[WEBHOOK_SIGNATURE_HEADER], apiKey);
      } catch (error) {
        response.writeHead(401, { "content-type": "text/plain" }).end(`${(error as Error).message}\n`);
        return;
      }
      let payload: WebhookPayload;
      try {
        payload = parseWebhookPayload(rawBody);
      } catch (error) {
        response.writeHead(400, { "content-type": "text/plain" }).end(`${(error as Error).message}\n`);
        return;
      }
      try {
        await onEvent(payload);
        response.writeHead(204).end();
      } catch {
        // A non-2xx answer makes the platform retry the delivery (up to 3 times).
        response.writeHead(500).end();
      }
    });
  });
}

// Run by hand: `INTEGRATION_PLATFORM_API_KEY=tk_emulator npx ts-node receiver.ts` listens on 3000.
if (require.main === module) {
  const apiKey = process.env.INTEGRATION_PLATFORM_API_KEY;
  if (!apiKey) {
    process.stderr.write("set INTEGRATION_PLATFORM_API_KEY to the API key the platform signs with\n");
    process.exit(2);
  }
  const port = Number(process.env.PORT ?? 3000);
  createWebhookReceiver({
    apiKey,
    onEvent: (event) =>
      console.log(
        `${event.event}: workflow ${event.workflow_id} for ${event.linked_account_id} (run ${event.instance_id})`,
      ),
  }).listen(port, "127.0.0.1", () => console.log(`webhook receiver listening on http://127.0.0.1:${port}/`));
}
