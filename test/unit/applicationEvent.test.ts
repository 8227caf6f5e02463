import * as assert from "node:assert/strict";
import { NotFoundError } from "../../provider";
import { UNKNOWN } from "../../provider/resources/inputs";
import { provider, rejection, startRun, useProviderAgainstEmulator, writes } from "../support/provider";
import { FIXTURE } from "../../harness/fixture";

const event = provider("ApplicationEvent");
const DEAL_WON = FIXTURE.events[1];
const SAMPLE = { deal: { id: "d_1", amount: 1200, currency: "EUR" }, owner: "ada" };

describe("ApplicationEvent provider", () => {
  const ctx = useProviderAgainstEmulator();

  it("check refuses a response that is not an object, and a blank name, without a request", async () => {
    const result = await event.check({}, { eventId: DEAL_WON, name: " ", response: [1, 2] });
    assert.deepEqual(result.failures, [
      { property: "name", reason: "must not be empty" },
      { property: "response", reason: "must be an object (a sample of the event's response), not a list" },
    ]);
    assert.deepEqual(
      (await event.check({}, { eventId: DEAL_WON, name: "x", restoreOnDelete: { name: "x" } })).failures,
      [
        { property: "response", reason: "is required" },
        { property: "restoreOnDelete", reason: "response: is required" },
      ],
    );
    assert.deepEqual((await event.check({}, { eventId: UNKNOWN, name: "x", response: { a: UNKNOWN } })).failures, []);
    assert.equal(ctx.emulator.requests.list().length, 0);
  });

  it("declares the keys with dot paths and the raw sample, and restores `restoreOnDelete`", async () => {
    const original = ctx.emulator.store.applicationEvents.find(DEAL_WON)!;
    const restoreOnDelete = { name: original.name, response: JSON.parse(original.raw_response) };
    const created = await event.create({ eventId: DEAL_WON, name: "deal.closed", response: SAMPLE, restoreOnDelete });
    assert.equal(created.id, DEAL_WON);
    assert.deepEqual(created.outs.declaredKeys, [
      { key: "deal", type: "object" },
      { key: "deal.id", type: "text" },
      { key: "deal.amount", type: "text" },
      { key: "deal.currency", type: "text" },
      { key: "owner", type: "text" },
    ]);
    assert.equal(created.outs.rawResponse, JSON.stringify(SAMPLE));
    assert.equal(ctx.emulator.store.applicationEvents.find(DEAL_WON)!.name, "deal.closed");

    // No read operation exists: refresh keeps the state as it is.
    const { declaredKeys: _keys, rawResponse: _raw, ...inputs } = created.outs;
    assert.deepEqual(await event.read(created.id, created.outs), { id: created.id, props: created.outs, inputs });

    const updated = await event.update(created.id, created.outs, { ...created.outs, name: "deal.won.v2" });
    assert.equal(ctx.emulator.store.applicationEvents.find(DEAL_WON)!.name, "deal.won.v2");

    startRun(ctx.emulator); // the delete comes from a later `pulumi` run

    await event.delete(created.id, updated.outs);
    const after = ctx.emulator.store.applicationEvents.find(DEAL_WON)!;
    assert.equal(after.name, original.name);
    assert.deepEqual(JSON.parse(after.raw_response), restoreOnDelete.response);
  });

  it("leaves the event as declared on delete when nothing is declared to restore", async () => {
    const created = await event.create({ eventId: DEAL_WON, name: "deal.closed", response: SAMPLE });
    const before = writes(ctx.emulator).length;
    startRun(ctx.emulator); // the delete comes from a later `pulumi` run
    await event.delete(created.id, created.outs);
    assert.equal(writes(ctx.emulator).length, before, "delete makes no request");
    assert.equal(ctx.emulator.store.applicationEvents.find(DEAL_WON)!.name, "deal.closed");
  });

  it("diff replaces for another event id and updates the rest in place", async () => {
    const olds = { eventId: "e1", name: "a", response: { x: 1 }, declaredKeys: [], rawResponse: "{}" };
    assert.deepEqual(await event.diff("e1", olds, { eventId: "e1", name: "a", response: { x: 1 } }), {
      changes: false,
      replaces: [],
    });
    assert.deepEqual(await event.diff("e1", olds, { eventId: "e1", name: "a", response: { x: 2 } }), {
      changes: true,
      replaces: [],
    });
    assert.deepEqual((await event.diff("e1", olds, { eventId: "e2", name: "a", response: { x: 1 } })).replaces, [
      "eventId",
    ]);
  });

  it("gives NotFoundError for an unknown event", async () => {
    const error = await rejection(event.create({ eventId: "64f0000000000000000000ff", name: "x", response: {} }));
    assert.ok(error instanceof NotFoundError);
    assert.match(error.message, /^404 from PUT \/application\/event\/64f0000000000000000000ff: Event not found/);
  });
});
