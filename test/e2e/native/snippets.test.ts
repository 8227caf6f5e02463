// The Python, Go, Java and YAML blocks of the user docs, checked against the generated SDKs as users
// would copy them: each Go block builds as a program (a fragment, as the body of pulumi.Run), each Java
// block compiles (a fragment, as the body of a program's stack(ctx)), each Python block compiles and calls only
// classes and functions of the SDK with arguments they take, each YAML block uses only the
// schema's types and their inputs, with every required one. (TypeScript blocks: test/unit/docs.test.ts.)
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { REPO } from "../../../harness/engine";
import { JAVA_BASE_PACKAGE } from "../../../provider/native/schema";
import { javaEnv, LANGUAGES, pythonBin } from "../../../harness/languages";

/** The Java SDK's package: the base package and the schema's name, as pulumi-java-gen joins them. */
const JAVA_PACKAGE = `${JAVA_BASE_PACKAGE}.integrationplatform`;

/** The fenced blocks of one language in the shipped docs, with where they are. */
function blocks(language: string): { where: string; code: string }[] {
  const found: { where: string; code: string }[] = [];
  const files = [
    "README.md",
    ...(fs.readdirSync(path.join(REPO, "docs"), { recursive: true }) as string[])
      .filter((f) => f.endsWith(".md"))
      .map((f) => path.join("docs", f)),
  ];
  for (const file of files) {
    const lines = fs.readFileSync(path.join(REPO, file), "utf8").split("\n");
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].trim() !== "```" + language) continue;
      const end = lines.findIndex((line, j) => j > i && line.trim() === "```");
      // A block inside a list item is indented as its fence is: the code is what is under the fence.
      const indent = lines[i].length - lines[i].trimStart().length;
      const code = lines
        .slice(i + 1, end)
        .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)));
      found.push({ where: `${file}:${i + 1}`, code: code.join("\n") });
      i = end;
    }
  }
  return found;
}

/** Checks a Python block: it compiles, and every `platform.<name>(...)` names a class or function of the SDK and passes only arguments it takes. */
const PYTHON_CHECK = String.raw`
import ast, inspect, sys
import pulumi_integration_platform as platform
tree = ast.parse(sys.stdin.read())
problems = []
for node in ast.walk(tree):
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and node.func.value.id == "platform":
        name = node.func.attr
        target = getattr(platform, name, None)
        if target is None:
            problems.append(f"platform.{name} does not exist")
            continue
        # A resource class takes its arguments through _internal_init; an input type (SetupFieldArgs)
        # through __init__; a function, directly.
        init = getattr(target, "_internal_init", target.__init__) if inspect.isclass(target) else target
        params = inspect.signature(init).parameters
        for kw in node.keywords:
            if kw.arg is not None and kw.arg not in params:
                problems.append(f"platform.{name} takes no argument {kw.arg}")
print("\n".join(problems))
`;

describe(`docs: the Python, Go, Java and YAML blocks against the generated SDKs ${LANGUAGES}`, function () {
  this.timeout(10 * 60_000);

  it("has blocks of each language to check", () => {
    for (const language of ["python", "go", "java", "yaml"])
      assert.ok(blocks(language).length > 0, `no ${language} block in the docs`);
  });

  it("every Python block compiles and calls the SDK as it is", () => {
    const python = path.join(pythonBin(), "python");
    for (const { where, code } of blocks("python")) {
      const problems = execFileSync(python, ["-c", PYTHON_CHECK], { input: code, encoding: "utf8" }).trim();
      assert.equal(problems, "", `${where}: ${problems}`);
    }
  });

  it("every Go block builds as a program against sdk/go", () => {
    for (const { where, code } of blocks("go")) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pip-go-snippet-"));
      try {
        const gomod = fs
          .readFileSync(path.join(REPO, "examples/native/go/go.mod"), "utf8")
          .replace("=> ../../../sdk/go", `=> ${path.join(REPO, "sdk", "go")}`);
        fs.writeFileSync(path.join(dir, "go.mod"), gomod.replace("module quickstart-go", "module snippet"));
        fs.copyFileSync(path.join(REPO, "examples/native/go/go.sum"), path.join(dir, "go.sum"));
        // A fragment is the body of a program's pulumi.Run, with the SDK imported as `ip`.
        const program = code.startsWith("package ")
          ? code
          : `package main\n\nimport (\n\tip "github.com/pulumi-integration-platform/pulumi-integration-platform/sdk/go/integrationplatform"\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n${code}\n\t\treturn nil\n\t})\n}\n`;
        fs.writeFileSync(path.join(dir, "main.go"), program);
        try {
          execFileSync("go", ["build", "-o", path.join(dir, "snippet"), "."], {
            cwd: dir,
            encoding: "utf8",
            stdio: ["ignore", "pipe", "pipe"],
            env: { ...process.env, GOFLAGS: "-mod=mod", GOTOOLCHAIN: "local" },
          });
        } catch (error) {
          assert.fail(`${where} does not build: ${(error as { stderr?: string }).stderr}`);
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it("every Java block compiles against sdk/java (with Maven, as the example program builds)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pip-java-snippets-"));
    try {
      fs.copyFileSync(path.join(REPO, "examples/native/java/pom.xml"), path.join(dir, "pom.xml"));
      const sources = path.join(dir, "src", "main", "java");
      const where = new Map<string, string>();
      blocks("java").forEach(({ where: at, code }, i) => {
        // A whole file keeps its own package and class; a fragment is the body of a program's stack(ctx).
        const whole = /^package (\w+);/m.exec(code);
        const name = whole ? `${whole[1]}/${/public class (\w+)/.exec(code)![1]}.java` : `snippets/Snippet${i}.java`;
        const imports = [
          "com.pulumi.Context",
          "com.pulumi.core.Output",
          `${JAVA_PACKAGE}.*`,
          `${JAVA_PACKAGE}.inputs.*`,
          "java.util.Map",
        ];
        const text = whole
          ? code
          : `package snippets;\n\n${imports.map((name) => `import ${name};\n`).join("")}\nclass Snippet${i} {\n    static void stack(Context ctx) {\n${code}\n    }\n}\n`;
        if (whole && where.has(name))
          assert.fail(`${at}: a second whole file named ${name} (first at ${where.get(name)})`);
        fs.mkdirSync(path.dirname(path.join(sources, name)), { recursive: true });
        fs.writeFileSync(path.join(sources, name), text);
        where.set(name, at);
      });
      assert.ok(where.size > 0, "no Java block in the docs");
      try {
        execFileSync("mvn", ["--batch-mode", "--quiet", "--no-transfer-progress", "compile"], {
          cwd: dir,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
          env: { ...process.env, ...javaEnv() },
        });
      } catch (error) {
        const out = (error as { stdout?: string }).stdout ?? "";
        // Name each failing block by where it stands in the docs.
        const named = out.replace(
          /\/src\/main\/java\/([\w/]+\.java)/g,
          (match, file: string) => ` ${where.get(file) ?? file} (${file})`,
        );
        assert.fail(
          `Java blocks do not compile:\n${named
            .split("\n")
            .filter((line) => line.includes("ERROR"))
            .slice(0, 40)
            .join("\n")}`,
        );
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("every YAML program block uses the schema's types and their inputs, with the required ones", () => {
    const schema = JSON.parse(fs.readFileSync(path.join(REPO, "sdk", "schema.json"), "utf8")) as {
      resources: Record<string, { inputProperties: Record<string, unknown>; requiredInputs: string[] }>;
    };
    let checked = 0;
    for (const { where, code } of blocks("yaml")) {
      const doc = parse(code) as { resources?: Record<string, { type: string; properties?: Record<string, unknown> }> };
      for (const [name, resource] of Object.entries(doc?.resources ?? {})) {
        const spec = schema.resources[resource.type];
        assert.ok(spec, `${where}: ${name} has the type ${resource.type}, which the schema does not have`);
        for (const property of Object.keys(resource.properties ?? {}))
          assert.ok(property in spec.inputProperties, `${where}: ${resource.type} has no input ${property}`);
        for (const property of spec.requiredInputs)
          assert.ok(property in (resource.properties ?? {}), `${where}: ${name} lacks the required ${property}`);
        checked++;
      }
    }
    assert.ok(checked > 0);
  });
});
