import { describe, it } from "mocha";
import { strict as assert } from "node:assert";
import { FIXTURE } from "../../harness/fixture";
import { assertError, ok, refillRateLimit, useEmulatorClients } from "../support/emulatorClients";

const EVENT = FIXTURE.events[1];
const SAMPLE = { user: { id: "u1", address: { city: "Paris", zip: 75001 } }, tags: ["a", "b"], active: true };
const STRUCTURE = [
  { key: "user", type: "object" },
  { key: "user.id", type: "text" },
  { key: "user.address", type: "object" },
  { key: "user.address.city", type: "text" },
  { key: "user.address.zip", type: "text" },
  { key: "tags", type: "text" },
  { key: "active", type: "text" },
];

describe("emulator: PUT /application/event/:event_id", () => {
  const h = useEmulatorClients();
  const putEvent = (id: string, body: unknown) => h.api.put(`/application/event/${id}`, body);

  it("derives the declared structure from an object sample and returns every event", async () => {
    const events = ok(await putEvent(EVENT, { name: "deal.closed", response: SAMPLE }));
    assert.deepEqual(
      events.map((e: { _id: string }) => e._id),
      FIXTURE.events,
    );
    const updated = events.find((e: { _id: string }) => e._id === EVENT);
    assert.deepEqual(updated, {
      _id: EVENT,
      name: "deal.closed",
      response: STRUCTURE,
      raw_response: JSON.stringify(SAMPLE),
    });
    assert.deepEqual(Object.keys(events[0]), ["_id", "name", "response", "raw_response"]);
    assert.equal(h.emulator.store.applicationEvents.find(EVENT)!.name, "deal.closed");
  });

  it("accepts the sample as a JSON-encoded string", async () => {
    const events = ok(await putEvent(EVENT, { name: "deal.closed", response: JSON.stringify(SAMPLE) }));
    assert.deepEqual(events.find((e: { _id: string }) => e._id === EVENT).response, STRUCTURE);
  });

  it("writes an APPLICATION_EVENT_UPDATED audit entry", async () => {
    ok(await putEvent(EVENT, { name: "deal.closed", response: {} }));
    const [entry] = ok(await h.api.get("/audit/event-received")).docs;
    assert.equal(entry.event_type, "APPLICATION_EVENT_UPDATED");
    assert.equal(entry.resource_id, EVENT);
  });

  it("400 naming response for a string that is not a JSON object, an array or a missing sample", async () => {
    for (const response of ["{not json", "[1,2]", "42", [1, 2], null]) {
      assertError(
        await putEvent(EVENT, { name: "x", response }),
        400,
        "VALIDATION_ERROR",
        "response: must be a JSON object",
      );
    }
    refillRateLimit(h);
    assertError(await putEvent(EVENT, { name: "x" }), 400, "VALIDATION_ERROR", "response: required");
  });

  it("400 naming name when it is missing or not a string", async () => {
    assertError(await putEvent(EVENT, { response: {} }), 400, "VALIDATION_ERROR", "name: required (expected string)");
    assertError(
      await putEvent(EVENT, { name: 3, response: {} }),
      400,
      "VALIDATION_ERROR",
      "name: expected string, received number",
    );
  });

  it("404 RESOURCE_NOT_FOUND 'Event not found' for an unknown event", async () => {
    const res = await putEvent("64f0000000000000000000ff", { name: "x", response: {} });
    assertError(res, 404, "RESOURCE_NOT_FOUND");
    assert.equal(res.data.message, "Event not found");
    assert.equal(res.data.http_error_type, "NOT_FOUND");
  });
});
