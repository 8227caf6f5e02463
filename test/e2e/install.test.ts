// The install path the README gives a new user: `npm pack`, then `npm install <tarball>` in a
// fresh copy of examples/quickstart, which then compiles and previews against the emulator. The
// project reaches nothing of the repository: no `file:` path into it, no link, no shared
// node_modules.
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { REPO, Stack, Workspace } from "../../harness/engine";
import { step } from "../../harness/e2e";

const run = promisify(execFile);

/** The TypeScript block of the README's "Your first program", as a user pastes it. */
function firstProgram(): string {
  const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Your first program"), readme.indexOf("## Using the provider"));
  const block = /^( *)```ts\n([\s\S]*?)^\1```$/m.exec(section);
  assert.ok(block, "the README's first program has a ```ts block");
  const indent = block[1].length;
  return block[2]
    .split("\n")
    .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
    .join("\n");
}

/** What `npm pack --json` reports of the tarball. */
interface Packed {
  filename: string;
  files: { path: string }[];
}

/** Runs npm in `cwd` and returns its stdout; a non-zero exit throws with npm's output. */
async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run("npm", [...args, "--no-audit", "--no-fund", "--loglevel", "error"], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

describe("e2e: a new user's install, from the packed tarball into a fresh project", function () {
  this.timeout(10 * 60_000);
  let workspace: Workspace;
  let emulator: RunningEmulator;
  let packed: Packed;
  let tarball: string;

  before(async () => {
    workspace = new Workspace();
    emulator = await startEmulator({ quiet: true });
    // --ignore-scripts: `npm test` has built dist/ already, and `prepare` would build it again.
    const packDir = path.join(workspace.root, "release");
    fs.mkdirSync(packDir);
    [packed] = JSON.parse(
      await npm(["pack", "--json", "--ignore-scripts", "--pack-destination", packDir], REPO),
    ) as Packed[];
    tarball = path.join(packDir, path.basename(packed.filename));
  });
  after(async () => {
    workspace?.dispose();
    await emulator?.close();
  });

  it("ships the compiled package, its user docs, examples, CHANGELOG and LICENSE, and nothing of the sources or tests", () => {
    const files = packed.files.map((f) => f.path);
    for (const needed of [
      "package.json",
      "README.md",
      "CHANGELOG.md",
      "LICENSE",
      "dist/provider/index.js",
      "dist/provider/index.d.ts",
      "dist/cli/main.js",
      "dist/emulator/main.js",
      "emulator/fixtures/default.json",
      "docs/guides/drift.md",
      "docs/resources/config-field.md",
      "docs/emulator.md",
      "examples/quickstart/index.ts",
    ]) {
      assert.ok(files.includes(needed), `the package has ${needed}`);
    }
    const unwanted = files.filter(
      (file) =>
        /^(test|scripts|tools|provider|cli|benchmarks|\.ci|docs\/design)\//.test(file) ||
        ["BENCHMARKS.md", "docs/development.md", "tsconfig.json", "tsconfig.test.json", "Pulumi.yaml"].includes(file) ||
        (file.startsWith("dist/") && /\.test\./.test(file)),
    );
    assert.deepEqual(unwanted, [], "the package ships only what users need");
  });

  it("passes `npm publish --dry-run`", async () => {
    // Exit 0 is the assertion; npm prints the file list and "(dry-run)" without contacting anyone.
    const { stderr } = await run("npm", ["publish", "--dry-run", "--ignore-scripts"], {
      cwd: REPO,
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.match(stderr, /Publishing to .* \(dry-run\)/);
  });

  it("installs as the README says into a copy of examples/quickstart, which compiles and previews", async () => {
    const project = path.join(workspace.root, "quickstart");
    await step("1. a fresh project: the quickstart's files, without node_modules", async () => {
      fs.mkdirSync(project);
      for (const file of ["Pulumi.yaml", "package.json", "tsconfig.json", "index.ts"]) {
        fs.copyFileSync(path.join(REPO, "examples/quickstart", file), path.join(project, file));
      }
    });

    await step("2. `npm install <tarball>` installs the package and the project's other dependencies", async () => {
      await npm(["install", "--prefer-offline", tarball], project);
      const installed = path.join(project, "node_modules/pulumi-integration-platform");
      assert.ok(
        fs.lstatSync(installed).isDirectory() && !fs.lstatSync(installed).isSymbolicLink(),
        "a copy, not a link",
      );
      const manifest = JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8"));
      const spec: string = manifest.dependencies["pulumi-integration-platform"];
      assert.match(spec, /^file:.*pulumi-integration-platform-\d+\.\d+\.\d+\.tgz$/, "npm wrote the tarball's path");
      assert.equal(path.resolve(project, spec.slice("file:".length)), tarball);
      const lock = fs.readFileSync(path.join(project, "package-lock.json"), "utf8");
      assert.ok(!lock.includes(REPO), "nothing in the lock file points into the repository");
      // One SDK: the package's @pulumi/pulumi is the project's, or resources would not be recognised.
      assert.ok(
        !fs.existsSync(path.join(installed, "node_modules/@pulumi/pulumi")),
        "the package uses the project's @pulumi/pulumi",
      );
    });

    await step("3. the program compiles with the project's own TypeScript", async () => {
      await run(process.execPath, [path.join(project, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", project], {
        cwd: project,
      });
    });

    await step(
      "4. `pulumi preview` against the emulator plans the stack and its seven resources, and writes nothing",
      async () => {
        const stack = new Stack(workspace, project);
        await stack.init(
          { "integration-platform:baseUrl": emulator.url },
          { "integration-platform:apiKey": emulator.apiKey, crmToken: "crm-token", accountQuota: "1000" },
        );
        const before = JSON.stringify(emulator.store.snapshot());
        const preview = await stack.ok(["preview"]);
        assert.match(preview.stdout, /\+ 8 to create/, preview.stdout);
        assert.equal(JSON.stringify(emulator.store.snapshot()), before, "a preview changes nothing on the platform");
      },
    );

    await step(
      "5. the README's first program, in place of index.ts, compiles and previews its two resources",
      async () => {
        fs.writeFileSync(path.join(project, "index.ts"), firstProgram());
        await run(
          process.execPath,
          [path.join(project, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", project],
          { cwd: project },
        );
        const preview = await new Stack(workspace, project).ok(["preview"]);
        // Its two resources, and the stack itself (nothing was deployed before).
        assert.match(preview.stdout, /\+ 3 to create/, preview.stdout);
        assert.match(preview.stdout, /ConfigField pipeline create/);
        assert.match(preview.stdout, /WorkflowToggle contact-sync create/);
      },
    );
  });
});
