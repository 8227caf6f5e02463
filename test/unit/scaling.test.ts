// Scaling (docs/guides/scaling.md): the shard of a linked account, the moves of a re-shard, one
// summary of several stacks' previews, and creates without a read where restoreOnDelete is declared.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  checkTemplate,
  commonPoolAdvice,
  heapAdvice,
  javaMajorVersion,
  planMoves,
  shardsAdvice,
  stackName,
} from "../../cli/shards";
import { mergePreviews, parsePreview, summarize } from "../../cli/summary";
import { resolveSettings } from "../../provider/settings";
import { inThisShard, shardOf, stackShard } from "../../provider/sharding";
import { getConfig, provider, startRun, useProviderAgainstEmulator, writes } from "../support/provider";

const ids = Array.from({ length: 2000 }, (_, i) => `tenant-${i}`);

describe("shardOf", () => {
  it("depends on the id and the number of shards alone", () => {
    // Fixed values: a change to the hash would move every user's tenants between stacks.
    assert.deepEqual(
      ["acme", "globex", "initech", "tenant-0"].map((id) => shardOf(id, 7)),
      [1, 6, 6, 3],
    );
    for (const id of ids.slice(0, 50)) assert.equal(shardOf(id, 1), 0);
  });

  it("spreads 2,000 ids evenly: every shard of 4 within 10% of a quarter", () => {
    const counts = [0, 0, 0, 0];
    for (const id of ids) counts[shardOf(id, 4)]++;
    for (const count of counts) assert.ok(Math.abs(count - 500) <= 50, `counts ${counts}`);
  });

  it("from S to S + 1 shards moves only ids into the new shard, about 1 in S + 1", () => {
    for (const shards of [1, 4, 9]) {
      const moved = ids.filter((id) => shardOf(id, shards) !== shardOf(id, shards + 1));
      assert.ok(
        moved.every((id) => shardOf(id, shards + 1) === shards),
        "every moved id goes to the new shard",
      );
      const expected = ids.length / (shards + 1);
      assert.ok(
        Math.abs(moved.length - expected) <= expected * 0.15,
        `${moved.length} moved, about ${expected} expected`,
      );
    }
  });

  it("refuses a number of shards out of range", () => {
    assert.throws(() => shardOf("acme", 0), /from 1 to 1000; got 0/);
    assert.throws(() => shardOf("acme", 1.5), /whole number/);
  });
});

describe("stackShard and inThisShard", () => {
  const reader = (config: Record<string, string>) => ({ get: (key: string) => config[key] });
  const four = reader({ "integration-platform:shards": "4" });

  it("is everything when the stack does not set the count, and else the shard its name ends with", () => {
    assert.deepEqual(stackShard(reader({}), "dev"), { shard: 0, shards: 1 });
    const where = stackShard(four, "prod-2");
    assert.deepEqual(where, { shard: 2, shards: 4 });
    assert.deepEqual(stackShard(four, "3"), { shard: 3, shards: 4 });
    const mine = inThisShard(ids, (id) => id, where);
    assert.ok(mine.length > 0 && mine.every((id) => shardOf(id, 4) === 2));
  });

  it("says what to fix: a count out of range, a name without its shard, or a shard past the count", () => {
    assert.throws(
      () => stackShard(reader({ "integration-platform:shards": "two" }), "prod-0"),
      /integration-platform:shards must be a whole number from 1 to 1000; got "two"/,
    );
    for (const name of ["prod", "prod-4", "prod-02"]) {
      assert.throws(
        () => stackShard(four, name),
        /must be named for its shard, from 0 to 3 \(integration-platform:shards is 4\), at the end of its name: e.g. prod-0/,
        name,
      );
    }
  });
});

describe("shards move: the plan", () => {
  const stack = { urn: "urn:pulumi:s-0::p::pulumi:pulumi:Stack::p-s-0", type: "pulumi:pulumi:Stack" };
  const setup = (id: string) => [
    {
      urn: `urn:pulumi:s-0::p::integration-platform:index:LinkedAccountSetup::${id}`,
      type: "integration-platform:index:LinkedAccountSetup",
      parent: stack.urn,
      inputs: {},
    },
    {
      urn: `urn:pulumi:s-0::p::integration-platform:index:LinkedAccountSetup$pulumi-nodejs:dynamic/integration-platform:ConfigField::${id}/field`,
      type: "pulumi-nodejs:dynamic/integration-platform:ConfigField",
      parent: `urn:pulumi:s-0::p::integration-platform:index:LinkedAccountSetup::${id}`,
      inputs: { linkedAccountId: id },
    },
  ];

  it("moves each account's top-level resource to its new shard, and leaves the rest", () => {
    const tenants = ids.slice(0, 40).filter((id) => shardOf(id, 1) === 0);
    const resources = [
      stack,
      ...tenants.flatMap(setup),
      {
        urn: "urn:pulumi:s-0::p::pulumi-nodejs:dynamic/integration-platform:ApplicationEvent::e",
        type: "pulumi-nodejs:dynamic/integration-platform:ApplicationEvent",
        parent: stack.urn,
        inputs: {},
      },
    ];
    const { moves, unplaced } = planMoves(0, resources, 3);
    const expected = tenants.filter((id) => shardOf(id, 3) !== 0);
    assert.deepEqual(moves.map((m) => m.linkedAccountId).sort(), expected.sort());
    for (const move of moves) {
      assert.deepEqual(
        move.urns,
        [`urn:pulumi:s-0::p::integration-platform:index:LinkedAccountSetup::${move.linkedAccountId}`],
        "only the component: its children move with it",
      );
      assert.equal(move.to, shardOf(move.linkedAccountId, 3));
    }
    assert.deepEqual(unplaced, ["urn:pulumi:s-0::p::pulumi-nodejs:dynamic/integration-platform:ApplicationEvent::e"]);
  });

  it("plans a native stack's resources (and its default provider) as a dynamic one's", () => {
    const provider = {
      urn: "urn:pulumi:s-0::p::pulumi:providers:integration-platform::default_0_5_0",
      type: "pulumi:providers:integration-platform",
      parent: stack.urn,
      inputs: {},
    };
    const field = (id: string) => ({
      urn: `urn:pulumi:s-0::p::integration-platform:index:ConfigField::${id}-pipeline`,
      type: "integration-platform:index:ConfigField",
      parent: stack.urn,
      inputs: { linkedAccountId: id },
    });
    const tenants = ids.slice(0, 40).filter((id) => shardOf(id, 1) === 0);
    const { moves, unplaced } = planMoves(0, [stack, provider, ...tenants.map(field)], 3);
    assert.deepEqual(moves.map((m) => m.linkedAccountId).sort(), tenants.filter((id) => shardOf(id, 3) !== 0).sort());
    for (const move of moves) assert.deepEqual(move.urns, [field(move.linkedAccountId).urn]);
    assert.deepEqual(unplaced, [], "the provider is not a resource to place");
  });

  it("refuses a top-level resource whose tree holds two accounts", () => {
    const [component, child] = setup("a");
    const other = { ...child, urn: child.urn + "-b", inputs: { linkedAccountId: "b" } };
    assert.throws(() => planMoves(0, [stack, component, child, other], 2), /holds resources of 2 linked accounts/);
  });

  it("names stacks from a template that must hold {shard}", () => {
    assert.equal(stackName("prod-{shard}", 3), "prod-3");
    for (const bad of ["prod", "{shard}-prod", "prod1{shard}", "{shard}-{shard}"])
      assert.throws(() => checkTemplate(bad), /--stack must end with \{shard\}/, bad);
    checkTemplate("{shard}");
    checkTemplate("my-org/prod-{shard}");
  });
});

describe("shards' advice on a Java program's heap", () => {
  const unsized = { JAVA_TOOL_OPTIONS: "", JDK_JAVA_OPTIONS: "", _JAVA_OPTIONS: "" };

  it("is given before an up or a preview of four or more Java stacks whose JVMs no option sizes", () => {
    for (const runtime of ["java", { name: "java", options: { binary: "target/program.jar" } }]) {
      for (const command of ["up", "preview"]) {
        const advice = heapAdvice(runtime, 10, command, unsized) ?? "";
        assert.match(advice, /^shards: 10 Java programs will run at once, and no JAVA_TOOL_OPTIONS sets their heap/);
        assert.match(advice, /JAVA_TOOL_OPTIONS="-Xmx1g -XX:\+UseSerialGC -XX:TieredStopAtLevel=1"/);
      }
    }
    assert.match(heapAdvice("java", 4, "up", {}) ?? "", /^shards: 4 Java programs/);
  });

  it("is not given where a JVM option sizes the heap, below four stacks, at refresh and destroy, or for other runtimes", () => {
    for (const variable of ["JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"])
      for (const option of ["-Xmx2g", "-XX:MaxRAMPercentage=10", "-XX:MaxHeapSize=1g"])
        assert.equal(
          heapAdvice("java", 10, "up", { ...unsized, [variable]: option }),
          undefined,
          `${variable}=${option}`,
        );
    assert.equal(heapAdvice("java", 3, "up", unsized), undefined);
    assert.equal(heapAdvice("java", 10, "refresh", unsized), undefined);
    assert.equal(heapAdvice("java", 10, "destroy", unsized), undefined);
    for (const runtime of ["python", "go", "nodejs", undefined])
      assert.equal(heapAdvice(runtime, 10, "up", unsized), undefined);
  });
});

describe("shards' advice on Java 25 with 2 cores or fewer", () => {
  const none = { JAVA_TOOL_OPTIONS: "", JDK_JAVA_OPTIONS: "", _JAVA_OPTIONS: "" };

  it("is given before an up or a preview of Java stacks on Java 25 or later with 2 cores or fewer", () => {
    for (const [major, cores] of [
      [25, 2],
      [25, 1],
      [26, 2],
    ])
      for (const command of ["up", "preview"]) {
        const advice = commonPoolAdvice("java", command, major, cores, none) ?? "";
        assert.match(advice, new RegExp(`^shards: the Java programs will run on Java ${major} with ${cores} CPU core`));
        assert.match(advice, /pulumi\/pulumi-java#2270/);
        assert.match(advice, /-Djava\.util\.concurrent\.ForkJoinPool\.common\.parallelism=2/);
      }
    // A parallelism of 1 set on purpose hangs as well.
    const one = { ...none, JAVA_TOOL_OPTIONS: "-Xmx1g -Djava.util.concurrent.ForkJoinPool.common.parallelism=1" };
    assert.ok(commonPoolAdvice({ name: "java", options: { binary: "app.jar" } }, "up", 25, 2, one));
  });

  it("is not given before Java 25, with more cores, with the pool given 2 threads, at refresh, or for other runtimes", () => {
    assert.equal(commonPoolAdvice("java", "up", 21, 2, none), undefined);
    assert.equal(commonPoolAdvice("java", "up", 17, 1, none), undefined);
    assert.equal(commonPoolAdvice("java", "up", 25, 4, none), undefined);
    assert.equal(commonPoolAdvice("java", "up", undefined, 2, none), undefined);
    for (const variable of ["JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"])
      assert.equal(
        commonPoolAdvice("java", "preview", 25, 2, {
          ...none,
          [variable]: "-Xmx1g -Djava.util.concurrent.ForkJoinPool.common.parallelism=2",
        }),
        undefined,
        variable,
      );
    assert.equal(commonPoolAdvice("java", "refresh", 25, 2, none), undefined);
    for (const runtime of ["python", "go", "nodejs", undefined])
      assert.equal(commonPoolAdvice(runtime, "up", 25, 2, none), undefined);
  });

  it("reads the major version of the java first on PATH, and undefined where there is none", async function () {
    this.timeout(20_000);
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), "pip-java-"));
    try {
      const fake = (said: string) => {
        fs.writeFileSync(path.join(bin, "java"), `#!/bin/sh\necho '${said}' >&2\n`, { mode: 0o755 });
      };
      fake('openjdk version "25.0.3" 2026-04-21 LTS');
      assert.equal(await javaMajorVersion({ PATH: bin }), 25);
      fake('java version "1.8.0_402"');
      assert.equal(await javaMajorVersion({ PATH: bin }), 8);
      fs.rmSync(path.join(bin, "java"));
      assert.equal(await javaMajorVersion({ PATH: bin }), undefined);
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });

  it("is among the lines shards prints, from the java on PATH and this machine's cores", async function () {
    this.timeout(20_000);
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), "pip-java-"));
    try {
      const ran = path.join(bin, "ran");
      const script = `#!/bin/sh\necho x >> '${ran}'\necho 'openjdk version "25.0.3"' >&2\n`;
      fs.writeFileSync(path.join(bin, "java"), script, { mode: 0o755 });
      const env = { PATH: bin, JAVA_TOOL_OPTIONS: "-Xmx1g" };
      const lines = await shardsAdvice({ name: "java", options: { binary: "app.jar" } }, 1, "preview", env);
      // This machine's cores decide, as they decide whether the JVM's common pool gets one thread.
      if (os.availableParallelism() <= 2)
        assert.match(lines.join(""), /^shards: the Java programs will run on Java 25/);
      else assert.deepEqual(lines, []);
      assert.deepEqual(await shardsAdvice("python", 1, "preview", env), []);
      // refresh and destroy run no program: no JVM is started to ask its version.
      assert.deepEqual(await shardsAdvice("java", 1, "destroy", env), []);
      assert.equal(fs.readFileSync(ran, "utf8"), "x\n", "java -version ran once, for the preview");
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe("summarize of several stacks' previews", () => {
  const step = (stackName: string, account: string) => ({
    op: "create",
    urn: `urn:pulumi:${stackName}::p::pulumi-nodejs:dynamic/integration-platform:WorkflowToggle::${account}-alerts`,
    newState: {
      type: "pulumi-nodejs:dynamic/integration-platform:WorkflowToggle",
      inputs: {
        slug: "hubspot",
        linkedAccountId: account,
        configId: account,
        workflowId: "wf_hs_deal_alerts",
        enabled: true,
      },
    },
  });

  it("merges steps, counts and diagnostics, and the summary names every stack's accounts", () => {
    const a = parsePreview({ steps: [step("s-0", "acme")], changeSummary: { create: 1 }, diagnostics: [] });
    const b = parsePreview({
      steps: [step("s-1", "globex"), step("s-1", "initech")],
      changeSummary: { create: 2, same: 3 },
    });
    const merged = mergePreviews([a, b]);
    assert.equal(merged.steps.length, 3);
    assert.deepEqual(merged.changeSummary, { create: 3, same: 3 });
    const text = summarize(merged);
    for (const account of ["acme", "globex", "initech"]) assert.match(text, new RegExp(`\\b${account}\\b`));
    assert.match(text, /in 2 stacks \(`s-0`, `s-1`\) of project `p`/);
  });
});

describe("createWithoutRead", () => {
  const ctx = useProviderAgainstEmulator();
  const field = provider("ConfigField");
  const toggle = provider("WorkflowToggle");
  const envValue = provider("EnvVariableValue");
  const CONFIG = { slug: "hubspot", linkedAccountId: "acme", configId: "acme" };
  const QUOTA = { definitionId: "64f0000000000000000000d6", linkedAccountId: "acme" };
  const calls = () => ctx.emulator.requests.list().map((r) => `${r.method} ${r.path.replace(/\?.*/, "")}`);

  it("is off by default, and takes only true or false", () => {
    const base = { INTEGRATION_PLATFORM_BASE_URL: "http://127.0.0.1:1", INTEGRATION_PLATFORM_API_KEY: "k" };
    assert.equal(resolveSettings(undefined, base).createWithoutRead, false);
    assert.equal(
      resolveSettings(undefined, { ...base, INTEGRATION_PLATFORM_CREATE_WITHOUT_READ: "TRUE" }).createWithoutRead,
      true,
    );
    assert.throws(
      () => resolveSettings(undefined, { ...base, INTEGRATION_PLATFORM_CREATE_WITHOUT_READ: "yes" }),
      /createWithoutRead \(INTEGRATION_PLATFORM_CREATE_WITHOUT_READ\) must be true or false; got "yes"/,
    );
  });

  it("creates a field, a toggle and an env value that declare restoreOnDelete with one write each and no read; delete puts back what they declare", async () => {
    startRun(ctx.emulator, { "integration-platform:createWithoutRead": "true" });
    const scope = { scope: "linked_account", encrypted: false };
    const f = await field.create({
      ...CONFIG,
      fieldId: "hs_pipeline",
      name: "Tenant pipeline",
      restoreOnDelete: { name: "Pipeline" },
    });
    const t = await toggle.create({
      ...CONFIG,
      workflowId: "wf_hs_deal_alerts",
      enabled: true,
      restoreOnDelete: false,
    });
    const v = await envValue.create({ ...QUOTA, ...scope, value: "777", restoreOnDelete: "100" });
    assert.deepEqual(calls(), [
      "PUT /api/v2/public/config/field/hs_pipeline",
      "PUT /api/v2/public/slug/hubspot/config/acme/workflows/wf_hs_deal_alerts",
      "POST /api/v2/public/env/values",
    ]);
    assert.deepEqual(f.outs.previous, { name: "Pipeline" }, "what delete puts back is what the program declares");
    assert.equal(t.outs.previousEnabled, false);
    const config = await getConfig(ctx.emulator, "acme", "hubspot");
    assert.equal(config.fields.find((x: { id: string }) => x.id === "hs_pipeline")?.name, "Tenant pipeline");

    startRun(ctx.emulator); // the delete comes from a later `pulumi` run
    await field.delete(f.id, f.outs);
    await toggle.delete(t.id, t.outs);
    await envValue.delete(v.id, v.outs);
    const after = await getConfig(ctx.emulator, "acme", "hubspot");
    assert.equal(after.fields.find((x: { id: string }) => x.id === "hs_pipeline")?.name, "Pipeline");
    assert.equal(after.workflows.find((w: { id: string }) => w.id === "wf_hs_deal_alerts")?.enabled, false);
    assert.equal(ctx.emulator.store.envVariables.value(v.id)?.value, "100");
  });

  it("creates an env value that declares noValueBefore with one write and no read; delete deletes it", async () => {
    startRun(ctx.emulator, { "integration-platform:createWithoutRead": "true" });
    const v = await envValue.create({
      ...QUOTA,
      scope: "linked_account",
      encrypted: false,
      value: "777",
      noValueBefore: true,
    });
    assert.deepEqual(calls(), ["POST /api/v2/public/env/values"]);
    assert.equal(v.outs.foundExisting, undefined);
    assert.equal(ctx.emulator.store.envVariables.value(v.id)?.value, "777");

    startRun(ctx.emulator);
    ctx.emulator.requests.clear();
    await envValue.delete(v.id, v.outs);
    assert.deepEqual(calls(), [`DELETE /api/v2/public/env/values/${v.id}`]);
    assert.equal(ctx.emulator.store.envVariables.value(v.id), undefined);
  });

  it("noValueBefore wins over what create found: a value found (e.g. a stopped run's own write) is adopted, and delete still deletes it", async () => {
    startRun(ctx.emulator); // createWithoutRead off: create lists first
    // acme holds ACCOUNT_TIER "enterprise" in the fixture (64f…f5).
    const tier = {
      definitionId: "64f0000000000000000000d5",
      linkedAccountId: "acme",
      scope: "linked_account",
      encrypted: false,
    };
    const v = await envValue.create({ ...tier, value: "enterprise", noValueBefore: true });
    assert.equal(v.id, "64f0000000000000000000f5");
    assert.equal(writes(ctx.emulator).length, 0, "adopted without a write");
    startRun(ctx.emulator);
    await envValue.delete(v.id, v.outs);
    assert.equal(ctx.emulator.store.envVariables.value(v.id), undefined, "deleted, not put back");
  });

  it("refuses noValueBefore together with restoreOnDelete or adoptEncryptedValue, naming the property, with no request", async () => {
    startRun(ctx.emulator);
    const both = await envValue.check({}, { ...QUOTA, value: "5", noValueBefore: true, restoreOnDelete: "1" });
    assert.deepEqual(both.failures, [
      {
        property: "noValueBefore",
        reason:
          "must not be true together with restoreOnDelete: declare one of them, what delete sets the value to or that it deletes it",
      },
    ]);
    const adopt = await envValue.check({}, { ...QUOTA, value: "5", noValueBefore: true, adoptEncryptedValue: true });
    assert.deepEqual(adopt.failures, [
      {
        property: "noValueBefore",
        reason: "must not be true together with adoptEncryptedValue: adopting takes over a value that is already there",
      },
    ]);
    const wrong = await envValue.check({}, { ...QUOTA, value: "5", noValueBefore: "yes" });
    assert.deepEqual(wrong.failures, [{ property: "noValueBefore", reason: "must be true or false, not a string" }]);
    assert.equal(ctx.emulator.requests.list().length, 0);
  });

  it("still reads first where nothing is declared to restore, or an encrypted value is to be adopted", async () => {
    startRun(ctx.emulator, { "integration-platform:createWithoutRead": "true" });
    await field.create({ ...CONFIG, fieldId: "hs_pipeline", name: "Tenant pipeline" });
    assert.deepEqual(calls().slice(0, 1), ["GET /api/v2/public/slug/hubspot/config/acme"]);
    ctx.emulator.requests.clear();
    await envValue.create({
      ...QUOTA,
      scope: "linked_account",
      encrypted: true,
      value: "5",
      adoptEncryptedValue: true,
      restoreOnDelete: "1",
    });
    assert.deepEqual(calls().slice(0, 1), ["GET /api/v2/public/env/values/linked_account"]);
    assert.ok(writes(ctx.emulator).length <= 1);
  });
});
