// The emulator's API described (docs/emulator.md, "Its API described"): the OpenAPI document
// describes every route the server registers and no other, the document served is the one the
// package ships, and the answers fastify gives before any route runs carry the platform's body too.
import axios from "axios";
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import type { RouteOptions } from "fastify";
import { startEmulator, type RunningEmulator } from "../../emulator";
import type { EmulatorContext } from "../../emulator/context";
import { FaultRules } from "../../emulator/faults";
import { describedOperations, openApiText, UNDESCRIBED_ROUTES } from "../../emulator/openApiDocument";
import { RateLimiter } from "../../emulator/rateLimit";
import { RequestLog } from "../../emulator/requestLog";
import { WorkflowRuns } from "../../emulator/runs";
import { buildServer } from "../../emulator/server";
import { Snapshots } from "../../emulator/snapshots";
import { EmulatorStore } from "../../emulator/store";
import { WebhookDispatcher } from "../../emulator/webhooks";
import { client, assertError } from "../support/emulatorClients";

const COMMITTED = join(__dirname, "..", "..", "emulator", "openapi.json");

/** Every route the server registers, as `METHOD url`, seen by fastify's onRoute hook as each is added. */
async function registeredRoutes(): Promise<string[]> {
  const store = await EmulatorStore.open({});
  const webhooks = new WebhookDispatcher("tk_emulator");
  const ctx: EmulatorContext = {
    store,
    credentials: { apiKey: "tk_emulator", token: "emulator_token" },
    rateLimit: new RateLimiter(),
    faults: new FaultRules(),
    requests: new RequestLog(),
    runs: new WorkflowRuns(store, webhooks),
    webhooks,
    snapshots: new Snapshots(store),
    warn: () => {},
  };
  const routes: string[] = [];
  const app = buildServer(ctx, (route: RouteOptions) => {
    for (const method of [route.method].flat()) routes.push(`${method} ${route.url}`);
  });
  // The HEAD twin of each GET is added when the server gets ready.
  await app.ready();
  await app.close();
  ctx.rateLimit.close();
  await webhooks.close();
  return routes;
}

describe("emulator: its OpenAPI document", () => {
  it("describes every route the server registers, and none it does not", async () => {
    const registered = await registeredRoutes();
    const described = describedOperations().map(({ method, url }) => `${method.toUpperCase()} ${url}`);
    // fastify answers HEAD for every GET, with the GET's headers and no body: no operation of its own.
    const operations = registered.filter(
      (route) => !(route.startsWith("HEAD ") && registered.includes(route.replace(/^HEAD /, "GET "))),
    );
    const undescribed = (route: string) => UNDESCRIBED_ROUTES.some((pattern) => pattern.test(route.split(" ")[1]));
    assert.deepEqual(
      operations.filter((route) => !undescribed(route) && !described.includes(route)),
      [],
      "registered but not described: give each its entry in its object's or the control plane's docs",
    );
    assert.deepEqual(
      described.filter((route) => !operations.includes(route)),
      [],
      "described but not registered",
    );
    // An exclusion that matches nothing any more would hide a route added under it later.
    for (const pattern of UNDESCRIBED_ROUTES)
      assert.ok(
        operations.some((route) => pattern.test(route.split(" ")[1])),
        `${pattern} leaves out no route`,
      );
    const ids = describedOperations().map(({ doc }) => doc.operationId);
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
      "operationIds are unique",
    );
  });

  describe("served", () => {
    let emulator: RunningEmulator;
    before(async () => {
      emulator = await startEmulator({ quiet: true });
    });
    after(async () => emulator?.close());

    it("at /_emulator/openapi.json, the document emulator/openapi.json holds (npm run gen:openapi writes it)", async () => {
      const served = await axios.get(`${emulator.url}/_emulator/openapi.json`);
      assert.equal(served.status, 200);
      assert.match(String(served.headers["content-type"]), /^application\/json/);
      const committed = readFileSync(COMMITTED, "utf8");
      assert.deepEqual(served.data, JSON.parse(committed));
      assert.equal(committed, openApiText(), "emulator/openapi.json is the document the code generates");
      assert.equal(served.data.openapi, "3.1.0");
      assert.deepEqual(served.data.servers, [{ url: "/" }]);
      assert.deepEqual(Object.keys(served.data.components.securitySchemes).sort(), ["apiKey", "bearerToken"]);
    });

    it("only to this machine, as the rest of the control plane", async () => {
      const elsewhere = await axios.get(`${emulator.url}/_emulator/openapi.json`, {
        headers: { host: "example.com" },
        validateStatus: () => true,
      });
      assertError(elsewhere, 403, "FORBIDDEN");
    });

    it("with the platform's 400 for what fastify answers itself: a bad escape, a long parameter, a 2 MiB body", async () => {
      const api = client(emulator, { "x-api-key": emulator.apiKey });
      assertError(await api.get("/env/definitions/%E0%A4%A"), 400, "VALIDATION_ERROR", "not a valid URL");
      assertError(await api.get(`/env/definitions/${"d".repeat(101)}`), 400, "VALIDATION_ERROR", "over 100");
      emulator.rateLimit.reset();
      const tooLarge = await rawPost(emulator, "/api/v2/public/env/values", `"${"x".repeat(2 * 1024 * 1024)}"`);
      assert.equal(tooLarge.status, 400, tooLarge.body);
      assert.equal(JSON.parse(tooLarge.body).error, "VALIDATION_ERROR");
    });
  });
});

/** A POST whose body is sent whole, for a body over fastify's limit (axios would refuse to send it). */
function rawPost(emulator: RunningEmulator, path: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${emulator.url}${path}`,
      { method: "POST", headers: { "content-type": "application/json", "x-api-key": emulator.apiKey } },
      (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
