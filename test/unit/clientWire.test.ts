// Every request the client sends, as it reaches the wire: each operation of the client (with the
// API key, the bearer token, or both where the operation takes either; across pages; each write's
// body shape), the session's shared reads and writes, the lookups, and every resource type's
// provider through create, read, update and delete. A recording proxy between the client and the
// in-process emulator writes method, path, query, headers and body into test/unit/golden/client-wire.txt,
// so that a change to how the client is laid out is proven to change no request (`UPDATE_GOLDEN=1`
// rewrites the file: then read its diff).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { FIXTURE } from "../../harness/fixture";
import { updateApplicationEvent } from "../../provider/client/applicationEvents";
import { listAuditEvents } from "../../provider/client/audit";
import { getConfig, setConfigFieldValue, updateConfigField } from "../../provider/client/configs";
import {
  deleteEnvValue,
  getEnvDefinition,
  listEnvDefinitions,
  listEnvValues,
  setEnvValue,
} from "../../provider/client/envVariables";
import type { PlatformClient } from "../../provider/client/http";
import { listLinkedAccounts } from "../../provider/client/linkedAccounts";
import { setWorkflowEnabled } from "../../provider/client/workflows";
import { Connection, openClient } from "../../provider/connection";
import { AuditEventsLookup } from "../../provider/functions/auditEvents";
import { EnvDefinitionLookup, EnvDefinitionsLookup } from "../../provider/functions/envDefinitions";
import { EnvValuesLookup } from "../../provider/functions/envValues";
import { LinkedAccountsLookup } from "../../provider/functions/linkedAccounts";
import { providersOf } from "../../provider/resources/served";
import { Session } from "../../provider/session";
import { resolveSettings } from "../../provider/settings";

const GOLDEN = path.join(__dirname, "golden", "client-wire.txt");
const HUBSPOT = { slug: "hubspot", linkedAccountId: "acme", configId: "acme" };
const CONTACT_SYNC = "wf_hs_contact_sync";
const D = FIXTURE.definitions;

/** One request as it arrived: the request line, the headers in the order sent, and the body. */
interface Seen {
  line: string;
  headers: [string, string][];
  body: string;
}

/**
 * A proxy that records each request and forwards it to the emulator unchanged. Only what varies
 * from run to run is written over: the port in `host`, axios's version in `user-agent`, and the ids
 * the emulator makes at random (numbered by first appearance).
 */
async function recordingProxy(target: string): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const headers: [string, string][] = [];
      for (let i = 0; i < request.rawHeaders.length; i += 2)
        headers.push([request.rawHeaders[i].toLowerCase(), request.rawHeaders[i + 1]]);
      seen.push({ line: `${request.method} ${request.url}`, headers, body: body.toString("utf8") });
      const forwarded = http.request(
        `${target}${request.url}`,
        { method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.on("error", () => response.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The recording as text: steps in order, each step's requests sorted (a step may send some at once). */
class Recording {
  private readonly lines: string[] = [];
  private readonly newIds = new Map<string, string>();
  private from = 0;

  constructor(
    private readonly seen: Seen[],
    private readonly knownIds: Set<string>,
  ) {}

  /** Runs one step and writes what it sent under its name; a refusal is recorded, as is a call sent nothing. */
  async step(name: string, run: () => PromiseLike<unknown>): Promise<void> {
    let outcome = "";
    try {
      await run();
    } catch (error) {
      outcome = `  -> ${(error as Error).constructor.name}\n`;
    }
    const requests = this.seen.slice(this.from).map((r) => this.render(r));
    this.from = this.seen.length;
    this.lines.push(`## ${name}\n${outcome}${requests.sort().join("") || "  (nothing sent)\n"}`);
  }

  /** Everything recorded. */
  text(): string {
    return this.lines.join("\n");
  }

  private render(request: Seen): string {
    const headers = request.headers.map(([name, value]) => {
      if (name === "host") return `  ${name}: 127.0.0.1:<port>\n`;
      if (name === "user-agent") return `  ${name}: ${value.replace(/^axios\/[\d.]+$/, "axios/<version>")}\n`;
      return `  ${name}: ${value}\n`;
    });
    const body = request.body === "" ? "" : `  body: ${request.body}\n`;
    return this.ids(`${request.line}\n${headers.join("")}${body}`);
  }

  /** Ids the emulator made at random, as `<new id N>`; the fixture's ids stay. */
  private ids(text: string): string {
    return text.replace(/[0-9a-f]{24}/g, (id) => {
      if (this.knownIds.has(id)) return id;
      if (!this.newIds.has(id)) this.newIds.set(id, `<new id ${this.newIds.size + 1}>`);
      return this.newIds.get(id)!;
    });
  }
}

/** A client of the proxy with the given credentials, unpaced (the emulator's limit is off). */
function clientOf(url: string, credentials: { apiKey?: string; token?: string }): PlatformClient {
  return openClient(
    resolveSettings(undefined, {
      INTEGRATION_PLATFORM_BASE_URL: url,
      INTEGRATION_PLATFORM_REQUESTS_PER_SECOND: "0",
      INTEGRATION_PLATFORM_MAX_RETRIES: "0",
      ...(credentials.apiKey ? { INTEGRATION_PLATFORM_API_KEY: credentials.apiKey } : {}),
      ...(credentials.token ? { INTEGRATION_PLATFORM_TOKEN: credentials.token } : {}),
    }),
  );
}

/** A connection to the proxy, as a provider host holds one, with the given stack config. */
function connectionOf(url: string, config: Record<string, string>): Connection {
  const connection = new Connection();
  const settings: Record<string, string> = {
    "integration-platform:baseUrl": url,
    "integration-platform:requestsPerSecond": "0",
    "integration-platform:maxRetries": "0",
    ...config,
  };
  connection.useStackConfig({ get: (key) => settings[key] });
  return connection;
}

/** Each operation of the client, with each credential it takes, each body shape, and lists across pages. */
async function clientCalls(r: Recording, url: string, emulator: RunningEmulator): Promise<void> {
  const key = clientOf(url, { apiKey: emulator.apiKey });
  const token = clientOf(url, { token: emulator.token });
  const both = clientOf(url, { apiKey: emulator.apiKey, token: emulator.token });
  const field = { ...HUBSPOT, fieldId: "hs_pipeline" };
  const workflowField = { ...HUBSPOT, fieldId: "hs_contact_owner", workflowId: CONTACT_SYNC };

  await r.step("getConfig", () => getConfig(key, HUBSPOT));
  await r.step("getConfig, token only", () => getConfig(token, HUBSPOT));
  await r.step("getConfig, both: the API key", () => getConfig(both, { ...HUBSPOT, slug: "slack" }));
  await r.step("updateConfigField, global, name", () =>
    updateConfigField(key, { ...field, values: { name: "Deals" } }),
  );
  await r.step("updateConfigField, global, options and labels", () =>
    updateConfigField(key, {
      ...field,
      values: { options: [{ name: "Sales", value: "sales" }], labels: [{ name: "Team", value: "a" }] },
    }),
  );
  await r.step("updateConfigField, workflow field", () =>
    updateConfigField(key, { ...workflowField, values: { name: "Owner" } }),
  );
  await r.step("setConfigFieldValue, global", () => setConfigFieldValue(key, { ...field, value: "sales" }));
  await r.step("setConfigFieldValue, workflow field, an object", () =>
    setConfigFieldValue(key, { ...workflowField, value: { id: 7, name: "Ada" } }),
  );
  await r.step("setConfigFieldValue, token only", () => setConfigFieldValue(token, { ...field, value: "x" }));
  await r.step("setWorkflowEnabled, off", () =>
    setWorkflowEnabled(key, { ...HUBSPOT, workflowId: CONTACT_SYNC, enabled: false }),
  );
  await r.step("setWorkflowEnabled, on", () =>
    setWorkflowEnabled(both, { ...HUBSPOT, workflowId: CONTACT_SYNC, enabled: true }),
  );
  await r.step("updateApplicationEvent", () =>
    updateApplicationEvent(key, FIXTURE.events[0], { name: "deal.won", response: { deal: { id: "d_1" }, n: 2 } }),
  );
  await r.step("updateApplicationEvent, token only", () =>
    updateApplicationEvent(token, FIXTURE.events[0], { name: "x", response: {} }),
  );
  await envCalls(r, { key, token, both });
  await r.step("listLinkedAccounts, one page", () => listLinkedAccounts(key, { search: "acme" }));
  await r.step("listLinkedAccounts, every page of 1", () => listLinkedAccounts(key, { limit: 1 }).all());
  await r.step("listLinkedAccounts, by env value", () =>
    listLinkedAccounts(key, { env_variable_name: "ACCOUNT_TIER", env_variable_value: "gold" }).all(),
  );
  await r.step("listLinkedAccounts, token only", () => listLinkedAccounts(token).all());
  await r.step("listAuditEvents, every page of 2, up to 5", async () => {
    const seen = [];
    for await (const event of listAuditEvents(key, { limit: 2 })) if (seen.push(event) === 5) break;
  });
  await r.step("listAuditEvents, token", () => listAuditEvents(token, { page: 2, limit: 3 }));
  await r.step("listAuditEvents, both: the token", () => listAuditEvents(both).all(1));
}

/** The env operations: definitions, values by scope, the upsert's body shapes, delete. */
async function envCalls(
  r: Recording,
  c: { key: PlatformClient; token: PlatformClient; both: PlatformClient },
): Promise<void> {
  await r.step("listEnvDefinitions, every page of 3", () => listEnvDefinitions(c.key, { limit: 3 }).all());
  await r.step("listEnvDefinitions, filtered", () =>
    listEnvDefinitions(c.key, { scope: "linked_account", var_format: "number", name: "ACCOUNT_QUOTA" }),
  );
  await r.step("listEnvDefinitions, token only", () => listEnvDefinitions(c.token).all());
  await r.step("getEnvDefinition", () => getEnvDefinition(c.key, D.accountTier));
  await r.step("getEnvDefinition, token", () => getEnvDefinition(c.token, D.webhookUrl));
  await r.step("getEnvDefinition, both: the token", () => getEnvDefinition(c.both, D.apiBaseUrl));
  await r.step("getEnvDefinition, unknown", () => getEnvDefinition(c.key, "64f0000000000000000000ff"));
  await r.step("listEnvValues, org", () => listEnvValues(c.key, "org").all());
  await r.step("listEnvValues, workspace, token", () => listEnvValues(c.token, "workspace").all());
  await r.step("listEnvValues, linked_account of one definition", () =>
    listEnvValues(c.key, "linked_account", { linked_account_id: "acme", variable_definition_id: D.accountTier }).all(),
  );
  await r.step("listEnvValues, workflow, every page of 1", () =>
    listEnvValues(c.both, "workflow", { workflow_id: CONTACT_SYNC, limit: 1 }).all(),
  );
  await r.step("listEnvValues, workflow and account, one page", () =>
    listEnvValues(c.key, "workflow", { workflow_id: CONTACT_SYNC, linked_account_id: "acme", page: 1, limit: 10 }),
  );
  await r.step("setEnvValue, org", () => setEnvValue(c.key, { variable_definition_id: D.maxRetries, value: "5" }));
  await r.step("setEnvValue, linked_account, token", () =>
    setEnvValue(c.token, { variable_definition_id: D.accountQuota, value: "40", linked_account_id: "globex" }),
  );
  await r.step("setEnvValue, workflow", () =>
    setEnvValue(c.key, {
      variable_definition_id: D.webhookUrl,
      value: "https://h.example/w",
      workflow_id: CONTACT_SYNC,
    }),
  );
  let created = "";
  await r.step("setEnvValue, workflow and account, both", async () => {
    created = (
      await setEnvValue(c.both, {
        variable_definition_id: D.batchSize,
        value: "12",
        linked_account_id: "globex",
        workflow_id: CONTACT_SYNC,
      })
    )._id;
  });
  await r.step("deleteEnvValue, a new value", () => deleteEnvValue(c.key, created));
  await r.step("deleteEnvValue, token", () => deleteEnvValue(c.token, FIXTURE.values.maxRetries));
  await r.step("deleteEnvValue, gone", () => deleteEnvValue(c.key, created));
}

/** The session's shared reads (each read once), its writes, and a read again after a write. */
async function sessionCalls(r: Recording, url: string, emulator: RunningEmulator): Promise<void> {
  const session = new Session(clientOf(url, { apiKey: emulator.apiKey }));
  const field = { ...HUBSPOT, fieldId: "hs_pipeline" };
  const toggle = { ...HUBSPOT, workflowId: CONTACT_SYNC };
  const tier = { definitionId: D.accountTier, scope: "linked_account" as const, linkedAccountId: "acme" };
  const batch = { definitionId: D.batchSize, scope: "workflow" as const, workflowId: CONTACT_SYNC };
  await r.step("session: readConfig twice", async () => {
    await session.readConfig(field);
    await session.readConfig(toggle);
  });
  await r.step("session: updateConfigField, then readConfig", async () => {
    await session.updateConfigField(field, { name: "Pipeline" });
    await session.readConfig(field);
  });
  await r.step("session: setConfigFieldValue", () => session.setConfigFieldValue(field, "partners"));
  await r.step("session: setWorkflowEnabled, then readConfig", async () => {
    await session.setWorkflowEnabled(toggle, false);
    await session.readConfig(toggle);
  });
  await r.step("session: updateApplicationEvent", () =>
    updateApplicationEvent(session.client, FIXTURE.events[1], { name: "deal.closed", response: { id: "d" } }),
  );
  await r.step("session: envDefinition twice", async () => {
    await session.envDefinition(D.accountTier);
    await session.envDefinition(D.accountQuota);
  });
  await r.step("session: envDefinition, token only", () =>
    new Session(clientOf(url, { token: emulator.token })).envDefinition(D.batchSize),
  );
  await r.step("session: findEnvValue of an account and of a workflow", async () => {
    await session.findEnvValue(tier);
    await session.findEnvValue({ ...batch, linkedAccountId: "acme" });
    await session.findEnvValue({ ...batch, linkedAccountId: "initech" });
  });
  let id = "";
  await r.step("session: setEnvValue, then findEnvValue", async () => {
    id = (await session.setEnvValue({ ...batch, linkedAccountId: "initech" }, "30"))._id;
    await session.findEnvValue({ ...batch, linkedAccountId: "initech" });
  });
  await r.step("session: deleteEnvValue", () => session.deleteEnvValue({ ...batch, linkedAccountId: "initech" }, id));
}

/** Every lookup that reads the platform, over a connection as the native plugin holds one. */
async function lookupCalls(r: Recording, url: string, emulator: RunningEmulator): Promise<void> {
  const connection = connectionOf(url, { "integration-platform:apiKey": emulator.apiKey });
  await r.step("getLinkedAccounts", () => LinkedAccountsLookup.over(connection)({ search: "a", maxItems: 2 }));
  await r.step("getEnvDefinitions", () => EnvDefinitionsLookup.over(connection)({ scope: "workflow" }));
  await r.step("getEnvDefinition", () => EnvDefinitionLookup.over(connection)({ definitionId: D.workspaceRegion }));
  await r.step("getEnvValues", () =>
    EnvValuesLookup.over(connection)({ scope: "linked_account", linkedAccountId: "acme" }),
  );
  await r.step("getAuditEvents", () => AuditEventsLookup.over(connection)({ maxItems: 3 }));
}

/** Each resource type's provider: check (validating), create, read, update, delete, as a `pulumi` run calls them. */
async function providerCalls(r: Recording, url: string, emulator: RunningEmulator): Promise<void> {
  const connection = connectionOf(url, {
    "integration-platform:apiKey": emulator.apiKey,
    "integration-platform:validateAtPreview": "true",
  });
  const providers = providersOf(connection);
  const lifecycles: [keyof typeof providers, Record<string, unknown>, Record<string, unknown>][] = [
    ["ConfigField", { ...HUBSPOT, fieldId: "hs_pipeline", name: "Deals" }, { name: "Pipelines" }],
    ["ConfigField", { ...HUBSPOT, fieldId: "hs_contact_owner", workflowId: CONTACT_SYNC, value: "x" }, { value: "y" }],
    ["WorkflowToggle", { ...HUBSPOT, workflowId: CONTACT_SYNC, enabled: false }, { restoreOnDelete: true }],
    [
      "EnvVariableValue",
      { definitionId: D.accountQuota, scope: "linked_account", linkedAccountId: "initech", value: "250" },
      { value: "300" },
    ],
    [
      "ApplicationEvent",
      { eventId: FIXTURE.events[2], name: "deal.lost", response: { id: "d", n: 1 } },
      { name: "deal.gone", restoreOnDelete: { name: "Deal lost", response: { id: "d" } } },
    ],
  ];
  for (const [type, inputs, change] of lifecycles) {
    const p = providers[type];
    const news = { ...inputs, ...change };
    connection.newSession();
    let created = { id: "", outs: {} as Record<string, unknown> };
    await r.step(`${type}: check, create`, async () => {
      const checked = await p.check!({}, inputs);
      const { id, outs } = await p.create(checked.inputs);
      created = { id, outs: outs as Record<string, unknown> };
    });
    connection.newSession();
    await r.step(`${type}: read, check, update`, async () => {
      const read = await p.read!(created.id, created.outs);
      const checked = await p.check!(read.props, news);
      await p.update!(created.id, read.props, checked.inputs);
    });
    connection.newSession();
    await r.step(`${type}: delete`, () => p.delete!(created.id, { ...created.outs, ...news }));
  }
}

describe("the client on the wire: every request, as sent (golden client-wire.txt)", () => {
  let emulator: RunningEmulator;
  before(async () => {
    // Limit off, though the platform has one (20/s, burst 5): the golden is every request as sent, and a
    // 429's retry would add requests that depend on timing; the pacing itself is proven by rateLimit.test.ts.
    emulator = await startEmulator({ quiet: true, rateLimit: "off" });
  });
  after(async () => emulator?.close());

  it("sends every operation's requests as the golden file holds them", async () => {
    const proxy = await recordingProxy(emulator.url);
    const fixtureIds = JSON.stringify(emulator.store.snapshot()).match(/[0-9a-f]{24}/g) ?? [];
    const recording = new Recording(proxy.seen, new Set(fixtureIds));
    try {
      await clientCalls(recording, proxy.url, emulator);
      await emulator.store.reset();
      await sessionCalls(recording, proxy.url, emulator);
      await emulator.store.reset();
      await lookupCalls(recording, proxy.url, emulator);
      await emulator.store.reset();
      await providerCalls(recording, proxy.url, emulator);
    } finally {
      await proxy.close();
    }
    const text = `${recording.text()}`;
    if (process.env.UPDATE_GOLDEN === "1" || !fs.existsSync(GOLDEN)) {
      fs.mkdirSync(path.dirname(GOLDEN), { recursive: true });
      fs.writeFileSync(GOLDEN, text);
    }
    assert.ok(proxy.seen.length > 75, `recorded ${proxy.seen.length} requests`);
    assert.equal(
      text,
      fs.readFileSync(GOLDEN, "utf8"),
      `${GOLDEN} differs: if intended, UPDATE_GOLDEN=1 and read the diff`,
    );
  });
});
