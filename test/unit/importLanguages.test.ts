// `import --language`: the project each language gets from the default fixture, checked by the
// language's own tools (Python runs the program on stand-ins of the SDK, `go vet` and `mvn compile`
// check Go and Java against the generated SDKs, YAML is parsed); hostile text written as each
// language's literal and read back by its own parser; the default language from an existing
// Pulumi.yaml; the refusal of an unknown one; and the scaling guide's edit that shards a Python
// project. The e2e (test/e2e/importLanguages.test.ts) runs the projects through the real CLI.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { main } from "../../cli/main";
import { goString, javaString, pythonString, yamlString } from "../../cli/import/literals";
import { NATIVE_DEPENDENCIES } from "../../cli/import/native";
import { REPO } from "../../harness/engine";
import { javaEnv } from "../../harness/languages";
import { seedTenants } from "../../harness/tenants";
import { shardOf } from "../../provider/sharding";
import { useResetEmulator } from "../support/emulator";

/** Text no literal may let out: quotes, backslashes, line breaks, interpolations, bidi and other invisible characters. */
const HOSTILE = [
  'a"b',
  "a'b",
  "back\\slash\\",
  "line\nbreak\r\n",
  "${process.exit(1)}",
  "$${x}",
  "}}{{",
  "\\u0022 and \\n",
  "bidi\u202eexe.txt",
  "zero\u200bwidth\ufeff",
  "sep\u2028\u2029",
  "tab\tnul\u0000bell\u0007",
  "é ü 😀 \u{e0001}",
  "*/ /* # --",
];

/** Python stand-ins of `pulumi` and the SDK that record what the program declares, printed as JSON at exit. */
const PYTHON_STUBS = {
  "pulumi/__init__.py": `
import os

class Config:
    def __init__(self, name=None):
        self.name = name

    def require_secret(self, key):
        return {"secret": key}

    def get(self, key):
        # The one setting the SDK's sharding module reads: integration-platform:shards, from the test.
        return os.environ.get("STUB_SHARDS") if (self.name, key) == ("integration-platform", "shards") else None

def get_stack():
    return os.environ.get("STUB_STACK", "dev")

class ResourceOptions:
    def __init__(self, **options):
        self.options = options
`,
  "pulumi_integration_platform/__init__.py": `
import atexit, json, re
DECLARED = []
atexit.register(lambda: print(json.dumps(DECLARED)))

def camel(name):
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), name)

def plain(value):
    if isinstance(value, Args):
        return {camel(k): plain(v) for k, v in value.values.items() if v is not None}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value

class Args:
    def __init__(self, **values):
        self.values = values

class ConfigFieldValuesArgs(Args): pass
class SetupFieldArgs(Args): pass
class SetupWorkflowArgs(Args): pass
class SetupEnvValueArgs(Args): pass

class LinkedAccountSetup:
    def __init__(self, name, **args):
        DECLARED.append({"type": "LinkedAccountSetup", "name": name, **plain(Args(**args))})

class EnvVariableValue:
    def __init__(self, name, opts=None, **args):
        DECLARED.append({"type": "EnvVariableValue", "name": name, **plain(Args(**args)), "options": opts.options})
`,
};

/**
 * Runs a generated __main__.py on the stand-ins, beside the SDK's own sharding module (standard
 * library only), as stack `stack` with `integration-platform:shards` set to `shards`; returns what
 * it declared, with the SDK's names in camelCase.
 */
function runPython(dir: string, where: { stack?: string; shards?: string } = {}): Record<string, unknown>[] {
  const stubs = fs.mkdtempSync(path.join(os.tmpdir(), "pip-python-stubs-"));
  try {
    for (const [file, text] of Object.entries(PYTHON_STUBS)) {
      fs.mkdirSync(path.dirname(path.join(stubs, file)), { recursive: true });
      fs.writeFileSync(path.join(stubs, file), text);
    }
    fs.copyFileSync(
      path.join(REPO, "sdk/python/pulumi_integration_platform/sharding.py"),
      path.join(stubs, "pulumi_integration_platform/sharding.py"),
    );
    const out = execFileSync("python3", ["__main__.py"], {
      cwd: dir,
      env: {
        ...process.env,
        PYTHONPATH: stubs,
        PYTHONDONTWRITEBYTECODE: "1",
        ...(where.stack === undefined ? {} : { STUB_STACK: where.stack }),
        ...(where.shards === undefined ? {} : { STUB_SHARDS: where.shards }),
      },
      encoding: "utf8",
    });
    return JSON.parse(out) as Record<string, unknown>[];
  } finally {
    fs.rmSync(stubs, { recursive: true, force: true });
  }
}

/** Declarations without their empty lists and maps, which declare nothing in any language. */
function compact(declared: Record<string, unknown>[]): Record<string, unknown>[] {
  const empty = (v: unknown) =>
    Array.isArray(v) ? v.length === 0 : !!v && typeof v === "object" && Object.keys(v).length === 0;
  return declared.map((d) => Object.fromEntries(Object.entries(d).filter(([, v]) => !empty(v))));
}

/** What a Pulumi YAML program declares, as the Python run reports it: Pulumi YAML's `$$` read as `$`, `${key}` as a secret. */
function yamlDeclares(text: string): Record<string, unknown>[] {
  const program = parseYaml(text) as {
    resources: Record<string, { type: string; properties: object; options?: object }>;
  };
  const read = (value: unknown): unknown => {
    if (typeof value === "string") {
      const secret = /^\$\{([A-Za-z0-9_-]+)\}$/.exec(value);
      return secret ? { secret: secret[1] } : value.replace(/\$\$/g, "$");
    }
    if (Array.isArray(value)) return value.map(read);
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, read(v)]));
    return value;
  };
  return Object.entries(program.resources).map(([name, resource]): Record<string, unknown> => ({
    type: resource.type.replace("integration-platform:index:", ""),
    name,
    ...(read(resource.properties) as object),
    ...(resource.options ? { options: { retain_on_delete: true } } : {}),
  }));
}

/** A Go module in `dir` whose SDK is this repository's sdk/go, with the sums examples/native/go keeps. */
function goModule(dir: string): NodeJS.ProcessEnv {
  fs.copyFileSync(path.join(REPO, "examples/native/go/go.sum"), path.join(dir, "go.sum"));
  fs.appendFileSync(
    path.join(dir, "go.mod"),
    `\nreplace github.com/pulumi-integration-platform/pulumi-integration-platform/sdk/go => ${path.join(REPO, "sdk/go")}\n`,
  );
  // -mod=mod: go.sum is completed from the module cache (the Go suites fill it), or else fetched.
  return { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" };
}

/** Compiles a generated Java project against the generated SDK in the tests' Maven repository. */
function mvnCompile(dir: string): void {
  execFileSync("mvn", ["--batch-mode", "--quiet", "compile"], {
    cwd: dir,
    env: { ...process.env, ...javaEnv() },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("pulumi-integration-platform import --language", function () {
  this.timeout(10 * 60_000);
  const ctx = useResetEmulator();
  let tmp: string;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pip-import-lang-"))));
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

  /** Renames acme's pipeline field outside Pulumi, so that a field is declared and destroy has a name to put back. */
  async function renamePipeline(name: string) {
    await ctx.emulator.store.update(() => {
      const config = ctx.emulator.store.configs.find({ linkedAccountId: "acme", slug: "hubspot", configId: "acme" })!;
      ctx.emulator.store.configs.fieldState(config, null, "hs_pipeline").name = name;
    });
  }

  /** Imports the fixture in `language` into a new directory; returns it and what the command printed. */
  async function imported(language: string, name = language) {
    const out = path.join(tmp, name);
    const run = await cli(["import", "--slug", "hubspot", "--language", language, "--out", out]);
    assert.equal(run.code, 0, run.stderr);
    return { out, run };
  }

  /** Every file under `dir`, by its path there. */
  const filesUnder = (dir: string) =>
    (fs.readdirSync(dir, { recursive: true }) as string[])
      .filter((file) => fs.statSync(path.join(dir, file)).isFile())
      .sort();

  it("refuses an unknown language, naming the option and the languages, before any request", async () => {
    const out = path.join(tmp, "platform");
    const run = await cli(["import", "--slug", "hubspot", "--language", "rust", "--out", out]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--language must be one of typescript, python, go, yaml, java; got "rust"/);
    assert.equal(fs.existsSync(out), false);
    assert.deepEqual(ctx.emulator.requests.list(), []);
  });

  it("writes in the language of the Pulumi.yaml already in --out, and refuses one it cannot tell", async () => {
    const cases: [string, string, string][] = [
      ["python", "name: platform\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n", "__main__.py"],
      ["go", "name: platform\nruntime: go\n", "main.go"],
      ["typescript", "name: platform\nruntime: nodejs\n", "index.ts"],
    ];
    for (const [language, pulumiYaml, program] of cases) {
      const out = path.join(tmp, language);
      fs.mkdirSync(out);
      fs.writeFileSync(path.join(out, "Pulumi.yaml"), pulumiYaml);
      const run = await cli(["import", "--slug", "hubspot", "--out", out, "--force"]);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(fs.existsSync(path.join(out, program)), `${language}: ${program} is written`);
    }
    const out = path.join(tmp, "dotnet");
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, "Pulumi.yaml"), "name: platform\nruntime: dotnet\n");
    ctx.emulator.requests.clear();
    const run = await cli(["import", "--slug", "hubspot", "--out", out, "--force"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /names the runtime "dotnet", which import cannot tell a language from: pass --language/);
    assert.deepEqual(fs.readdirSync(out), ["Pulumi.yaml"]);
    assert.deepEqual(ctx.emulator.requests.list(), []);
  });

  it("Python: a venv project whose program declares what the YAML one does, and keeps found.json's restore on an edit", async () => {
    await renamePipeline("Deals pipeline");
    const { out, run } = await imported("python");
    assert.deepEqual(filesUnder(out), [
      ".gitignore",
      "Pulumi.yaml",
      "README.md",
      "__main__.py",
      "found.json",
      "requirements.txt",
    ]);
    const files = (name: string) => fs.readFileSync(path.join(out, name), "utf8");
    assert.match(
      files("Pulumi.yaml"),
      /runtime:\n {2}name: python\n {2}options:\n {4}toolchain: pip\n {4}virtualenv: venv\n/,
    );
    assert.match(files("requirements.txt"), /^pulumi>=3\.200\.0,<4\.0\.0\npulumi_integration_platform>=/);
    assert.match(files("README.md"), /python3 -m venv venv\nvenv\/bin\/pip install -r requirements\.txt/);
    assert.match(files("README.md"), /pulumi config set --secret CRM_API_TOKEN-acme/);
    assert.match(files("README.md"), /## Not brought in\n\n- Application events/);
    assert.match(run.stdout, /Next: follow .*README\.md: a venv and pip install, pulumi stack init/);

    const declared = runPython(out);
    const { out: yamlOut } = await imported("yaml");
    assert.deepEqual(compact(declared), yamlDeclares(fs.readFileSync(path.join(yamlOut, "Pulumi.yaml"), "utf8")));
    const acme = declared.find((d) => d.name === "acme-hubspot")!;
    assert.deepEqual(acme.fields, [
      { fieldId: "hs_api_domain", value: "api.hubapi.com", restoreOnDelete: { value: "api.hubapi.com" } },
      { fieldId: "hs_pipeline", name: "Deals pipeline", restoreOnDelete: { name: "Deals pipeline" } },
    ]);
    assert.deepEqual(acme.workflows, { wf_hs_contact_sync: { enabled: true, restoreOnDelete: true } });
    assert.deepEqual((acme.envValues as object[])[0], {
      definitionId: "64f0000000000000000000d4",
      value: { secret: "CRM_API_TOKEN-acme" },
      adoptEncryptedValue: true,
      retainOnDelete: true,
    });

    // An edit of the data does not move what destroy puts back: found.json still says "Deals pipeline".
    fs.writeFileSync(
      path.join(out, "__main__.py"),
      files("__main__.py").replace('"name": "Deals pipeline"', '"name": "Sales"'),
    );
    const edited = runPython(out).find((d) => d.name === "acme-hubspot")!;
    assert.deepEqual(edited.fields, [
      { fieldId: "hs_api_domain", value: "api.hubapi.com", restoreOnDelete: { value: "api.hubapi.com" } },
      { fieldId: "hs_pipeline", name: "Sales", restoreOnDelete: { name: "Deals pipeline" } },
    ]);
  });

  it("Python: the scaling guide's edit makes each stack declare its shard's setups, and shard 0 the shared env values", async () => {
    await seedTenants(ctx.emulator, "tenant", 9, { existingSetup: true });
    const { out } = await imported("python");
    const guide = fs.readFileSync(path.join(REPO, "docs/guides/scaling.md"), "utf8");
    const program = path.join(out, "__main__.py");
    let text = fs.readFileSync(program, "utf8");
    // docs/guides/scaling.md, "From an imported program to shards": the import of the helpers, and the two loops.
    const edit: [string, string][] = [
      [
        "import pulumi_integration_platform as platform\n",
        "import pulumi_integration_platform as platform\nfrom pulumi_integration_platform.sharding import in_this_shard, stack_shard\n",
      ],
      ["for setup in SETUPS:\n", 'for setup in in_this_shard(SETUPS, lambda s: s["linked_account_id"]):\n'],
      [
        "for name, value, *workflow in SHARED_ENV_VALUES:\n",
        "for name, value, *workflow in SHARED_ENV_VALUES if stack_shard().shard == 0 else []:\n",
      ],
    ];
    for (const [from, to] of edit) {
      assert.equal(text.split(from).length, 2, `__main__.py has one line ${from}`);
      assert.ok(guide.includes(to.split("\n").at(-2)!), `the guide shows ${to}`);
      text = text.replace(from, to);
    }
    fs.writeFileSync(program, text);

    const names = (declared: Record<string, unknown>[], type: string) =>
      declared.filter((d) => d.type === type).map((d) => String(d.name));
    const alone = runPython(out);
    const setups = names(alone, "LinkedAccountSetup");
    const shared = names(alone, "EnvVariableValue");
    assert.equal(setups.length, 12, "without integration-platform:shards, the stack is the only shard: every account");
    assert.ok(shared.length > 0);
    const found: string[] = [];
    for (let shard = 0; shard < 4; shard++) {
      const declared = runPython(out, { stack: `prod-${shard}`, shards: "4" });
      const mine = names(declared, "LinkedAccountSetup");
      for (const setup of mine) assert.equal(shardOf(setup.replace(/-hubspot$/, ""), 4), shard, setup);
      assert.deepEqual(names(declared, "EnvVariableValue"), shard === 0 ? shared : [], `prod-${shard}`);
      found.push(...mine);
    }
    assert.deepEqual(found.sort(), [...setups].sort(), "every account's setup is in exactly one shard");
  });

  it("YAML: one resource per data line, restore values inline, and a README that says why", async () => {
    await renamePipeline("Deals pipeline");
    const { out } = await imported("yaml");
    assert.deepEqual(filesUnder(out), ["Pulumi.yaml", "README.md", "found.json"]);
    const text = fs.readFileSync(path.join(out, "Pulumi.yaml"), "utf8");
    const program = parseYaml(text) as { runtime: string; config: object; resources: Record<string, { type: string }> };
    assert.equal(program.runtime, "yaml");
    assert.deepEqual(Object.keys(program.config), ["CRM_API_TOKEN-acme"]);
    assert.deepEqual(
      Object.entries(program.resources)
        .filter(([, r]) => r.type === "integration-platform:index:LinkedAccountSetup")
        .map(([name]) => name),
      ["acme-hubspot", "globex-hubspot", "initech-hubspot"],
    );
    const readme = fs.readFileSync(path.join(out, "README.md"), "utf8");
    assert.match(readme, /Pulumi YAML can neither read\s+a file nor loop, so the import wrote what it found inline/);
    assert.match(readme, /pulumi plugin install resource integration-platform \d+\.\d+\.\d+ --server /);
  });

  it("Go: a module whose main.go go vet accepts against the generated SDK", async () => {
    await renamePipeline('Deals "pipeline" ${x}\n\u202e');
    const { out } = await imported("go", "platform-go");
    assert.deepEqual(filesUnder(out), [".gitignore", "Pulumi.yaml", "README.md", "found.json", "go.mod", "main.go"]);
    const readme = fs.readFileSync(path.join(out, "README.md"), "utf8");
    assert.match(readme, /go mod tidy/);
    assert.match(
      fs.readFileSync(path.join(out, "go.mod"), "utf8"),
      new RegExp(`github.com/pulumi/pulumi/sdk/v3 ${NATIVE_DEPENDENCIES.go.sdk}`),
    );
    execFileSync("go", ["vet", "."], {
      cwd: out,
      env: goModule(out),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  });

  it("Java: a Maven project whose App.java compiles against the generated SDK", async () => {
    await renamePipeline('Deals "pipeline" \\u0022 ${x}\n\u202e');
    const { out } = await imported("java");
    assert.deepEqual(filesUnder(out), [
      ".gitignore",
      "Pulumi.yaml",
      "README.md",
      "found.json",
      "pom.xml",
      "src/main/java/platform/App.java",
    ]);
    assert.match(fs.readFileSync(path.join(out, "README.md"), "utf8"), /mvn install:install-file/);
    mvnCompile(out);
  });

  it("hostile text stays text in every language: each one's own parser reads the literal back as it was", () => {
    // Python: ast.literal_eval of each literal.
    const python = execFileSync(
      "python3",
      [
        "-c",
        "import ast, json, sys; print(json.dumps([ast.literal_eval(line) for line in sys.stdin.read().split('\\n')]))",
      ],
      { input: HOSTILE.map(pythonString).join("\n"), encoding: "utf8" },
    );
    assert.deepEqual(JSON.parse(python), HOSTILE);
    // YAML: the parser, then Pulumi YAML's `$$` read as `$`.
    assert.deepEqual(
      HOSTILE.map((text) => (parseYaml(`value: ${yamlString(text)}`) as { value: string }).value.replace(/\$\$/g, "$")),
      HOSTILE,
    );
    // Go: strconv.Unquote of each literal, in a program of its own.
    const goDir = path.join(tmp, "go");
    fs.mkdirSync(goDir);
    fs.writeFileSync(path.join(goDir, "go.mod"), "module literals\n\ngo 1.21\n");
    fs.writeFileSync(
      path.join(goDir, "main.go"),
      `package main\n\nimport (\n\t"encoding/json"\n\t"os"\n)\n\nfunc main() {\n\tjson.NewEncoder(os.Stdout).Encode([]string{\n${HOSTILE.map((t) => `\t\t${goString(t)},`).join("\n")}\n\t})\n}\n`,
    );
    const go = execFileSync("go", ["run", "."], {
      cwd: goDir,
      encoding: "utf8",
      env: { ...process.env, GOTOOLCHAIN: "local" },
    });
    assert.deepEqual(JSON.parse(go), HOSTILE);
    // Java: compiled and run; Java reads \u escapes before anything else, the trap this guards.
    const javaDir = path.join(tmp, "java");
    fs.mkdirSync(javaDir);
    const codes = (t: string) => `new int[] {${[...t].map((c) => c.codePointAt(0)).join(", ")}}`;
    fs.writeFileSync(
      path.join(javaDir, "Literals.java"),
      `public class Literals {\n    public static void main(String[] args) {\n` +
        `        String[] texts = {${HOSTILE.map(javaString).join(", ")}};\n` +
        `        int[][] expected = {${HOSTILE.map(codes).join(", ")}};\n` +
        "        for (int i = 0; i < texts.length; i++)\n" +
        "            if (!java.util.Arrays.equals(texts[i].codePoints().toArray(), expected[i])) throw new AssertionError(i);\n" +
        '        System.out.println("ok " + texts.length);\n    }\n}\n',
    );
    execFileSync("javac", ["Literals.java"], { cwd: javaDir, encoding: "utf8" });
    assert.equal(
      execFileSync("java", ["-cp", ".", "Literals"], { cwd: javaDir, encoding: "utf8" }).trim(),
      `ok ${HOSTILE.length}`,
    );
  });

  it("hostile names from the platform: a project in each language still parses, and Python's program declares them as they are", async () => {
    const hostile = HOSTILE.join("|");
    await renamePipeline(hostile);
    await ctx.emulator.store.update((state) => {
      const tier = state.envDefinitions.find((d) => d.name === "ACCOUNT_TIER")!;
      tier.name = `TIER ${hostile}`;
    });
    const { out } = await imported("python");
    const declared = runPython(out);
    const acme = declared.find((d) => d.name === "acme-hubspot")!;
    assert.equal(
      (acme.fields as { fieldId: string; name: string }[]).find((f) => f.fieldId === "hs_pipeline")?.name,
      hostile,
    );
    const { out: yamlOut } = await imported("yaml");
    assert.deepEqual(compact(declared), yamlDeclares(fs.readFileSync(path.join(yamlOut, "Pulumi.yaml"), "utf8")));
    const { out: goOut } = await imported("go", "platform-go");
    execFileSync("gofmt", ["-e", "-l", "main.go"], { cwd: goOut, encoding: "utf8" });
  });

  it("the versions the projects name are examples/native's", () => {
    const read = (file: string) => fs.readFileSync(path.join(REPO, "examples/native", file), "utf8");
    assert.match(
      read("python/requirements.txt"),
      new RegExp(`^pulumi${NATIVE_DEPENDENCIES.python.replace(/\./g, "\\.")}$`, "m"),
    );
    assert.match(read("go/go.mod"), new RegExp(`github.com/pulumi/pulumi/sdk/v3 ${NATIVE_DEPENDENCIES.go.sdk}\\n`));
    assert.match(read("go/go.mod"), new RegExp(`^go ${NATIVE_DEPENDENCIES.go.directive}$`, "m"));
    assert.match(
      read("java/pom.xml"),
      new RegExp(`<artifactId>pulumi</artifactId>\\s*<version>${NATIVE_DEPENDENCIES.java.sdk}</version>`),
    );
    assert.match(
      read("java/pom.xml"),
      new RegExp(
        `<release>${NATIVE_DEPENDENCIES.java.release}</release>|<maven.compiler.release>${NATIVE_DEPENDENCIES.java.release}<`,
      ),
    );
  });
});
