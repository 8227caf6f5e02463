// How the platform signs a delivery, written from its description (docs/design/contract.md#webhooks):
// the hex HMAC-SHA256 of the raw body, keyed with the API key. Not borrowed from the receivers' check
// (provider/webhooks), so that a mistake in either one fails the tests that pit them against each other.
import { createHmac } from "node:crypto";

/** The `x-cobalt-signature` value the platform sends with `body`: lower-case hex of HMAC-SHA256 keyed with `apiKey`. */
export function signDelivery(body: string, apiKey: string): string {
  return createHmac("sha256", Buffer.from(apiKey, "utf8")).update(Buffer.from(body, "utf8")).digest("hex");
}
