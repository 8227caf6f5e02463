// Bad input: a table of invalid inputs across the four resources and the lookups, each refused
// at `pulumi preview` with the property's name and the reason, with zero write requests (zero
// requests at all for the purely local checks; one read of the definition where a check needs
// its var_format or scope). Then a wrong API key and an unreachable base URL. Through the real
// CLI, one preview per row, against the in-process emulator.
import * as assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import * as net from "node:net";
import { Stack } from "../../../harness/engine";
import { useEmulatorStack } from "../../../harness/e2e";
import { FIXTURE } from "../../../harness/fixture";
import { logCursor, specProgram, writeSpec, type Spec } from "../../../harness/reliability";

const TAG = randomBytes(4).toString("hex");
const FIELD = { slug: "hubspot", linkedAccountId: "acme", configId: "acme", fieldId: "hs_pipeline", name: "Pipeline" };
const TOGGLE = {
  slug: "hubspot",
  linkedAccountId: "acme",
  configId: "acme",
  workflowId: "wf_hs_contact_sync",
  enabled: true,
};
const EVENT = { eventId: FIXTURE.events[0], name: "contact.created", response: { contact: { id: "c_1" } } };
const D = FIXTURE.definitions;

/** One invalid input: what the program declares or calls, and what the refusal must say. */
interface Row {
  what: string;
  spec: Spec;
  property: string;
  reason: string;
  /** Whether the check needs the platform's definition (one read) or is purely local (none). */
  reads?: string;
  /** A value that must not appear in the output (env values are secrets). */
  secret?: string;
}

/** Makes rows of one resource kind: `change` is applied to the valid `base` (undefined removes a property). */
function resource(kind: "fields" | "toggles" | "events" | "envValues", base: object) {
  return (
    what: string,
    change: Record<string, unknown>,
    property: string,
    reason: string,
    extra: Partial<Row> = {},
  ): Row => {
    const args: Record<string, unknown> = { ...base, ...change };
    for (const [key, value] of Object.entries(change)) if (value === undefined) delete args[key];
    return { what, spec: { [kind]: [{ name: "bad", args }] } as Spec, property, reason, ...extra };
  };
}
const field = resource("fields", FIELD);
const toggle = resource("toggles", TOGGLE);
const event = resource("events", EVENT);
const env = resource("envValues", { definitionId: D.accountQuota, linkedAccountId: "acme", value: "250" });
/**
 * A lookup row. Awaited in the exported async function, as the README's examples do, a failing
 * lookup takes about 27 s to be reported on Node 20 and 22 (any exception there does: a Node.js
 * util.inspect bug, nodejs/node#64011, fixed in Node 24.21; docs/guides/reliability.md, "Known limitations"),
 * so only one row runs that way; the others start the lookup at module load, unawaited, and the
 * refusal, the same message, arrives in about 2 s.
 */
const lookup = (fn: string, args: unknown, property: string, reason: string, awaited = false): Row => ({
  what: `${fn}(${JSON.stringify(args)})${awaited ? ", awaited in the exported async function" : ""}`,
  spec: { lookups: [{ fn, args, unawaited: !awaited }] },
  property,
  reason,
});

const ROWS: Row[] = [
  field("ConfigField: empty slug", { slug: "" }, "slug", "must not be empty or whitespace"),
  field(
    "ConfigField: whitespace linkedAccountId",
    { linkedAccountId: "   " },
    "linkedAccountId",
    "must not be empty or whitespace",
  ),
  field("ConfigField: configId is a number", { configId: 42 }, "configId", "must be a string, not a number"),
  field("ConfigField: fieldId missing", { fieldId: undefined }, "fieldId", "is required"),
  field(
    "ConfigField: workflowId padded with a space",
    { workflowId: " wf_hs_contact_sync" },
    "workflowId",
    "must not start or end with whitespace",
  ),
  // Ids that would change meaning in a path or a header (docs/guides/security.md).
  field(
    'ConfigField: fieldId ".."',
    { fieldId: ".." },
    "fieldId",
    'must not be "." or "..", which a URL resolves to another path',
  ),
  toggle(
    "WorkflowToggle: a bell in linkedAccountId",
    { linkedAccountId: "ac\u0007me" },
    "linkedAccountId",
    "must hold only printable ASCII characters",
  ),
  field("ConfigField: empty name", { name: "" }, "name", "must not be empty"),
  field(
    "ConfigField: options is a string",
    { options: "sales" },
    "options",
    "must be a list of {name, value} objects, not a string",
  ),
  field("ConfigField: an option without value", { options: [{ name: "Sales" }] }, "options", "[0].value: is required"),
  field(
    "ConfigField: a label with an unknown key",
    { labels: [{ name: "team", value: "crm", colour: "red" }] },
    "labels",
    "[0]: unknown key colour",
  ),
  field("ConfigField: an unknown property", { color: "red" }, "color", "is not a property of this resource"),
  toggle(
    'WorkflowToggle: enabled is the string "true"',
    { enabled: "true" },
    "enabled",
    "must be true or false, not a string",
  ),
  toggle("WorkflowToggle: enabled is 1", { enabled: 1 }, "enabled", "must be true or false, not a number"),
  toggle("WorkflowToggle: enabled missing", { enabled: undefined }, "enabled", "is required"),
  toggle("WorkflowToggle: workflowId is null", { workflowId: null }, "workflowId", "must be a string, not null"),
  event("ApplicationEvent: empty eventId", { eventId: "" }, "eventId", "must not be empty or whitespace"),
  event(
    "ApplicationEvent: response is a list",
    { response: [1, 2] },
    "response",
    "must be an object (a sample of the event's response), not a list",
  ),
  event(
    "ApplicationEvent: response is a JSON string",
    { response: '{"a":1}' },
    "response",
    "must be an object (a sample of the event's response), not a string",
  ),
  event(
    "ApplicationEvent: restoreOnDelete without response",
    { restoreOnDelete: { name: "contact.created" } },
    "restoreOnDelete",
    "response: is required",
  ),
  env("EnvVariableValue: empty definitionId", { definitionId: "" }, "definitionId", "must not be empty or whitespace"),
  env("EnvVariableValue: value is a number", { value: 250 }, "value", "must be a string, not a number"),
  env("EnvVariableValue: value missing", { value: undefined }, "value", "is required"),
  env(
    "EnvVariableValue: a non-number for a number definition",
    { value: `twelve-${TAG}` },
    "value",
    "must be a number, because the definition's var_format is number",
    {
      reads: D.accountQuota,
      secret: `twelve-${TAG}`,
    },
  ),
  env(
    "EnvVariableValue: a bad URL for a url definition",
    {
      definitionId: D.webhookUrl,
      linkedAccountId: undefined,
      workflowId: "wf_hs_contact_sync",
      value: `not-a-url-${TAG}`,
    },
    "value",
    "must be an absolute http(s) URL, because the definition's var_format is url",
    { reads: D.webhookUrl, secret: `not-a-url-${TAG}` },
  ),
  env(
    "EnvVariableValue: an ftp URL for a url definition",
    { definitionId: D.apiBaseUrl, linkedAccountId: undefined, value: `ftp://files.example.com/${TAG}` },
    "value",
    "must be an absolute http(s) URL, because the definition's var_format is url",
    { reads: D.apiBaseUrl, secret: `ftp://files.example.com/${TAG}` },
  ),
  env(
    "EnvVariableValue: a linked account on an org definition",
    { definitionId: D.apiBaseUrl, value: "https://api.example.com" },
    "linkedAccountId",
    "must not be set: definition API_BASE_URL has scope org",
    { reads: D.apiBaseUrl },
  ),
  env(
    "EnvVariableValue: no linked account on a linked_account definition",
    { linkedAccountId: undefined },
    "linkedAccountId",
    "is required: definition ACCOUNT_QUOTA has scope linked_account",
    { reads: D.accountQuota },
  ),
  env(
    "EnvVariableValue: a workflow on a linked_account definition",
    { definitionId: D.accountTier, workflowId: "wf_hs_contact_sync", value: "gold" },
    "workflowId",
    "must not be set: definition ACCOUNT_TIER has scope linked_account",
    { reads: D.accountTier },
  ),
  env(
    "EnvVariableValue: no workflow on a workflow definition",
    { definitionId: D.batchSize, value: "50" },
    "workflowId",
    "is required: definition BATCH_SIZE has scope workflow",
    { reads: D.batchSize },
  ),
  env(
    "EnvVariableValue: an unknown definition",
    { definitionId: "64f00000000000000000ffff" },
    "definitionId",
    'no env variable definition has the id "64f00000000000000000ffff"',
    { reads: "64f00000000000000000ffff" },
  ),
  lookup("getEnvValues", { scope: "linked_account" }, "linkedAccountId", "is required for scope linked_account", true),
  lookup(
    "getEnvValues",
    { scope: "galaxy" },
    "scope",
    'Invalid option: expected one of "org"|"workspace"|"linked_account"|"workflow"',
  ),
  lookup("getEnvDefinition", { definitionId: "  " }, "definitionId", "must not be empty"),
  lookup(
    "getLinkedAccounts",
    { envVariableValue: "enterprise" },
    "envVariableName",
    "is required when envVariableValue is given",
  ),
  lookup("getAuditEvents", { maxItems: "ten" }, "maxItems", "must be a number"),
];

describe("e2e reliability: bad input", function () {
  this.timeout(10 * 60_000);
  const e2e = useEmulatorStack((workspace) => new Stack(workspace, specProgram(workspace, "badinput"), "badinput"));

  it(`the table has at least 30 rows across the four resources and the lookups (${ROWS.length})`, () => {
    assert.ok(ROWS.length >= 30);
    for (const kind of ["ConfigField", "WorkflowToggle", "ApplicationEvent", "EnvVariableValue", "get"]) {
      assert.ok(
        ROWS.some((row) => row.what.startsWith(kind)),
        kind,
      );
    }
  });

  for (const row of ROWS) {
    it(`refuses at preview: ${row.what}`, async () => {
      writeSpec(e2e.stack.dir, row.spec);
      const since = logCursor(e2e.emulator);
      const preview = await e2e.stack.run(["preview"]);
      const output = preview.stdout + preview.stderr;
      assert.notEqual(preview.code, 0, output);
      // The message names the property and says why: the engine's "has a problem: <property>:
      // <reason>" for resources, the lookup's "invalid arguments: <property>: <reason>".
      const expected = row.spec.lookups ? `${row.spec.lookups[0].fn}: invalid arguments: ` : "has a problem: ";
      assert.ok(
        output.includes(`${expected}${row.property}: ${row.reason}`),
        `the output says "${expected}${row.property}: ${row.reason}":\n${output}`,
      );
      const requests = e2e.emulator.requests.list(since).map((e) => `${e.method} ${e.path}`);
      // The definition a value is checked against comes from one listing of every definition.
      assert.deepEqual(requests, row.reads ? ["GET /api/v2/public/env/definitions"] : [], "requests made");
      if (row.secret) assert.ok(!output.includes(row.secret), "the output does not contain the value");
    });
  }

  it("a wrong API key gives one clear error that names the config key and does not echo the key", async () => {
    const wrongKey = `tk_wrong_${randomBytes(8).toString("hex")}`;
    const wrong = await e2e.addStack(new Stack(e2e.workspace, e2e.stack.dir, "wrongkey"), {
      secrets: { "integration-platform:apiKey": wrongKey },
    });
    writeSpec(e2e.stack.dir, { fields: [{ name: "pipeline", args: FIELD }] });
    const since = logCursor(e2e.emulator);
    const up = await wrong.run(["up", "--yes", "--skip-preview"]);
    const output = up.stdout + up.stderr;
    assert.notEqual(up.code, 0);
    const message =
      "401 from GET /slug/hubspot/config/acme: Invalid Credentials: the API key was refused; check `integration-platform:apiKey` (INTEGRATION_PLATFORM_API_KEY)";
    assert.ok(output.includes(message), output);
    // One error: every error line of the run carries that same message (the engine repeats it
    // in the progress view and the diagnostics), apart from the run's own "update failed".
    const errors = output.split("\n").filter((l) => /error:/.test(l) && !/update failed/.test(l));
    assert.ok(errors.length > 0 && errors.every((l) => l.includes(message)), errors.join("\n"));
    assert.ok(!output.includes(wrongKey), "the key is not echoed");
    // Refused credentials are not retried: one request.
    assert.deepEqual(
      e2e.emulator.requests.list(since).map((e) => `${e.status} ${e.auth}`),
      ["401 invalid"],
    );
  });

  it("an unreachable base URL fails within a bounded time with a clear message: refused, and silent", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    // Accepts connections and never answers, as a hung service or a black-holing proxy would.
    const silent = net.createServer(() => {}).listen(0, "127.0.0.1");
    await new Promise((resolve) => silent.once("listening", resolve));
    const silentPort = (silent.address() as net.AddressInfo).port;
    writeSpec(e2e.stack.dir, { fields: [{ name: "pipeline", args: FIELD }] });
    try {
      for (const [name, port, says] of [
        ["refused", closedPort, "the platform could not be reached (ECONNREFUSED)"],
        ["silent", silentPort, "the platform did not answer in time"],
      ] as const) {
        const unreachable = await e2e.addStack(new Stack(e2e.workspace, e2e.stack.dir, name), {
          config: {
            "integration-platform:baseUrl": `http://127.0.0.1:${port}`,
            "integration-platform:timeoutMs": "1000",
            "integration-platform:maxRetries": "2",
          },
        });
        const up = await unreachable.run(["up", "--yes", "--skip-preview"]);
        const output = up.stdout + up.stderr;
        console.log(`      ${name}: failed in ${up.ms} ms`);
        assert.notEqual(up.code, 0);
        // CLI start plus 3 attempts of at most 1 s and backoffs of about 0.5 s and 1 s.
        assert.ok(up.ms < 30_000, `${name}: failed after ${up.ms} ms`);
        assert.ok(
          output.includes(
            `GET /slug/hubspot/config/acme failed (after 3 attempts): ${says}; check \`integration-platform:baseUrl\``,
          ),
          output,
        );
      }
    } finally {
      silent.close();
    }
  });
});
