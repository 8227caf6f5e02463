// The Python project of examples/github-actions (python/): its workflows are the TypeScript ones
// translated, installing no Node.js (Python and pip install the program's packages and the tools'
// executable), and its program compiles and uses only what the generated Python SDK (sdk/python)
// declares. How the workflows behave (their steps run as written) is checked for both projects by
// githubWorkflow.test.ts, shardedWorkflow.test.ts and driftWorkflow.test.ts; here, that the limits
// of the Python project's gates.json reach the venv's tools, and stop a change past them unless the
// pull request is labelled, and that each of the four TypeScript workflows has its translation.
import * as assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import {
  limitsStep,
  PYTHON,
  readWorkflow,
  runStep,
  TYPESCRIPT,
  WORKFLOW_FOLDER,
  type Flavour,
  type Job,
  type Step,
  type Workflow,
  writeToolsStub,
} from "../support/githubWorkflow";

const REPO = path.join(__dirname, "../..");
const PROJECT = path.join(WORKFLOW_FOLDER, PYTHON.folder);
const WORKFLOWS = ["pulumi.yml", "drift.yml", "sharded.yml", "sharded-drift.yml"];
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;

/** The jobs of a workflow that check out the program: all but a matrix's (sharded.yml's `shards`). */
const programJobs = (workflow: Workflow): [string, Job][] =>
  Object.entries(workflow.jobs).filter(([, job]) =>
    job.steps.some((step) => step.uses?.startsWith("actions/checkout@")),
  );

/**
 * A workflow with what the translation changes put aside: the toolchain's setup and the install
 * step become placeholders (where they stand is compared), the tools' command becomes `<tools>`,
 * and GITHUB_TOKEN (which only the Python workflows set, for the plugin's download) is dropped.
 */
function translated(workflow: Workflow, flavour: Flavour): unknown {
  const jobs = Object.fromEntries(
    Object.entries(workflow.jobs).map(([name, job]) => {
      const install = programJobs(workflow).some(([, j]) => j === job) ? flavour.install(job) : undefined;
      const steps = job.steps.map((step) => {
        if (/^actions\/setup-(node|python)@/.test(step.uses ?? "")) return "<setup>";
        if (step === install) return "<install>";
        const env = Object.fromEntries(Object.entries(step.env ?? {}).filter(([key]) => key !== "GITHUB_TOKEN"));
        return {
          ...step,
          run: step.run?.replaceAll(flavour.tools, "<tools>"),
          env: Object.keys(env).length > 0 ? env : undefined,
        };
      });
      return [name, { ...job, steps }];
    }),
  );
  // Through JSON: a property set to undefined and a missing one compare equal.
  return JSON.parse(JSON.stringify({ ...workflow, jobs })) as unknown;
}

/** Why a step needs Node.js, or undefined when it does not. */
function nodeUse(step: Step): string | undefined {
  if (/^actions\/setup-node@/.test(step.uses ?? "")) return `uses ${step.uses}`;
  const command = /(?:^|[\s;&|(])(?:\S*\/)?(node|npm|npx|yarn|pnpm|corepack)(?=$|[\s;&|)])/m.exec(step.run ?? "");
  if (command) return `runs ${command[1]}`;
  const settings = /node-version|\bnpm\b|package(-lock)?\.json/.exec(JSON.stringify(step.with ?? {}));
  if (settings) return `sets ${settings[0]}`;
  return undefined;
}

/** Whether a step runs the Pulumi CLI on the stack (not only installs it), which may download the plugin. */
function runsPulumi(step: Step): boolean {
  if (/^pulumi\/actions@/.test(step.uses ?? "")) return step.with?.command !== undefined;
  return /^\s*pulumi (preview|up|refresh|destroy)\b/m.test(step.run ?? "");
}

/**
 * Checks a Python program against the SDK's sources with the standard library only (no pulumi
 * installed): the imports are the two packages requirements.txt pins, every `platform.<name>` is a
 * class of the SDK, and each call passes only arguments its `_internal_init` takes and every one it
 * requires (a `**dict` is resolved when it names a dict literal of the module). Prints JSON: the
 * problems, and the resources declared (class and name).
 */
const SDK_CHECK = String.raw`
import ast, json, pathlib, sys
program, sdk = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
classes = {}
for module in sdk.glob("*.py"):
    for node in ast.parse(module.read_text()).body:
        if not isinstance(node, ast.ClassDef):
            continue
        init = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "_internal_init"), None)
        if init is None:
            continue
        takes = {a.arg for a in init.args.args[1:] + init.args.kwonlyargs} - {"resource_name", "__props__"}
        required = set()
        for raised in ast.walk(init):
            if isinstance(raised, ast.Raise) and isinstance(raised.exc, ast.Call) and raised.exc.args:
                text = getattr(raised.exc.args[0], "value", "")
                if isinstance(text, str) and text.startswith("Missing required property '"):
                    required.add(text.split("'")[1])
        classes[node.name] = (takes, required)
tree = ast.parse(program.read_text())
problems, resources, alias, dicts = [], [], None, {}
for node in tree.body:
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Dict):
        dicts[node.targets[0].id] = [getattr(k, "value", None) for k in node.value.keys]
for node in ast.walk(tree):
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        for name in node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")]:
            if name.name.split(".")[0] not in ("pulumi", "pulumi_integration_platform"):
                problems.append(f"imports {name.name}, which requirements.txt does not install")
            if name.name == "pulumi_integration_platform":
                alias = name.asname or name.name
for node in ast.walk(tree):
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == alias):
        continue
    if node.attr not in classes:
        problems.append(f"{alias}.{node.attr} is not a class of the SDK")
for node in ast.walk(tree):
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and node.func.value.id == alias and node.func.attr in classes):
        continue
    name, (takes, required) = node.func.attr, classes[node.func.attr]
    given = []
    for keyword in node.keywords:
        if keyword.arg is not None:
            given.append(keyword.arg)
        elif isinstance(keyword.value, ast.Name) and keyword.value.id in dicts and None not in dicts[keyword.value.id]:
            given.extend(dicts[keyword.value.id])
        else:
            problems.append(f"{alias}.{name}: cannot check the arguments of **{ast.unparse(keyword.value)}")
    for arg in given:
        if arg not in takes:
            problems.append(f"{alias}.{name} takes no argument {arg}")
    for arg in sorted(required - set(given)):
        problems.append(f"{alias}.{name} misses the required argument {arg}")
    first = node.args[0] if node.args else None
    resources.append({"class": name, "name": first.value if isinstance(first, ast.Constant) else None})
print(json.dumps({"problems": problems, "resources": resources}))
`;

/** Runs SDK_CHECK on a program file. */
function checkProgram(file: string): { problems: string[]; resources: { class: string; name: string | null }[] } {
  const out = execFileSync(
    "python3",
    ["-c", SDK_CHECK, file, path.join(REPO, "sdk/python/pulumi_integration_platform")],
    {
      encoding: "utf8",
    },
  );
  return JSON.parse(out) as ReturnType<typeof checkProgram>;
}

describe("examples/github-actions/python: the workflows of a Python project, without Node.js", () => {
  for (const file of WORKFLOWS) {
    describe(file, () => {
      const python = readWorkflow(path.join(PYTHON.folder, file));
      const typescript = readWorkflow(file);

      it("is the TypeScript workflow translated: the same triggers, permissions, concurrency, env, steps and scripts", () => {
        assert.deepEqual(translated(python, PYTHON), translated(typescript, TYPESCRIPT));
      });

      it("sets up no Node.js and runs no node, npm or npx", () => {
        for (const [name, job] of Object.entries(python.jobs))
          for (const step of job.steps) assert.equal(nodeUse(step), undefined, `${name}: ${step.name ?? step.run}`);
        // The check sees Node.js where it is: in the TypeScript workflow, every job that checks out the program.
        for (const [, job] of programJobs(typescript)) {
          const found = job.steps.map(nodeUse).filter(Boolean);
          assert.ok(found.includes("uses actions/setup-node@v4") && found.includes("runs npm"), String(found));
        }
      });

      it("sets up Python 3.12 with pip's cache keyed on requirements.txt, and installs it into the venv Pulumi.yaml names", () => {
        const project = parse(fs.readFileSync(path.join(PROJECT, "Pulumi.yaml"), "utf8")) as {
          runtime: { options: { virtualenv: string } };
        };
        const jobs = programJobs(python);
        assert.ok(jobs.length > 0);
        for (const [, job] of jobs) {
          const install = PYTHON.install(job);
          assert.match(install.run!, new RegExp(`^python -m venv ${project.runtime.options.virtualenv}\\n`));
        }
      });

      it("runs summarize with the tools' executable from the venv", () => {
        const summarizing = Object.values(python.jobs).flatMap((job: Job) =>
          job.steps.filter((step) => /\bsummarize\b/.test(step.run ?? "")),
        );
        assert.equal(summarizing.length, 1);
        const commands = summarizing[0]
          .run!.split("\n")
          .filter((line) => /\bsummarize\b/.test(line) && !/^\s*#/.test(line));
        assert.equal(commands.length, 1);
        assert.match(commands[0], /^venv\/bin\/pulumi-integration-platform summarize /);
      });

      it("gives GITHUB_TOKEN to every step that runs pulumi on the stack, and to no other", () => {
        const steps = Object.values(python.jobs).flatMap((job) => job.steps);
        assert.ok(steps.some(runsPulumi), "a step runs pulumi on the stack");
        for (const [name, job] of Object.entries(python.jobs)) {
          for (const step of job.steps) {
            const token = step.env?.GITHUB_TOKEN;
            if (runsPulumi(step)) assert.equal(token, "${{ github.token }}", `${name}: ${step.name}`);
            else
              assert.equal(token, undefined, `${name}: ${step.name ?? step.uses}: only the plugin's download needs it`);
          }
        }
        assert.equal(python.env.GITHUB_TOKEN, undefined, "not for the whole workflow");
      });
    });
  }

  describe("pulumi.yml: the limits of gates.json", () => {
    const python = readWorkflow(path.join(PYTHON.folder, "pulumi.yml"));
    const preview = python.jobs.preview;

    it("gates.json holds the TypeScript example's limits, and the README says to copy it beside Pulumi.yaml", () => {
      const gates = (folder: string) =>
        JSON.parse(fs.readFileSync(path.join(WORKFLOW_FOLDER, folder, "gates.json"), "utf8")) as unknown;
      assert.deepEqual(gates(PYTHON.folder), gates(TYPESCRIPT.folder));
      assert.equal(python.env.WORK_DIR, ".", "the job runs in the program's folder, where gates.json is");
      const readme = fs.readFileSync(path.join(WORKFLOW_FOLDER, "README.md"), "utf8");
      const section = /^## Python projects\n([\s\S]*?)^## /m.exec(readme)![1];
      assert.match(section, /^\| \[`python\/gates\.json`\]\(python\/gates\.json\) \| the program's folder/m);
    });

    it("the summary step, as written, gives venv/bin/pulumi-integration-platform --gates gates.json; past a limit, the job fails unless the pull request has the label", () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pip-limits-"));
      try {
        // The tools' executable where the install step puts it, as a stand-in that exits 4 (past a limit).
        fs.mkdirSync(path.join(dir, "venv", "bin"), { recursive: true });
        writeToolsStub(path.join(dir, PYTHON.tools));
        const summarizing = preview.steps.find((step) => /\bsummarize\b/.test(step.run ?? ""))!;
        const summary = runStep(preview, summarizing, {}, { cwd: dir, env: { TOOLS_EXIT: "4" } });
        assert.equal(summary.status, 0, summary.log);
        const args = fs
          .readFileSync(path.join(dir, `${PYTHON.tools}.args`), "utf8")
          .trimEnd()
          .split("\n");
        assert.deepEqual(args.slice(0, 4), ["summarize", "preview.json", "--gates", "gates.json"]);
        assert.equal(fs.readFileSync(path.join(dir, "summary.md"), "utf8"), "The summary (the stand-in exited 4).\n");
        const check = (labels: string[]) =>
          runStep(
            preview,
            limitsStep(preview),
            { steps: { [summarizing.id!]: summary.outputs }, labels },
            { cwd: dir },
          );
        const unlabelled = check([]);
        assert.equal(unlabelled.status, 1, unlabelled.log);
        assert.match(unlabelled.log, /^::error::.*adds the label large-change-approved to the pull request/m);
        const labelled = check(["large-change-approved"]);
        assert.equal(labelled.status, 0, labelled.log);
        assert.match(labelled.log, /^::warning::.*overridden by the label large-change-approved/m);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  it("has every workflow of the TypeScript project, and the README's table of Python files lists each", () => {
    const readme = fs.readFileSync(path.join(WORKFLOW_FOLDER, "README.md"), "utf8");
    const section = /^## Python projects\n([\s\S]*?)^## /m.exec(readme)![1];
    const typescript = fs.readdirSync(WORKFLOW_FOLDER).filter((file) => file.endsWith(".yml"));
    assert.deepEqual(typescript.sort(), [...WORKFLOWS].sort(), "every TypeScript workflow has its translation tested");
    for (const file of WORKFLOWS) {
      assert.ok(fs.existsSync(path.join(PROJECT, file)), `python/${file}`);
      assert.match(
        section,
        new RegExp(
          `^\\| \\[\`python/${file.replace(".", "\\.")}\`\\]\\(python/${file.replace(".", "\\.")}\\) \\| `,
          "m",
        ),
      );
    }
    assert.doesNotMatch(
      readme,
      /TypeScript only|no Python `sharded\.yml`/,
      "the sharding helpers are in the Python SDK",
    );
  });
});

describe("examples/github-actions/python: the Pulumi project", () => {
  it("Pulumi.yaml: the python runtime with pip and the venv, as `pulumi new python` writes", () => {
    const project = parse(fs.readFileSync(path.join(PROJECT, "Pulumi.yaml"), "utf8")) as {
      runtime: { name: string; options: Record<string, string> };
    };
    assert.deepEqual(project.runtime, { name: "python", options: { toolchain: "pip", virtualenv: "venv" } });
    assert.ok(PYTHON.tools.startsWith(`${project.runtime.options.virtualenv}/bin/`), "the tools come from that venv");
  });

  it("Pulumi.prod.yaml: the same stack config as the TypeScript example's", () => {
    const config = (file: string) => (parse(fs.readFileSync(file, "utf8")) as { config: unknown }).config;
    assert.deepEqual(
      config(path.join(PROJECT, "Pulumi.prod.yaml")),
      config(path.join(WORKFLOW_FOLDER, "Pulumi.prod.yaml")),
    );
  });

  it("requirements.txt pins pulumi, the SDK and the tools at this version, from PyPI (the release's files in a comment)", () => {
    const text = fs.readFileSync(path.join(PROJECT, "requirements.txt"), "utf8");
    const lines = text
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#"));
    const repository = /^\s*Repository = "([^"]+)"/m.exec(
      fs.readFileSync(path.join(REPO, "sdk/python/pyproject.toml"), "utf8"),
    )![1];
    // For a runner without PyPI: the release's files, a line to uncomment.
    assert.ok(text.includes(`# --find-links ${repository}/releases/expanded_assets/v${VERSION}\n`), text);
    assert.deepEqual(lines, [
      // The SDK's own requirement (sdk/python/pyproject.toml).
      "pulumi>=3.200.0,<4.0.0",
      `pulumi-integration-platform==${VERSION}`,
      `pulumi-integration-platform-tools==${VERSION}`,
    ]);
    assert.match(fs.readFileSync(path.join(REPO, "sdk/python/pyproject.toml"), "utf8"), /"pulumi>=3\.200\.0,<4\.0\.0"/);
  });

  describe("__main__.py", () => {
    const program = path.join(PROJECT, "__main__.py");

    it("compiles", () => {
      // The bytecode goes to a temporary folder, not into the example.
      const cache = fs.mkdtempSync(path.join(os.tmpdir(), "pip-pycache-"));
      try {
        const result = spawnSync("python3", ["-m", "py_compile", program], {
          encoding: "utf8",
          env: { ...process.env, PYTHONPYCACHEPREFIX: cache },
        });
        assert.equal(result.status, 0, result.stderr);
      } finally {
        fs.rmSync(cache, { recursive: true, force: true });
      }
    });

    it("uses only classes of the generated Python SDK, with the arguments they take and all they require", () => {
      const { problems, resources } = checkProgram(program);
      assert.deepEqual(problems, []);
      assert.deepEqual(
        resources.map((r) => r.class),
        ["ConfigField", "WorkflowToggle", "EnvVariableValue"],
      );
    });

    it("declares the resources the README's example comment shows, by the same names", () => {
      const readme = fs.readFileSync(path.join(WORKFLOW_FOLDER, "README.md"), "utf8");
      const example = /## What reviewers see\n[\s\S]*?```markdown\n([\s\S]*?)```/.exec(readme)![1];
      const shown = [...example.matchAll(/: resource `([^`]+)`/g)].map((m) => m[1]).sort();
      assert.deepEqual(
        checkProgram(program)
          .resources.map((r) => r.name)
          .sort(),
        shown,
      );
    });

    it("the check finds a class the SDK lacks, an argument it does not take, a missing one and another import", () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pip-sdk-check-"));
      try {
        const bad = path.join(dir, "__main__.py");
        fs.writeFileSync(
          bad,
          [
            "import requests",
            "import pulumi_integration_platform as platform",
            'ids = {"slug": "hubspot", "linked_account_id": "globex"}',
            'platform.AccountSetup("globex-hubspot", linked_account_id="globex")',
            'platform.ConfigField("globex-pipeline", field_id="hs_pipeline", nmae="Sales pipeline", **ids)',
            "",
          ].join("\n"),
        );
        assert.deepEqual(checkProgram(bad).problems.sort(), [
          "imports requests, which requirements.txt does not install",
          "platform.AccountSetup is not a class of the SDK",
          "platform.ConfigField misses the required argument config_id",
          "platform.ConfigField takes no argument nmae",
        ]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
