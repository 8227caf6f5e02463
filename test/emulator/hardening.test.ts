// The emulator runs in users' CI, reachable by anything on the machine: it is never wedged by a
// hostile request, keeps bounded memory whatever callers send, and keeps its control plane from
// web pages (docs/guides/security.md).
import axios from "axios";
import { strict as assert } from "node:assert";
import { Agent } from "node:http";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultFixturePath } from "../../emulator";
import { EmulatorStore } from "../../emulator/store";
import { client, ok, useEmulatorClients } from "../support/emulatorClients";

describe("emulator: hardening", () => {
  const h = useEmulatorClients();

  it("the state file's writes recover from one that failed: the next save reaches the disk", async () => {
    const dir = await mkdtemp(join(tmpdir(), "emulator-writer-"));
    try {
      const store = await EmulatorStore.open({ fixtures: defaultFixturePath(), data: join(dir, "state.json") });
      // A value JSON cannot hold makes the snapshot throw before the write's first await.
      await assert.rejects(
        store.update((state) => Object.assign(state, { unserializable: 10n })),
        /BigInt/,
      );
      delete (store.state as unknown as Record<string, unknown>).unserializable;
      await store.update((state) => (state.org.name = "After the failure"));
      await store.flush();
      assert.match(await readFile(join(dir, "state.json"), "utf8"), /After the failure/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a flood of 10,000 distinct made-up keys keeps one bucket for them all, and the valid key keeps its burst", async () => {
    // 64 kept-alive sockets: 10,000 connects at once overflow the listen backlog, and the kernel's
    // SYN retries (1 s, 3 s, 7 s...) then made this take 30 s idle and past the timeout on a busy CI.
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const started = performance.now();
    const sent = await Promise.all(
      Array.from({ length: 10_000 }, (_, i) =>
        client(h.emulator, { "x-api-key": `tk_bogus_${i}` }).get("/linked-account", { httpAgent: agent }),
      ),
    ).finally(() => agent.destroy());
    assert.equal(sent.length, 10_000);
    const seconds = (performance.now() - started) / 1000;
    assert.equal(h.emulator.rateLimit.bucketCount, 1);
    // One bucket for them all: no more answers than its burst of 5 and the 20 per second it earns
    // back while the flood lasts, however long a busy machine takes to send it.
    const answered = sent.filter((r) => r.status !== 429).length;
    assert.ok(
      answered <= 5 + Math.ceil(20 * seconds) + 1,
      `${answered} of 10,000 answered other than 429 in ${seconds.toFixed(1)} s: past one bucket's burst and rate`,
    );
    assert.ok(answered < 10_000 && answered >= 5, `${answered} answered other than 429`);
    assert.equal((await h.api.get("/linked-account")).status, 200);
    assert.equal(h.emulator.rateLimit.bucketCount, 2);
  });

  it("the request log keeps a bounded copy of what a caller sends: a 5,000-character path and 20 long query parameters", async () => {
    // Under Node's 16 KiB header limit, which refuses longer request lines itself.
    const query = Array.from({ length: 20 }, (_, i) => `p${i}=${"v".repeat(300)}`).join("&");
    await h.api.get(`/${"x".repeat(5_000)}?${query}`);
    const [entry] = ok(await h.control.get("/requests"));
    assert.ok(entry.path.length <= 257, `path kept: ${entry.path.length} characters`);
    assert.equal(Object.keys(entry.query).length, 16);
    assert.ok(Object.values(entry.query).every((v) => String(v).length <= 257));
  });

  it("the control plane answers only requests addressed to a loopback name, against DNS rebinding", async () => {
    const evil = await axios.get(`${h.emulator.url}/_emulator/state`, {
      headers: { host: "attacker.example:80" },
      validateStatus: () => true,
    });
    assert.equal(evil.status, 403);
    assert.match(evil.data.message, /^The control plane answers only requests addressed to this machine/);
    for (const host of ["localhost", "127.0.0.1:4010", "[::1]:4010"]) {
      assert.equal(
        (await axios.get(`${h.emulator.url}/_emulator/health`, { headers: { host }, validateStatus: () => true }))
          .status,
        200,
        host,
      );
    }
    // The public API answers any Host, as the platform does.
    assert.equal(
      (await client(h.emulator, { "x-api-key": h.emulator.apiKey, host: "api.example.com" }).get("/linked-account"))
        .status,
      200,
    );
  });

  it("refuses a body over 256 KiB with a 400 that says so", async () => {
    const res = await h.api.post("/env/values", {
      variable_definition_id: "64f0000000000000000000d6",
      value: "9".repeat(300 * 1024),
      linked_account_id: "acme",
    });
    assert.equal(res.status, 400);
    assert.match(res.data.message, /^The body is over 256 KiB/);
  });
});
