// The native provider's gRPC service, called as the engine calls it (the SDK's generated client),
// in-process against an emulator: settings, check, diff, create, import, invoke, and secrets; and
// what the plugin loads before its first answer (service.ts).
// The whole lifecycle through the real CLI is test/e2e/native/*.test.ts.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { Connection } from "../../provider/connection";
import { packageSchema } from "../../provider/native/schema";
import { pluginService } from "../../provider/native/service";
import { useResetEmulator } from "../support/emulator";
import { FIXTURE } from "../../harness/fixture";

const provproto = require("@pulumi/pulumi/proto/provider_pb");
const { ResourceProviderService, ResourceProviderClient } = require("@pulumi/pulumi/proto/provider_grpc_pb");

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const URN = (type: string, name = "r") => `urn:pulumi:dev::proj::integration-platform:index:${type}::${name}`;
const struct = (value: Record<string, unknown>) =>
  structproto.Struct.fromJavaScript(value as Record<string, structproto.JavaScriptValue>);

/** This process's environment without NODE_COMPILE_CACHE. */
function withoutCompileCache(): NodeJS.ProcessEnv {
  const { NODE_COMPILE_CACHE: _, ...env } = process.env;
  return env;
}

describe("native provider plugin's start", function () {
  this.timeout(60_000);

  it("answers GetPluginInfo before loading the provider, then loads it without the SDK's index or its Automation API", () => {
    // A process of its own, as the plugin is: this one has loaded everything already.
    const script = `
      const loaded = () => Object.keys(require.cache).map((file) => file.split(require("path").sep).join("/"));
      const has = (files, part) => files.some((file) => file.includes(part));
      const { pluginService } = require("./provider/native/service");
      pluginService("9.9.9").getPluginInfo({}, (error, info) => {
        const first = loaded();
        const report = () => {
          const then = loaded();
          console.log(JSON.stringify({
            version: info.getVersion(),
            atAnswer: { server: has(first, "/native/server.ts"), zod: has(first, "/node_modules/zod/") },
            after: {
              server: has(then, "/native/server.ts"),
              sdkIndex: has(then, "/node_modules/@pulumi/pulumi/index.js"),
              automation: has(then, "/node_modules/@pulumi/pulumi/automation/"),
            },
          }));
          process.exit(0);
        };
        // The rest loads in the background after the answer: reported once it has, or after 30 s.
        const poll = setInterval(() => has(loaded(), "/native/server.ts") && setImmediate(report), 20);
        setTimeout(report, 30000);
      });
    `;
    const out = execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], {
      cwd: path.join(__dirname, "..", ".."),
      encoding: "utf8",
    });
    assert.deepEqual(JSON.parse(out.trim().split("\n").pop()!), {
      version: "9.9.9",
      atAnswer: { server: false, zod: false },
      after: { server: true, sdkIndex: false, automation: false },
    });
  });

  it("keeps Node's compile cache in the temporary folder, and starts without it where that folder cannot be made", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "compile-cache-"));
    try {
      // A process of its own: the cache, once on, stays on for the process.
      const enable = (tmpdir: string) =>
        execFileSync(
          process.execPath,
          [
            "-r",
            "ts-node/register/transpile-only",
            "-e",
            'console.log(require("./provider/native/compileCache").enableCompileCache())',
          ],
          // NODE_COMPILE_CACHE unset: the test runner's own setting is not the plugin's.
          {
            cwd: path.join(__dirname, "..", ".."),
            env: { ...withoutCompileCache(), TMPDIR: tmpdir },
            encoding: "utf8",
            timeout: 30_000,
          },
        ).trim();
      assert.equal(enable(tmp), "true");
      assert.ok(fs.statSync(path.join(tmp, "node-compile-cache")).isDirectory());
      // Node's own recursive mkdir never returns for a folder under /proc: the plugin must not wait on it.
      assert.equal(enable("/proc/no-such-folder"), "false");
      // A temporary folder that is a file: no cache, and no error.
      fs.writeFileSync(path.join(tmp, "a-file"), "");
      assert.equal(enable(path.join(tmp, "a-file")), "false");
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe("native provider service", () => {
  // The service's own connection, as the plugin holds one per configured provider: a new session per test.
  const connection = new Connection();
  const ctx = useResetEmulator({}, { beforeEach: () => connection.newSession() });
  let server: grpc.Server;
  let client: any;
  /** Calls one method, resolving with its response or rejecting with the gRPC error. */
  const call = <T = any>(method: string, request: unknown): Promise<T> =>
    new Promise((resolve, reject) =>
      client[method](request, (error: Error | null, response: T) => (error ? reject(error) : resolve(response))),
    );

  before(async () => {
    server = new grpc.Server();
    // The plugin's own service (main.ts): every call but GetPluginInfo goes through to server.ts.
    server.addService(ResourceProviderService, pluginService("9.9.9", undefined, connection));
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  });
  after(() => {
    client?.close();
    server?.forceShutdown();
  });

  /** Configures the provider for the emulator, as the engine does with the stack's settings. */
  async function configure(extra: Record<string, string> = {}) {
    const req = new provproto.ConfigureRequest();
    const vars = req.getVariablesMap();
    vars.set("integration-platform:config:baseUrl", ctx.emulator.url);
    vars.set("integration-platform:config:apiKey", ctx.emulator.apiKey);
    for (const [key, value] of Object.entries(extra)) vars.set(`integration-platform:config:${key}`, value);
    const response = await call("configure", req);
    assert.equal(response.getAcceptsecrets(), true);
  }

  async function check(type: string, news: Record<string, unknown>, olds: Record<string, unknown> = {}) {
    const req = new provproto.CheckRequest();
    req.setUrn(URN(type));
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    const response = await call("check", req);
    return {
      inputs: response.getInputs().toJavaScript(),
      failures: response.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  it("serves its schema and version", async () => {
    const response = await call("getSchema", new provproto.GetSchemaRequest());
    assert.deepEqual(JSON.parse(response.getSchema()), packageSchema("9.9.9"));
    const info = await call("getPluginInfo", new (require("google-protobuf/google/protobuf/empty_pb").Empty)());
    assert.equal(info.getVersion(), "9.9.9");
  });

  it("checks its settings: a bad value is refused by name without echoing it, the API key kept secret, a missing one left to the environment", async () => {
    const req = new provproto.CheckRequest();
    req.setUrn("urn:pulumi:dev::proj::pulumi:providers:integration-platform::default");
    req.setOlds(struct({}));
    req.setNews(struct({ baseUrl: "http://127.0.0.1:1", apiKey: "k-plain", timeoutMs: "5", version: "0.5.0" }));
    const response = await call("checkConfig", req);
    const failures = response.getFailuresList().map((f: any) => [f.getProperty(), f.getReason()]);
    assert.deepEqual(failures, [
      [
        "",
        'integration-platform:timeoutMs (INTEGRATION_PLATFORM_TIMEOUT_MS) must be a whole number from 100 to 600000; got "5"',
      ],
    ]);
    assert.deepEqual(response.getInputs().toJavaScript().apiKey, { [SIG]: SECRET, value: "k-plain" });
    req.setNews(struct({ requestsPerSecond: 5 }));
    assert.deepEqual((await call("checkConfig", req)).getFailuresList(), []);
  });

  it("diffs settings as an update that replaces nothing", async () => {
    const req = new provproto.DiffRequest();
    req.setOlds(struct({ baseUrl: "https://a.example", version: "0.5.0" }));
    req.setNews(struct({ baseUrl: "https://b.example", version: "0.6.0" }));
    const response = await call("diffConfig", req);
    assert.equal(response.getChanges(), provproto.DiffResponse.DiffChanges.DIFF_SOME);
    assert.deepEqual(response.getDiffsList(), ["baseUrl"]);
    assert.deepEqual(response.getReplacesList(), []);
  });

  it("checks a resource as the dynamic one does: each failure named in its reason, no request for a bad id", async () => {
    await configure();
    const { failures } = await check("ConfigField", {
      slug: "hubspot",
      linkedAccountId: "..",
      configId: "globex",
      fieldId: "hs_pipeline",
      name: ["Sales"],
    });
    assert.deepEqual(failures, [
      { property: "", reason: 'linkedAccountId: must not be "." or "..", which a URL resolves to another path' },
      { property: "", reason: "name: must be a string" },
    ]);
    assert.deepEqual(ctx.emulator.requests.list(), []);
  });

  it("takes a number given to a string property as its text, as Pulumi YAML passes config values", async () => {
    await configure({ validateAtPreview: "false" });
    const { inputs, failures } = await check("EnvVariableValue", {
      definitionId: FIXTURE.definitions.accountQuota,
      linkedAccountId: "globex",
      value: 4242,
    });
    assert.deepEqual(failures, []);
    assert.deepEqual(inputs.value, { [SIG]: SECRET, value: "4242" });
  });

  it("returns an env value as a secret input, and the definition's scope learned at check", async () => {
    await configure();
    const { inputs, failures } = await check("EnvVariableValue", {
      definitionId: FIXTURE.definitions.accountQuota,
      linkedAccountId: "globex",
      value: { [SIG]: SECRET, value: "250" },
    });
    assert.deepEqual(failures, []);
    assert.deepEqual(inputs.value, { [SIG]: SECRET, value: "250" });
    assert.equal(inputs.scope, "linked_account");
  });

  it("diffs with a detailed diff: identity replaces, settings update", async () => {
    const req = new provproto.DiffRequest();
    req.setId("x");
    req.setUrn(URN("WorkflowToggle"));
    const base = {
      slug: "hubspot",
      linkedAccountId: "globex",
      configId: "globex",
      workflowId: "wf_hs_contact_sync",
      enabled: true,
    };
    req.setOlds(struct({ ...base, previousEnabled: false, __provider: "exports.handler = ..." }));
    req.setNews(struct({ ...base, workflowId: "wf_hs_deal_alerts", enabled: false }));
    const response = await call("diff", req);
    assert.deepEqual(response.getReplacesList(), ["workflowId"]);
    const map = response.getDetaileddiffMap();
    const detailed: Record<string, number> = {};
    map.forEach((diff: { getKind(): number }, key: string) => (detailed[key] = diff.getKind()));
    assert.deepEqual(detailed, {
      workflowId: provproto.PropertyDiff.Kind.UPDATE_REPLACE,
      enabled: provproto.PropertyDiff.Kind.UPDATE,
    });
  });

  it("imports a field by its id with no write, recording nothing to put back; a type that cannot be read says what to do", async () => {
    await configure();
    const req = new provproto.ReadRequest();
    req.setId("globex/hubspot/globex//hs_api_domain");
    req.setUrn(URN("ConfigField"));
    req.setProperties(struct({}));
    const response = await call("read", req);
    const props = response.getProperties().toJavaScript();
    assert.equal(response.getId(), "globex/hubspot/globex//hs_api_domain");
    assert.deepEqual(
      [props.fieldId, props.workflowId, props.field.name, props.previous],
      ["hs_api_domain", undefined, "API domain", {}],
    );
    assert.deepEqual(response.getInputs().toJavaScript(), {
      slug: "hubspot",
      linkedAccountId: "globex",
      configId: "globex",
      fieldId: "hs_api_domain",
    });
    assert.deepEqual(
      ctx.emulator.requests.list().filter((r) => r.method !== "GET"),
      [],
    );

    req.setUrn(URN("ApplicationEvent"));
    req.setId(FIXTURE.events[0]);
    await assert.rejects(
      call("read", req),
      /ApplicationEvent cannot be imported: the API has no read of an event\. Declare it in the program with restoreOnDelete/,
    );
    req.setUrn(URN("ConfigField"));
    req.setId("globex/hubspot/globex//hs_nope");
    await assert.rejects(
      call("read", req),
      /ConfigField "globex\/hubspot\/globex\/\/hs_nope" was not found on the platform: check each part of the id/,
    );
  });

  it("creates a field and keeps the env value's previous value secret", async () => {
    await configure();
    const req = new provproto.CreateRequest();
    req.setUrn(URN("EnvVariableValue"));
    req.setProperties(
      struct({
        definitionId: FIXTURE.definitions.accountTier,
        linkedAccountId: "acme",
        value: { [SIG]: SECRET, value: "gold" },
        scope: "linked_account",
        encrypted: false,
      }),
    );
    const response = await call("create", req);
    const outs = response.getProperties().toJavaScript();
    assert.deepEqual(outs.value, { [SIG]: SECRET, value: "gold" });
    assert.equal(outs.previousValue[SIG], SECRET, "what delete puts back is a secret too");
    assert.ok(ctx.emulator.store.snapshot().envValues.some((v) => v.value === "gold"));
  });

  it("serves the lookups as functions, getEnvValues' list as a secret", async () => {
    await configure();
    const req = new provproto.InvokeRequest();
    req.setTok("integration-platform:index:getEnvValues");
    req.setArgs(struct({ scope: "linked_account", linkedAccountId: "acme" }));
    const values = (await call("invoke", req)).getReturn().toJavaScript();
    assert.equal(values.values[SIG], SECRET);
    assert.ok(values.values.value.length > 0);
    req.setTok("integration-platform:index:getLinkedAccounts");
    req.setArgs(struct({}));
    const accounts = (await call("invoke", req)).getReturn().toJavaScript();
    assert.deepEqual(accounts.linkedAccounts.map((a: { accountId: string }) => a.accountId).sort(), FIXTURE.accounts);
    req.setTok("integration-platform:index:getNothing");
    await assert.rejects(call("invoke", req), /unknown function "integration-platform:index:getNothing"/);
  });

  it("serves getShard from its arguments alone, as shardOf answers each shard vector, with no request", async () => {
    const vectors = JSON.parse(fs.readFileSync(path.join(__dirname, "../../contract/shardVectors.json"), "utf8")) as {
      linkedAccountId: string;
      shards: number;
      shard: number;
    }[];
    ctx.emulator.requests.clear();
    const req = new provproto.InvokeRequest();
    req.setTok("integration-platform:index:getShard");
    for (const { linkedAccountId, shards, shard } of vectors) {
      req.setArgs(struct({ linkedAccountId, shards }));
      assert.deepEqual((await call("invoke", req)).getReturn().toJavaScript(), { shard }, linkedAccountId);
    }
    req.setArgs(struct({ linkedAccountId: "acme", shards: 1001 }));
    await assert.rejects(call("invoke", req), /getShard: invalid arguments: shards: must be from 1 to 1000/);
    req.setArgs(struct({ linkedAccountId: "acme", shards: 2.5 }));
    await assert.rejects(call("invoke", req), /getShard: invalid arguments: shards: must be a whole number/);
    assert.deepEqual(ctx.emulator.requests.list(), []);
  });
});
