// The one HTTP client: retries, Retry-After, timeouts, error mapping and response validation,
// each observed through the emulator's request log.
import * as assert from "node:assert/strict";
import * as net from "node:net";
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  FieldNotFoundError,
  RateLimitError,
  ResponseValidationError,
  SettingsError,
  WorkflowNotPublishedError,
} from "../../provider";
import { apiErrorFrom, isRateLimitAnswer } from "../../provider/client/errors";
import { listLinkedAccounts } from "../../provider/client/linkedAccounts";
import { resolveSettings } from "../../provider/settings";
import { clientFor, rejection, useProviderAgainstEmulator } from "../support/provider";

describe("PlatformClient", () => {
  const ctx = useProviderAgainstEmulator();
  const client = (extra: Record<string, string> = {}) =>
    clientFor(ctx.emulator, {
      INTEGRATION_PLATFORM_TIMEOUT_MS: "500",
      INTEGRATION_PLATFORM_MAX_RETRIES: "3",
      ...extra,
    });
  const attempts = () =>
    ctx.emulator.requests.list().filter((r) => r.path.startsWith("/api/v2/public/linked-account")).length;

  it("retries a 429 after the Retry-After it names, then succeeds", async () => {
    ctx.emulator.faults.add([
      { path: "^/api/v2/public/linked-account", action: { status: 429, retryAfter: 1 }, times: 1 },
    ]);
    const started = Date.now();
    const page = await listLinkedAccounts(client(), {});
    assert.equal(page.docs.length, 3);
    assert.equal(attempts(), 2);
    assert.ok(Date.now() - started >= 1000, "waited for Retry-After: 1");
  });

  it("retries 500, 503, a reset connection and a timeout", async () => {
    ctx.emulator.faults.add([
      { path: "^/api/v2/public/linked-account", action: { status: 500 }, times: 1 },
      { path: "^/api/v2/public/linked-account", action: { status: 503 }, times: 1 },
      { path: "^/api/v2/public/linked-account", action: { reset: true }, times: 1 },
    ]);
    await listLinkedAccounts(client(), {});
    assert.equal(attempts(), 4);

    ctx.emulator.requests.clear();
    ctx.emulator.faults.clear();
    ctx.emulator.faults.add([{ path: "^/api/v2/public/linked-account", action: { delayMs: 1500 }, times: 1 }]);
    const started = Date.now();
    await listLinkedAccounts(client(), {});
    assert.ok(Date.now() - started < 1500, "the retry answered before the slow first attempt would have");
    assert.deepEqual(
      ctx.emulator.requests.list().map((r) => r.status),
      [499, 200],
      "the slow attempt was abandoned after 500 ms (logged as 499) and retried",
    );
  });

  it("shares one request between identical reads in flight at the same time, and only then", async () => {
    const c = client();
    const [a, b] = await Promise.all([
      listLinkedAccounts(c, { search: "acme" }),
      listLinkedAccounts(c, { search: "acme" }),
    ]);
    assert.deepEqual(a, b);
    assert.equal(attempts(), 1);
    await listLinkedAccounts(c, { search: "acme" });
    await Promise.all([listLinkedAccounts(c, { search: "acme" }), listLinkedAccounts(c, { search: "globex" })]);
    assert.equal(attempts(), 4, "a later read, and a different read, each make their own request");
  });

  it("does not retry a 400 or a 404", async () => {
    const error = await rejection(listLinkedAccounts(client(), { limit: 500 }));
    assert.match(error.message, /^400 from GET \/linked-account: .*limit/);
    assert.equal(attempts(), 1);
  });

  it("fails fast and clearly when the base URL is unreachable", async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const started = Date.now();
    const error = await rejection(
      listLinkedAccounts(client({ INTEGRATION_PLATFORM_BASE_URL: `http://127.0.0.1:${port}` }), {}),
    );
    assert.ok(error instanceof ConnectionError);
    assert.match(error.message, /could not be reached \(ECONNREFUSED\); check `integration-platform:baseUrl`/);
    assert.ok(Date.now() - started < 10_000);
  });

  it("names the field when a response does not have the documented shape, and does not retry it", async () => {
    await ctx.emulator.store.update((state) => {
      (state.linkedAccounts[1] as { account_id: unknown }).account_id = 42;
    });
    const error = await rejection(listLinkedAccounts(client(), {}));
    assert.ok(error instanceof ResponseValidationError);
    assert.match(
      error.message,
      /^GET \/linked-account answered 200 with a body that does not have the documented shape: `docs.1.account_id`/,
    );
    assert.equal(attempts(), 1, "an answer of the wrong shape will not change on a retry");
  });

  it("asks for an API key when only a token is set and the operation needs a key", async () => {
    const error = await rejection(
      listLinkedAccounts(client({ INTEGRATION_PLATFORM_API_KEY: "", INTEGRATION_PLATFORM_TOKEN: "t" }), {}),
    );
    assert.ok(error instanceof SettingsError);
    assert.match(error.message, /GET \/linked-account needs an API key.*integration-platform:apiKey/);
    assert.equal(attempts(), 0);
  });
});

describe("resolveSettings", () => {
  it("names every missing config key in one error", () => {
    assert.throws(
      () => resolveSettings(undefined, {}),
      (error: Error) => {
        assert.ok(error instanceof SettingsError);
        assert.match(
          error.message,
          /integration-platform:baseUrl \(or the environment variable INTEGRATION_PLATFORM_BASE_URL\)/,
        );
        assert.match(
          error.message,
          /integration-platform:apiKey \(or the environment variable INTEGRATION_PLATFORM_API_KEY\)/,
        );
        return true;
      },
    );
  });

  it("prefers stack config over the environment, and strips /api/v2/public", () => {
    const settings = resolveSettings(
      { get: (k) => ({ "integration-platform:baseUrl": "https://cfg.test/api/v2/public/" })[k] },
      {
        INTEGRATION_PLATFORM_BASE_URL: "https://env.test",
        INTEGRATION_PLATFORM_API_KEY: "tk_x",
      },
    );
    assert.equal(settings.baseUrl, "https://cfg.test");
    assert.equal(settings.apiKey, "tk_x");
  });

  it("refuses a malformed base URL or a bad number, naming the key", () => {
    assert.throws(
      () => resolveSettings(undefined, { INTEGRATION_PLATFORM_BASE_URL: "nope", INTEGRATION_PLATFORM_API_KEY: "k" }),
      /integration-platform:baseUrl must be an absolute http\(s\) URL/,
    );
    assert.throws(
      () =>
        resolveSettings(undefined, {
          INTEGRATION_PLATFORM_BASE_URL: "https://x",
          INTEGRATION_PLATFORM_API_KEY: "k",
          INTEGRATION_PLATFORM_MAX_RETRIES: "many",
        }),
      /integration-platform:maxRetries \(INTEGRATION_PLATFORM_MAX_RETRIES\) must be a whole number from 0 to 10/,
    );
  });
});

describe("apiErrorFrom", () => {
  const failed = (body: object) =>
    apiErrorFrom({ operation: "PUT /config/field/x", auth: "apiKey", status: 400, body, attempts: 1 });

  it("turns the platform's quirks into classes: a 400 that says a field is not found, and a draft's refusal", () => {
    const field = failed({ status_code: 400, error: "VALIDATION_ERROR", message: "Field with id x not found" });
    assert.ok(field instanceof FieldNotFoundError, field.constructor.name);
    assert.match(
      field.message,
      /^400 from PUT \/config\/field\/x: Field with id x not found: check fieldId and workflowId$/,
    );
    assert.ok(
      failed({ error_code: "WORKFLOW_NOT_PUBLISHED", message: "Workflow w is a draft" }) instanceof
        WorkflowNotPublishedError,
    );
    assert.ok(
      failed({ message: "This workflow is not published yet" }) instanceof WorkflowNotPublishedError,
      "the message alone tells, when no code does",
    );
    const other = failed({ error: "VALIDATION_ERROR", message: "slug: required" });
    assert.ok(
      other instanceof BadRequestError &&
        !(other instanceof FieldNotFoundError) &&
        !(other instanceof WorkflowNotPublishedError),
    );
  });
});

describe('isRateLimitAnswer: 429, or 403 "Rate Limit Hit"', () => {
  const refused = (body: unknown) =>
    apiErrorFrom({
      operation: "GET /linked-account",
      auth: "apiKey",
      status: 403,
      body,
      attempts: 4,
      rateLimitedMs: 1200,
      rateLimitBudgetMs: 1000,
    });

  it("reads the message, error and error_code of a 403, case-insensitively, and takes every 429", () => {
    for (const body of [
      { status_code: 403, http_error_type: "FORBIDDEN", error: "RATE_LIMIT_HIT", message: "Rate Limit Hit" },
      { message: "rate limit hit" },
      { error: "rate_limit_hit", message: "Forbidden" },
      { error_code: "RATE_LIMIT_HIT", message: "Forbidden" },
      { error_code: "FORBIDDEN", error: "RATE_LIMIT_HIT", message: "Forbidden" },
      "Rate Limit Hit",
    ]) {
      assert.equal(isRateLimitAnswer(403, body), true, JSON.stringify(body));
    }
    assert.equal(isRateLimitAnswer(429, undefined), true);
    assert.equal(isRateLimitAnswer(429, { message: "Invalid Credentials" }), true);
  });

  it("leaves any other 403, and a 401 that mentions the limit, to the credentials", () => {
    for (const body of [
      { http_error_type: "FORBIDDEN", error: "FORBIDDEN", message: "Forbidden" },
      { message: "Invalid Credentials" },
      {},
      undefined,
      "Forbidden",
      { message: 429 },
    ]) {
      assert.equal(isRateLimitAnswer(403, body), false, JSON.stringify(body));
    }
    assert.equal(isRateLimitAnswer(401, { message: "Rate Limit Hit" }), false);
    assert.equal(isRateLimitAnswer(undefined, { message: "Rate Limit Hit" }), false);
  });

  it('makes the rate-limit error of a 403 "Rate Limit Hit", naming 403, and the credentials error of any other 403', () => {
    const limited = refused({ error_code: "RATE_LIMIT_HIT", message: "Forbidden" });
    assert.ok(limited instanceof RateLimitError, limited.constructor.name);
    assert.equal(limited.status, 403);
    assert.match(
      limited.message,
      /^403 from GET \/linked-account: Forbidden \(the platform's rate limit, answered as 403 "Rate Limit Hit"\): the platform's rate limit held this call for 1\.2 s over 4 attempts \(the budget is 1000 ms\)/,
    );
    const other = refused({ error: "FORBIDDEN", message: "Forbidden" });
    assert.ok(other instanceof AuthenticationError, other.constructor.name);
    assert.equal(
      other.message,
      "403 from GET /linked-account: Forbidden: the API key was refused; check `integration-platform:apiKey` (INTEGRATION_PLATFORM_API_KEY)",
    );
  });
});
