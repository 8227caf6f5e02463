// The signature check a receiver's author imports: what it accepts, and the reason it gives for
// everything it refuses (never the key).
import * as assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import {
  checkWebhookSignature,
  parseWebhookPayload,
  signWebhookBody,
  verifyWebhookSignature,
  WebhookSignatureError,
  type WebhookSignatureCheck,
} from "../../provider/webhooks";

const KEY = "tk_signing_key";
const BODY =
  '{"linked_account_id":"acme","instance_id":"i-1","workflow_id":"wf","config_id":"acme","event":"Workflow Completed","workflow_name":"Sync","status":"COMPLETED"}';
// Computed independently of the module: the facts' definition, hex HMAC-SHA256 of the raw body.
const SIGNATURE = createHmac("sha256", KEY).update(BODY).digest("hex");

const codeOf = (check: WebhookSignatureCheck) => (check.valid ? "valid" : check.code);

describe("webhook signatures (pulumi-integration-platform/webhooks)", () => {
  it("signs as the platform does: hex HMAC-SHA256 of the raw body keyed with the API key", () => {
    assert.equal(signWebhookBody(BODY, KEY), SIGNATURE);
  });

  it("accepts the raw body as a Buffer, a Uint8Array or a string, and the header in any case of hex", () => {
    for (const body of [Buffer.from(BODY), new Uint8Array(Buffer.from(BODY)), BODY]) {
      assert.equal(codeOf(checkWebhookSignature(body, SIGNATURE, KEY)), "valid");
    }
    assert.equal(codeOf(checkWebhookSignature(BODY, SIGNATURE.toUpperCase(), KEY)), "valid");
    assert.equal(codeOf(checkWebhookSignature(BODY, [SIGNATURE], KEY)), "valid");
    assert.doesNotThrow(() => verifyWebhookSignature(BODY, SIGNATURE, KEY));
  });

  it("refuses a parsed body, naming the trap: the re-serialized JSON is not what was signed", () => {
    const parsed = JSON.parse(BODY);
    const check = checkWebhookSignature(parsed, SIGNATURE, KEY);
    assert.equal(codeOf(check), "body_not_raw");
    assert.match(
      check.valid ? "" : check.reason,
      /must be the raw bytes received .* got an object: a parsed and re-serialized JSON body is not the text that was signed/,
    );
    // The trap itself: the same JSON with other whitespace is other bytes, and fails.
    assert.equal(codeOf(checkWebhookSignature(JSON.stringify(parsed, null, 2), SIGNATURE, KEY)), "signature_mismatch");
  });

  it("refuses a changed body, another key, a missing, malformed or repeated header, and no key", () => {
    assert.equal(
      codeOf(checkWebhookSignature(BODY.replace("COMPLETED", "ERRORED"), SIGNATURE, KEY)),
      "signature_mismatch",
    );
    assert.equal(codeOf(checkWebhookSignature(BODY, SIGNATURE, "tk_other")), "signature_mismatch");
    assert.equal(codeOf(checkWebhookSignature(BODY, undefined, KEY)), "missing_signature");
    assert.equal(codeOf(checkWebhookSignature(BODY, "", KEY)), "missing_signature");
    assert.equal(codeOf(checkWebhookSignature(BODY, "sha256=" + SIGNATURE, KEY)), "malformed_signature");
    assert.equal(codeOf(checkWebhookSignature(BODY, SIGNATURE.slice(1), KEY)), "malformed_signature");
    assert.equal(codeOf(checkWebhookSignature(BODY, [SIGNATURE, SIGNATURE], KEY)), "malformed_signature");
    assert.equal(codeOf(checkWebhookSignature(BODY, SIGNATURE, "")), "missing_key");
  });

  it("verifyWebhookSignature throws a WebhookSignatureError with the code and the reason, never the key", () => {
    assert.throws(
      () => verifyWebhookSignature(BODY, signWebhookBody(BODY, "tk_other"), KEY),
      (error: unknown) =>
        error instanceof WebhookSignatureError &&
        error.code === "signature_mismatch" &&
        /^webhook signature refused: the signature does not match the body/.test(error.message) &&
        !error.message.includes(KEY),
    );
  });

  it("parses a checked body into the payload, and names the property that does not fit", () => {
    assert.equal(parseWebhookPayload(Buffer.from(BODY)).status, "COMPLETED");
    assert.throws(() => parseWebhookPayload(BODY.replace('"COMPLETED"', '"DONE"')), /webhook body: status: /);
    assert.throws(() => parseWebhookPayload("{"), /webhook body is not JSON/);
  });
});
