// The dashboard's server side (docs/emulator.md, "Dashboard"): the page and its assets under a
// strict policy, the bounded views it reads (paged accounts, the journal since a cursor, deliveries),
// no credential and no encrypted value in any of them, and the control plane's refusal of changes
// sent by another site's page. The page itself runs in a browser in test/e2e/webhooks.test.ts.
import { strict as assert } from "node:assert";
import { DASHBOARD_ASSETS } from "../../emulator/dashboardAssets";
import { seedTenants, CRM_API_TOKEN } from "../../harness/tenants";
import { startReceiver } from "../support/receiver";
import { ok, useEmulatorClients } from "../support/emulatorClients";

describe("emulator: dashboard", () => {
  const h = useEmulatorClients();
  const views = (path: string, params?: Record<string, unknown>) => h.control.get(`/dashboard${path}`, { params });

  describe("the page", () => {
    it("is served at /_emulator/ with its assets, under a policy that allows its own files and requests only", async () => {
      const page = await h.control.get("/");
      assert.equal(page.status, 200);
      assert.match(String(page.headers["content-type"]), /^text\/html/);
      const csp = String(page.headers["content-security-policy"]);
      for (const directive of [
        "default-src 'none'",
        "script-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
      ])
        assert.ok(csp.includes(directive), `${directive} in ${csp}`);
      assert.ok(!csp.includes("unsafe"), csp);
      assert.equal(page.headers["x-content-type-options"], "nosniff");
      // Nothing inline and nothing from elsewhere: every src and href is one of its own assets.
      const html = String(page.data);
      assert.doesNotMatch(html, /<script(?![^>]*\ssrc=)[^>]*>/, "no inline script");
      assert.doesNotMatch(html, /\son[a-z]+=|\sstyle=/, "no inline handlers or styles");
      const links = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
      assert.ok(links.length >= 3);
      for (const link of links) assert.match(link, /^\/_emulator\/assets\/[\w.-]+$/);
      for (const link of links) {
        const asset = await h.control.get(link.replace("/_emulator", ""));
        assert.equal(asset.status, 200, link);
        assert.equal(asset.headers["content-security-policy"], page.headers["content-security-policy"]);
      }
      assert.doesNotMatch(DASHBOARD_ASSETS["dashboard.js"].body, /innerHTML|outerHTML|insertAdjacentHTML|eval\(/);
    });

    it("answers 304 to a browser that holds the current version, 404 for an unknown asset, and redirects /_emulator", async () => {
      const first = await h.control.get("/assets/dashboard.js");
      assert.match(String(first.headers["content-type"]), /^text\/javascript/);
      const again = await h.control.get("/assets/dashboard.js", { headers: { "if-none-match": first.headers.etag } });
      assert.equal(again.status, 304);
      assert.equal((await h.control.get("/assets/nothing.js")).status, 404);
      assert.equal((await h.control.get("/assets/constructor")).status, 404);
      const bare = await h.control.get("", { maxRedirects: 0 });
      assert.equal(bare.status, 302);
      assert.equal(bare.headers.location, "/_emulator/");
    });

    it("answers only requests addressed to this machine, as the rest of the control plane", async () => {
      for (const path of ["/", "/assets/dashboard.js", "/dashboard/summary"])
        assert.equal((await h.control.get(path, { headers: { host: "evil.example" } })).status, 403, path);
    });
  });

  describe("the views", () => {
    it("serve linked accounts a page at a time, searched by id or name, with their counts", async () => {
      await seedTenants(h.emulator, "tenant", 250);
      const first = ok(await views("/linked-accounts", { limit: 100 }));
      assert.equal(first.docs.length, 100);
      assert.equal(first.totalDocs, 253);
      assert.equal(first.totalPages, 3);
      assert.deepEqual(first.docs[0], {
        account_id: "acme",
        name: "Acme Corporation",
        environment: "test",
        createdAt: "2024-01-01T00:00:00.000Z",
        configs: 2,
        envValues: 3,
      });
      assert.equal(ok(await views("/linked-accounts", { limit: 100, page: 3 })).docs.length, 53);
      const searched = ok(await views("/linked-accounts", { q: "TENANT-12" }));
      assert.deepEqual(
        searched.docs.map((a: { account_id: string }) => a.account_id),
        ["tenant-12", ...Array.from({ length: 10 }, (_, i) => `tenant-12${i}`)],
      );
      assert.deepEqual(
        ok(await views("/linked-accounts", { q: "globex inc" })).docs.map((a: { name: string }) => a.name),
        ["Globex Inc"],
      );
      assert.equal((await views("/linked-accounts", { limit: 101 })).status, 400);
    });

    it("show an account's configs, fields, workflows on or off and env values, an encrypted one only as encrypted", async () => {
      const detail = ok(await views("/linked-accounts/acme"));
      const config = h.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
      const hubspot = detail.configs.find((c: { slug: string }) => c.slug === "hubspot");
      for (const workflow of hubspot.workflows)
        assert.equal(
          workflow.enabled,
          config.workflows.find((w) => w.id === workflow.id)?.enabled ?? false,
          `${workflow.id} on or off as stored`,
        );
      const domain = hubspot.fields.find((f: { id: string }) => f.id === "hs_api_domain");
      assert.equal(domain.set, true);
      const token = detail.envValues.find((v: { name: string }) => v.name === "CRM_API_TOKEN");
      assert.deepEqual(Object.keys(token).sort(), [
        "encrypted",
        "linked_account_id",
        "name",
        "scope",
        "updatedAt",
        "var_format",
        "workflow_id",
      ]);
      assert.equal(token.encrypted, true);
      const secret = h.emulator.store.envVariables.valueFor(CRM_API_TOKEN, "acme", null)!.value;
      assert.ok(!JSON.stringify(detail).includes(secret));
      assert.equal((await views("/linked-accounts/nobody")).status, 404);
    });

    it("never carry an encrypted value, the API key, the bearer token or the signing secret", async () => {
      // An org-scope definition made encrypted too, which the env view lists with its value.
      await h.emulator.store.update((state) => {
        state.envDefinitions.find((d) => d.name === "API_BASE_URL")!.encrypted = true;
      });
      const secrets = [
        ...h.emulator.store.state.envValues
          .filter((v) => h.emulator.store.envVariables.definition(v.variable_definition_id)!.encrypted)
          .map((v) => v.value),
        h.emulator.apiKey,
        h.emulator.token,
      ];
      assert.ok(secrets.includes("https://api.example.com"));
      await h.api.get("/linked-account");
      await h.control.post("/webhooks/receivers", { url: "http://127.0.0.1:9/hook" });
      const baseUrl = ok(await views("/env")).values.find((v: { name: string }) => v.name === "API_BASE_URL");
      assert.equal(baseUrl.encrypted, true);
      assert.ok(!("value" in baseUrl), "an encrypted value is only said to be there");
      for (const path of [
        "/summary",
        "/linked-accounts",
        "/linked-accounts/acme",
        "/env",
        "/apps",
        "/journal",
        "/webhooks",
      ]) {
        const text = JSON.stringify(ok(await views(path)));
        for (const secret of secrets) assert.ok(!text.includes(secret), `${path} carries ${secret}`);
      }
    });

    it("serve the journal newest first, since a cursor or before an entry, filtered, each entry with its linked account", async () => {
      await h.api.get("/linked-account");
      await h.api.get("/slug/hubspot/config/acme", { headers: { linked_account_id: "acme" } });
      await h.api.post("/env/values", {
        variable_definition_id: "64f0000000000000000000d6",
        linked_account_id: "globex",
        value: "9",
      });
      h.emulator.faults.add([
        { method: "GET", path: "^/api/v2/public/env/values/", action: { status: 503 }, times: 1 },
      ]);
      await h.api.get("/env/values/linked_account", { params: { linked_account_id: "initech" } });
      // Past the burst of 5 (the 4 before, the fault's included, took 4): 3 are answered 429 by the rate limit.
      await Promise.all(Array.from({ length: 4 }, () => h.api.get("/env/definitions")));
      const all = ok(await views("/journal"));
      assert.equal(all.size, 8);
      assert.equal(all.lastSeq, all.entries[0].seq);
      assert.deepEqual(
        all.entries.map((e: { seq: number }) => e.seq),
        [...all.entries.map((e: { seq: number }) => e.seq)].sort((a, b) => b - a),
      );
      const named = all.entries.filter((e: { linkedAccountId?: string }) => e.linkedAccountId);
      assert.deepEqual(named.map((e: { linkedAccountId: string }) => e.linkedAccountId).sort(), [
        "acme",
        "globex",
        "initech",
      ]);
      const pick = (params: Record<string, unknown>) =>
        views("/journal", params).then((r) =>
          ok(r).entries.map((e: { path: string; status: number }) => [e.path, e.status]),
        );
      assert.deepEqual(await pick({ account: "globex" }), [["/api/v2/public/env/values", 200]]);
      assert.deepEqual(await pick({ method: "post" }), [["/api/v2/public/env/values", 200]]);
      assert.deepEqual(await pick({ status: "5xx" }), [["/api/v2/public/env/values/linked_account", 503]]);
      assert.equal((await pick({ status: "429" })).length, 3);
      assert.equal((await pick({ flagged: "true" })).length, 4, "three 429s and the fault");
      assert.deepEqual(await pick({ path: "/CONFIG/" }), [["/api/v2/public/slug/hubspot/config/acme", 200]]);
      // A poll with the last cursor gets nothing until a request comes; paging back goes before an entry.
      assert.deepEqual(ok(await views("/journal", { since: all.lastSeq })).entries, []);
      await h.api.get("/linked-account");
      const polled = ok(await views("/journal", { since: all.lastSeq }));
      assert.equal(polled.entries.length, 1);
      assert.equal(polled.lastSeq, all.lastSeq + 1);
      const paged = ok(await views("/journal", { limit: 3 }));
      assert.equal(paged.more, true);
      const older = ok(await views("/journal", { limit: 100, before: paged.entries[2].seq }));
      assert.equal(older.entries[0].seq, paged.entries[2].seq - 1);
      assert.equal(older.more, false);
      assert.equal((await views("/journal", { status: "abc" })).status, 400);
      assert.equal((await views("/journal", { limit: 501 })).status, 400);
    });

    it("serve the newest deliveries with every attempt", async () => {
      const answers = [500, 200];
      const receiver = await startReceiver(() => answers.shift() ?? 200);
      try {
        assert.equal((await h.control.post("/webhooks/receivers", { url: receiver.url })).status, 201);
        const run = { linked_account_id: "acme", slug: "hubspot", workflow_id: "wf_hs_contact_sync" };
        assert.equal((await h.control.post("/workflow-runs", run)).status, 201);
        await receiver.waitFor(2, 10_000);
        const deadline = Date.now() + 5_000;
        let view = ok(await views("/webhooks"));
        while (view.deliveries[0]?.state !== "delivered" && Date.now() < deadline) view = ok(await views("/webhooks"));
        assert.equal(view.receivers.length, 1);
        assert.equal(view.deliveries[0].run.workflow_id, "wf_hs_contact_sync");
        assert.deepEqual(
          view.deliveries[0].attempts.map((a: { number: number; status: number }) => [a.number, a.status]),
          [
            [1, 500],
            [2, 200],
          ],
        );
      } finally {
        await receiver.close();
      }
    });
  });

  it("DELETE /_emulator/faults/:id removes one rule and leaves the others", async () => {
    h.emulator.faults.add([
      { path: "^/a", action: { status: 500 } },
      { path: "^/b", action: { reset: true } },
    ]);
    const [first, second] = h.emulator.faults.list();
    assert.deepEqual(
      ok(await h.control.delete(`/faults/${first.id}`)).rules.map((r: { id: number }) => r.id),
      [second.id],
    );
    assert.equal((await h.control.delete(`/faults/${first.id}`)).status, 404);
    assert.equal((await h.control.delete("/faults/x")).status, 400);
  });

  describe("against cross-site request forgery", () => {
    const own = () => `http://127.0.0.1:${h.emulator.port}`;

    it("refuses a change sent by another site's page: its Origin, or Sec-Fetch-Site cross-site", async () => {
      await h.emulator.store.update((state) => (state.org.name = "Changed"));
      for (const origin of [
        "http://evil.example",
        `http://localhost:${h.emulator.port + 1}`,
        `https://127.0.0.1:${h.emulator.port}`,
        "null",
      ]) {
        const answer = await h.control.post("/reset", undefined, { headers: { origin } });
        assert.equal(answer.status, 403, origin);
        assert.match(answer.data.message, /refuses changes sent by another site's page/);
      }
      assert.equal((await h.control.delete("/faults", { headers: { "sec-fetch-site": "cross-site" } })).status, 403);
      const limit = { rateLimit: "1/1" };
      assert.equal((await h.control.put("/rate-limit", limit, { headers: { origin: "http://a.test" } })).status, 403);
      assert.equal(h.emulator.store.state.org.name, "Changed", "the reset was not made");
      assert.equal(h.emulator.rateLimit.get().rateLimit, "20/5", "the limit was not changed");
    });

    it("takes changes from its own page (Origin on this port, under any loopback name) and from clients without one", async () => {
      const sameOrigin = { origin: own(), "sec-fetch-site": "same-origin" };
      ok(await h.control.put("/rate-limit", { rateLimit: "10/2" }, { headers: sameOrigin }));
      ok(
        await h.control.put(
          "/rate-limit",
          { rateLimit: "11/2" },
          { headers: { origin: `http://localhost:${h.emulator.port}` } },
        ),
      );
      assert.equal(h.emulator.rateLimit.get().rateLimit, "11/2");
      // A script, a test or curl sends no Origin.
      ok(await h.control.post("/reset"));
      // A read is answered whatever the Origin: a page elsewhere cannot read it, as no CORS header allows it.
      const read = await views("/summary");
      assert.equal(read.status, 200);
      const foreign = await h.control.get("/dashboard/summary", { headers: { origin: "http://evil.example" } });
      assert.equal(foreign.status, 200);
      assert.equal(foreign.headers["access-control-allow-origin"], undefined);
    });
  });
});
