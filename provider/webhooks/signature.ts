// A receiver's check of a delivery's signature: `x-cobalt-signature` is the hex HMAC-SHA256 of the
// raw body, keyed with the API key (docs/design/contract.md#webhooks). docs/guides/webhook-receivers.md
// tells a receiver's author why the raw bytes matter.
import { createHmac, timingSafeEqual } from "node:crypto";
import { WEBHOOK_SIGNATURE_HEADER } from "../../contract/webhooks";

/** The bytes a receiver got, exactly as they came off the wire. */
export type RawWebhookBody = Buffer | Uint8Array | string;

/** Why a signature was refused: a short code for programs, and a sentence for people. */
export interface WebhookSignatureProblem {
  /** Machine-readable reason. */
  code: "missing_signature" | "malformed_signature" | "signature_mismatch" | "body_not_raw" | "missing_key";
  /** What went wrong and what to do about it; never contains the key or the body. */
  reason: string;
}

/** The outcome of `checkWebhookSignature`: valid, or the reason it is not. */
export type WebhookSignatureCheck = { valid: true } | ({ valid: false } & WebhookSignatureProblem);

/** Thrown by `verifyWebhookSignature` when a delivery's signature does not hold. */
export class WebhookSignatureError extends Error {
  /** Machine-readable reason, as in `WebhookSignatureProblem`. */
  readonly code: WebhookSignatureProblem["code"];

  /** Wraps a problem found by `checkWebhookSignature`. */
  constructor(problem: WebhookSignatureProblem) {
    super(`webhook signature refused: ${problem.reason}`);
    this.name = "WebhookSignatureError";
    this.code = problem.code;
  }
}

/** The `x-cobalt-signature` value for a body: hex HMAC-SHA256 keyed with the API key. */
export function signWebhookBody(rawBody: RawWebhookBody, apiKey: string): string {
  return createHmac("sha256", apiKey).update(rawBody).digest("hex");
}

/**
 * Checks a delivery's signature against its raw body, in constant time. `signature` is the
 * header's value as received (a string, an array of them, or undefined when absent).
 */
export function checkWebhookSignature(
  rawBody: unknown,
  signature: string | string[] | undefined | null,
  apiKey: string,
): WebhookSignatureCheck {
  const refuse = (code: WebhookSignatureProblem["code"], reason: string): WebhookSignatureCheck => ({
    valid: false,
    code,
    reason,
  });
  if (typeof apiKey !== "string" || apiKey === "") {
    return refuse(
      "missing_key",
      "no API key to check with: pass the key the platform signs with (INTEGRATION_PLATFORM_API_KEY)",
    );
  }
  if (!isRawBody(rawBody)) {
    return refuse(
      "body_not_raw",
      `the body must be the raw bytes received (a Buffer or string), got ${describe(rawBody)}: ` +
        "a parsed and re-serialized JSON body is not the text that was signed; " +
        "read the body raw (e.g. express.raw()) and parse it after the check",
    );
  }
  const header = Array.isArray(signature) ? (signature.length === 1 ? signature[0] : undefined) : signature;
  if (Array.isArray(signature) && signature.length !== 1) {
    return refuse("malformed_signature", `expected one ${WEBHOOK_SIGNATURE_HEADER} header, got ${signature.length}`);
  }
  if (header === undefined || header === null || header === "") {
    return refuse("missing_signature", `the request has no ${WEBHOOK_SIGNATURE_HEADER} header`);
  }
  const received = header.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(received)) {
    return refuse(
      "malformed_signature",
      `${WEBHOOK_SIGNATURE_HEADER} must be 64 hex digits (HMAC-SHA256), got ${header.length} characters`,
    );
  }
  const expected = Buffer.from(signWebhookBody(rawBody, apiKey), "hex");
  if (!timingSafeEqual(expected, Buffer.from(received, "hex"))) {
    return refuse(
      "signature_mismatch",
      "the signature does not match the body: " +
        "the body was changed after signing, or it was signed with another API key",
    );
  }
  return { valid: true };
}

/** Like `checkWebhookSignature`, but throws a `WebhookSignatureError` with the reason when the signature fails. */
export function verifyWebhookSignature(
  rawBody: unknown,
  signature: string | string[] | undefined | null,
  apiKey: string,
): void {
  const check = checkWebhookSignature(rawBody, signature, apiKey);
  if (!check.valid) throw new WebhookSignatureError(check);
}

function isRawBody(value: unknown): value is RawWebhookBody {
  return typeof value === "string" || value instanceof Uint8Array;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
