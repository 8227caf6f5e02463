// A Python team's day, with no `node`, `npm` or `npx` on any PATH: everything it runs comes from
// the release as a Python team installs it. pip puts the SDK's wheel and the tools' and the
// emulator's platform wheels (each carrying its executable) into the project's virtualenv; the
// plugin comes from its archive. The emulator is the release's executable, at its default (the
// platform's documented) rate limit. The team reviews a preview with the tools' summary, deploys,
// finds drift made behind the stack's back with the drift report, tests its webhook receiver (the
// Python one of examples/webhook-receiver) with `webhook send`, and destroys. Only this test runner
// is Node.js: it starts the processes and reads the platform over HTTP, as a person at a terminal would.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { publicCall, publicGet, step } from "../../../harness/e2e";
import { engineBinDir, REPO, Stack, Workspace, type CommandResult } from "../../../harness/engine";
import { copyNativeExample, LANGUAGES, languageHostsDir } from "../../../harness/languages";
import { nativeSecrets } from "../../../harness/native";
import {
  installPluginFromArchive,
  pathWithoutNode,
  pythonWheel,
  releaseFolder,
  startServer,
  toolWheelFile,
  releaseVersions,
  type Server,
} from "../../support/release";

const run = promisify(execFile);

/** The Python webhook receiver of the examples, run from the repository as a team copies it. */
const RECEIVER = path.join(REPO, "examples", "webhook-receiver", "python", "receiver.py");

/** What a person sees of the quickstart's objects through the public API. */
async function observe(emulator: { url: string; apiKey: string }) {
  const config = await publicGet(emulator, "/slug/hubspot/config/globex", { linked_account_id: "globex" });
  const values = await publicGet(emulator, "/env/values/linked_account?linked_account_id=globex&limit=100");
  return {
    fields: config.fields.map((f: { id: string; name: string }) => ({ id: f.id, name: f.name })),
    workflows: config.workflows.map((w: { id: string; enabled: boolean }) => ({ id: w.id, enabled: w.enabled })),
    values: values.docs.map((v: { _id: string; value: string }) => ({ id: v._id, value: v.value })),
  };
}

describe(`e2e: a Python team's day, with no Node.js on any PATH (the release's wheels, executables and plugin archive) ${LANGUAGES}`, function () {
  this.timeout(40 * 60_000);
  const secrets = nativeSecrets();
  let workspace: Workspace;
  let dir: string;
  let bin: string;
  let PATH: string;
  let emulator: Server & { apiKey: string };
  let receiver: Server | undefined;
  /** Every output of every command, searched for the secrets at the end. */
  const outputs: string[] = [];

  /** Runs one of the venv's commands with only the day's PATH; resolves whatever it exits with. */
  async function tool(args: string[], env: Record<string, string> = {}): Promise<CommandResult> {
    const started = Date.now();
    try {
      const { stdout, stderr } = await run(path.join(bin, args[0]), args.slice(1), {
        cwd: dir,
        env: { PATH, HOME: workspace.root, ...env },
        maxBuffer: 64 * 1024 * 1024,
      });
      outputs.push(stdout, stderr);
      return { code: 0, stdout, stderr, ms: Date.now() - started };
    } catch (error) {
      const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
      outputs.push(stdout, stderr);
      return { code, stdout, stderr, ms: Date.now() - started };
    }
  }

  before(async () => {
    releaseFolder();
    workspace = new Workspace();
    dir = copyNativeExample("python", workspace.root);
    // The project's virtualenv, as `pulumi new python` lays it out, with the three wheels in it, as
    // a requirements.txt of `pulumi-integration-platform`, `-tools` and `-emulator` installs them.
    await run("python3", ["-m", "venv", path.join(dir, "venv")]);
    bin = path.join(dir, "venv", "bin");
    await run(
      path.join(bin, "pip"),
      [
        ...["install", "--quiet", "--disable-pip-version-check"],
        ...[pythonWheel(), toolWheelFile("tools"), toolWheelFile("emulator")],
      ],
      { timeout: 10 * 60_000 },
    );
    installPluginFromArchive(workspace);
    PATH = pathWithoutNode(bin, engineBinDir(), languageHostsDir());
    const started = await startServer(
      path.join(bin, "pulumi-integration-platform-emulator"),
      ["--port", "0", "--api-key", secrets.apiKey],
      { PATH, HOME: workspace.root },
      /listening on (http:\/\/127\.0\.0\.1:\d+)/,
    );
    emulator = Object.assign(started, { apiKey: secrets.apiKey });
  });

  after(async () => {
    await receiver?.stop();
    await emulator?.stop();
    workspace?.dispose();
  });

  it("installs the commands with pip, reviews a preview with the summary, deploys, reports drift (exit 1), tests its webhook receiver, and destroys back to what it found", async () => {
    const stack = new Stack(workspace, dir, "dev", { PATH });
    const fixture = await observe(emulator);

    await step("the executables answer --version with the release's version, from the venv's PATH", async () => {
      for (const command of ["pulumi-integration-platform", "pulumi-integration-platform-emulator"]) {
        const version = await tool([command, "--version"]);
        assert.equal(version.code, 0, version.stderr);
        assert.equal(version.stdout.trim(), releaseVersions().version);
      }
      const shown = await tool(["python", "-m", "pulumi_integration_platform_tools", "--version"]);
      assert.equal(shown.stdout.trim(), releaseVersions().version, "python -m runs the executable too");
    });

    await step("pulumi preview --json, summarized by the tools executable for the pull request", async () => {
      await stack.init(
        { "integration-platform:baseUrl": emulator.url },
        { "integration-platform:apiKey": secrets.apiKey, crmToken: secrets.crmToken, accountQuota: secrets.quota },
      );
      const preview = await stack.ok(["preview", "--json"]);
      outputs.push(preview.stdout, preview.stderr);
      fs.writeFileSync(path.join(dir, "preview.json"), preview.stdout);
      const summary = await tool(["pulumi-integration-platform", "summarize", "preview.json"]);
      assert.equal(summary.code, 0, summary.stderr);
      assert.match(summary.stdout, /## Integration platform changes in stack `dev` of project `quickstart-python`/);
      assert.match(
        summary.stdout,
        /7 changes to integration platform objects \(7 to create\) for 1 linked account: `globex`/,
      );
      assert.match(summary.stdout, /\*\*create\*\* field `hs_pipeline`: resource `pipeline`/);
      assert.match(summary.stdout, /\*\*create\*\* workflow `wf_hs_contact_sync`: resource `contact-sync`/);
      assert.deepEqual(await observe(emulator), fixture, "a preview changes nothing");
    });

    await step("pulumi up sets up what the program declares", async () => {
      const up = await stack.ok(["up", "--yes", "--skip-preview"]);
      outputs.push(up.stdout, up.stderr);
      assert.match(up.stdout, /\+ 8 created/);
      const live = await observe(emulator);
      assert.deepEqual(
        live.fields.find((f: { id: string }) => f.id === "hs_pipeline"),
        { id: "hs_pipeline", name: "Sales pipeline" },
      );
      assert.ok(
        live.workflows.some((w: { id: string; enabled: boolean }) => w.id === "wf_hs_contact_sync" && w.enabled),
      );
    });

    await step("drift made behind the stack's back is reported by summarize --drift, which exits 1", async () => {
      await publicCall(emulator, "PUT", "/config/field/hs_pipeline", {
        headers: { linked_account_id: "globex", slug: "hubspot" },
        body: {
          slug: "hubspot",
          config_id: "globex",
          fields: [{ id: "hs_pipeline", name: "Renamed by hand" }],
          workflows: [],
        },
      });
      const refresh = await stack.run(["refresh", "--preview-only", "--expect-no-changes", "--json"], {
        PULUMI_ENABLE_STREAMING_JSON_PREVIEW: "true",
        // The workspace's default would add --yes, which --preview-only refuses.
        PULUMI_SKIP_CONFIRMATIONS: "false",
      });
      outputs.push(refresh.stdout, refresh.stderr);
      assert.notEqual(refresh.code, 0, "--expect-no-changes fails on drift");
      fs.writeFileSync(path.join(dir, "drift.json"), refresh.stdout);
      const report = await tool(["pulumi-integration-platform", "summarize", "--drift", "drift.json"]);
      assert.equal(report.code, 1, `exit 1 on drift: ${report.stderr}; the refresh said: ${refresh.stderr}`);
      assert.match(report.stdout, /`globex`/);
      assert.match(report.stdout, /field `hs_pipeline`: resource `pipeline`/);
      assert.match(report.stdout, /Renamed by hand/);
      assert.doesNotMatch(report.stdout, /contact-sync/, "only what drifted is named");
    });

    await step(
      "webhook send from the executable reaches the Python receiver, which takes it; a tampered body is refused",
      async () => {
        receiver = await startServer(
          path.join(bin, "python"),
          [RECEIVER, "--port", "0"],
          { PATH, HOME: workspace.root, INTEGRATION_PLATFORM_API_KEY: secrets.apiKey, PYTHONUNBUFFERED: "1" },
          /listening on (http:\/\/127\.0\.0\.1:\d+)/,
        );
        const instance = `inst-${randomBytes(4).toString("hex")}`;
        const sent = await tool(
          [
            "pulumi-integration-platform",
            ...["webhook", "send", "--url", `${receiver.url}/webhooks`, "--event", "errored"],
            ...["--linked-account-id", "globex", "--instance-id", instance],
          ],
          { INTEGRATION_PLATFORM_API_KEY: secrets.apiKey },
        );
        assert.equal(sent.code, 0, sent.stdout + sent.stderr);
        await receiver.waitFor(new RegExp(`Workflow Errored: workflow test-workflow for globex \\(run ${instance}\\)`));
        // The same event with one byte changed after signing, as an attacker would send it.
        const body = JSON.stringify({
          linked_account_id: "globex",
          instance_id: `${instance}-tampered`,
          workflow_id: "wf_hs_contact_sync",
          config_id: "globex",
          event: "Workflow Completed",
          workflow_name: "Sync contacts",
          status: "COMPLETED",
        });
        const signature = createHmac("sha256", secrets.apiKey).update(body).digest("hex");
        const tampered = await fetch(`${receiver.url}/webhooks`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-cobalt-signature": signature },
          body: body.replace("COMPLETED", "COMPLETEd"),
        });
        assert.equal(tampered.status, 401);
        const genuine = await fetch(`${receiver.url}/webhooks`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-cobalt-signature": signature },
          body,
        });
        assert.equal(genuine.status < 300, true, `the untampered body is taken (answered ${genuine.status})`);
        // Taken once, as new: had the tampered one been taken, this would be a redelivery of its run.
        await receiver.waitFor(
          new RegExp(`Workflow Completed: workflow wf_hs_contact_sync for globex \\(run ${instance}-tampered\\)`),
        );
        assert.doesNotMatch(receiver.output(), /already taken/);
      },
    );

    await step("pulumi destroy puts back what the platform held before", async () => {
      const destroy = await stack.ok(["destroy", "--yes", "--skip-preview"]);
      outputs.push(destroy.stdout, destroy.stderr);
      assert.deepEqual(await observe(emulator), fixture);
    });

    await step("no command and no server printed a secret", async () => {
      for (const text of [...outputs, emulator.output(), receiver?.output() ?? ""])
        for (const secret of [secrets.crmToken, secrets.quota])
          assert.ok(!text.includes(secret), "an output holds an env value");
      for (const text of outputs) assert.ok(!text.includes(secrets.apiKey), "an output holds the API key");
    });
  });
});
