// Validation at preview: a changed field, toggle or env value is checked against the platform as
// `up` would find it, at one read per config (shared) and one listing of definitions per command;
// an unchanged one costs nothing. Observed through the providers' checks and the emulator's log.
import * as assert from "node:assert/strict";
import { UNKNOWN } from "../../provider/resources/inputs";
import { FIXTURE } from "../../harness/fixture";
import { provider, rejection, startRun, useProviderAgainstEmulator, writes } from "../support/provider";

const field = provider("ConfigField");
const toggle = provider("WorkflowToggle");
const envValue = provider("EnvVariableValue");

const ACME = { slug: "hubspot", linkedAccountId: "acme", configId: "acme" };
const PIPELINE = { ...ACME, fieldId: "hs_pipeline", name: "Pipeline" };
const CONTACT_SYNC = { ...ACME, workflowId: "wf_hs_contact_sync", enabled: true };

describe("Validation at preview", () => {
  const ctx = useProviderAgainstEmulator();
  const reads = () => ctx.emulator.requests.list().map((r) => `${r.method} ${r.path}`);

  it("passes what exists, with one read of the config for all its fields and toggles", async () => {
    const results = await Promise.all([
      field.check({}, PIPELINE),
      field.check({}, { ...PIPELINE, fieldId: "hs_sync_limit" }),
      toggle.check({}, CONTACT_SYNC),
    ]);
    assert.deepEqual(
      results.map((r) => r.failures),
      [[], [], []],
    );
    assert.deepEqual(reads(), ["GET /api/v2/public/slug/hubspot/config/acme"]);
  });

  it("names a field id that is not in the config", async () => {
    const { failures } = await field.check({}, { ...PIPELINE, fieldId: "hs_pipline" });
    assert.deepEqual(failures, [
      {
        property: "fieldId",
        reason:
          'config "acme" (app "hubspot", linked account "acme") has no field "hs_pipline" global to the app: check fieldId and workflowId',
      },
    ]);
  });

  it("checks a value against its field: a number field's text, a select's unknown option, a required field's empty value; nothing written", async () => {
    const value = async (fieldId: string, value: unknown) =>
      (await field.check({}, { ...ACME, fieldId, value })).failures?.map((f) => [f.property, f.reason]);
    assert.deepEqual(await value("hs_sync_limit", "25"), [
      [
        "value",
        'in config "acme" (app "hubspot", linked account "acme"), field "hs_sync_limit" is a number field: give a number (e.g. 25, not the text "25"): check value',
      ],
    ]);
    assert.deepEqual(await value("hs_pipeline", "partners"), [
      [
        "value",
        'in config "acme" (app "hubspot", linked account "acme"), field "hs_pipeline" is a select field and the value is not one of its options\' values: "sales", "support": check value',
      ],
    ]);
    assert.deepEqual(await value("hs_api_domain", ""), [
      [
        "value",
        'in config "acme" (app "hubspot", linked account "acme"), field "hs_api_domain" is required: its value must not be empty: check value',
      ],
    ]);
    assert.deepEqual(await value("hs_property_map", "email"), [
      [
        "value",
        'in config "acme" (app "hubspot", linked account "acme"), field "hs_property_map" is a map field: give an object of strings, not a string: check value',
      ],
    ]);
    assert.deepEqual(
      (
        await field.check(
          {},
          { ...ACME, fieldId: "hs_sync_direction", workflowId: "wf_hs_contact_sync", value: "sideways" },
        )
      ).failures?.map((f) => [f.property, f.reason]),
      [
        [
          "value",
          'in config "acme" (app "hubspot", linked account "acme"), workflow "wf_hs_contact_sync", field "hs_sync_direction" is a select field and the value is not one of its options\' values: "one_way", "two_way": check value',
        ],
      ],
    );
    assert.deepEqual(await value("hs_api_domain", 7), [
      [
        "value",
        'in config "acme" (app "hubspot", linked account "acme"), field "hs_api_domain" is a text field: give a string, not a number: check value',
      ],
    ]);
    // What fits passes, and an unknown value waits for up.
    for (const [fieldId, fits] of [
      ["hs_sync_limit", 25],
      ["hs_pipeline", "support"],
      ["hs_api_domain", "acme.example"],
      ["hs_property_map", { contact_email: "email" }],
      ["hs_sync_limit", UNKNOWN],
    ] as const)
      assert.deepEqual(await value(fieldId, fits), [], `${fieldId} takes ${JSON.stringify(fits)}`);
    // The shape is checked before any read: a boolean is no value of any field.
    assert.deepEqual(await value("hs_sync_limit", true), [
      [
        "value",
        "must be a string (text and select fields), a number (number fields) or an object of strings (map fields)",
      ],
    ]);
    assert.deepEqual(writes(ctx.emulator), []);
  });

  it("names a workflow field's workflow when the config does not list it, and its field when the workflow lacks it", async () => {
    const unknown = await field.check({}, { ...PIPELINE, fieldId: "hs_contact_owner", workflowId: "wf_nope" });
    assert.deepEqual(
      unknown.failures?.map((f) => f.property),
      ["workflowId"],
    );
    const missing = await field.check({}, { ...PIPELINE, fieldId: "hs_pipeline", workflowId: "wf_hs_contact_sync" });
    assert.deepEqual(
      missing.failures?.map((f) => [f.property, f.reason]),
      [
        [
          "fieldId",
          'config "acme" (app "hubspot", linked account "acme") has no field "hs_pipeline" of workflow "wf_hs_contact_sync": check fieldId and workflowId',
        ],
      ],
    );
  });

  it("refuses a toggle of a draft workflow, and of an unknown one, with what to do", async () => {
    for (const workflowId of ["wf_hs_lead_scoring", "wf_unknown"]) {
      const { failures } = await toggle.check({}, { ...CONTACT_SYNC, workflowId });
      assert.equal(failures?.length, 1);
      assert.equal(failures![0].property, "workflowId");
      assert.match(
        failures![0].reason,
        new RegExp(
          `^"${workflowId}" is not a published workflow of config "acme" .*publish it, then run again.*check workflowId`,
        ),
      );
    }
  });

  it("tells an unknown linked account from an unknown config of a known one", async () => {
    const account = await field.check({}, { ...PIPELINE, linkedAccountId: "nobody", configId: "nobody" });
    assert.deepEqual(account.failures, [
      {
        property: "linkedAccountId",
        reason:
          'the platform has no config of app "hubspot" for linked account "nobody": check linkedAccountId and slug',
      },
    ]);
    const config = await toggle.check({}, { ...CONTACT_SYNC, configId: "acme-eu" });
    assert.deepEqual(config.failures, [
      {
        property: "configId",
        reason: 'the platform has no config "acme-eu" of app "hubspot" for linked account "acme": check configId',
      },
    ]);
  });

  it("costs nothing for an unchanged resource, for ids not known until up, and with validateAtPreview off", async () => {
    const first = await field.check({}, PIPELINE);
    ctx.emulator.requests.clear();
    assert.deepEqual((await field.check(first.inputs, PIPELINE)).failures, []);
    assert.deepEqual((await field.check({}, { ...PIPELINE, configId: UNKNOWN })).failures, []);
    startRun(ctx.emulator, { "integration-platform:validateAtPreview": "false" });
    assert.deepEqual((await field.check({}, { ...PIPELINE, fieldId: "hs_pipline" })).failures, []);
    assert.deepEqual(
      (
        await envValue.check(
          {},
          { definitionId: FIXTURE.definitions.accountQuota, linkedAccountId: "acme", value: "7" },
        )
      ).failures,
      [],
    );
    assert.deepEqual(reads(), []);
  });

  it("validates a change of a setting too, not only a create", async () => {
    const first = await field.check({}, PIPELINE);
    startRun(ctx.emulator); // a later command, whose run has read nothing yet
    ctx.emulator.requests.clear();
    assert.deepEqual((await field.check(first.inputs, { ...PIPELINE, name: "Sales pipeline" })).failures, []);
    assert.deepEqual(reads(), ["GET /api/v2/public/slug/hubspot/config/acme"]);
  });

  it("reports refused credentials once, with the fix, and makes no further call", async () => {
    startRun(ctx.emulator, { "integration-platform:apiKey": "tk_revoked" });
    const first = await field.check({}, PIPELINE);
    assert.equal(first.failures?.length, 1);
    assert.equal(first.failures![0].property, "");
    assert.match(
      first.failures![0].reason,
      /^the change could not be validated against the platform: 401 .*integration-platform:apiKey/,
    );
    assert.doesNotMatch(first.failures![0].reason, /tk_revoked/);
    const calls = reads().length;
    assert.deepEqual((await toggle.check({}, CONTACT_SYNC)).failures, []);
    assert.deepEqual(
      (
        await envValue.check(
          {},
          { definitionId: FIXTURE.definitions.accountQuota, linkedAccountId: "acme", value: "7" },
        )
      ).failures,
      [],
    );
    assert.equal(reads().length, calls, "no call after the refusal");
  });

  it("with validateAtPreview off, an env value's definition is read at create, and a misfit fails there, before any write", async () => {
    startRun(ctx.emulator, { "integration-platform:validateAtPreview": "false" });
    const { inputs } = await envValue.check(
      {},
      { definitionId: FIXTURE.definitions.accountQuota, linkedAccountId: "acme", value: "seven" },
    );
    const error = await rejection(envValue.create(inputs));
    assert.equal(
      error.message,
      "EnvVariableValue: value: must be a number, because the definition's var_format is number",
    );
    assert.deepEqual(writes(ctx.emulator), []);
    const created = await envValue.create({ ...inputs, value: "7" });
    assert.equal(created.outs.scope, "linked_account");
    assert.equal(created.outs.encrypted, false);
  });
});
