import { describe, it } from "mocha";
import { strict as assert } from "node:assert";
import { FIXTURE } from "../../harness/fixture";
import { assertError, ok, refillRateLimit, useEmulatorClients } from "../support/emulatorClients";

describe("emulator: GET /linked-account", () => {
  const h = useEmulatorClients();
  const accounts = async (params: Record<string, string | number> = {}) =>
    ok(await h.api.get("/linked-account", { params })).docs.map((a: { account_id: string }) => a.account_id);

  it("lists linked accounts with the documented item shape", async () => {
    const page = ok(await h.api.get("/linked-account"));
    assert.equal(page.totalDocs, 3);
    assert.deepEqual(page.docs[0], {
      _id: "64f0000000000000000000a1",
      account_id: "acme",
      name: "Acme Corporation",
      environment: "test",
      udf: [{ key_name: "plan", key_value: "enterprise" }],
      createdAt: "2024-01-01T00:00:00.000Z",
      updatedAt: "2024-01-01T00:00:00.000Z",
    });
  });

  it("search filters by a case-insensitive substring of the name", async () => {
    assert.deepEqual(await accounts({ search: "GLOBEX" }), ["globex"]);
    assert.deepEqual(await accounts({ search: "in" }), ["globex", "initech"]);
    assert.deepEqual(await accounts({ search: "zzz" }), []);
  });

  it("filters by a linked_account env value", async () => {
    assert.deepEqual(await accounts({ env_variable_name: "ACCOUNT_TIER", env_variable_value: "enterprise" }), [
      "acme",
      "initech",
    ]);
    assert.deepEqual(
      await accounts({ env_variable_name: "ACCOUNT_TIER", env_variable_value: "enterprise", search: "acme" }),
      ["acme"],
    );
    assert.deepEqual(await accounts({ env_variable_name: "ACCOUNT_TIER", env_variable_value: "none" }), []);
    assert.deepEqual(await accounts({ env_variable_name: "NO_SUCH_VAR", env_variable_value: "x" }), []);
  });

  it("never matches on an encrypted definition", async () => {
    assert.deepEqual(await accounts({ env_variable_name: "CRM_API_TOKEN", env_variable_value: "crm-secret-acme" }), []);
  });

  it("sees a value set through the API", async () => {
    ok(
      await h.api.post("/env/values", {
        variable_definition_id: FIXTURE.definitions.accountTier,
        value: "enterprise",
        linked_account_id: "globex",
      }),
    );
    assert.deepEqual(await accounts({ env_variable_name: "ACCOUNT_TIER", env_variable_value: "enterprise" }), [
      "acme",
      "globex",
      "initech",
    ]);
  });

  it("paginates across pages with the mongoose-paginate envelope", async () => {
    const first = ok(await h.api.get("/linked-account", { params: { limit: 2 } }));
    const second = ok(await h.api.get("/linked-account", { params: { limit: 2, page: 2 } }));
    const beyond = ok(await h.api.get("/linked-account", { params: { limit: 2, page: 3 } }));
    assert.deepEqual(
      { ...first, docs: first.docs.map((a: { account_id: string }) => a.account_id) },
      {
        docs: ["acme", "globex"],
        totalDocs: 3,
        limit: 2,
        page: 1,
        totalPages: 2,
        pagingCounter: 1,
        hasPrevPage: false,
        hasNextPage: true,
        prevPage: null,
        nextPage: 2,
      },
    );
    assert.deepEqual(
      { ...second, docs: second.docs.map((a: { account_id: string }) => a.account_id) },
      {
        docs: ["initech"],
        totalDocs: 3,
        limit: 2,
        page: 2,
        totalPages: 2,
        pagingCounter: 3,
        hasPrevPage: true,
        hasNextPage: false,
        prevPage: 1,
        nextPage: null,
      },
    );
    assert.deepEqual([beyond.docs, beyond.hasNextPage, beyond.prevPage], [[], false, 2]);
  });

  it("400 naming limit above 100 and for bad page/limit values", async () => {
    assertError(
      await h.api.get("/linked-account", { params: { limit: 101 } }),
      400,
      "VALIDATION_ERROR",
      "limit: must be an integer between 1 and 100",
    );
    assertError(await h.api.get("/linked-account", { params: { limit: 0 } }), 400, "VALIDATION_ERROR", "limit:");
    assertError(await h.api.get("/linked-account", { params: { limit: "ten" } }), 400, "VALIDATION_ERROR", "limit:");
    assertError(
      await h.api.get("/linked-account", { params: { page: 0 } }),
      400,
      "VALIDATION_ERROR",
      "page: must be an integer between 1 and 90071992547409",
    );
    // Past it, pagingCounter ((page - 1) * limit + 1) would be no safe integer: the fuzzer's find.
    assertError(await h.api.get("/linked-account", { params: { page: 90071992547410 } }), 400, "VALIDATION_ERROR");
    refillRateLimit(h);
    assertError(await h.api.get("/linked-account", { params: { page: 1.5 } }), 400, "VALIDATION_ERROR", "page:");
    refillRateLimit(h);
    ok(await h.api.get("/linked-account", { params: { limit: 100 } }));
  });

  it("400 when only one of env_variable_name and env_variable_value is given", async () => {
    assertError(
      await h.api.get("/linked-account", { params: { env_variable_name: "ACCOUNT_TIER" } }),
      400,
      "VALIDATION_ERROR",
      "env_variable_value",
    );
  });
});
