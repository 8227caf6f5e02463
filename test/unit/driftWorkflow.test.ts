// The scheduled drift check users copy (examples/github-actions/drift.yml, and python/drift.yml for a
// Python project; sharded-drift.yml, one job per shard of sharded.yml's stacks, each paced to its part
// of the API key's limit): valid YAML, on a schedule and on demand, read-only, the same stack, folder,
// backend and secrets as pulumi.yml (sharded.yml), one `pulumi refresh --preview-only --expect-no-changes --json`
// (Pulumi's own drift check, its engine events streamed) summarized with `--drift`, and a job that
// fails on drift and whenever drift could not be checked, never reporting a failed check as "no drift".
// The exit-status plumbing is proven by running the job's shell steps as written, with bash, against
// a fake `pulumi` on PATH and a fake of the tools (`npx`, or the Python venv's executable) that either
// plays a scripted summarize or runs the package's own (dist/, as the pull request workflow's test
// does): no network, no engine.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TYPE } from "../../harness/fixture";
import { FLAVOURS, type Flavour, readWorkflow as read, uses, type Job, type Step } from "../support/githubWorkflow";

/** A drift workflow, and the deploy workflow whose stacks it checks. */
interface DriftFile {
  file: string;
  deploy: string;
  /** The matrix's shard that the job is run as here; none for drift.yml's one stack. */
  shard?: string;
}

/** The drift workflows of each project. */
const DRIFT_FILES: DriftFile[] = [
  { file: "drift.yml", deploy: "pulumi.yml" },
  { file: "sharded-drift.yml", deploy: "sharded.yml", shard: "2" },
];

/** A job of a matrix over the shards. */
type MatrixJob = Job & { needs?: string; strategy?: { matrix: { shard: string }; "fail-fast"?: boolean } };

/** Escapes text for a regular expression. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The one step whose script matches `pattern`. */
function runStep(job: Job, pattern: RegExp): Step {
  const found = job.steps.filter((step) => pattern.test(step.run ?? ""));
  assert.equal(found.length, 1, `one step runs ${pattern}`);
  return found[0];
}

for (const flavour of FLAVOURS)
  for (const variant of DRIFT_FILES)
    describe(`examples/github-actions/${path.join(flavour.folder, variant.file)}`, () => driftChecks(flavour, variant));

/** The checks of one project's drift workflow. */
function driftChecks(flavour: Flavour, variant: DriftFile): void {
  const drift = read(path.join(flavour.folder, variant.file));
  const deploy = read(path.join(flavour.folder, variant.deploy));
  const job: MatrixJob = drift.jobs.drift;
  const sharded = variant.shard !== undefined;
  /** The stack the job checks: STACK, or the shard's among sharded.yml's stacks. */
  const STACK = sharded ? `${drift.env.STACK_PREFIX}${variant.shard}` : drift.env.STACK;
  /** The name of the report's artifact, as the job's run names it. */
  const ARTIFACT = sharded ? `integration-platform-drift-${variant.shard}` : "integration-platform-drift";
  /** A sharded job's first step: it names the stack, and the job's part of the API key's limit. */
  const place = sharded ? job.steps[0] : undefined;

  it(`runs on a schedule and on demand, as one job${sharded ? " per shard of sharded.yml" : ""}`, () => {
    assert.deepEqual(Object.keys(drift.on).sort(), ["schedule", "workflow_dispatch"]);
    const schedule = drift.on.schedule ?? [];
    assert.equal(schedule.length, 1);
    assert.equal(schedule[0].cron.trim().split(/\s+/).length, 5, "a five-field cron");
    assert.deepEqual(Object.keys(drift.jobs), sharded ? ["shards", "drift"] : ["drift"]);
    assert.equal(job.if, undefined);
    if (!sharded) return;
    assert.deepEqual(drift.jobs.shards, deploy.jobs.shards, "the matrix of sharded.yml");
    assert.equal(job.needs, "shards");
    assert.equal(job.strategy?.matrix.shard, "${{ fromJSON(needs.shards.outputs.list) }}");
    assert.equal(job.strategy?.["fail-fast"], false, "every shard is checked, whatever another's check finds");
    assert.match(place!.name!, /place among the shards/);
    assert.equal(place!["working-directory"], undefined, "it runs before the checkout");
  });

  it("has read-only permissions, for the workflow and the job", () => {
    for (const permissions of [drift.permissions, job.permissions]) assert.deepEqual(permissions, { contents: "read" });
    // Nothing that writes on GitHub's side either: no comment, no issue, no release.
    for (const step of job.steps) assert.doesNotMatch(step.uses ?? "", /comment|issue|release|push/i, step.uses);
  });

  it("never overlaps a check of the same stack, and never joins (or cancels) the deploy's group", () => {
    const stack = sharded ? `${drift.env.STACK_PREFIX}\${{ matrix.shard }}` : drift.env.STACK;
    assert.equal(job.concurrency?.group, `integration-platform-drift-${stack}`, "the group ends with the stack");
    assert.equal(job.concurrency?.["cancel-in-progress"], false);
    const groups = Object.values(deploy.jobs).map((j) => (j as Job).concurrency?.group);
    assert.ok(groups.includes(sharded ? "integration-platform-up-${{ matrix.shard }}" : "integration-platform-up"));
    assert.ok(!groups.includes(job.concurrency!.group));
  });

  it(`uses the same stack, folder, backend and secrets as ${variant.deploy}, with the same pinned actions and ${flavour.name} setup`, () => {
    assert.deepEqual(drift.env, deploy.env);
    assert.equal(drift.env.INTEGRATION_PLATFORM_API_KEY, "${{ secrets.INTEGRATION_PLATFORM_API_KEY }}");
    const pinned = new Map(deploy.jobs.preview.steps.filter((s) => s.uses).map((s) => [s.uses!.split("@")[0], s.uses]));
    for (const step of job.steps.filter((s) => s.uses)) {
      assert.match(step.uses!, /@v\d+$/, `${step.uses} is pinned to a major version`);
      const same = pinned.get(step.uses!.split("@")[0]);
      if (same) assert.equal(step.uses, same, "the version pulumi.yml pins");
    }
    const install = flavour.install(job);
    assert.deepEqual(install, flavour.install(deploy.jobs.preview), "installed as pulumi.yml installs");
    const [pulumi, ...more] = uses(job, "pulumi/actions");
    assert.equal(more.length, 0);
    // No `command`: pulumi/actions installs the CLI only, at the version the workflow pins.
    assert.deepEqual(pulumi.with, { "pulumi-version": "${{ env.PULUMI_CLI_VERSION }}" });
  });

  it("previews a refresh once with --preview-only, --expect-no-changes and --json, its events streamed, keeping the status without failing the step", () => {
    const preview = runStep(job, /\bpulumi refresh\b.*--json/);
    assert.equal(preview.id, "preview");
    assert.match(
      preview.run!,
      /^pulumi refresh --stack "\$STACK" --preview-only --expect-no-changes --json > preview\.json \|\| status=\$\?$/m,
    );
    assert.equal(
      preview.env?.PULUMI_ENABLE_STREAMING_JSON_PREVIEW,
      "true",
      "only the streamed events say which object drifted",
    );
    assert.match(preview.run!, /echo "exit-code=\$status" >> "\$GITHUB_OUTPUT"/);
    assert.equal(
      preview["working-directory"],
      deploy.jobs.preview.steps.find((s) => /\bpulumi preview\b/.test(s.run ?? ""))!["working-directory"],
    );
  });

  it("summarizes the preview with --drift, linking this run, and keeps only the Markdown report", () => {
    const report = runStep(job, /summarize/);
    assert.equal(report.id, "report");
    assert.ok(
      report.run!.includes(
        `\n${flavour.tools} summarize --drift preview.json --full drift-full.md --full-link "$RUN_URL" > drift.md || status=$?\n`,
      ),
      report.run,
    );
    assert.equal(
      report.env?.RUN_URL,
      "${{ github.server_url }}/${{ github.repository }}/actions/runs/${{ github.run_id }}",
    );
    const artifacts = uses(job, "actions/upload-artifact");
    assert.equal(artifacts.length, 1);
    // Each shard's job keeps its own: an artifact's name is unique in a run.
    assert.equal(artifacts[0].with?.name, sharded ? "integration-platform-drift-${{ matrix.shard }}" : ARTIFACT);
    assert.equal(artifacts[0].with?.path, "${{ env.WORK_DIR }}/drift-full.md");
    assert.equal(artifacts[0].if, "${{ !cancelled() }}", "the report is kept on drift too");
    for (const step of job.steps)
      assert.doesNotMatch(JSON.stringify(step.with ?? {}), /preview\.json/, "preview.json is never uploaded");
  });

  it("fails the job on drift and when drift could not be checked, in its last step", () => {
    const verdict = job.steps[job.steps.length - 1];
    assert.equal(verdict.if, "${{ !cancelled() }}");
    assert.equal(verdict.env?.PREVIEW_EXIT, "${{ steps.preview.outputs.exit-code }}");
    assert.equal(verdict.env?.REPORT_EXIT, "${{ steps.report.outputs.exit-code }}");
    assert.match(verdict.run!, /exit 1/);
    const at = (step: Step) => job.steps.indexOf(step);
    const order = [
      ...(place ? [place] : []),
      uses(job, "pulumi/actions")[0],
      runStep(job, /--json/),
      runStep(job, /summarize/),
      uses(job, "actions/upload-artifact")[0],
      verdict,
    ].map(at);
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a - b),
      "(the stack's place,) install, preview, report, artifact, then the verdict",
    );
    assert.ok(
      job.steps.every((step) => step["continue-on-error"] === undefined),
      "no step hides a failure",
    );
  });

  describe("the job's shell steps, run as written", () => {
    const PACKAGE_BIN = path.join(__dirname, "../../dist/cli/main.js");
    const RUN_URL = "https://github.com/acme/setup/actions/runs/42";
    let dir = "";
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-workflow-"));
      const bin = path.join(dir, "bin");
      fs.mkdirSync(bin);
      // The fakes log their arguments and do what the scenario says (FAKE_* variables).
      fs.writeFileSync(
        path.join(bin, "pulumi"),
        [
          "#!/usr/bin/env bash",
          'echo "pulumi $*" >> "$FAKE_LOG"',
          // The pace the provider would read from the environment: the job's part of the key's limit.
          'echo "${INTEGRATION_PLATFORM_REQUESTS_PER_SECOND:-unset}" >> "$FAKE_RATES"',
          'case " $* " in',
          '  *" --json "*) printf "%s" "$FAKE_PREVIEW_JSON" ;;',
          '  *) echo "fake text preview: the errors" ;;',
          "esac",
          'exit "$FAKE_PREVIEW_EXIT"',
          "",
        ].join("\n"),
        { mode: 0o755 },
      );
      // The tools as the steps run them: `npx` on PATH, or the venv's executable in the folder.
      const [program, ...fixed] = flavour.tools.split(" ");
      const tools = program.includes("/") ? path.join(dir, program) : path.join(bin, program);
      fs.mkdirSync(path.dirname(tools), { recursive: true });
      fs.writeFileSync(
        tools,
        [
          "#!/usr/bin/env bash",
          `echo "${program} $*" >> "$FAKE_LOG"`,
          ...fixed.map((arg) => `[ "$1" = ${arg} ] || exit 99; shift`),
          'if [ -n "$PACKAGE_BIN" ]; then exec node "$PACKAGE_BIN" "$@"; fi',
          'if [ "$FAKE_SUMMARIZE_EXIT" = 2 ]; then echo "the preview failed: drift could not be checked" >&2; exit 2; fi',
          'full=""',
          'while [ $# -gt 0 ]; do if [ "$1" = --full ]; then full="$2"; shift; fi; shift; done',
          'cp "$FAKE_FULL" "$full"',
          'cat "$FAKE_BOUNDED"',
          'exit "$FAKE_SUMMARIZE_EXIT"',
          "",
        ].join("\n"),
        { mode: 0o755 },
      );
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    interface Scenario {
      /** An earlier step (checkout, the packages' or the CLI's install) failed: the preview and report never ran. */
      setupFails?: boolean;
      previewExit: number;
      /** What `pulumi preview --json` prints: empty when it fails before writing any (a failed login). */
      previewJson: string;
      /** The scripted summarize's exit status; omitted, the package's own summarize runs. */
      summarizeExit?: number;
      fullReport?: string;
    }
    interface Outcome {
      jobFailed: boolean;
      /** The steps that ran, by id or name, with their exit status. */
      ran: [string, number][];
      stepSummary: string;
      log: string;
      calls: string[];
      /** INTEGRATION_PLATFORM_REQUESTS_PER_SECOND as each `pulumi` command saw it ("unset": the provider's 20). */
      rates: string[];
    }

    /** Evaluates `${{ a.b.c }}` and `${{ a.b || 'default' }}` expressions as GitHub does (a missing value is ""). */
    function evaluate(text: string, context: Record<string, unknown>): string {
      return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
        // A path, or a path `|| 'a default'` (the default when the value is missing or empty).
        const [, at, fallback] = /^([\w.-]+)(?: \|\| '([^']*)')?$/.exec(expression) ?? [];
        assert.ok(at, `only path expressions here, with or without a default: ${expression}`);
        const value = at
          .split(".")
          .reduce<unknown>((found, key) => (found as Record<string, unknown> | undefined)?.[key], context);
        return value === undefined || value === null || value === "" ? (fallback ?? "") : String(value);
      });
    }

    /** Runs the job's `run` steps in order (the `uses` steps stand for themselves), as GitHub does with bash -e. */
    function runJob(scenario: Scenario): Outcome {
      const fullReport =
        scenario.fullReport ??
        (scenario.summarizeExit === 1
          ? "## Drift in stack `prod`\n\n- field `hs_pipeline` changed\n"
          : "## No drift in stack `prod`\n");
      fs.writeFileSync(path.join(dir, "full-source.md"), fullReport);
      fs.writeFileSync(
        path.join(dir, "bounded-source.md"),
        fullReport.length > 60_000
          ? `${fullReport.slice(0, 100)}\n**… left out.** [The full report](${RUN_URL})\n`
          : fullReport,
      );
      const stepSummary = path.join(dir, "step-summary.md");
      fs.writeFileSync(stepSummary, "");
      const logFile = path.join(dir, "calls.log");
      fs.writeFileSync(logFile, "");
      const context: Record<string, unknown> = {
        github: { server_url: "https://github.com", repository: "acme/setup", run_id: "42" },
        secrets: {},
        vars: {},
        steps: {} as Record<string, { outputs: Record<string, string> }>,
        matrix: { shard: variant.shard },
      };
      const workflowEnv = Object.fromEntries(
        Object.entries(drift.env).map(([k, v]) => [k, evaluate(String(v), context)]),
      );
      context.env = workflowEnv;
      let failed = false;
      const ran: [string, number][] = [];
      let log = "";
      const install = flavour.install(job);
      /** What the steps so far wrote to GITHUB_ENV: the later steps' environment. */
      const added: Record<string, string> = {};
      const rates = path.join(dir, "rates.log");
      fs.writeFileSync(rates, "");
      for (const step of job.steps) {
        // The scenario's failure is at the install, or before it (checkout, toolchain).
        if (step === install) failed ||= scenario.setupFails === true;
        if (!step.run || step === install) continue;
        if (step.if === undefined ? failed : step.if !== "${{ !cancelled() }}") {
          assert.ok(
            step.if === undefined || step.if === "${{ !cancelled() }}",
            `an \`if\` this runner does not know: ${step.if}`,
          );
          continue;
        }
        const output = path.join(dir, `output-${ran.length}`);
        const githubEnv = path.join(dir, `env-${ran.length}`);
        for (const file of [output, githubEnv]) fs.writeFileSync(file, "");
        const script = path.join(dir, `step-${ran.length}.sh`);
        // GitHub puts the expressions' values into the script before bash runs it.
        fs.writeFileSync(script, evaluate(step.run, context));
        const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(v, context)]));
        const result = spawnSync("bash", ["-e", script], {
          cwd: path.join(dir, evaluate(step["working-directory"] ?? ".", context)),
          encoding: "utf8",
          env: {
            ...process.env,
            PATH: `${path.join(dir, "bin")}${path.delimiter}${process.env.PATH}`,
            ...workflowEnv,
            ...added,
            ...stepEnv,
            // Not the test runner's: the job's own, or none.
            INTEGRATION_PLATFORM_REQUESTS_PER_SECOND: added.INTEGRATION_PLATFORM_REQUESTS_PER_SECOND,
            GITHUB_OUTPUT: output,
            GITHUB_ENV: githubEnv,
            FAKE_RATES: rates,
            GITHUB_STEP_SUMMARY: stepSummary,
            FAKE_LOG: logFile,
            FAKE_PREVIEW_EXIT: String(scenario.previewExit),
            FAKE_PREVIEW_JSON: scenario.previewJson,
            FAKE_SUMMARIZE_EXIT: String(scenario.summarizeExit),
            PACKAGE_BIN: scenario.summarizeExit === undefined ? PACKAGE_BIN : "",
            FAKE_FULL: path.join(dir, "full-source.md"),
            FAKE_BOUNDED: path.join(dir, "bounded-source.md"),
          },
        });
        log += result.stdout + result.stderr;
        for (const line of fs.readFileSync(githubEnv, "utf8").split("\n").filter(Boolean)) {
          const [name, value] = line.split(/=(.*)/s, 2);
          added[name] = value;
        }
        if (step === place) {
          // It only writes GITHUB_ENV: nothing it depends on can fail.
          assert.equal(result.status, 0, result.stderr);
          continue;
        }
        ran.push([step.id ?? step.name ?? step.run, result.status ?? -1]);
        if (step.id) {
          const outputs = Object.fromEntries(
            fs
              .readFileSync(output, "utf8")
              .split("\n")
              .filter(Boolean)
              .map((line) => line.split(/=(.*)/s, 2)),
          );
          (context.steps as Record<string, unknown>)[step.id] = { outputs };
        }
        if (result.status !== 0) failed = true;
      }
      const calls = fs.readFileSync(logFile, "utf8").split("\n").filter(Boolean);
      const paced = fs.readFileSync(rates, "utf8").split("\n").filter(Boolean);
      return { jobFailed: failed, ran, stepSummary: fs.readFileSync(stepSummary, "utf8"), log, calls, rates: paced };
    }

    const PREVIEW = `pulumi refresh --stack ${STACK} --preview-only --expect-no-changes --json`;
    const SUMMARIZE = `${flavour.tools} summarize --drift preview.json --full drift-full.md --full-link ${RUN_URL}`;
    const RERUN = `pulumi refresh --stack ${STACK} --preview-only`;

    it("no drift: every step succeeds, the report is the step summary, one preview", () => {
      const out = runJob({ previewExit: 0, previewJson: '{"steps":[]}', summarizeExit: 0 });
      assert.equal(out.jobFailed, false, out.log);
      assert.deepEqual(
        out.ran.map(([, status]) => status),
        [0, 0, 0],
      );
      assert.deepEqual(out.calls, [PREVIEW, SUMMARIZE]);
      assert.equal(out.stepSummary, "## No drift in stack `prod`\n");
      assert.match(out.log, new RegExp(`No drift in stack ${literal(STACK)}\\.`));
      assert.equal(fs.readFileSync(path.join(dir, "preview.json"), "utf8"), '{"steps":[]}');
    });

    it(
      sharded
        ? "paces every pulumi command of the job to its part of the key's limit: REQUESTS_PER_SECOND ÷ SHARDS"
        : "leaves the pace to the provider: the key's whole limit, for the one stack",
      () => {
        const out = runJob({ previewExit: 255, previewJson: "{}", summarizeExit: 2 });
        assert.deepEqual(out.calls, [PREVIEW, SUMMARIZE, RERUN]);
        const part = String(Number(drift.env.REQUESTS_PER_SECOND) / Number(drift.env.SHARDS));
        assert.deepEqual(out.rates, sharded ? [part, part] : ["unset", "unset"]);
        if (sharded) assert.equal(part, "5", "20 requests per second over 4 shards");
      },
    );

    it("drift (summarize exits 1): the report reaches the step summary and the artifact, then the job fails", () => {
      // The CLI exits non-zero on drift with --expect-no-changes; that alone does not fail the preview step.
      const out = runJob({ previewExit: 255, previewJson: '{"steps":[{"op":"update"}]}', summarizeExit: 1 });
      assert.equal(out.jobFailed, true);
      assert.deepEqual(out.ran, [
        ["preview", 0],
        ["report", 0],
        ["Fail on drift, or when drift could not be checked", 1],
      ]);
      assert.equal(out.stepSummary, "## Drift in stack `prod`\n\n- field `hs_pipeline` changed\n");
      assert.equal(fs.readFileSync(path.join(dir, "drift-full.md"), "utf8"), out.stepSummary, "the artifact's file");
      assert.match(out.log, new RegExp(`^::error::Stack ${literal(STACK)} has drifted`, "m"));
      assert.deepEqual(out.calls, [PREVIEW, SUMMARIZE], "no second preview on drift");
    });

    it("drift with a report over GitHub's 1 MiB of step summary: the bounded report, pointing at the artifact", () => {
      const huge = `## Drift in stack \`prod\`\n\n${"- field changed\n".repeat(80_000)}`;
      const out = runJob({ previewExit: 255, previewJson: "{}", summarizeExit: 1, fullReport: huge });
      assert.equal(out.jobFailed, true);
      assert.ok(Buffer.byteLength(huge) > 1024 * 1024);
      assert.equal(
        out.stepSummary,
        `${fs.readFileSync(path.join(dir, "drift.md"), "utf8")}\nThe full drift report is over 1 MiB, too large for this page: download the artifact \`${ARTIFACT}\` of this run.\n`,
      );
      assert.equal(fs.readFileSync(path.join(dir, "drift-full.md"), "utf8"), huge);
    });

    it("no verdict (summarize exits 2, e.g. the preview failed): the job fails, with the errors printed, never 'no drift'", () => {
      const out = runJob({ previewExit: 255, previewJson: '{"diagnostics":[{"severity":"error"}]}', summarizeExit: 2 });
      assert.equal(out.jobFailed, true);
      assert.deepEqual(
        out.ran.map(([, status]) => status),
        [0, 0, 1],
      );
      assert.deepEqual(out.calls, [PREVIEW, SUMMARIZE, RERUN], "Pulumi's text preview prints the errors");
      assert.match(out.log, /fake text preview: the errors/);
      assert.match(
        out.log,
        new RegExp(
          `^::error::Drift could not be checked in stack ${literal(STACK)} \\(pulumi refresh --preview-only exited 255; the drift report 2\\)`,
          "m",
        ),
      );
      assert.equal(
        out.stepSummary,
        `**Drift could not be checked** in stack \`${STACK}\`: the log of this job says why.\n`,
      );
      assert.doesNotMatch(out.log + out.stepSummary, /No drift/);
    });

    it("a preview that failed before writing JSON (a failed login): summarize cannot read it, and the job fails", () => {
      const out = runJob({ previewExit: 255, previewJson: "", summarizeExit: 2 });
      assert.equal(fs.readFileSync(path.join(dir, "preview.json"), "utf8"), "");
      assert.equal(out.jobFailed, true);
      assert.match(out.log, /the preview failed: drift could not be checked/, "summarize's reason, on stderr");
      assert.match(out.log, /^::error::Drift could not be checked/m);
    });

    it("a failed preview whose JSON shows no drift still fails the job: only exit 0 from both passes", () => {
      const out = runJob({ previewExit: 255, previewJson: '{"steps":[]}', summarizeExit: 0 });
      assert.equal(out.jobFailed, true);
      assert.deepEqual(out.calls, [PREVIEW, SUMMARIZE, RERUN]);
      assert.match(
        out.log,
        new RegExp(
          `^::error::pulumi refresh --preview-only exited 255 in stack ${literal(STACK)}, but the drift report found no drift: the refresh failed, or would change something its JSON does not show as drift\\.`,
          "m",
        ),
      );
      assert.match(
        out.stepSummary,
        new RegExp(`\\*\\*Drift could not be checked\\*\\* in stack \`${literal(STACK)}\``),
        "after the report that found none",
      );
      assert.doesNotMatch(out.log, /No drift in stack/);
    });

    it("an earlier step failed: the verdict still runs, and says drift could not be checked", () => {
      const out = runJob({ setupFails: true, previewExit: 0, previewJson: "{}", summarizeExit: 0 });
      assert.equal(out.jobFailed, true);
      assert.deepEqual(out.ran, [["Fail on drift, or when drift could not be checked", 1]]);
      assert.deepEqual(out.calls, [], "no preview without the CLI and the program's packages");
      assert.match(
        out.log,
        new RegExp(
          `^::error::Drift could not be checked in stack ${literal(STACK)} \\(pulumi refresh --preview-only exited before running; the drift report was not made\\)`,
          "m",
        ),
      );
    });

    describe("with the package's own summarize --drift", () => {
      const urn = (kind: Parameters<typeof TYPE>[0], name: string) =>
        `urn:pulumi:${STACK}::platform::${TYPE(kind)}::${name}`;
      const field = (name: string) => ({
        slug: "hubspot",
        linkedAccountId: "globex",
        configId: "globex",
        fieldId: "hs_pipeline",
        name,
      });
      /** A refresh's streamed engine events for one field: `same`, or `update` when the platform holds another name than deployed. */
      function refreshedPreview(
        platform: string,
        deployed: string,
        extra: { diagnostics?: Record<string, unknown>[] } = {},
      ): string {
        const state = (name: string) => ({
          type: TYPE("ConfigField"),
          urn: urn("ConfigField", "globex-pipeline"),
          inputs: field(name),
          outputs: field(name),
        });
        const metadata = (op: string) => ({
          op,
          urn: urn("ConfigField", "globex-pipeline"),
          type: TYPE("ConfigField"),
          old: state(deployed),
          new: state(platform),
        });
        const events = [
          { resourcePreEvent: { metadata: metadata("refresh") } },
          { resOutputsEvent: { metadata: metadata(platform === deployed ? "same" : "update") } },
          ...(extra.diagnostics ?? []).map((diagnosticEvent) => ({ diagnosticEvent })),
          { summaryEvent: { resourceChanges: platform === deployed ? { same: 1 } : { update: 1 } } },
        ];
        return (
          events.map((event, sequence) => JSON.stringify({ sequence, timestamp: 1795516851, ...event })).join("\n") +
          "\n"
        );
      }

      it("drift: exit 1, the report in the step summary and the artifact, and a failed job", () => {
        const out = runJob({ previewExit: 255, previewJson: refreshedPreview("Renamed by hand", "Deals pipeline") });
        assert.equal(out.jobFailed, true);
        assert.deepEqual(out.ran, [
          ["preview", 0],
          ["report", 0],
          ["Fail on drift, or when drift could not be checked", 1],
        ]);
        assert.match(out.stepSummary, /^## Integration platform drift/);
        assert.match(out.stepSummary, /globex/);
        assert.equal(out.stepSummary, fs.readFileSync(path.join(dir, "drift-full.md"), "utf8"));
        assert.match(out.log, new RegExp(`^::error::Stack ${literal(STACK)} has drifted`, "m"));
      });

      it("no drift: exit 0 and a job that passes", () => {
        const out = runJob({ previewExit: 0, previewJson: refreshedPreview("Deals pipeline", "Deals pipeline") });
        assert.equal(out.jobFailed, false, out.log);
        assert.match(out.stepSummary, /No drift/);
      });

      it("a failed preview: exit 2, its report still shown, and a job that fails without saying 'no drift'", () => {
        const failed = refreshedPreview("Deals pipeline", "Deals pipeline", {
          diagnostics: [{ urn: urn("ConfigField", "globex-pipeline"), severity: "error", message: "boom" }],
        });
        const out = runJob({ previewExit: 255, previewJson: failed });
        assert.equal(out.jobFailed, true);
        assert.match(out.stepSummary, /The preview failed/);
        assert.match(
          out.stepSummary,
          new RegExp(`\\*\\*Drift could not be checked\\*\\* in stack \`${literal(STACK)}\``),
        );
        assert.match(
          out.log,
          new RegExp(
            `^::error::Drift could not be checked in stack ${literal(STACK)} \\(pulumi refresh --preview-only exited 255; the drift report 2\\)`,
            "m",
          ),
        );
        assert.doesNotMatch(out.log, /No drift in stack/);
      });

      it("no JSON at all (a failed login), or a preview instead of a refresh: exit 2, and a job that fails", () => {
        const notRefreshed = JSON.stringify({
          steps: [
            {
              op: "same",
              urn: urn("ConfigField", "globex-pipeline"),
              newState: { type: TYPE("ConfigField"), inputs: field("x") },
            },
          ],
        });
        for (const [previewExit, previewJson] of [
          [255, ""],
          [0, notRefreshed],
        ] as const) {
          const out = runJob({ previewExit, previewJson });
          assert.equal(out.jobFailed, true, previewJson);
          assert.equal(
            out.stepSummary,
            `**Drift could not be checked** in stack \`${STACK}\`: the log of this job says why.\n`,
          );
          assert.match(
            out.log,
            new RegExp(
              `^::error::Drift could not be checked in stack ${literal(STACK)} \\(pulumi refresh --preview-only exited \\d+; the drift report 2\\)`,
              "m",
            ),
          );
          assert.ok(
            !fs.existsSync(path.join(dir, "drift-full.md")) ||
              fs.readFileSync(path.join(dir, "drift-full.md"), "utf8") === "",
            "no report to upload",
          );
        }
      });
    });
  });
}
