// The platform's documented rate limit (20 requests per second, burst 5, per credential) through
// the real CLI, with the emulator enforcing it as it does by default: a multi-tenant stack of 300
// resources through its whole life, and two stacks on one API key deploying at the same time.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";
import { Stack, succeeded, type CommandResult, type Workspace } from "../../harness/engine";
import { writeProgram } from "../../harness/program";
import { ACCOUNT_QUOTA, seedTenants, TENANT_PROGRAM } from "../../harness/tenants";
import { AT_SCALE, observableState, step, useEmulatorStack } from "../../harness/e2e";

/** A tenant stack's program, with no tenants yet (see `seedStack`). */
function tenantStack(workspace: Workspace, name: string): Stack {
  return new Stack(workspace, writeProgram(workspace.root, name, { "index.ts": TENANT_PROGRAM, "tenants.json": "[]" }));
}

/** Seeds `count` tenants named after `prefix` into the emulator, writes them beside the stack's program and returns them. */
async function seedStack(emulator: RunningEmulator, stack: Stack, prefix: string, count: number): Promise<string[]> {
  const tenants = await seedTenants(emulator, prefix, count);
  fs.writeFileSync(path.join(stack.dir, "tenants.json"), JSON.stringify(tenants));
  return tenants;
}

/** Asserts that every tenant is set up as the program declares, as the platform holds it. */
function assertSetUp(emulator: RunningEmulator, tenants: string[]): void {
  for (const id of tenants) {
    const config = emulator.store.configs.find({ linkedAccountId: id, slug: "hubspot", configId: id });
    assert.ok(config, `tenant ${id} has its config`);
    assert.equal(
      config.workflows.find((w) => w.id === "wf_hs_deal_alerts")?.enabled,
      true,
      `tenant ${id}: deal alerts enabled`,
    );
    assert.equal(
      config.fields.find((f) => f.id === "hs_pipeline")?.name,
      `${id} pipeline`,
      `tenant ${id}: field renamed`,
    );
    assert.equal(
      emulator.store.envVariables.valueFor(ACCOUNT_QUOTA, id, null)?.value,
      "500",
      `tenant ${id}: quota set`,
    );
  }
}

describe(`${AT_SCALE} e2e: 300 resources at the platform's documented rate limit`, function () {
  this.timeout(20 * 60_000);
  const TENANTS = 100;
  let tenants: string[] = [];
  const e2e = useEmulatorStack((workspace) => tenantStack(workspace, "tenants"));

  before(async () => {
    assert.equal(e2e.emulator.rateLimit.get().rateLimit, "20/5", "the emulator enforces the documented limit");
    tenants = await seedStack(e2e.emulator, e2e.stack, "tenant", TENANTS);
  });

  it("up, preview --expect-no-changes, refresh and destroy all succeed, with at most 2% of calls answered 429, and leave the platform as found", async () => {
    const found = observableState(e2e.emulator);
    e2e.emulator.requests.clear();
    const calls: Record<string, { calls: number; limited: number; seconds: number }> = {};
    /** Runs one command as a step, counts its calls, then checks its result. */
    const command = (name: string, args: string[], check: (result: CommandResult) => void) =>
      step(name, async () => {
        const from = e2e.emulator.requests.list().length;
        const result = succeeded(await e2e.stack.run(args), `pulumi ${args.join(" ")}`);
        const log = e2e.emulator.requests.list().slice(from);
        calls[name] = {
          calls: log.length,
          limited: log.filter((r) => r.status === 429).length,
          seconds: result.ms / 1000,
        };
        check(result);
      });

    await command("up", ["up", "--yes"], (up) => {
      assert.match(up.stdout, new RegExp(`\\+ ${3 * TENANTS + 1} created`));
      assertSetUp(e2e.emulator, tenants);
    });
    await command("preview", ["preview", "--expect-no-changes"], () => {});
    await command("refresh", ["refresh", "--yes"], (refresh) => {
      assert.match(refresh.stdout, new RegExp(`${3 * TENANTS + 1} unchanged`));
    });
    await command("destroy", ["destroy", "--yes"], (destroy) => {
      assert.match(destroy.stdout, new RegExp(`- ${3 * TENANTS + 1} deleted`));
    });
    assert.deepEqual(observableState(e2e.emulator), found, "destroy left the platform as it was before up");

    const log = e2e.emulator.requests.list();
    const limited = log.filter((r) => r.status === 429).length;
    console.log(`      calls per step: ${JSON.stringify(calls)}`);
    assert.ok(limited <= 0.02 * log.length, `${limited} of ${log.length} calls were answered 429; at most 2% may be`);
  });
});

describe(`${AT_SCALE} e2e: two stacks on the same API key, deploying at the same time`, function () {
  this.timeout(20 * 60_000);
  const TENANTS = 40;
  const e2e = useEmulatorStack((workspace) => tenantStack(workspace, "team-a"));
  const stacks: Stack[] = [];
  const tenants: string[][] = [];

  before(async () => {
    stacks.push(e2e.stack, await e2e.addStack(tenantStack(e2e.workspace, "team-b")));
    for (const [i, name] of ["team-a", "team-b"].entries())
      tenants.push(await seedStack(e2e.emulator, stacks[i], name, TENANTS));
  });

  it("both `up`s succeed, and both `destroy`s leave the platform as found", async () => {
    const found = observableState(e2e.emulator);
    e2e.emulator.requests.clear();
    const ups = await Promise.all(stacks.map((stack) => stack.run(["up", "--yes"])));
    ups.forEach((up, i) => succeeded(up, `pulumi up of stack ${i}`));
    tenants.forEach((ids) => assertSetUp(e2e.emulator, ids));
    const upLog = e2e.emulator.requests.list();
    console.log(
      `      two ups at once: ${upLog.length} calls, ${upLog.filter((r) => r.status === 429).length} answered 429, ${ups.map((u) => (u.ms / 1000).toFixed(1)).join(" s and ")} s`,
    );

    const destroys = await Promise.all(stacks.map((stack) => stack.run(["destroy", "--yes"])));
    destroys.forEach((destroy, i) => succeeded(destroy, `pulumi destroy of stack ${i}`));
    assert.deepEqual(observableState(e2e.emulator), found, "both destroys left the platform as it was before");
  });
});
