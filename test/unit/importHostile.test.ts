// import writes only safe text (docs/guides/security.md): definition names that hold a line break,
// a shell command, backticks, `${`, a bidi override or `__proto__` give a project that type-checks,
// declares every value, and a README whose shell block holds exactly one command per secret.
// And --force never writes through a symbolic link.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { main } from "../../cli/main";
import { REPO } from "../../harness/engine";
import { useResetEmulator } from "../support/emulator";
import { TYPE } from "../../harness/fixture";
import { registrations } from "../support/mocks";

/** Hostile names, each the name of an org definition with a plain value, and an encrypted linked-account one. */
const NAMES = ["TOKEN\nrm -rf ~ #", "__proto__", "`whoami`", "${process.exit(1)}", "NAME\u202eexe.txt", "-rf"];

/** Type-checks a generated project's index.ts against this repository's sources, as its users' compiler would. */
function typeErrors(dir: string): string[] {
  const program = ts.createProgram([path.join(dir, "index.ts")], {
    noEmit: true,
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    baseUrl: dir,
    paths: { "pulumi-integration-platform": [path.join(REPO, "provider/index.ts")] },
    typeRoots: [path.join(REPO, "node_modules/@types")],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("import: hostile names", function () {
  this.timeout(120_000);
  const ctx = useResetEmulator();
  let tmp: string;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pip-import-hostile-"))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  async function cli(args: string[]) {
    const run = { stdout: "", stderr: "" };
    const code = await main(args, {
      stdout: (text) => (run.stdout += text),
      stderr: (text) => (run.stderr += text),
      readStdin: async () => "",
      env: { INTEGRATION_PLATFORM_BASE_URL: ctx.emulator.url, INTEGRATION_PLATFORM_API_KEY: ctx.emulator.apiKey },
    });
    return { code, ...run };
  }

  it("writes a project that type-checks, declares each value, and one shell command per secret", async () => {
    const { store } = ctx.emulator;
    await store.update((state) => {
      for (const [i, name] of NAMES.entries()) {
        const stamp = new Date().toISOString();
        const base = {
          org_id: state.org._id,
          description: "hostile",
          var_format: "string" as const,
          created_by: "test",
          updated_by: "test",
          createdAt: stamp,
          updatedAt: stamp,
        };
        state.envDefinitions.push({
          ...base,
          _id: `66${String(i).padStart(22, "0")}`,
          name,
          scope: "org",
          encrypted: false,
        });
        state.envDefinitions.push({
          ...base,
          _id: `67${String(i).padStart(22, "0")}`,
          name: `${name} secret`,
          scope: "linked_account",
          encrypted: true,
        });
      }
    });
    for (const [i] of NAMES.entries()) {
      store.envVariables.setValue({
        definition: store.envVariables.definition(`66${String(i).padStart(22, "0")}`)!,
        value: `plain-${i}`,
        linkedAccountId: null,
        workflowId: null,
        actor: "api_key",
      });
      store.envVariables.setValue({
        definition: store.envVariables.definition(`67${String(i).padStart(22, "0")}`)!,
        value: `hidden-${i}`,
        linkedAccountId: "acme",
        workflowId: null,
        actor: "api_key",
      });
    }
    await store.commit();

    const out = path.join(tmp, "platform");
    const run = await cli(["import", "--slug", "hubspot", "--out", out]);
    assert.equal(run.code, 0, run.stderr);
    const index = fs.readFileSync(path.join(out, "index.ts"), "utf8");
    const readme = fs.readFileSync(path.join(out, "README.md"), "utf8");

    // One line per command in the README's shell block: the secrets' comments cannot start a line.
    const shell = /```sh\n([\s\S]*?)```/
      .exec(readme)![1]
      .split("\n")
      .filter((line) => line.trim() !== "");
    const allowed = /^(npm install|pulumi (stack init|config set|up|preview)\b|#)/;
    assert.deepEqual(
      shell.filter((line) => !allowed.test(line)),
      [],
      "every line of the block is a command the README means, or a comment",
    );
    const secretLines = shell.filter(
      (line) => line.startsWith("pulumi config set --secret ") && !line.includes("integration-platform:apiKey"),
    );
    assert.equal(
      secretLines.filter((line) => / secret, linked account acme$/.test(line)).length,
      NAMES.length,
      "one command per hostile encrypted value",
    );
    for (const line of secretLines)
      assert.match(
        line,
        /^pulumi config set --secret [A-Za-z][A-Za-z0-9_-]* +# /,
        "the key is one plain word that no option parser takes for a flag",
      );
    assert.doesNotMatch(readme + run.stdout, /\u202e/, "no bidi override reaches what a reader sees");
    assert.match(index, /\["__proto__"\]: /, "__proto__ is a key of its own, not the object's prototype");

    // The package from this repository's sources, @pulumi/pulumi from its node_modules.
    const modules = path.join(out, "node_modules");
    fs.mkdirSync(path.join(modules, "pulumi-integration-platform"), { recursive: true });
    fs.writeFileSync(
      path.join(modules, "pulumi-integration-platform/index.js"),
      `module.exports = require(${JSON.stringify(path.join(REPO, "provider/index.ts"))});\n`,
    );
    fs.symlinkSync(path.join(REPO, "node_modules/@pulumi"), path.join(modules, "@pulumi"), "dir");
    assert.deepEqual(typeErrors(out), []);

    // Run under mocks: every plain value is declared, __proto__'s too.
    const secrets = Object.fromEntries(secretLines.map((line) => [`project:${line.split(/\s+/)[4]}`, "set-by-user"]));
    const registered = await registrations(() => require(path.join(out, "index.ts")), secrets);
    const declared = registered.filter((r) => r.type === TYPE("EnvVariableValue")).map((r) => r.inputs.definitionId);
    for (const [i] of NAMES.entries())
      assert.ok(
        declared.includes(`66${String(i).padStart(22, "0")}`),
        `the value of ${JSON.stringify(NAMES[i])} is declared`,
      );
  });

  it("--force never writes through a symbolic link, and says that nothing was written", async () => {
    const out = path.join(tmp, "platform");
    const elsewhere = path.join(tmp, "elsewhere.txt");
    fs.writeFileSync(elsewhere, "not the project's\n");
    fs.mkdirSync(out);
    fs.symlinkSync(elsewhere, path.join(out, "README.md"));
    const run = await cli(["import", "--slug", "hubspot", "--out", out, "--force"]);
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /README\.md is a symbolic link: import never writes through one\. Remove it, then run the import again\nNothing was written to /,
    );
    assert.equal(fs.readFileSync(elsewhere, "utf8"), "not the project's\n");
    assert.deepEqual(fs.readdirSync(out), ["README.md"]);
  });
});
