// The platform's documented rate limit (20 requests per second, burst 5, per credential) through
// the real CLI, with the emulator enforcing it as it does by default: a multi-tenant stack of 300
// resources through its whole life, and two stacks on one API key deploying at the same time.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { Stack, Workspace, type CommandResult } from "../../scripts/lib/engine";
import { writeProgram } from "../../scripts/lib/program";
import { ACCOUNT_QUOTA, seedTenants, TENANT_PROGRAM } from "../../scripts/lib/tenants";
import { observableState, useEmulatorStack } from "../support/e2e";

/** A tenant stack's program, with its tenants written beside it. */
function tenantStack(workspace: Workspace, name: string, tenants: string[]): Stack {
  return new Stack(workspace, writeProgram(workspace.root, name, { "index.ts": TENANT_PROGRAM, "tenants.json": JSON.stringify(tenants) }));
}

/** Asserts that every tenant is set up as the program declares, as the platform holds it. */
function assertSetUp(emulator: RunningEmulator, tenants: string[]): void {
  for (const id of tenants) {
    const config = emulator.store.config({ linkedAccountId: id, slug: "hubspot", configId: id });
    assert.ok(config, `tenant ${id} has its config`);
    assert.equal(config.workflows.find((w) => w.id === "wf_hs_deal_alerts")?.enabled, true, `tenant ${id}: deal alerts enabled`);
    assert.equal(config.fields.find((f) => f.id === "hs_pipeline")?.name, `${id} pipeline`, `tenant ${id}: field renamed`);
    assert.equal(emulator.store.envValueFor(ACCOUNT_QUOTA, id, null)?.value, "500", `tenant ${id}: quota set`);
  }
}

/** Fails with what the CLI printed unless the command succeeded. */
function assertOk(result: CommandResult, what: string): void {
  assert.equal(result.code, 0, `${what} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
}

describe("e2e: 300 resources at the platform's documented rate limit", function () {
  this.timeout(20 * 60_000);
  const TENANTS = 100;
  let tenants: string[] = [];
  const e2e = useEmulatorStack((workspace) => tenantStack(workspace, "tenants", []));

  before(async () => {
    assert.equal(e2e.emulator.rateLimit.get().rateLimit, "20/5", "the emulator enforces the documented limit");
    tenants = await seedTenants(e2e.emulator, "tenant", TENANTS);
    fs.writeFileSync(path.join(e2e.stack.dir, "tenants.json"), JSON.stringify(tenants));
  });

  it("up, preview --expect-no-changes, refresh and destroy all succeed, with at most 2% of calls answered 429, and leave the platform as found", async () => {
    const found = observableState(e2e.emulator);
    e2e.emulator.requests.clear();
    const calls: Record<string, { calls: number; limited: number; seconds: number }> = {};
    const step = async (name: string, args: string[], check: (result: CommandResult) => void) => {
      const from = e2e.emulator.requests.list().length;
      const result = await e2e.stack.run(args);
      assertOk(result, `pulumi ${args.join(" ")}`);
      const log = e2e.emulator.requests.list().slice(from);
      calls[name] = { calls: log.length, limited: log.filter((r) => r.status === 429).length, seconds: result.ms / 1000 };
      check(result);
    };

    await step("up", ["up", "--yes"], (up) => {
      assert.match(up.stdout, new RegExp(`\\+ ${3 * TENANTS + 1} created`));
      assertSetUp(e2e.emulator, tenants);
    });
    await step("preview", ["preview", "--expect-no-changes"], () => {});
    await step("refresh", ["refresh", "--yes"], (refresh) => {
      assert.match(refresh.stdout, new RegExp(`${3 * TENANTS + 1} unchanged`));
    });
    await step("destroy", ["destroy", "--yes"], (destroy) => {
      assert.match(destroy.stdout, new RegExp(`- ${3 * TENANTS + 1} deleted`));
    });
    assert.deepEqual(observableState(e2e.emulator), found, "destroy left the platform as it was before up");

    const log = e2e.emulator.requests.list();
    const limited = log.filter((r) => r.status === 429).length;
    console.log(`      calls per step: ${JSON.stringify(calls)}`);
    assert.ok(limited <= 0.02 * log.length, `${limited} of ${log.length} calls were answered 429; at most 2% may be`);
  });
});

describe("e2e: two stacks on the same API key, deploying at the same time", function () {
  this.timeout(20 * 60_000);
  const TENANTS = 40;
  let emulator: RunningEmulator;
  let workspace: Workspace;
  const stacks: Stack[] = [];
  const tenants: string[][] = [];

  before(async () => {
    emulator = await startEmulator({ quiet: true });
    workspace = new Workspace();
    for (const name of ["team-a", "team-b"]) {
      const ids = await seedTenants(emulator, name, TENANTS);
      const stack = tenantStack(workspace, name, ids);
      await stack.init({ "integration-platform:baseUrl": emulator.url }, { "integration-platform:apiKey": emulator.apiKey });
      stacks.push(stack);
      tenants.push(ids);
    }
  });
  after(async () => {
    workspace?.dispose();
    await emulator?.close();
  });

  it("both `up`s succeed, and both `destroy`s leave the platform as found", async () => {
    const found = observableState(emulator);
    emulator.requests.clear();
    const ups = await Promise.all(stacks.map((stack) => stack.run(["up", "--yes"])));
    ups.forEach((up, i) => assertOk(up, `pulumi up of stack ${i}`));
    tenants.forEach((ids) => assertSetUp(emulator, ids));
    const upLog = emulator.requests.list();
    console.log(`      two ups at once: ${upLog.length} calls, ${upLog.filter((r) => r.status === 429).length} answered 429, ${ups.map((u) => (u.ms / 1000).toFixed(1)).join(" s and ")} s`);

    const destroys = await Promise.all(stacks.map((stack) => stack.run(["destroy", "--yes"])));
    destroys.forEach((destroy, i) => assertOk(destroy, `pulumi destroy of stack ${i}`));
    assert.deepEqual(observableState(emulator), found, "both destroys left the platform as it was before");
  });
});
