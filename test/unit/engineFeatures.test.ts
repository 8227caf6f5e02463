// The engine this project builds for CI (ensure-pulumi.sh) pairs the v3.259 CLI with the
// v3.68 Node.js language host, which silently ignores some features (docs/guides/the-pulumi-cli.md, "What the
// self-built engine is for"). A test that passes here through a program using one of them would prove
// nothing for users of the official CLI, so the programs we ship and run use none of them.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { main } from "../../cli/main";
import { useResetEmulator } from "../support/emulator";

const REPO = path.resolve(__dirname, "../..");

/** Every file below `dir` (relative to the repository) whose name passes `keep`, without node_modules. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(path.join(REPO, at), { withFileTypes: true })) {
      const relative = path.join(at, entry.name);
      if (entry.isDirectory() && entry.name !== "node_modules") walk(relative);
      else if (entry.isFile() && keep(entry.name)) found.push(relative);
    }
  };
  walk(dir);
  return found;
}

/** The features the v3.68 language host ignores, as they appear in a program's source. */
const IGNORED_IN_PROGRAMS: [string, RegExp][] = [
  [
    "a stack transform",
    /registerStackTransform|registerResourceTransform|registerStackTransformation|\btransforms\s*:/,
  ],
  ["a resource hook", /ResourceHook|\bhooks\s*:/],
];

/** The CLI commands that need the newer language host. */
const IGNORED_COMMANDS = /pulumi\s+(import\b|package\s+add\b|convert\b)/;

/**
 * `runtime.options` in a Pulumi.yaml's text that the self-built hosts would ignore: any but a Python
 * project's `virtualenv` (which the shim in front of the Python host passes on, docs/design/languages.md)
 * and `toolchain: pip` (what that host does anyway).
 */
function runtimeOptions(yaml: string): boolean {
  const runtime = yaml.match(/^runtime:[^\n]*\n((?:[ \t]+[^\n]*\n?)*)/m);
  if (runtime === null || !/^\s+options\s*:/m.test(runtime[1])) return false;
  const { name, options } = (parse(yaml) as { runtime: { name: string; options: Record<string, unknown> } }).runtime;
  const passed = Object.entries(options).filter(
    ([key, value]) => !(name === "python" && (key === "virtualenv" || (key === "toolchain" && value === "pip"))),
  );
  return passed.length > 0;
}

describe("the programs we ship and run use nothing the self-built engine ignores", () => {
  // Frozen recordings of earlier releases are excluded: they are those releases' files, as shipped.
  const recorded = (file: string) => file.startsWith(path.join("test", "e2e", "upgrade") + path.sep);
  const yamlFiles = [
    "Pulumi.yaml",
    ...filesUnder("examples", (name) => name === "Pulumi.yaml"),
    ...filesUnder("test", (name) => name === "Pulumi.yaml").filter((f) => !recorded(f)),
  ];
  const programs = [...filesUnder("examples", (name) => /\.(ts|js)$/.test(name))];
  // Program text the tests and scripts write at run time, as string literals in their source.
  const writers = ["scripts", "test/support", "test/e2e"].flatMap((dir) =>
    filesUnder(dir, (name) => name.endsWith(".ts")),
  );

  it(`no Pulumi.yaml sets runtime.options the hosts ignore (${yamlFiles.length} files)`, () => {
    assert.ok(yamlFiles.length >= 3, "the root and both examples' Pulumi.yaml are found");
    for (const file of yamlFiles)
      assert.ok(!runtimeOptions(fs.readFileSync(path.join(REPO, file), "utf8")), `${file} sets runtime.options`);
  });

  it("no Pulumi.yaml that a test or script writes sets runtime.options", () => {
    for (const file of writers) {
      const text = fs.readFileSync(path.join(REPO, file), "utf8");
      assert.doesNotMatch(
        text,
        /runtime:\\n\s*name: nodejs\\n\s*options:/,
        `${file} writes a Pulumi.yaml with runtime.options`,
      );
    }
  });

  it(`no example program uses a stack transform or a resource hook (${programs.length} files)`, () => {
    assert.ok(programs.length >= 2);
    for (const file of programs) {
      const text = fs.readFileSync(path.join(REPO, file), "utf8");
      for (const [feature, pattern] of IGNORED_IN_PROGRAMS)
        assert.doesNotMatch(text, pattern, `${file} uses ${feature}`);
    }
  });

  it("the example CI workflow runs no command that needs the newer language host", () => {
    const workflows = filesUnder("examples", (name) => /\.ya?ml$/.test(name));
    for (const file of workflows)
      assert.doesNotMatch(fs.readFileSync(path.join(REPO, file), "utf8"), IGNORED_COMMANDS, file);
  });

  describe("a project that `import` generates", () => {
    const ctx = useResetEmulator();

    it("sets no runtime.options and uses no stack transform or resource hook", async () => {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), "pip-engine-features-"));
      try {
        const quiet = () => undefined;
        const env = {
          INTEGRATION_PLATFORM_BASE_URL: ctx.emulator.url,
          INTEGRATION_PLATFORM_API_KEY: ctx.emulator.apiKey,
        };
        const code = await main(["import", "--slug", "hubspot", "--out", out, "--force"], {
          stdout: quiet,
          stderr: quiet,
          readStdin: async () => "",
          env,
        });
        assert.equal(code, 0);
        assert.ok(
          !runtimeOptions(fs.readFileSync(path.join(out, "Pulumi.yaml"), "utf8")),
          "the generated Pulumi.yaml sets runtime.options",
        );
        const program = fs.readFileSync(path.join(out, "index.ts"), "utf8");
        for (const [feature, pattern] of IGNORED_IN_PROGRAMS)
          assert.doesNotMatch(program, pattern, `the generated index.ts uses ${feature}`);
        assert.doesNotMatch(
          fs.readFileSync(path.join(out, "README.md"), "utf8"),
          IGNORED_COMMANDS,
          "the generated README runs a command the engine cannot",
        );
      } finally {
        fs.rmSync(out, { recursive: true, force: true });
      }
    });
  });

  it("the check itself finds each feature", () => {
    assert.ok(runtimeOptions("name: x\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n"));
    assert.ok(!runtimeOptions("name: x\nruntime: nodejs\nmain: index.js\n"));
    assert.ok(!runtimeOptions("name: x\nruntime:\n  name: nodejs\nconfig:\n  options: 1\n"));
    assert.match("pulumi.runtime.registerStackTransform(t)", IGNORED_IN_PROGRAMS[0][1]);
    assert.match("new pulumi.ResourceHook('h', fn)", IGNORED_IN_PROGRAMS[1][1]);
    assert.match("pulumi package add terraform-provider", IGNORED_COMMANDS);
  });
});
