// Constructing a resource turns off the stack traces the SDK formats for each promise it makes
// (provider/dynamic/resourceClass.ts, and the generated TypeScript SDK's constructors by
// scripts/gen-sdk.sh): the program's own setting must come back whatever happens, and what reaches
// the engine must not change. Run against Pulumi's mocks.
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

  it("formats no stack frame while the SDK registers it: neither the dynamic class nor the generated SDK's", async () => {
    // The generated SDK's source, as its package compiles it (required, not imported: it is not
    // part of this project's type check).
    const sdk = require("../../sdk/nodejs/configField") as { ConfigField: new (name: string, args: object) => object };
    for (const [which, construct] of [
      ["the dynamic class", () => new ConfigField("acme-pipeline", args)],
      ["the generated SDK", () => new sdk.ConfigField("acme-pipeline", args)],
    ] as const) {
      let withFrames = 0;
      let formats = 0;
      const original = Error.prepareStackTrace;
      await registrations(() => {
        // Counts what the SDK formats synchronously in the constructor, where its promises are made.
        Error.prepareStackTrace = (error, stack) => {
          formats += 1;
          if (stack.length > 0) withFrames += 1;
          return original ? original(error, stack) : `${error}`;
        };
        try {
          construct();
        } finally {
          Error.prepareStackTrace = original;
        }
      });
      assert.ok(formats > 0, `${which}: the SDK made its promises (${formats} stacks asked for)`);
      // The one with frames is the resource's source position, which the SDK takes with a limit of its own.
      assert.equal(withFrames, 1, `${which}: one stack formatted with frames, of ${formats}`);
      assert.equal(Error.stackTraceLimit, 17, `${which}: the program's limit is back`);
    }
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
