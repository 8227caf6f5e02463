import { after, before, describe, it } from "mocha";
import axios from "axios";
import { strict as assert } from "node:assert";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmulatorConfigError, defaultFixturePath, startEmulator } from "../../emulator";
import { FIXTURE } from "../../harness/fixture";
import { client, ok } from "../support/emulatorClients";

describe("emulator: persistence with --data", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "emulator-data-"));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  const readData = async (file: string) => JSON.parse(await readFile(file, "utf8"));

  it("seeds the data file from the fixture at start", async () => {
    const data = join(dir, "seeded", "state.json");
    const emulator = await startEmulator({ data, quiet: true });
    try {
      const state = await readData(data);
      assert.equal(state.linkedAccounts.length, 3);
      assert.deepEqual(state, JSON.parse(JSON.stringify(emulator.store.state)));
    } finally {
      await emulator.close();
    }
  });

  it("has every change on disk before the response arrives, and keeps state across a restart", async () => {
    const data = join(dir, "restart.json");
    const first = await startEmulator({ data, quiet: true });
    const api = client(first, { "x-api-key": first.apiKey });
    const created = ok(
      await api.post("/env/values", {
        variable_definition_id: FIXTURE.definitions.accountQuota,
        value: "42",
        linked_account_id: "acme",
      }),
    );
    // Read the file right after the response, before close() flushes anything.
    assert.ok((await readData(data)).envValues.some((v: { _id: string }) => v._id === created._id));
    ok(
      await api.put(
        "/slug/hubspot/config/acme/workflows/wf_hs_deal_alerts",
        { enabled: true },
        { headers: { linked_account_id: "acme" } },
      ),
    );
    ok(await api.delete(`/env/values/${FIXTURE.values.apiBaseUrl}`));
    await first.close();

    const second = await startEmulator({ data, quiet: true });
    try {
      const again = client(second, { "x-api-key": second.apiKey });
      const quota = ok(
        await again.get(`/env/value/${FIXTURE.definitions.accountQuota}`, { params: { linked_account_id: "acme" } }),
      );
      assert.equal(quota.value, "42");
      const toggles = ok(
        await again.get("/slug/hubspot/config/acme", { headers: { linked_account_id: "acme" } }),
      ).workflows;
      assert.equal(toggles.find((w: { id: string }) => w.id === "wf_hs_deal_alerts").enabled, true);
      assert.equal((await again.get(`/env/value/${FIXTURE.definitions.apiBaseUrl}`)).status, 404);
      assert.equal(ok(await again.get("/audit/event-received")).totalDocs, 3);
    } finally {
      await second.close();
    }
  });

  it("reset writes the fixture state back to the file", async () => {
    const data = join(dir, "reset.json");
    const emulator = await startEmulator({ data, quiet: true });
    try {
      ok(await client(emulator, { "x-api-key": emulator.apiKey }).delete(`/env/values/${FIXTURE.values.apiBaseUrl}`));
      assert.equal((await readData(data)).envValues.length, 8);
      ok(await axios.post(`${emulator.url}/_emulator/reset`));
      assert.equal((await readData(data)).envValues.length, 9);
    } finally {
      await emulator.close();
    }
  });

  it("keeps the file valid JSON while many concurrent writes are coalesced", async () => {
    const data = join(dir, "concurrent.json");
    // Rate limit off: this test needs 60 writes in flight at once to check that persistence
    // coalesces them, not the limit; rateLimit.test.ts covers the limit.
    const emulator = await startEmulator({ data, quiet: true, rateLimit: "off" });
    const api = client(emulator, { "x-api-key": emulator.apiKey });
    let reads = 0;
    let writing = true;
    const reader = (async () => {
      while (writing) {
        JSON.parse(await readFile(data, "utf8"));
        reads++;
      }
    })();
    try {
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          api.post("/env/values", {
            variable_definition_id: FIXTURE.definitions.batchSize,
            value: String(i),
            workflow_id: "wf_hs_contact_sync",
            linked_account_id: ["acme", "globex", "initech"][i % 3],
          }),
        ),
      );
      assert.ok(results.every((r) => r.status === 200));
    } finally {
      writing = false;
      await reader;
      await emulator.close();
    }
    assert.ok(reads > 0);
    const state = await readData(data);
    // The last write snapshots the state after every request, whatever order they were served in.
    assert.deepEqual(state, JSON.parse(JSON.stringify(emulator.store.state)));
    const batchValues = state.envValues.filter(
      (v: { variable_definition_id: string }) => v.variable_definition_id === FIXTURE.definitions.batchSize,
    );
    assert.equal(batchValues.length, 3);
    assert.equal(state.audit.length, 60);
  });

  it("store.update persists out-of-band changes", async () => {
    const data = join(dir, "out-of-band.json");
    const emulator = await startEmulator({ data, quiet: true });
    try {
      await emulator.store.update(() => {
        emulator.store.linkedAccounts.add({ account_id: "umbrella", name: "Umbrella Corp" });
        emulator.store.configs.upsert({ linkedAccountId: "umbrella", slug: "slack", configId: "umbrella" }, undefined);
      });
      const state = await readData(data);
      assert.ok(state.linkedAccounts.some((a: { account_id: string }) => a.account_id === "umbrella"));
      assert.ok(state.configs.some((c: { linked_account_id: string }) => c.linked_account_id === "umbrella"));
    } finally {
      await emulator.close();
    }
  });

  it("refuses a data file that is not valid state, naming the file and the bad path", async () => {
    const data = join(dir, "broken.json");
    await writeFile(data, "{ not json");
    await assert.rejects(startEmulator({ data, quiet: true }), (err: Error) => {
      assert.ok(err instanceof EmulatorConfigError);
      assert.match(err.message, /data file .*broken\.json is not valid JSON/);
      return true;
    });
    const state = JSON.parse(await readFile(defaultFixturePath(), "utf8"));
    state.envValues[0].value = "not a url";
    await writeFile(data, JSON.stringify(state));
    await assert.rejects(
      startEmulator({ data, quiet: true }),
      /envValues\[0\]: value does not match the variable format/,
    );
    // The bad file is left alone for the user to fix.
    assert.equal(JSON.parse(await readFile(data, "utf8")).envValues[0].value, "not a url");
  });
});
