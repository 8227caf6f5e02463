// The store API's names before the objects (0.5.0): users' own in-process tests call them, so they
// answer for one release as the objects' operations do (emulator/store.ts, CHANGELOG.md).
import * as assert from "node:assert/strict";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { FIXTURE } from "../../harness/fixture";

describe("emulator store: the names of 0.5.0", () => {
  let emulator: RunningEmulator;
  before(async () => {
    emulator = await startEmulator({ quiet: true });
  });
  after(async () => {
    await emulator.close();
  });

  it("find what the objects' operations find", () => {
    const { store } = emulator;
    const key = { linkedAccountId: "acme", slug: "hubspot", configId: "acme" };
    const config = store.configs.find(key)!;
    assert.ok(config, "the fixture has acme's hubspot config");
    assert.equal(store.config(key), config);
    assert.equal(store.app("hubspot"), store.applications.find("hubspot"));
    assert.equal(
      store.workflow("wf_hs_contact_sync")?.workflow,
      store.applications.workflow("wf_hs_contact_sync")?.workflow,
    );
    assert.equal(store.linkedAccount("acme"), store.linkedAccounts.find("acme"));
    assert.deepEqual(store.configsWithId("hubspot", "acme"), store.configs.withId("hubspot", "acme"));
    assert.equal(
      store.configWorkflowState(config, "wf_hs_contact_sync"),
      store.configs.workflowState(config, "wf_hs_contact_sync"),
    );
    assert.equal(
      store.configFieldState(config, null, "hs_pipeline"),
      store.configs.fieldState(config, null, "hs_pipeline"),
    );
    assert.equal(store.event(FIXTURE.events[0]), store.applicationEvents.find(FIXTURE.events[0]));
    const definition = store.envDefinition(FIXTURE.definitions.apiBaseUrl)!;
    assert.equal(definition, store.envVariables.definition(FIXTURE.definitions.apiBaseUrl));
    assert.equal(store.envDefinitionByName(definition.name), definition);
    assert.equal(store.envValue(FIXTURE.values.apiBaseUrl), store.envVariables.value(FIXTURE.values.apiBaseUrl));
    assert.equal(
      store.envValueFor(definition._id, null, null),
      store.envVariables.valueFor(definition._id, null, null),
    );
  });

  it("change the state as the objects' operations do", async () => {
    const { store } = emulator;
    const account = store.addLinkedAccount({ account_id: "hooli", name: "Hooli" });
    assert.equal(store.linkedAccounts.find("hooli"), account);
    const { config, created } = store.upsertConfig(
      { linkedAccountId: "hooli", slug: "hubspot", configId: "hooli" },
      undefined,
    );
    assert.ok(created);
    assert.equal(store.configs.find({ linkedAccountId: "hooli", slug: "hubspot", configId: "hooli" }), config);
    const definition = store.envVariables.definition(FIXTURE.definitions.accountTier)!;
    const value = store.setEnvValue({
      definition,
      value: "gold",
      linkedAccountId: "hooli",
      workflowId: null,
      actor: "test",
    });
    assert.equal(store.envVariables.valueFor(definition._id, "hooli", null)?.value, "gold");
    assert.equal(store.deleteEnvValue(value._id), value);
    assert.equal(store.envVariables.value(value._id), undefined);
    const entry = store.recordAudit({
      event_type: "ENV_VALUE_DELETED",
      linked_account_id: "hooli",
      slug: null,
      config_id: null,
      workflow_id: null,
      resource_id: value._id,
      auth: "api_key",
    });
    assert.equal(store.state.audit.at(-1), entry);
    await store.commit();
  });
});
