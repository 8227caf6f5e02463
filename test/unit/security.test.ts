// Hostile input and a hostile network (docs/guides/security.md): ids that would change meaning in a
// path or a header are refused before any request; credentials never follow a redirect and never
// cross the network in plain http unless the user opts in; answers are bounded in size and time.
import * as assert from "node:assert/strict";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { ConnectionError, InvalidIdError, RedirectError, SettingsError } from "../../provider";
import { openClient } from "../../provider/connection";
import { MAX_ID_LENGTH } from "../../provider/client/ids";
import { getConfig } from "../../provider/client/configs";
import { setEnvValue } from "../../provider/client/envVariables";
import { listLinkedAccounts } from "../../provider/client/linkedAccounts";
import { setWorkflowEnabled } from "../../provider/client/workflows";
import { summarize } from "../../cli/summary";
import { resolveSettings } from "../../provider/settings";
import { clientFor, provider, rejection, useProviderAgainstEmulator } from "../support/provider";

/** Strings an attacker or a careless user might give as an id, each with what makes it hostile. */
const HOSTILE: [string, string][] = [
  ["..", "a dot segment"],
  [".", "a dot segment"],
  ["ac\x07me", "a control character (bell)"],
  ["acme\r\nx-api-key: stolen", "CR LF"],
  ["acme用户", "characters a header cannot carry"],
  ["x".repeat(MAX_ID_LENGTH + 1), "too long"],
  [" acme", "leading whitespace"],
  ["acme\u202e", "a bidi control"],
];

/** A server on loopback whose answers the test writes; records every request it gets. */
async function server(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: http.IncomingHttpHeaders[] = [];
  const s = http.createServer((req, res) => {
    seen.push(req.headers);
    handle(req, res);
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      }),
  };
}

describe("security: ids that cannot change meaning", () => {
  const ctx = useProviderAgainstEmulator();
  const field = provider("ConfigField");
  const toggle = provider("WorkflowToggle");

  for (const [id, what] of HOSTILE) {
    it(`check refuses ${what} in every id of a ConfigField, naming the property, without a request`, async () => {
      for (const property of ["slug", "linkedAccountId", "configId", "fieldId", "workflowId"]) {
        const inputs = {
          slug: "hubspot",
          linkedAccountId: "acme",
          configId: "acme",
          fieldId: "hs_pipeline",
          name: "x",
          [property]: id,
        };
        const failures = (await field.check({}, inputs)).failures ?? [];
        assert.equal(failures.length, 1, `${property}: ${JSON.stringify(failures)}`);
        assert.equal(failures[0].property, property);
        assert.doesNotMatch(failures[0].reason, /acme|stolen|xxxx/, "the reason never quotes the id");
      }
      assert.equal(ctx.emulator.requests.list().length, 0);
    });
  }

  it("the client refuses them too, in a path or a header, before any request: a lookup or import cannot send them", async () => {
    const client = clientFor(ctx.emulator);
    for (const [id] of HOSTILE) {
      const inPath = await rejection(getConfig(client, { slug: id, configId: "acme", linkedAccountId: "acme" }));
      assert.ok(inPath instanceof InvalidIdError, inPath.message);
      assert.match(inPath.message, /^slug .*; no request was sent/);
      const inHeader = await rejection(
        setWorkflowEnabled(client, {
          slug: "hubspot",
          configId: "acme",
          linkedAccountId: id,
          workflowId: "wf_hs_deal_alerts",
          enabled: true,
        }),
      );
      assert.match(inHeader.message, /^linked_account_id .*; no request was sent/);
    }
    assert.equal(ctx.emulator.requests.list().length, 0);
  });

  it("an id that is fine reaches the platform exactly at the path it names", async () => {
    // Check accepts the id, and its validation asks the platform for exactly that config, which it does not have.
    const { failures } = await toggle.check(
      {},
      {
        slug: "hubspot",
        linkedAccountId: "acme",
        configId: "a/b%2e..c",
        workflowId: "wf_hs_deal_alerts",
        enabled: true,
      },
    );
    assert.deepEqual(failures, [
      {
        property: "configId",
        reason: 'the platform has no config "a/b%2e..c" of app "hubspot" for linked account "acme": check configId',
      },
    ]);
    assert.deepEqual(
      ctx.emulator.requests.list().map((r) => r.path),
      ["/api/v2/public/slug/hubspot/config/a%2Fb%252e..c", "/api/v2/public/slug/hubspot/config/acme"],
    );
  });
});

describe("security: credentials stay with the platform's host", () => {
  it("never follows a redirect: the second host gets nothing, and the error says why", async () => {
    const second = await server((_req, res) => res.end("{}"));
    const first = await server((_req, res) => {
      res.writeHead(307, { location: `${second.url}/api/v2/public/env/values` });
      res.end();
    });
    try {
      const client = openClient(
        resolveSettings(undefined, {
          INTEGRATION_PLATFORM_BASE_URL: first.url,
          INTEGRATION_PLATFORM_API_KEY: "tk_secret_key",
          INTEGRATION_PLATFORM_MAX_RETRIES: "0",
        }),
      );
      const error = await rejection(setEnvValue(client, { variable_definition_id: "d", value: "a secret value" }));
      assert.ok(error instanceof RedirectError, error.message);
      assert.match(
        error.message,
        /^307 from POST \/env\/values: the platform redirected the request, and redirects are not followed/,
      );
      assert.doesNotMatch(error.message, /tk_secret_key|a secret value/);
      assert.equal(first.seen.length, 1);
      assert.equal(second.seen.length, 0, "the key never reached the second host");
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("refuses plain http to a host other than this machine, unless allowPlainHttp says so", () => {
    const env = (url: string, extra: Record<string, string> = {}) => ({
      INTEGRATION_PLATFORM_BASE_URL: url,
      INTEGRATION_PLATFORM_API_KEY: "k",
      ...extra,
    });
    assert.throws(
      () => resolveSettings(undefined, env("http://api.example.com")),
      (e: Error) =>
        e instanceof SettingsError &&
        /uses http:\/\/ to api\.example\.com, which is not this machine: the API key would cross the network unencrypted\. Use https:\/\/, or, on a network you trust, set integration-platform:allowPlainHttp/.test(
          e.message,
        ),
    );
    assert.equal(
      resolveSettings(undefined, env("http://api.example.com", { INTEGRATION_PLATFORM_ALLOW_PLAIN_HTTP: "true" }))
        .baseUrl,
      "http://api.example.com",
    );
    for (const local of ["http://localhost:4010", "http://127.0.0.1:1", "http://127.1.2.3", "http://[::1]:80"])
      assert.ok(resolveSettings(undefined, env(local)).baseUrl);
    assert.ok(resolveSettings(undefined, env("https://api.example.com")).baseUrl);
  });

  it("bounds an answer's time: a body that trickles in forever fails the attempt at the timeout", async () => {
    const trickle = await server((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("[");
      const timer = setInterval(() => res.write(" "), 100);
      res.on("close", () => clearInterval(timer));
    });
    try {
      const client = openClient(
        resolveSettings(undefined, {
          INTEGRATION_PLATFORM_BASE_URL: trickle.url,
          INTEGRATION_PLATFORM_API_KEY: "k",
          INTEGRATION_PLATFORM_TIMEOUT_MS: "500",
          INTEGRATION_PLATFORM_MAX_RETRIES: "1",
        }),
      );
      const started = Date.now();
      const error = await rejection(listLinkedAccounts(client, {}));
      assert.ok(error instanceof ConnectionError, error.message);
      assert.match(error.message, /the platform did not answer in time/);
      assert.ok(
        Date.now() - started < 3000,
        `failed after ${Date.now() - started} ms: two attempts of 500 ms and a backoff`,
      );
      assert.equal(trickle.seen.length, 2, "the timeout is retried like any other");
    } finally {
      await trickle.close();
    }
  });

  it("bounds an answer's size at 16 MiB", async () => {
    const big = await server((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"docs":[],"pad":"${"x".repeat(17 * 1024 * 1024)}"}`);
    });
    try {
      const client = openClient(
        resolveSettings(undefined, {
          INTEGRATION_PLATFORM_BASE_URL: big.url,
          INTEGRATION_PLATFORM_API_KEY: "k",
          INTEGRATION_PLATFORM_MAX_RETRIES: "0",
        }),
      );
      const error = await rejection(listLinkedAccounts(client, {}));
      assert.match(error.message, /the answer was larger than 16 MiB/);
    } finally {
      await big.close();
    }
  });
});

describe("security: summaries show what a name holds", () => {
  it("shows control and bidi characters in names as escapes, in the summary's Markdown and its HTML", () => {
    const account = "acme\u202etxt.exe";
    const text = summarize({
      steps: [
        {
          op: "create",
          urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/integration-platform:WorkflowToggle::alerts\u0007",
          newState: {
            type: "pulumi-nodejs:dynamic/integration-platform:WorkflowToggle",
            inputs: { slug: "hubspot", linkedAccountId: account, configId: "c", workflowId: "wf", enabled: true },
          },
        },
      ],
    });
    // eslint-disable-next-line no-control-regex -- the bell character is what it looks for
    assert.doesNotMatch(text, /[\u0007\u202e]/);
    assert.match(text, /acme\\u202etxt\.exe/);
    assert.match(text, /alerts\\u0007/);
  });
});
