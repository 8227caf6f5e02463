// Constructing a resource turns off the stack traces the SDK formats for each promise it makes
// (provider/dynamic/resourceClass.ts): the program's own setting must come back whatever happens,
// and what reaches the engine must not change. Run against Pulumi's mocks.
import * as assert from "node:assert/strict";
import { ConfigField } from "../../provider/dynamic/registry";
import { TYPE } from "../../harness/fixture";
import { registrations } from "../support/mocks";

describe("registering a resource", () => {
  const args = {
    slug: "hubspot",
    linkedAccountId: "acme",
    configId: "acme",
    fieldId: "hs_pipeline",
    name: "Deals pipeline",
  };
  let before: number;
  beforeEach(() => {
    before = Error.stackTraceLimit;
    Error.stackTraceLimit = 17;
  });
  afterEach(() => {
    Error.stackTraceLimit = before;
  });

  it("leaves the program's Error.stackTraceLimit as it was, and registers the same inputs", async () => {
    const seen: number[] = [];
    const registered = await registrations(() => {
      new ConfigField("acme-pipeline", args);
      seen.push(Error.stackTraceLimit);
    });
    assert.deepEqual(seen, [17]);
    assert.deepEqual(registered, [{ type: TYPE("ConfigField"), name: "acme-pipeline", inputs: args }]);
  });

  it("gives it back when the SDK refuses the resource, and the error keeps its stack", async () => {
    let caught: Error | undefined;
    await registrations(() => {
      try {
        new ConfigField("", args);
      } catch (error) {
        caught = error as Error;
      }
    });
    assert.equal(Error.stackTraceLimit, 17);
    assert.match(String(caught?.message), /Missing resource name/);
    assert.match(String(caught?.stack), /registration\.test\.ts/, "the user's line is in the stack");
  });
});
