// LinkedAccountSetup's two forms declare the same children: the TypeScript component of the dynamic
// package and the native plugin's (what Construct runs for Python, Go, Java, YAML and the generated
// TypeScript SDK). Same names and inputs, so a stack moves between them with no write
// (docs/guides/moving-to-native.md). Run against Pulumi's mocks, which record every registration.
import * as assert from "node:assert/strict";
import * as pulumi from "@pulumi/pulumi";
import { LinkedAccountSetup } from "../../provider/components/linkedAccountSetup";
import { declareSetup } from "../../provider/native/construct";
import { typeNameOf } from "../../provider/typeTokens";
import { registrations, type Registered } from "../support/mocks";

/** Each child as [type name, name, inputs], whichever family its token is of; the component left out. */
const children = (registered: Registered[]) =>
  registered
    .filter((r) => !r.type.endsWith(":LinkedAccountSetup"))
    .map((r) => [typeNameOf(r.type), r.name, r.inputs] as const)
    .sort((a, b) => a[1].localeCompare(b[1]));

const INPUTS = {
  linkedAccountId: "acme",
  slug: "hubspot",
  fields: [
    { fieldId: "hs_pipeline", name: "Deals pipeline", restoreOnDelete: { name: "Sales pipeline" } },
    { fieldId: "hs_contact_owner", workflowId: "wf_hs_contact_sync", labels: [{ name: "team", value: "sales" }] },
  ],
  workflows: {
    wf_hs_contact_sync: { enabled: true },
    wf_hs_deal_alerts: { enabled: false, restoreOnDelete: true },
  },
  envValues: [
    { definitionId: "64f0000000000000000000d5", value: "gold", retainOnDelete: true, adoptEncryptedValue: false },
    { definitionId: "64f0000000000000000000d7", workflowId: "wf_hs_contact_sync", value: "https://hooks.example" },
  ],
};

describe("LinkedAccountSetup: the native component and the TypeScript one", () => {
  it("declare the same children, under the same names, with the same inputs", async () => {
    const dynamic = await registrations(() => {
      new LinkedAccountSetup("acme-hubspot", INPUTS);
    });
    const native = await registrations(() => {
      void declareSetup("acme-hubspot", INPUTS, {}, "0.0.0");
    });
    assert.equal(children(native).length, 6);
    assert.deepEqual(children(native), children(dynamic));
    assert.deepEqual(
      native.filter((r) => r.type.endsWith(":LinkedAccountSetup")).map((r) => r.type),
      ["integration-platform:index:LinkedAccountSetup"],
    );
  });

  it("the native one has the SDK format no stack for the promises it makes while it constructs each resource", async () => {
    // As the dynamic classes and the generated SDK do (registration.test.ts): a stack with frames that passes
    // through the plugin's construct code and the SDK's debuggablePromise is one formatted in a constructor.
    let formats = 0;
    let inConstructors = 0;
    const original = Error.prepareStackTrace;
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 17;
    Error.prepareStackTrace = (error, stack) => {
      formats += 1;
      const frames = stack.map((site) => `${site.getFunctionName()} ${site.getFileName()}`);
      if (frames.some((f) => /native[/\\]construct/.test(f)) && frames.some((f) => f.startsWith("debuggablePromise ")))
        inConstructors += 1;
      return original ? original(error, stack) : `${error}`;
    };
    let after: number;
    try {
      await registrations(() => {
        void declareSetup("acme-hubspot", INPUTS, {}, "0.0.0");
      });
    } finally {
      Error.prepareStackTrace = original;
      after = Error.stackTraceLimit;
      Error.stackTraceLimit = limit;
    }
    assert.ok(formats > 0, `the SDK made its promises (${formats} stacks asked for)`);
    assert.equal(inConstructors, 0, `stacks formatted in the constructors, of ${formats}`);
    assert.equal(after, 17, "the limit is back");
  });

  it("the native one takes entries given as Outputs, as a call from another language sends them", async () => {
    const plain = await registrations(() => {
      void declareSetup("acme-hubspot", INPUTS, {}, "0.0.0");
    });
    const outputs = await registrations(() => {
      void declareSetup(
        "acme-hubspot",
        { ...INPUTS, fields: pulumi.output(INPUTS.fields), envValues: pulumi.secret(INPUTS.envValues) },
        {},
        "0.0.0",
      );
    });
    assert.deepEqual(children(outputs), children(plain));
  });

  for (const [what, inputs, message] of [
    [
      "a field listed twice",
      { ...INPUTS, fields: [{ fieldId: "hs_pipeline" }, { fieldId: "hs_pipeline" }] },
      /LinkedAccountSetup acme-hubspot: field hs_pipeline is listed twice/,
    ],
    [
      "an env value without its definition",
      { ...INPUTS, envValues: [{ value: "x" }] },
      /envValues\[0\]\.definitionId must be a non-empty string known at preview: it names the child resource/,
    ],
    [
      "a field id that is unknown at preview",
      { ...INPUTS, fields: [{ fieldId: pulumi.output(pulumi.unknown) }] },
      /fields\[0\]\.fieldId must be a non-empty string known at preview/,
    ],
    [
      "retainOnDelete that is not true or false",
      { ...INPUTS, envValues: [{ definitionId: "d", value: "x", retainOnDelete: "yes" }] },
      /envValues\[0\]\.retainOnDelete must be true or false/,
    ],
  ] as const) {
    it(`the native one refuses ${what}, naming the property`, async () => {
      let failure: unknown;
      await registrations(() => {
        declareSetup("acme-hubspot", inputs as Record<string, unknown>, {}, "0.0.0").catch(
          (error) => (failure = error),
        );
      });
      assert.match(String(failure), message);
    });
  }
});
