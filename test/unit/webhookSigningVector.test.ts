// The emulator signs deliveries with its own code and receivers check them with the package's
// (docs/design/contract.md#webhooks): each is held against HMAC-SHA256's published test vector,
// so that a mistake both made alike could not pass by agreeing with the other.
import * as assert from "node:assert/strict";
import { signDelivery } from "../../emulator/webhookSigning";
import { checkWebhookSignature, signWebhookBody } from "../../provider/webhooks";

/** RFC 4231, test case 2: HMAC-SHA256 of "what do ya want for nothing?" keyed with "Jefe". */
const VECTOR = {
  key: "Jefe",
  body: "what do ya want for nothing?",
  hex: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
};

describe("webhook signatures against HMAC-SHA256's published test vector", () => {
  it("the emulator signs a delivery as the vector says", () => {
    assert.equal(signDelivery(VECTOR.body, VECTOR.key), VECTOR.hex);
  });

  it("the receivers' signing and check agree with the vector", () => {
    assert.equal(signWebhookBody(VECTOR.body, VECTOR.key), VECTOR.hex);
    assert.deepEqual(checkWebhookSignature(VECTOR.body, VECTOR.hex, VECTOR.key), { valid: true });
  });
});
