// Snapshots on the control plane: the state saved under a name and restored in place, in memory and
// from a folder a later emulator reads; names that could leave the folder refused.
import { describe, it } from "mocha";
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import axios from "axios";
import { startEmulator } from "../../emulator";
import { FIXTURE } from "../../harness/fixture";
import { assertError, client, ok, useEmulatorClients } from "../support/emulatorClients";

describe("emulator: snapshots /_emulator/snapshots", () => {
  const h = useEmulatorClients();

  it("PUT saves the state under a name; POST …/restore puts it back in place, and lists it", async () => {
    ok(await h.api.delete(`/env/values/${FIXTURE.values.apiBaseUrl}`));
    const saved = ok(await h.control.put("/snapshots/without-base-url"));
    assert.equal(saved.name, "without-base-url");
    assert.equal(saved.linkedAccounts, h.emulator.store.state.linkedAccounts.length);
    assert.equal(saved.file, undefined, "kept in memory only without a folder");
    const expected = structuredClone(h.emulator.store.state);
    const live = h.emulator.store.state;

    ok(await h.api.put(`/application/event/${FIXTURE.events[0]}`, { name: "renamed", response: {} }));
    h.emulator.rateLimit.reset();
    ok(await h.control.post("/snapshots/without-base-url/restore"));
    assert.deepEqual(h.emulator.store.state, expected);
    assert.equal(h.emulator.store.state, live, "the same object is refilled, so references stay live");
    assert.equal(h.emulator.rateLimit.bucketCount, 0, "a restore gives every credential its burst back");
    const { snapshots } = ok(await h.control.get("/snapshots"));
    assert.deepEqual(
      snapshots.map((s: { name: string }) => s.name),
      ["without-base-url"],
    );
    assert.ok(!JSON.stringify(snapshots).includes("crm-secret-acme"), "a listing shows no state");
  });

  it("refuses a name that could leave the folder, and answers 404 for one never saved", async () => {
    for (const name of [".hidden", "a%2F..%2Fb", "x".repeat(65)]) {
      assertError(await h.control.put(`/snapshots/${name}`), 400, "VALIDATION_ERROR", /snapshot name/);
    }
    assertError(
      await h.control.post("/snapshots/never-saved/restore"),
      404,
      "RESOURCE_NOT_FOUND",
      /PUT \/_emulator\/snapshots/,
    );
    ok(await h.control.put("/snapshots/to-delete"));
    assert.deepEqual(ok(await h.control.delete("/snapshots/to-delete")), { deleted: "to-delete" });
    assertError(await h.control.delete("/snapshots/to-delete"), 404, "RESOURCE_NOT_FOUND");
  });

  it("with a folder: each snapshot is a file (mode 0600) that a later emulator restores", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pip-snapshots-"));
    const first = await startEmulator({ quiet: true, snapshots: dir });
    let second: Awaited<ReturnType<typeof startEmulator>> | undefined;
    try {
      ok(await client(first, { "x-api-key": first.apiKey }).delete(`/env/values/${FIXTURE.values.apiBaseUrl}`));
      const control = (url: string) => axios.create({ baseURL: `${url}/_emulator`, validateStatus: () => true });
      const saved = ok(await control(first.url).put("/snapshots/base"));
      assert.equal(saved.file, path.join(dir, "base.json"));
      assert.equal(fs.statSync(saved.file).mode & 0o777, 0o600);
      const expected = structuredClone(first.store.state);

      second = await startEmulator({ quiet: true, snapshots: dir });
      assert.notDeepEqual(second.store.state, expected);
      const listed = ok(await control(second.url).get("/snapshots")).snapshots;
      assert.deepEqual(
        listed.map((s: { name: string; file: string }) => [s.name, s.file]),
        [["base", saved.file]],
      );
      ok(await control(second.url).post("/snapshots/base/restore"));
      assert.deepEqual(second.store.state, expected);

      fs.writeFileSync(path.join(dir, "broken.json"), "{ not json");
      assertError(await control(second.url).post("/snapshots/broken/restore"), 400, "INVALID_SNAPSHOT", /broken\.json/);
    } finally {
      await first.close();
      await second?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
