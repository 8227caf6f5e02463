// Secrets: neither the API key, the bearer token nor any env value appears in plaintext in
// `pulumi stack export`, in the output of `up`, `preview` and `refresh` (also with --debug and
// `--logtostderr -v=9`, so that the engine's own logs are searched), or in error messages. Each
// secret is a distinctive random value, searched for literally. Through the real CLI, against the
// in-process emulator.
import * as assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { Stack, type CommandResult } from "../../../harness/engine";
import { writeProgram } from "../../../harness/program";
import { step, useEmulatorStack } from "../../../harness/e2e";
import { FIXTURE } from "../../../harness/fixture";
import { assertPlatformMatches, specProgram, writeSpec, type Spec } from "../../../harness/reliability";

const hex = () => randomBytes(8).toString("hex");
const API_KEY = `tk_secret_${hex()}`;
const TOKEN = `bt_secret_${hex()}`;
/** Env values, by the stack config key that holds each (set with --secret). */
const VALUES: Record<string, string> = {
  crmToken: `crm-${hex()}`, // an encrypted definition
  quota: String(1_000_000_000_000 + randomBytes(4).readUInt32BE()), // a number definition
  webhook: `https://hooks.example.com/${hex()}`, // a url definition
};
/** The values `up` changes them to, in the second half of the test. */
const CHANGED: Record<string, string> = {
  crmToken: `crm-${hex()}`,
  quota: String(2_000_000_000_000 + randomBytes(4).readUInt32BE()),
  webhook: `https://hooks.example.com/${hex()}`,
};
/** A value the number definition refuses: the refusal must not echo it. */
const NOT_A_NUMBER = `not-a-number-${hex()}`;

const SPEC: Spec = {
  fields: [
    {
      name: "pipeline",
      args: {
        slug: "hubspot",
        linkedAccountId: "acme",
        configId: "acme",
        fieldId: "hs_pipeline",
        name: "Sales pipeline",
      },
    },
  ],
  toggles: [
    {
      name: "contact-sync",
      args: {
        slug: "hubspot",
        linkedAccountId: "acme",
        configId: "acme",
        workflowId: "wf_hs_contact_sync",
        enabled: true,
      },
    },
  ],
  envValues: [
    {
      name: "crm-token",
      args: { definitionId: FIXTURE.definitions.crmApiToken, linkedAccountId: "acme", value: "" },
      valueFromConfig: "crmToken",
    },
    {
      name: "quota",
      args: { definitionId: FIXTURE.definitions.accountQuota, linkedAccountId: "acme", value: "" },
      valueFromConfig: "quota",
    },
    {
      name: "webhook",
      args: { definitionId: FIXTURE.definitions.webhookUrl, workflowId: "wf_hs_deal_alerts", value: "" },
      valueFromConfig: "webhook",
    },
  ],
};

/** The engine's verbose logs, on stderr. */
const VERBOSE = ["--debug", "--logtostderr", "-v=9"];

/** Every secret of the test, by what it is. */
function secrets(): Record<string, string> {
  const all: Record<string, string> = { "the API key": API_KEY, "the bearer token": TOKEN };
  for (const [key, value] of Object.entries(VALUES)) all[`env value ${key}`] = value;
  for (const [key, value] of Object.entries(CHANGED)) all[`changed env value ${key}`] = value;
  all["the refused env value"] = NOT_A_NUMBER;
  return all;
}

/**
 * The one kind of line allowed to hold a secret: the engine's own level-9 log of each property it
 * marshals for an RPC ("Marshaling property for RPC[...]: name={value}"), which prints secret
 * values in plaintext for any resource. Proven without this package by the last test of this
 * file; `-v=8` has none (also asserted). See docs/guides/reliability.md.
 */
function isEngineRpcPropertyLog(line: string): boolean {
  try {
    const entry = JSON.parse(line) as { msg?: string; v?: number };
    return entry.v === 9 && /^(Un)?[Mm]arshaling property for RPC\[/.test(entry.msg ?? "");
  } catch {
    return false;
  }
}

/**
 * Asserts that no secret appears in `text`, except, when `engineRpcLogsAllowed`, in the engine's
 * level-9 RPC property lines. The failure shows where, with the secret masked.
 */
function assertNoSecret(where: string, text: string, options: { engineRpcLogsAllowed?: boolean } = {}): number {
  let exempted = 0;
  for (const [what, secret] of Object.entries(secrets())) {
    for (const line of text.split("\n")) {
      if (!line.includes(secret)) continue;
      if (options.engineRpcLogsAllowed && isEngineRpcPropertyLog(line)) {
        exempted++;
        continue;
      }
      assert.fail(`${where} contains ${what} in plaintext, in: ${line.split(secret).join("<SECRET>").slice(0, 1000)}`);
    }
  }
  return exempted;
}

/** stdout and stderr of a command, for searching. */
const all = (r: CommandResult) => `${r.stdout}\n${r.stderr}`;

describe("e2e reliability: secrets", function () {
  this.timeout(10 * 60_000);
  const e2e = useEmulatorStack((workspace) => new Stack(workspace, specProgram(workspace, "secrets"), "secrets"), {
    emulator: { apiKey: API_KEY, token: TOKEN },
    secrets: { "integration-platform:token": TOKEN, ...VALUES },
  });
  before(() => writeSpec(e2e.stack.dir, SPEC));
  /** Bytes of output searched, and engine RPC log lines exempted, for the closing line. */
  let searched = 0;
  let exempted = 0;
  /** Plain output: no secret anywhere. */
  const check = (where: string, text: string) => {
    searched += text.length;
    assertNoSecret(where, text);
  };
  /** `-v=9` output: no secret outside the engine's own RPC property lines. */
  const checkVerbose = (where: string, text: string) => {
    searched += text.length;
    exempted += assertNoSecret(where, text, { engineRpcLogsAllowed: true });
  };

  after(() => {
    console.log(
      `      searched ${(searched / 1e6).toFixed(1)} MB of output and state for ${Object.keys(secrets()).length} secrets; ${exempted} engine RPC log lines at -v=9 held one`,
    );
  });

  // One walk of the stack: each step starts from the values, config and state the steps before it
  // left (the changed values are set by the preview step, and applied by the last one).
  it("keeps every secret out of the output, the state and the errors of up, preview, a refused check, a failed up and refresh", async function () {
    this.timeout(4 * 10 * 60_000);

    await step("up with --debug and -v=9, and the exported state", async () => {
      const up = await e2e.stack.ok(["up", "--yes", ...VERBOSE]);
      checkVerbose("up -v=9", all(up));
      check("up --debug (stdout)", up.stdout);
      assertPlatformMatches(e2e.emulator.store.snapshot(), SPEC, { values: VALUES });
      // The token really was used, for the env operations (so a leak of it had its chance).
      assert.ok(
        e2e.emulator.requests.list().some((e) => e.auth === "bearer" && e.path.startsWith("/api/v2/public/env/")),
      );
      check("stack export", await e2e.stack.exportText());
    });

    await step("preview of changed values, plain and with -v=9", async () => {
      for (const [key, value] of Object.entries(CHANGED)) await e2e.stack.ok(["config", "set", "--secret", key, value]);
      const preview = await e2e.stack.ok(["preview", "--diff"]);
      assert.match(preview.stdout, /~ 3 to update/);
      check("preview --diff", all(preview));
      checkVerbose("preview -v=9", all(await e2e.stack.ok(["preview", "--diff", ...VERBOSE])));
    });

    await step("error messages: a value the definition refuses, and a platform that fails the writes", async () => {
      // A non-number for the number definition: refused at check, and the value is not echoed
      // (the engine would print it beside a failure that names the property; see provider/resources/served.ts).
      await e2e.stack.ok(["config", "set", "--secret", "quota", NOT_A_NUMBER]);
      const refused = await e2e.stack.run(["preview"]);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stdout, /resource 'quota' has a problem: value: must be a number/);
      check("refused preview", all(refused));
      const refusedVerbose = await e2e.stack.run(["preview", ...VERBOSE]);
      assert.notEqual(refusedVerbose.code, 0);
      checkVerbose("refused preview -v=9", all(refusedVerbose));
      await e2e.stack.ok(["config", "set", "--secret", "quota", CHANGED.quota]);

      // The platform fails every env write: the up fails, naming the operation only.
      await e2e.stack.ok(["config", "set", "integration-platform:maxRetries", "0"]);
      e2e.emulator.faults.add([{ method: "POST", path: "^/api/v2/public/env/values$", action: { status: 503 } }]);
      const failed = await e2e.stack.run(["up", "--yes", "--skip-preview", ...VERBOSE]);
      e2e.emulator.faults.clear();
      await e2e.stack.ok(["config", "rm", "integration-platform:maxRetries"]);
      assert.notEqual(failed.code, 0);
      assert.match(failed.stdout, /503 from POST \/env\/values/);
      check("failed up --debug (stdout)", failed.stdout);
      checkVerbose("failed up -v=9", all(failed));
    });

    await step("up of the changed values and refresh, with -v=9; refresh with -v=8 has no secret at all", async () => {
      const up = await e2e.stack.ok(["up", "--yes", "--skip-preview", ...VERBOSE]);
      checkVerbose("up -v=9", all(up));
      assertPlatformMatches(e2e.emulator.store.snapshot(), SPEC, { values: CHANGED });
      checkVerbose("refresh -v=9", all(await e2e.stack.ok(["refresh", "--yes", ...VERBOSE])));
      check("refresh -v=8", all(await e2e.stack.ok(["refresh", "--yes", "--debug", "--logtostderr", "-v=8"])));
      check("stack export", await e2e.stack.exportText());
    });
  });

  // Stands alone: its own program and stack, which never call the emulator.
  it("the engine itself prints secret inputs in its -v=9 RPC logs: measured without this package", async () => {
    // A stack whose only resource is a dynamic resource of its own (no code of this package), with
    // a secret input read from secret config, as in engine.test.ts.
    const probe = `probe-${hex()}`;
    const dir = writeProgram(e2e.workspace.root, "engine-probe", {
      "index.js": [
        'const pulumi = require("@pulumi/pulumi");',
        'const echo = { async create() { return { id: "echo-1", outs: {} }; } };',
        "class Echo extends pulumi.dynamic.Resource { constructor(name, message) { super(echo, name, { message }, {}); } }",
        'new Echo("echo", new pulumi.Config().requireSecret("probe"));',
        "",
      ].join("\n"),
      "Pulumi.yaml": "name: engine-probe\nruntime: nodejs\nmain: index.js\n",
      "package.json": JSON.stringify({ name: "engine-probe", private: true, main: "index.js" }),
    });
    const engine = new Stack(e2e.workspace, dir, "probe");
    await engine.init({}, { probe });
    const v9 = await engine.ok(["up", "--yes", "--logtostderr", "-v=9"]);
    const lines = v9.stderr.split("\n").filter((l) => l.includes(probe));
    assert.ok(lines.length > 0, "the engine prints the secret at -v=9");
    assert.ok(
      lines.every(isEngineRpcPropertyLog),
      `only in its RPC property lines:\n${lines.join("\n").split(probe).join("<SECRET>")}`,
    );
    const v8 = await engine.ok(["refresh", "--yes", "--logtostderr", "-v=8"]);
    assert.ok(!all(v8).includes(probe), "and not at -v=8");
    console.log(
      `      engine probe: ${lines.length} -v=9 RPC log lines printed a secret input of a resource that is not ours`,
    );
  });
});
