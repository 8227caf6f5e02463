// Property-based (fast-check): generated hostile strings at every id input of every resource and of
// the lookups' paths. Each is refused at check (naming the property, with no request), or reaches
// the server unchanged at exactly the path segment or header it names (docs/guides/security.md).
import * as assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { updateApplicationEvent } from "../../provider/client/applicationEvents";
import { updateConfigField } from "../../provider/client/configs";
import { getEnvDefinition } from "../../provider/client/envVariables";
import type { PlatformClient } from "../../provider/client/http";
import { idProblem } from "../../provider/client/ids";
import { setWorkflowEnabled } from "../../provider/client/workflows";
import type { ResourceType } from "../../provider/resources";
import { openClient, PROCESS_CONNECTION } from "../../provider/connection";
import { resolveSettings, SETTINGS } from "../../provider/settings";
import { UNKNOWN } from "../../provider/resources/inputs";
import { provider } from "../support/provider";

/** What one request carried, as the server saw it: its path's segments decoded, and its headers. */
interface Seen {
  segments: string[];
  headers: http.IncomingHttpHeaders;
}

/** Strings an attacker would try: dot segments, encodings of them, separators, controls, bidi, non-ASCII, long. */
const hostile = fc.oneof(
  fc.constantFrom(
    ".",
    "..",
    "%2e",
    "%2e%2e",
    ".%2e",
    "a/../b",
    "..\\..",
    "a?b=c",
    "a#b",
    "a%00b",
    " a",
    "a ",
    "\t",
    "ac\u0007me",
    "a\r\nx-api-key: k",
    "acme用户",
    "a\u202eb",
    "\u0000",
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme-ascii", maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(".", "/", "%", "2", "e", "\\", " ", "\n"), maxLength: 12 }),
  fc.string({ unit: "grapheme-ascii", minLength: 250, maxLength: 300 }),
);

/** Each resource's id inputs, valid values for all of them, and the client call its create makes with them. */
const RESOURCES: {
  type: ResourceType;
  valid: Record<string, unknown>;
  ids: string[];
  /** The request the resource's create sends, and where each id must land in it. */
  send(client: PlatformClient, v: Record<string, string>): Promise<unknown>;
  expect(v: Record<string, string>): { segments: string[]; headers: Record<string, string> };
  /** The reads check itself may make (validation against the platform), and where each id lands in them. */
  checkReads?(v: Record<string, string>): { segments: string[]; headers: Record<string, string> }[];
}[] = [
  {
    type: "ConfigField",
    valid: {
      slug: "hubspot",
      linkedAccountId: "acme",
      configId: "acme",
      fieldId: "hs_pipeline",
      workflowId: "wf",
      name: "x",
    },
    ids: ["slug", "linkedAccountId", "configId", "fieldId", "workflowId"],
    send: (c, v) =>
      updateConfigField(c, {
        fieldId: v.fieldId,
        linkedAccountId: v.linkedAccountId,
        slug: v.slug,
        configId: v.configId,
        workflowId: v.workflowId,
        values: {},
      }),
    expect: (v) => ({
      segments: ["config", "field", v.fieldId],
      headers: { linked_account_id: v.linkedAccountId, slug: v.slug },
    }),
    checkReads: (v) => configReads(v),
  },
  {
    type: "WorkflowToggle",
    valid: { slug: "hubspot", linkedAccountId: "acme", configId: "acme", workflowId: "wf", enabled: true },
    ids: ["slug", "linkedAccountId", "configId", "workflowId"],
    send: (c, v) =>
      setWorkflowEnabled(c, {
        slug: v.slug,
        configId: v.configId,
        linkedAccountId: v.linkedAccountId,
        workflowId: v.workflowId,
        enabled: true,
      }),
    expect: (v) => ({
      segments: ["slug", v.slug, "config", v.configId, "workflows", v.workflowId],
      headers: { linked_account_id: v.linkedAccountId },
    }),
    checkReads: (v) => configReads(v),
  },
  {
    type: "ApplicationEvent",
    valid: { eventId: "e1", name: "x", response: { a: 1 } },
    ids: ["eventId"],
    send: (c, v) => updateApplicationEvent(c, v.eventId, { name: "x", response: {} }),
    expect: (v) => ({ segments: ["application", "event", v.eventId], headers: {} }),
  },
  {
    type: "EnvVariableValue",
    // The definition's scope comes from the platform at check; these cases check the ids alone.
    valid: { definitionId: UNKNOWN, linkedAccountId: "acme", value: "1" },
    ids: ["definitionId"],
    send: (c, v) => getEnvDefinition(c, v.definitionId),
    expect: (v) => ({ segments: ["env", "definitions", v.definitionId], headers: {} }),
    // Validation lists every definition once; the id stays out of that request.
    checkReads: () => [{ segments: ["env", "definitions"], headers: {} }],
  },
];

/** The config reads of a field's or a toggle's validation: its config, and the account's own when that one was not found. */
function configReads(v: Record<string, string>) {
  return [v.configId, v.linkedAccountId].map((configId) => ({
    segments: ["slug", v.slug, "config", configId],
    headers: { linked_account_id: v.linkedAccountId },
  }));
}

describe("ids, property-based: refused at check, or sent unchanged where they belong", function () {
  this.timeout(120_000);
  let server: http.Server;
  let seen: Seen[] = [];
  let client: PlatformClient;

  before(async () => {
    // A capture server, not the platform: it answers every request 404 at once, so pacing is off here.
    server = http.createServer((req, res) => {
      const path = (req.url ?? "").split("?")[0].replace(/^\/api\/v2\/public\//, "");
      seen.push({ segments: path.split("/").map((s) => decodeURIComponent(s)), headers: req.headers });
      res.writeHead(404, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          status_code: 404,
          http_error_type: "NOT_FOUND",
          error: "RESOURCE_NOT_FOUND",
          message: "captured",
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const env = {
      INTEGRATION_PLATFORM_BASE_URL: url,
      INTEGRATION_PLATFORM_API_KEY: "k",
      INTEGRATION_PLATFORM_MAX_RETRIES: "0",
      INTEGRATION_PLATFORM_REQUESTS_PER_SECOND: "0",
    };
    client = openClient(resolveSettings(undefined, env));
    // The providers' own reads at check (an env value's definition) go to the capture server too.
    PROCESS_CONNECTION.newSession();
    PROCESS_CONNECTION.useStackConfig({
      get: (key) => env[(Object.values(SETTINGS).find((s) => s.config === key)?.env ?? "") as keyof typeof env],
    });
  });
  after(() => {
    PROCESS_CONNECTION.newSession();
    PROCESS_CONNECTION.useStackConfig(undefined);
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const counts = { refused: 0, sent: 0 };
  after(() =>
    console.log(
      `      ${counts.refused + counts.sent} cases: ${counts.refused} refused at check, ${counts.sent} sent and found unchanged where they belong`,
    ),
  );

  for (const resource of RESOURCES) {
    for (const property of resource.ids) {
      it(`${resource.type}.${property}`, async () => {
        await fc.assert(
          fc.asyncProperty(hostile, async (id) => {
            seen = [];
            const inputs = { ...resource.valid, [property]: id };
            const failures = (await provider(resource.type).check({}, inputs)).failures ?? [];
            const mine = failures.filter(
              (f: { property: string; reason: string }) => f.property === property && f.reason === idProblem(id),
            );
            if (idProblem(id) !== undefined) {
              counts.refused++;
              assert.equal(
                mine.length,
                1,
                `check names ${property} and the reason, for ${JSON.stringify(id)}: ${JSON.stringify(failures)}`,
              );
              assert.equal(seen.length, 0, "no request for an input refused at check");
              return;
            }
            // Accepted by the id rule: check names no problem with it, and the ids travel unchanged,
            // in the reads of check's own validation too.
            assert.deepEqual(mine, []);
            const values = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, String(v)]));
            const allowed = resource.checkReads?.(values) ?? [];
            for (const request of seen) {
              const read = allowed.find((r) => isDeepStrictEqual(r.segments, request.segments));
              assert.ok(
                read,
                `check's read ${JSON.stringify(request.segments)} is one of ${JSON.stringify(allowed.map((r) => r.segments))}`,
              );
              for (const [name, value] of Object.entries(read.headers))
                assert.equal(request.headers[name], value, `check's read: header ${name}`);
            }
            seen = [];
            counts.sent++;
            await resource.send(client, values).catch(() => undefined);
            assert.equal(seen.length, 1, `one request for ${JSON.stringify(id)}`);
            const expected = resource.expect(values);
            assert.deepEqual(
              seen[0].segments,
              expected.segments,
              `the path names exactly the ids, for ${JSON.stringify(id)}`,
            );
            for (const [name, value] of Object.entries(expected.headers))
              assert.equal(seen[0].headers[name], value, `header ${name}`);
          }),
          { numRuns: 150 },
        );
      });
    }
  }

  it("the lookups' path ids are refused before any request, or sent unchanged (getEnvDefinition)", async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (id) => {
        seen = [];
        const error = await getEnvDefinition(client, id).then(
          () => undefined,
          (e: Error) => e,
        );
        if (seen.length === 0) {
          counts.refused++;
          assert.match(String(error?.message), /^definitionId .*; no request was sent/);
        } else {
          counts.sent++;
          assert.deepEqual(seen[0].segments, ["env", "definitions", id]);
        }
      }),
      { numRuns: 150 },
    );
  });
});
