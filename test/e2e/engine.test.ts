// The engine itself, end to end: a tiny program with one dynamic resource, with our package
// installed from its tarball, through `up`, `preview --expect-no-changes` and `destroy`.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { engineBinDir, REPO, resourcesOfType, Stack, Workspace } from "../../harness/engine";
import { writeProgram } from "../../harness/program";

const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import * as platform from "pulumi-integration-platform";

// The smallest dynamic resource: proves the engine, the language host and the provider host.
const echo: pulumi.dynamic.ResourceProvider = {
  async create(inputs) { return { id: "echo-1", outs: { ...inputs, length: String(inputs.message).length } }; },
  async diff(_id, olds, news) { return { changes: olds.message !== news.message }; },
};
class Echo extends pulumi.dynamic.Resource {
  declare readonly length: pulumi.Output<number>;
  constructor(name: string, message: string) { super(echo, name, { message, length: undefined }, {}, "smoke", "Echo"); }
}

const r = new Echo("hello", "hello from the engine");
export const length = r.length;
// The installed package loads and exposes its resources.
export const exported = Object.keys(platform).filter((k) => /^[A-Z]/.test(k)).sort();
`;

/**
 * What the CLI would change outside the workspace if its isolation failed: the default
 * PULUMI_HOME (~/.pulumi: credentials, workspaces, plugins, each entry with its modification
 * time, which changes when anything is added inside it) and the repository's working tree.
 */
function footprint(): { pulumiHome: string[]; repository: string } {
  const home = path.join(os.homedir(), ".pulumi");
  const entries = fs.existsSync(home)
    ? fs.readdirSync(home).map((entry) => `${entry} ${fs.statSync(path.join(home, entry)).mtimeMs}`)
    : [];
  const homeItself = fs.existsSync(home) ? [`. ${fs.statSync(home).mtimeMs}`] : [];
  return {
    pulumiHome: [...homeItself, ...entries],
    repository: execFileSync("git", ["status", "--porcelain", "--ignored"], { cwd: REPO, encoding: "utf8" }),
  };
}

describe("e2e: the Pulumi engine on this machine", function () {
  this.timeout(10 * 60_000);
  let workspace: Workspace;
  let stack: Stack;
  let untouched: ReturnType<typeof footprint>;

  before(async function () {
    // Finding the engine first: with an installed CLI on PATH, ensure-pulumi.sh checks its
    // version with `pulumi version`, which logs to ~/.pulumi/logs (the user's CLI, used as the
    // user runs it). That is the lookup's footprint, not the engine's under test, and it happens
    // once per test process: in whichever suite comes first, so here when this file runs alone.
    engineBinDir();
    untouched = footprint();
    workspace = new Workspace();
    stack = new Stack(workspace, writeProgram(workspace.root, "smoke", { "index.ts": PROGRAM }));
    await stack.init();
  });
  after(() => workspace?.dispose());

  it("runs up, preview --expect-no-changes and destroy through the real CLI", async () => {
    const up = await stack.ok(["up", "--yes", "--skip-preview"]);
    assert.match(up.stdout, /pulumi-nodejs:dynamic\/smoke:Echo\s+hello\s+created/);
    assert.match(up.stdout, /\+ 2 created/);

    const state = await stack.exportState();
    const [echo] = resourcesOfType(state, "pulumi-nodejs:dynamic/smoke:Echo");
    assert.equal(echo.id, "echo-1");
    assert.equal(echo.outputs?.length, "hello from the engine".length);
    const outputs = (state.deployment.resources ?? []).find((r) => r.type === "pulumi:pulumi:Stack")?.outputs;
    for (const name of ["ApplicationEvent", "ConfigField", "EnvVariableValue", "WorkflowToggle"]) {
      assert.ok((outputs?.exported as string[]).includes(name), `the installed package exports ${name}`);
    }

    const preview = await stack.run(["preview", "--expect-no-changes"]);
    assert.equal(preview.code, 0, preview.stdout + preview.stderr);
    assert.match(preview.stdout, /2 unchanged/);

    const destroy = await stack.ok(["destroy", "--yes", "--skip-preview"]);
    assert.match(destroy.stdout, /- 2 deleted/);
    const after = await stack.exportState();
    assert.deepEqual(after.deployment.resources ?? [], []);
  });

  it("kills a command past its timeout with the programs and plugins it started", async () => {
    // A create that never answers: the engine, the program and the dynamic provider all wait on it.
    const hanging = new Stack(
      workspace,
      writeProgram(workspace.root, "hang", {
        "index.ts": `
import * as pulumi from "@pulumi/pulumi";
const never: pulumi.dynamic.ResourceProvider = { create: () => new Promise(() => undefined) };
new (class extends pulumi.dynamic.Resource {})(never, "stuck", {}, {});
`,
      }),
    );
    await hanging.init();
    /** Live processes working in the hanging program's folder (Linux /proc). */
    const inFolder = () =>
      fs.readdirSync("/proc").filter((entry) => {
        try {
          return /^\d+$/.test(entry) && fs.readlinkSync(`/proc/${entry}/cwd`) === hanging.dir;
        } catch {
          return false; // ended while listed, or not ours to read
        }
      });
    const up = await hanging.run(["up", "--yes", "--skip-preview"], {}, 20_000);
    assert.notEqual(up.code, 0);
    assert.ok(up.ms >= 20_000, `killed at its timeout (${up.ms} ms)`);
    // The kill is SIGKILL: the processes are gone once the kernel has reaped them.
    const deadline = Date.now() + 5_000;
    while (inFolder().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(inFolder(), [], "no program or plugin of the killed command lives on");
    await hanging.run(["cancel", "--yes"]);
  });

  it("writes nothing outside its temporary directory", () => {
    assert.ok(
      fs.existsSync(path.join(workspace.root, "backend", ".pulumi")),
      "the file backend lives in the workspace",
    );
    assert.ok(fs.existsSync(path.join(workspace.root, "home")), "PULUMI_HOME lives in the workspace");
    assert.deepEqual(
      footprint(),
      untouched,
      "init, up, preview and destroy changed nothing in ~/.pulumi or in the repository",
    );
  });
});
