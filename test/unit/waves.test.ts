// Rollout in waves (cli/shards/waves.ts, rollout.ts): the `--waves` and `--canary` options, each linked
// account's wave bucket, the plan of waves and its dry-run text, a preview's steps by account, and
// what `shards` refuses; nothing here runs a stack (test/e2e/waves.test.ts does).
import * as assert from "node:assert/strict";
import type { StepEventMetadata } from "@pulumi/pulumi/automation";
import { main } from "../../cli/main";
import {
  changesByAccount,
  describeWaves,
  parseCanary,
  parseShares,
  planWaves,
  waveBucketOf,
  WavesError,
  ShardsError,
  waveTargets,
  type Wave,
} from "../../cli/shards";
import { shardOf } from "../../provider/sharding";

const tenants = (n: number) => Array.from({ length: n }, (_, i) => `tenant-${i}`);
const many = tenants(10000);
const shares = [500, 2500, 10000];

/** What `--waves` refuses, and the item its message names. */
function refusesShares(text: string, says: RegExp): void {
  assert.throws(
    () => parseShares(text),
    (error: Error) => {
      assert.ok(error instanceof WavesError, `${text}: ${error}`);
      assert.match(error.message, /^--waves /);
      assert.match(error.message, says);
      assert.match(error.message, /e\.g\. --waves 5%,25%,100%$/);
      return true;
    },
  );
}

describe("parseShares (--waves)", () => {
  it("reads shares in basis points, spaces around items allowed", () => {
    assert.deepEqual(parseShares("5%,25%,100%"), [500, 2500, 10000]);
    assert.deepEqual(parseShares(" 0.5% , 12.34%,100% "), [50, 1234, 10000]);
    assert.deepEqual(parseShares("0.29%,1.1%,100%"), [29, 110, 10000]);
    assert.deepEqual(parseShares("100%"), [10000]);
    const twenty = [...Array.from({ length: 19 }, (_, i) => `${i + 1}%`), "100%"];
    assert.equal(parseShares(twenty.join(",")).length, 20);
  });

  it("refuses what is not a growing list of shares ending at 100%, naming the item", () => {
    refusesShares("0%,100%", /item 1, "0%", is not above 0%/);
    refusesShares("5%,101%", /item 2, "101%", is over 100%/);
    refusesShares("25%,5%,100%", /item 2, "5%", does not grow from the wave before it, 25%/);
    refusesShares("5%,5%,100%", /item 2, "5%", does not grow from the wave before it, 5%/);
    refusesShares("5%,50%", /ends at "50%", so some linked accounts would be in no wave/);
    refusesShares("5,100%", /item 1, "5", is not a share such as 25% or 2\.5%/);
    refusesShares("abc%,100%", /item 1, "abc%", is not a share/);
    refusesShares("5.125%,100%", /item 1, "5\.125%", is not a share/);
    refusesShares("-5%,100%", /item 1, "-5%", is not a share/);
    refusesShares("5%,,100%", /item 2 is empty/);
    refusesShares("", /^--waves is empty/);
    refusesShares("\u202e5%,100%", /item 1, "\\u202e5%", is not a share/);
    const twentyOne = [...Array.from({ length: 20 }, (_, i) => `${i + 1}%`), "100%"];
    refusesShares(twentyOne.join(","), /gives 21 waves; at most 20/);
  });

  it("is a ShardsError, so the command reports it as a usage problem", () => {
    assert.throws(() => parseShares("x"), ShardsError);
  });
});

describe("parseCanary (--canary)", () => {
  it("trims the ids and keeps each once, in the order given", () => {
    assert.deepEqual(parseCanary(" acme , globex,acme,tenant-2"), ["acme", "globex", "tenant-2"]);
    assert.deepEqual(parseCanary("Ünïcode id/with:anything 🚀"), ["Ünïcode id/with:anything 🚀"]);
  });

  it("refuses an empty list, an empty item and an id with a control character", () => {
    const refuses = (text: string, says: RegExp) =>
      assert.throws(
        () => parseCanary(text),
        (error: Error) =>
          error instanceof WavesError &&
          says.test(error.message) &&
          /^--canary .*; give linked account ids separated by commas, e\.g\. --canary acme,globex$/.test(error.message),
      );
    refuses("", /^--canary is empty/);
    refuses("   ", /^--canary is empty/);
    refuses("acme,", /item 2 is empty/);
    refuses(",", /item 1 is empty/);
    refuses("a\u0007b", /^--canary "a\\u0007b" has a control character/);
    refuses("acme,globex\n", /item 2, "globex\\n", has a control character/);
  });
});

describe("waveBucketOf", () => {
  it("is fixed for an id: a change to the hash would move accounts between waves", () => {
    assert.deepEqual(["acme", "globex", "initech"].map(waveBucketOf), [2175, 5008, 34]);
  });

  it("is a whole number from 0 to 9999", () => {
    for (const id of [...many.slice(0, 2000), "", "🚀", "x".repeat(1024)]) {
      const bucket = waveBucketOf(id);
      assert.ok(Number.isInteger(bucket) && bucket >= 0 && bucket < 10000, `${id}: ${bucket}`);
    }
  });
});

describe("planWaves", () => {
  const ids = tenants(200);
  const plan = (accounts: Iterable<string>, more: Partial<Parameters<typeof planWaves>[0]> = {}) =>
    planWaves({ accounts, shared: false, canary: [], shares, ...more });

  it("places every linked account in exactly one wave, whatever the input order", () => {
    const waves = plan(ids, { canary: ["tenant-7", "tenant-150"] });
    const placed = waves.flatMap((w) => w.accounts);
    assert.equal(placed.length, ids.length);
    assert.deepEqual(new Set(placed), new Set(ids));
    const shuffled = ids.map((id, i) => ids[(i * 37) % ids.length]);
    assert.deepEqual(new Set(shuffled), new Set(ids));
    assert.deepEqual(plan([...ids].reverse(), { canary: ["tenant-7", "tenant-150"] }), waves);
    assert.deepEqual(plan(shuffled, { canary: ["tenant-7", "tenant-150"] }), waves);
    assert.deepEqual(plan([...ids, ...ids.slice(0, 10)], { canary: ["tenant-7", "tenant-150"] }), waves);
  });

  it("puts each wave's accounts in natural order and names the share waves by their share", () => {
    const waves = plan(ids, { shares: [50, 1250, 10000] });
    assert.deepEqual(
      waves.map((w) => w.name),
      ["0.5%", "12.5%", "100%"],
    );
    for (const wave of waves) {
      const numbers = wave.accounts.map((id) => Number(id.slice("tenant-".length)));
      assert.deepEqual(
        numbers,
        [...numbers].sort((a, b) => a - b),
      );
    }
  });

  it("goes shared first, then the canary accounts, which no later wave holds", () => {
    const waves = plan(ids, { shared: true, canary: ["tenant-9", "tenant-10", "tenant-3"] });
    assert.deepEqual(waves[0], { name: "shared", accounts: [], shared: true });
    assert.deepEqual(waves[1], { name: "canary", accounts: ["tenant-3", "tenant-9", "tenant-10"], absent: [] });
    assert.deepEqual(
      waves.slice(2).map((w) => w.name),
      ["5%", "25%", "100%"],
    );
    for (const wave of waves.slice(2))
      assert.ok(!wave.accounts.some((id) => ["tenant-3", "tenant-9", "tenant-10"].includes(id)));
  });

  it("reports canary ids the change does not touch", () => {
    const waves = plan(["tenant-1", "tenant-2"], { canary: ["acme", "tenant-2", "globex"] });
    assert.deepEqual(waves[0], { name: "canary", accounts: ["tenant-2"], absent: ["acme", "globex"] });
    assert.deepEqual(
      waves.flatMap((w) => w.accounts),
      ["tenant-2", "tenant-1"],
    );
  });

  it("keeps an empty share wave, so that wave numbers stay the same", () => {
    const waves = plan(["globex"], { shared: true });
    assert.deepEqual(waves, [
      { name: "shared", accounts: [], shared: true },
      { name: "5%", accounts: [] },
      { name: "25%", accounts: [] },
      { name: "100%", accounts: ["globex"] },
    ]);
    assert.deepEqual(plan([]), [
      { name: "5%", accounts: [] },
      { name: "25%", accounts: [] },
      { name: "100%", accounts: [] },
    ]);
  });

  it("never moves an earlier wave's accounts when a later share changes", () => {
    const [five] = plan(many, { shares: [500, 10000] });
    const waves = plan(many);
    assert.deepEqual(waves[0], five);
    const wider = plan(many, { shares: [500, 5000, 10000] });
    const widerSecond = new Set(wider[1].accounts);
    assert.ok(waves[1].accounts.every((id) => widerSecond.has(id)));
  });

  it("gives each share wave about its share of 10,000 accounts", () => {
    const [five, twentyFive] = plan(many).map((w) => w.accounts.length);
    assert.ok(five >= 400 && five <= 600, `5% wave: ${five}`);
    assert.ok(five + twentyFive >= 2300 && five + twentyFive <= 2700, `25% in all: ${five + twentyFive}`);
  });

  it("spreads a wave over the shards, so that no one stack carries it", () => {
    const [five] = plan(many);
    const counts = [0, 0, 0, 0];
    for (const id of five.accounts) counts[shardOf(id, 4)]++;
    for (const count of counts)
      assert.ok(count >= five.accounts.length * 0.15 && count <= five.accounts.length * 0.35, `${counts}`);
  });

  it("refuses shares that would leave accounts out of every wave", () => {
    assert.throws(() => plan(ids, { shares: [500, 2500] }), RangeError);
    assert.throws(() => plan(ids, { shares: [2500, 500, 10000] }), RangeError);
    assert.throws(() => plan(ids, { shares: [] }), RangeError);
  });
});

describe("describeWaves", () => {
  it("prints one line per wave, then the totals", () => {
    const waves: Wave[] = [
      { name: "shared", accounts: [], shared: true },
      { name: "canary", accounts: ["acme", "globex"], absent: ["initech"] },
      { name: "5%", accounts: [] },
      { name: "25%", accounts: ["tenant-1"] },
      { name: "100%", accounts: ["tenant-2", "tenant-3", "tenant-4", "tenant-5", "tenant-6"] },
    ];
    assert.equal(
      describeWaves(waves, 3),
      [
        "wave 1 (shared): resources tied to no linked account",
        "wave 2 (canary): 2 linked accounts, 2 of 8 so far (25%): acme, globex; the change does not touch initech",
        "wave 3 (5%): 0 linked accounts, 2 of 8 so far (25%)",
        "wave 4 (25%): 1 linked account, 3 of 8 so far (37.5%): tenant-1",
        "wave 5 (100%): 5 linked accounts, 8 of 8 so far (100%): tenant-2, tenant-3, tenant-4 and 2 more",
        "5 waves in all: the resources tied to no linked account, then 8 linked accounts",
        "",
      ].join("\n"),
    );
  });

  it("rounds the share down, names 10 accounts by default and shows ids on one visible line", () => {
    const text = describeWaves([
      { name: "canary", accounts: ["evil\u202eid"], absent: [] },
      { name: "100%", accounts: tenants(12) },
    ]);
    assert.equal(
      text,
      "wave 1 (canary): 1 linked account, 1 of 13 so far (7.6%): evil\\u202eid\n" +
        "wave 2 (100%): 12 linked accounts, 13 of 13 so far (100%): " +
        "tenant-0, tenant-1, tenant-2, tenant-3, tenant-4, tenant-5, tenant-6, tenant-7, tenant-8, tenant-9 and 2 more\n" +
        "2 waves in all: 13 linked accounts\n",
    );
    assert.equal(
      describeWaves([{ name: "100%", accounts: [] }]),
      "wave 1 (100%): 0 linked accounts, 0 of 0 so far\n1 wave in all: 0 linked accounts\n",
    );
  });
});

/** A preview step as the engine reports it: op, URN, and the inputs and parent of its new state. */
function step(
  op: string,
  name: string,
  type: string,
  inputs: Record<string, unknown> = {},
  parent = "",
): StepEventMetadata {
  const urn = `urn:pulumi:shard-0::multi-tenant::${type}::${name}`;
  return { op, urn, type, new: { type, urn, inputs, parent } } as unknown as StepEventMetadata;
}

describe("changesByAccount (a stack's preview steps by linked account)", () => {
  const setup = "integration-platform:index:LinkedAccountSetup";
  const env = "integration-platform:index:EnvVariableValue";
  const parentOf = (name: string) => `urn:pulumi:shard-0::multi-tenant::${setup}::${name}`;
  const steps = [
    step("same", "multi-tenant-shard-0", "pulumi:pulumi:Stack"),
    step("update", "default", "pulumi:providers:pulumi-nodejs"),
    step("create", "acme-hubspot", setup),
    step("create", "acme-quota", env, { linkedAccountId: "acme" }, parentOf("acme-hubspot")),
    step("update", "globex-quota", env, { linkedAccountId: "globex" }),
    step("same", "initech-quota", env, { linkedAccountId: "initech" }),
    step("create", "both", setup),
    step("create", "a-in-both", env, { linkedAccountId: "acme" }, parentOf("both")),
    step("create", "g-in-both", env, { linkedAccountId: "globex" }, parentOf("both")),
    step("create", "org-value", env),
    step("delete", "hooli-quota", env, { linkedAccountId: "hooli" }),
  ];
  const changes = changesByAccount(steps);

  it("puts a resource with the account, a component with the one account beneath it, and leaves out the stack, providers and unchanged steps", () => {
    const name = (urn: string) => urn.split("::").pop();
    assert.deepEqual([...changes.byAccount.keys()].sort(), ["acme", "globex", "hooli"]);
    assert.deepEqual(changes.byAccount.get("acme")!.map(name), ["acme-hubspot", "acme-quota", "a-in-both"]);
    assert.deepEqual(changes.byAccount.get("globex")!.map(name), ["globex-quota", "g-in-both"]);
    // Beneath `both` are two accounts, and `org-value` has none: tied to no single linked account.
    assert.deepEqual(changes.shared.map(name), ["both", "org-value"]);
    // What a wave deletes is not read back after it.
    assert.deepEqual([...changes.deleted].map(name), ["hooli-quota"]);
  });

  it("gives a wave its accounts' URNs, and the shared wave the rest", () => {
    const name = (urn: string) => urn.split("::").pop();
    assert.deepEqual(waveTargets(changes, { name: "5%", accounts: ["globex", "hooli"] }).map(name), [
      "globex-quota",
      "g-in-both",
      "hooli-quota",
    ]);
    assert.deepEqual(waveTargets(changes, { name: "shared", accounts: [], shared: true }).map(name), [
      "both",
      "org-value",
    ]);
  });
});

describe("shards up --waves: what the command refuses, before it touches a stack", () => {
  /** Runs the command line in-process; resolves to its exit status and what it printed. */
  async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
    let stderr = "";
    const code = await main(args, {
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
      readStdin: async () => "",
      env: {},
    });
    return { code, stderr };
  }
  const refused = async (args: string[], says: RegExp) => {
    const run = await cli(["shards", ...args]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, says);
  };

  it("refuses the rollout's options without --waves, --waves on another command, and bad shares or canaries", async () => {
    await refused(
      ["up", "--shards", "2", "--canary", "acme"],
      /--canary, --check, --dry-run, --resume and --record are --waves's/,
    );
    await refused(["preview", "--shards", "2", "--waves", "100%"], /--waves rolls out an up; got shards preview/);
    await refused(["up", "--shards", "2", "--waves", "5%,50%"], /^.*--waves ends at "50%"/m);
    await refused(["up", "--shards", "2", "--waves", "100%", "--canary", "acme,,globex"], /--canary/);
    await refused(
      ["up", "--shards", "2", "--waves", "100%", "--expect-no-changes"],
      /--expect-no-changes contradicts it/,
    );
    await refused(["up", "--shards", "2", "--waves", "100%", "--check", " "], /--check must be a command/);
  });
});
