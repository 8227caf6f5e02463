import { describe, it } from "mocha";
import { strict as assert } from "node:assert";
import { assertError, ok, useEmulatorClients } from "../support/emulatorClients";

const acmeHubspot = { linked_account_id: "acme", slug: "hubspot" };
const CONFIG_FIELD_KEYS = [
  "required",
  "id",
  "name",
  "has_dynamic_map_fields",
  "field_type",
  "options",
  "dynamic_slot_identifier",
  "hidden",
];

/** A spec-form body (4.1) around the given global and workflow entries. */
function specBody(fields: unknown[], workflows: unknown[] = [], overrides: Record<string, unknown> = {}) {
  return { slug: "hubspot", config_id: "acme", fields, workflows, ...overrides };
}

describe("emulator: PUT /config/field/:fieldId", () => {
  const h = useEmulatorClients();
  const putField = (fieldId: string, body: unknown, headers: Record<string, string> = acmeHubspot, params = {}) =>
    h.api.put(`/config/field/${fieldId}`, body, { headers, params });
  const getConfig = async (linkedAccountId = "acme", slug = "hubspot", configId = linkedAccountId) =>
    ok(await h.api.get(`/slug/${slug}/config/${configId}`, { headers: { linked_account_id: linkedAccountId } }));

  it("stores name, options and labels of a global field from the spec body and returns the 2.1 object", async () => {
    const options = [{ name: "Renewals", value: "renewals" }];
    const labels = [{ name: "team", value: "revops" }];
    const res = ok(
      await putField("hs_pipeline", specBody([{ id: "hs_pipeline", name: "Deal pipeline", options, labels }])),
    );
    assert.deepEqual(Object.keys(res), CONFIG_FIELD_KEYS);
    assert.deepEqual(res, {
      required: false,
      id: "hs_pipeline",
      name: "Deal pipeline",
      has_dynamic_map_fields: false,
      field_type: "select",
      options,
      dynamic_slot_identifier: "",
      hidden: false,
    });
    const field = (await getConfig()).fields.find((f: { id: string }) => f.id === "hs_pipeline");
    assert.deepEqual(
      { name: field.name, options: field.options, labels: field.labels },
      { name: "Deal pipeline", options, labels },
    );
  });

  it("keeps properties the entry omits and clears those sent as []", async () => {
    await putField(
      "hs_pipeline",
      specBody([{ id: "hs_pipeline", name: "Renamed", labels: [{ name: "a", value: "b" }] }]),
    );
    const res = ok(await putField("hs_pipeline", specBody([{ id: "hs_pipeline", options: [] }])));
    assert.equal(res.name, "Renamed");
    assert.deepEqual(res.options, []);
    const state = h.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
    assert.deepEqual(
      state.fields.find((f) => f.id === "hs_pipeline"),
      {
        id: "hs_pipeline",
        name: "Renamed",
        labels: [{ name: "a", value: "b" }],
        options: [],
      },
    );
  });

  it("updates a field of a published workflow found through the body's workflows entry", async () => {
    const options = [{ name: "Both", value: "both" }];
    const body = specBody(
      [],
      [{ id: "wf_hs_contact_sync", name: "Sync contacts", fields: [{ id: "hs_sync_direction", options }] }],
    );
    const res = ok(await putField("hs_sync_direction", body));
    assert.deepEqual(res.options, options);
    const workflow = (await getConfig()).workflows.find((w: { id: string }) => w.id === "wf_hs_contact_sync");
    assert.deepEqual(workflow.fields.find((f: { id: string }) => f.id === "hs_sync_direction").options, options);
  });

  it("finds a workflow field through the workflow_id query", async () => {
    const res = ok(await putField("hs_batch_size", { value: 25 }, acmeHubspot, { workflow_id: "wf_hs_contact_sync" }));
    assert.equal(res.id, "hs_batch_size");
    const workflow = (await getConfig()).workflows.find((w: { id: string }) => w.id === "wf_hs_contact_sync");
    assert.equal(workflow.fields.find((f: { id: string }) => f.id === "hs_batch_size").value, 25);
  });

  it("accepts the {value} body and stores any JSON value", async () => {
    ok(await putField("hs_property_map", { value: { email: "work_email" } }));
    ok(await putField("hs_sync_limit", { value: 500 }));
    const fields = (await getConfig()).fields;
    assert.deepEqual(fields.find((f: { id: string }) => f.id === "hs_property_map").value, { email: "work_email" });
    assert.equal(fields.find((f: { id: string }) => f.id === "hs_sync_limit").value, 500);
  });

  it("takes config_id from the query when the body has none", async () => {
    ok(
      await h.api.post(
        "/config",
        { slug: "hubspot", config_id: "acme-eu" },
        { headers: { linked_account_id: "acme" } },
      ),
    );
    ok(await putField("hs_sync_limit", { value: 7 }, acmeHubspot, { config_id: "acme-eu" }));
    const fields = (await getConfig("acme", "hubspot", "acme-eu")).fields;
    assert.equal(fields.find((f: { id: string }) => f.id === "hs_sync_limit").value, 7);
    assert.equal((await getConfig()).fields.find((f: { id: string }) => f.id === "hs_sync_limit").value, null);
  });

  it("writes a CONFIG_FIELD_UPDATED audit entry", async () => {
    ok(await putField("hs_sync_limit", { value: 1 }));
    const [entry] = ok(await h.api.get("/audit/event-received")).docs;
    assert.deepEqual(
      { ...entry, _id: undefined, createdAt: undefined },
      {
        _id: undefined,
        event_type: "CONFIG_FIELD_UPDATED",
        linked_account_id: "acme",
        slug: "hubspot",
        config_id: "acme",
        workflow_id: null,
        resource_id: "hs_sync_limit",
        auth: "api_key",
        createdAt: undefined,
      },
    );
  });

  it("empties options in the response when disable_field_options is true", async () => {
    const res = ok(
      await putField("hs_pipeline", { value: "sales" }, { ...acmeHubspot, disable_field_options: "true" }),
    );
    assert.deepEqual(res.options, []);
    assertError(
      await putField("hs_pipeline", { value: "sales" }, { ...acmeHubspot, disable_field_options: "maybe" }),
      400,
      "VALIDATION_ERROR",
      "disable_field_options",
    );
  });

  it("400 INVALID_LINKED_ACCOUNT_ID in error_code without the linked_account_id header", async () => {
    const res = await putField("hs_sync_limit", { value: 1 }, { slug: "hubspot" });
    assertError(res, 400, "INVALID_LINKED_ACCOUNT_ID", "linked_account_id is required");
    assert.equal(res.data.message, "linked_account_id is required");
    assert.equal(res.data.http_error_type, "BAD_REQUEST");
    assert.ok(!("error" in res.data));
  });

  it("400 'slug is required' without the slug header", async () => {
    const res = await putField("hs_sync_limit", { value: 1 }, { linked_account_id: "acme" });
    assertError(res, 400, "VALIDATION_ERROR");
    assert.equal(res.data.message, "slug is required");
  });

  it("400 when the body's slug differs from the header", async () => {
    assertError(
      await putField("hs_pipeline", specBody([{ id: "hs_pipeline" }], [], { slug: "slack" })),
      400,
      "VALIDATION_ERROR",
      "slug",
    );
  });

  it("404 for an unknown config", async () => {
    const res = await putField("hs_pipeline", specBody([{ id: "hs_pipeline" }], [], { config_id: "nope" }));
    assertError(res, 404, "RESOURCE_NOT_FOUND", "Config with config id nope not found");
    assertError(
      await putField("hs_sync_limit", { value: 1 }, { linked_account_id: "nobody", slug: "hubspot" }),
      404,
      "RESOURCE_NOT_FOUND",
      "Config with config id nobody not found",
    );
  });

  it("400 'Field with id <id> not found' for an unknown field", async () => {
    const res = await putField("no_such_field", specBody([{ id: "no_such_field" }]));
    assertError(res, 400, "VALIDATION_ERROR");
    assert.equal(res.data.message, "Field with id no_such_field not found");
    // A Slack field does not belong to the HubSpot config.
    assertError(
      await putField("slack_channel", { value: "#x" }),
      400,
      "VALIDATION_ERROR",
      "Field with id slack_channel not found",
    );
  });

  it("404 for an unknown workflow_id query", async () => {
    assertError(
      await putField("hs_batch_size", { value: 1 }, acmeHubspot, { workflow_id: "wf_nope" }),
      404,
      "RESOURCE_NOT_FOUND",
      "Workflow wf_nope not found",
    );
  });

  it("400 WORKFLOW_NOT_PUBLISHED for a field of a draft workflow", async () => {
    const body = specBody([], [{ id: "wf_hs_lead_scoring", fields: [{ id: "hs_score_model", options: [] }] }]);
    const res = await putField("hs_score_model", body);
    assertError(res, 400, "WORKFLOW_NOT_PUBLISHED", /draft.*publish/);
    assertError(
      await putField("hs_score_model", { value: "basic" }, acmeHubspot, { workflow_id: "wf_hs_lead_scoring" }),
      400,
      "WORKFLOW_NOT_PUBLISHED",
    );
  });

  it("400 when the spec body has no entry for the field", async () => {
    assertError(
      await putField("hs_pipeline", specBody([{ id: "hs_sync_limit" }])),
      400,
      "VALIDATION_ERROR",
      "no entry for field hs_pipeline",
    );
    const config = h.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
    assert.ok(!config.fields.some((f) => f.id === "hs_pipeline"), "a refused body must not touch the config");
    assertError(
      await putField("hs_batch_size", specBody([], []), acmeHubspot, { workflow_id: "wf_hs_contact_sync" }),
      400,
      "VALIDATION_ERROR",
      "no entry for field hs_batch_size",
    );
  });

  it("400 naming the field for wrong types and missing fields", async () => {
    const wrongType = specBody([
      {
        id: "hs_pipeline",
        options: [
          { name: "a", value: "a" },
          { name: "b", value: 2 },
        ],
      },
    ]);
    const res = await putField("hs_pipeline", wrongType);
    assertError(res, 400, "VALIDATION_ERROR", "fields[0].options[1].value: expected string");
    const missing = await putField("hs_pipeline", {
      slug: "hubspot",
      config_id: "acme",
      fields: [{ id: "hs_pipeline" }],
    });
    assertError(missing, 400, "VALIDATION_ERROR", "workflows: required");
    const nestedWorkflow = await putField(
      "hs_pipeline",
      specBody([{ id: "hs_pipeline" }], [{ id: "w", fields: [{ name: "x" }] }]),
    );
    assertError(nestedWorkflow, 400, "VALIDATION_ERROR", "workflows[0].fields[0].id: required");
  });

  it("400 for malformed JSON, an empty body and a non-JSON content type", async () => {
    // Raw bodies: axios would otherwise JSON-encode the string.
    const raw = (body: string, contentType: string) =>
      h.api.put("/config/field/hs_pipeline", body, {
        headers: { ...acmeHubspot, "content-type": contentType },
        transformRequest: [(data) => data],
      });
    assertError(await raw('{"slug": ', "application/json"), 400, "VALIDATION_ERROR", "body: malformed JSON");
    assertError(await raw("", "application/json"), 400, "VALIDATION_ERROR", "body: required");
    assertError(await raw("value=1", "text/plain"), 400, "VALIDATION_ERROR", "Content-Type must be application/json");
  });
});

describe("emulator: GET /slug/:slug/config/:config_id", () => {
  const h = useEmulatorClients();

  it("returns fields with labels and value, published workflows only, and field_errors", async () => {
    const config = ok(await h.api.get("/slug/hubspot/config/acme", { headers: { linked_account_id: "acme" } }));
    assert.equal(config.slug, "hubspot");
    assert.equal(config.config_id, "acme");
    assert.deepEqual(config.field_errors, []);
    assert.deepEqual(
      config.fields.map((f: { id: string; field_type: string }) => [f.id, f.field_type]),
      [
        ["hs_api_domain", "text"],
        ["hs_sync_limit", "number"],
        ["hs_pipeline", "select"],
        ["hs_property_map", "map"],
      ],
    );
    assert.deepEqual(Object.keys(config.fields[0]), [...CONFIG_FIELD_KEYS, "labels", "value"]);
    assert.equal(config.fields[0].value, "api.hubapi.com");
    assert.deepEqual(
      config.workflows.map((w: { id: string; enabled: boolean }) => [w.id, w.enabled]),
      [
        ["wf_hs_contact_sync", true],
        ["wf_hs_deal_alerts", false],
      ],
    );
    assert.deepEqual(Object.keys(config.workflows[0]), ["id", "name", "description", "enabled", "fields"]);
    assert.equal(config.workflows[0].fields.length, 4);
  });

  it("400 INVALID_LINKED_ACCOUNT_ID without the header", async () => {
    assertError(
      await h.api.get("/slug/hubspot/config/acme"),
      400,
      "INVALID_LINKED_ACCOUNT_ID",
      "linked_account_id is required",
    );
  });

  it("404 for an unknown config, slug or linked account", async () => {
    for (const [slug, configId, account] of [
      ["hubspot", "nope", "acme"],
      ["nope", "acme", "acme"],
      ["hubspot", "acme", "globex"],
    ]) {
      const res = await h.api.get(`/slug/${slug}/config/${configId}`, { headers: { linked_account_id: account } });
      assertError(res, 404, "RESOURCE_NOT_FOUND", `Config with config id ${configId} not found`);
    }
  });
});

describe("emulator: POST /config", () => {
  const h = useEmulatorClients();
  const upsert = (body: unknown, linkedAccountId: string | null = "acme") =>
    h.api.post("/config", body, { headers: linkedAccountId === null ? {} : { linked_account_id: linkedAccountId } });

  it("creates a config with a new config_id and returns it in the get-config shape", async () => {
    const labels = [{ name: "region", value: "eu" }];
    const created = ok(await upsert({ slug: "slack", config_id: "acme-eu", labels }));
    assert.equal(created.config_id, "acme-eu");
    assert.deepEqual(created.labels, labels);
    assert.deepEqual(Object.keys(created), ["slug", "config_id", "fields", "workflows", "field_errors", "labels"]);
    assert.ok(created.workflows.every((w: { enabled: boolean }) => w.enabled === false));
    const read = ok(await h.api.get("/slug/slack/config/acme-eu", { headers: { linked_account_id: "acme" } }));
    assert.deepEqual(read, created);
  });

  it("defaults config_id to the linked account and updates labels of an existing config", async () => {
    const labels = [{ name: "tier", value: "platinum" }];
    const updated = ok(await upsert({ slug: "hubspot", labels }));
    assert.equal(updated.config_id, "acme");
    assert.deepEqual(updated.labels, labels);
    assert.equal(
      h.emulator.store.state.configs.filter((c) => c.linked_account_id === "acme" && c.slug === "hubspot").length,
      1,
    );
    // Without labels the existing ones stay.
    assert.deepEqual(ok(await upsert({ slug: "hubspot" })).labels, labels);
  });

  it("404 for an unknown application or linked account", async () => {
    assertError(await upsert({ slug: "nope" }), 404, "RESOURCE_NOT_FOUND", "nope");
    assertError(
      await upsert({ slug: "hubspot" }, "nobody"),
      404,
      "RESOURCE_NOT_FOUND",
      "Linked account nobody not found",
    );
  });

  it("400 without the linked_account_id header or the slug", async () => {
    assertError(await upsert({ slug: "hubspot" }, null), 400, "INVALID_LINKED_ACCOUNT_ID");
    assertError(await upsert({}), 400, "VALIDATION_ERROR", "slug: required");
    assertError(
      await upsert({ slug: "hubspot", labels: [{ name: "x" }] }),
      400,
      "VALIDATION_ERROR",
      "labels[0].value: required",
    );
  });
});
