import { after, before, describe, it } from "mocha";
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ENV_SCOPES,
  EmulatorConfigError,
  FIELD_TYPES,
  VAR_FORMATS,
  defaultFixturePath,
  describeSample,
  emulatorStateSchema,
  scopeIdProblem,
  startEmulator,
  varFormatProblem,
  type EmulatorFixture,
} from "../../emulator";
import { client, ok } from "../support/emulatorClients";

const defaultFixture = () => JSON.parse(readFileSync(defaultFixturePath(), "utf8")) as EmulatorFixture;

describe("emulator: default fixture", () => {
  const state = emulatorStateSchema.parse(defaultFixture());

  it("has two apps with all four field types among global and workflow fields, and a published and a draft workflow", () => {
    assert.equal(state.apps.length, 2);
    for (const app of state.apps) {
      assert.deepEqual([...new Set(app.fields.map((f) => f.field_type))].sort(), [...FIELD_TYPES].sort(), app.slug);
      const workflowTypes = new Set(app.workflows.flatMap((w) => w.fields.map((f) => f.field_type)));
      assert.deepEqual([...workflowTypes].sort(), [...FIELD_TYPES].sort(), app.slug);
      assert.ok(app.workflows.some((w) => w.published) && app.workflows.some((w) => !w.published), app.slug);
      assert.ok(app.fields.some((f) => f.field_type === "select" && f.options.length > 0));
    }
  });

  it("has three linked accounts, each with a config of each app whose id is the account id", () => {
    assert.equal(state.linkedAccounts.length, 3);
    for (const account of state.linkedAccounts) {
      for (const app of state.apps) {
        assert.ok(
          state.configs.some(
            (c) =>
              c.linked_account_id === account.account_id && c.slug === app.slug && c.config_id === account.account_id,
          ),
        );
      }
    }
  });

  it("has three events, definitions for every scope and format with exactly one encrypted, and values", () => {
    assert.equal(state.events.length, 3);
    assert.deepEqual([...new Set(state.envDefinitions.map((d) => d.scope))].sort(), [...ENV_SCOPES].sort());
    assert.deepEqual([...new Set(state.envDefinitions.map((d) => d.var_format))].sort(), [...VAR_FORMATS].sort());
    const encrypted = state.envDefinitions.filter((d) => d.encrypted);
    assert.equal(encrypted.length, 1);
    assert.ok(state.envValues.some((v) => v.variable_definition_id === encrypted[0]._id));
    for (const account of state.linkedAccounts) {
      assert.ok(state.envValues.some((v) => v.linked_account_id === account.account_id));
    }
  });
});

describe("emulator: --fixtures", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "emulator-fixtures-"));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  async function rejectsFixture(fixture: unknown, pattern: RegExp) {
    const file = join(dir, "fixture.json");
    await writeFile(file, JSON.stringify(fixture));
    await assert.rejects(startEmulator({ fixtures: file, quiet: true }), (err: Error) => {
      assert.ok(err instanceof EmulatorConfigError, String(err));
      assert.match(err.message, pattern);
      assert.ok(err.message.includes(file));
      return true;
    });
  }

  it("seeds from a minimal fixture, filling defaults", async () => {
    const file = join(dir, "minimal.json");
    await writeFile(
      file,
      JSON.stringify({
        org: { _id: "org1", name: "Tiny" },
        apps: [{ slug: "crm", name: "CRM", fields: [{ id: "f", name: "F", field_type: "text" }] }],
        linkedAccounts: [{ _id: "la1", account_id: "solo", name: "Solo" }],
        configs: [{ linked_account_id: "solo", slug: "crm" }],
      }),
    );
    const emulator = await startEmulator({ fixtures: file, quiet: true });
    try {
      const config = ok(
        await client(emulator, { "x-api-key": emulator.apiKey }).get("/slug/crm/config/solo", {
          headers: { linked_account_id: "solo" },
        }),
      );
      assert.deepEqual(config.fields[0].options, []);
      assert.equal(ok(await client(emulator, { "x-api-key": emulator.apiKey }).get("/env/definitions")).totalDocs, 0);
    } finally {
      await emulator.close();
    }
  });

  it("reports the path of a schema violation", async () => {
    const fixture = defaultFixture();
    (fixture.apps![0].fields![1] as { field_type: string }).field_type = "checkbox";
    await rejectsFixture(
      fixture,
      /fixture .* is invalid: apps\[0\]\.fields\[1\]\.field_type: expected one of "text", "number", "select", "map"/,
    );
  });

  it("reports dangling references and duplicates", async () => {
    const fixture = defaultFixture();
    fixture.configs![0].slug = "salesforce";
    await rejectsFixture(fixture, /configs\[0\]\.slug: unknown app salesforce/);
    const duplicate = defaultFixture();
    duplicate.apps![1].workflows![0].id = "wf_hs_contact_sync";
    await rejectsFixture(duplicate, /apps\[1\]\.workflows\[0\]\.id: duplicate workflow id wf_hs_contact_sync/);
    const wrongScope = defaultFixture();
    wrongScope.envValues![0].linked_account_id = "acme";
    await rejectsFixture(wrongScope, /envValues\[0\]: linked_account_id is not allowed for org scope/);
  });

  it("reports unreadable and non-JSON files", async () => {
    await assert.rejects(
      startEmulator({ fixtures: join(dir, "missing.json"), quiet: true }),
      /cannot read fixture .*missing\.json/,
    );
    const file = join(dir, "garbage.json");
    await writeFile(file, "apps: []");
    await assert.rejects(startEmulator({ fixtures: file, quiet: true }), /fixture .*garbage\.json is not valid JSON/);
  });
});

describe("emulator: model rules", () => {
  it("describeSample walks objects, not arrays", () => {
    assert.deepEqual(describeSample({ a: { b: { c: 1 } }, list: [{ x: 1 }], nothing: null }), [
      { key: "a", type: "object" },
      { key: "a.b", type: "object" },
      { key: "a.b.c", type: "text" },
      { key: "list", type: "text" },
      { key: "nothing", type: "text" },
    ]);
  });

  it("scopeIdProblem and varFormatProblem", () => {
    assert.equal(scopeIdProblem("workflow", { workflow_id: "w", linked_account_id: "a" }), null);
    assert.equal(scopeIdProblem("workspace", {}), null);
    assert.equal(
      scopeIdProblem("linked_account", { linked_account_id: null }),
      "linked_account_id is required for linked_account scope",
    );
    assert.equal(varFormatProblem("url", "http://localhost:8080/x"), null);
    assert.equal(varFormatProblem("number", " 12 "), null);
    assert.equal(varFormatProblem("string", ""), null);
    assert.match(varFormatProblem("number", "0x")!, /number/);
  });
});
