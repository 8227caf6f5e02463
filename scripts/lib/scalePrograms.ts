// The programs `npm run bench:scale` and `npm run bench:shard-preview` run: per linked account a
// ConfigField, a WorkflowToggle and an EnvVariableValue, on the dynamic resources, on the native
// provider (from TypeScript, Python, Go or Java), or as no-op dynamic resources (the engine's own time).
// Each takes its shard's accounts, with its SDK's own sharding helper.
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { REPO, Workspace } from "../../harness/engine";
import { javaEnv, languageHostsDir, nodeSdkInstall, pythonBin } from "../../harness/languages";
import { nativePath } from "../../harness/native";
import { prebuildGo, prebuildJava } from "../../harness/prebuilt";
import { installedPackage, writeProgram } from "../../harness/program";
import { startS3Backend } from "../../harness/s3";
import { ACCOUNT_TIER, seedTenants } from "../../harness/tenants";
import { NOOP_RESOURCE } from "./floor";
import type { Program } from "./scale";

export type { Program } from "./scale";

/**
 * Every tenant's setup, each resource declaring what destroy puts back (so create needs no read),
 * with the resources of `resources`: the package (the dynamic resources) or the native SDK; as three
 * resources per account, or (`shape` "setup") one LinkedAccountSetup of the same three.
 */
const setup = (resources: string, shape: Shape = "resources") => `
import * as platform from "${resources}";
import { inThisShard } from "pulumi-integration-platform";
const tenants: string[] = inThisShard(require("./tenants.json"), (id: string) => id);
for (const id of tenants) {
${shape === "resources" ? TS_RESOURCES : TS_SETUP}}
`;

/** One account's three resources in TypeScript. */
const TS_RESOURCES = `  const config = { slug: "hubspot", linkedAccountId: id, configId: id };
  new platform.ConfigField(\`\${id}-pipeline\`, { ...config, fieldId: "hs_pipeline", name: \`\${id} pipeline\`, restoreOnDelete: { name: "Pipeline" } });
  new platform.WorkflowToggle(\`\${id}-deal-alerts\`, { ...config, workflowId: "wf_hs_deal_alerts", enabled: true, restoreOnDelete: false });
  // As the peer program does: a tier the new account did not have, so destroy deletes it.
  new platform.EnvVariableValue(\`\${id}-tier\`, { definitionId: "${ACCOUNT_TIER}", linkedAccountId: id, value: "tier-bench", noValueBefore: true });
`;

/** The same three as one LinkedAccountSetup in TypeScript. */
const TS_SETUP = `  new platform.LinkedAccountSetup(\`\${id}-hubspot\`, {
    linkedAccountId: id, slug: "hubspot", configId: id,
    fields: [{ fieldId: "hs_pipeline", name: \`\${id} pipeline\`, restoreOnDelete: { name: "Pipeline" } }],
    workflows: { wf_hs_deal_alerts: { enabled: true, restoreOnDelete: false } },
    envValues: [{ definitionId: "${ACCOUNT_TIER}", value: "tier-bench", noValueBefore: true }],
  });
`;

/** How a program declares each account: three resources, or one LinkedAccountSetup of them (the plugin's Construct). */
type Shape = "resources" | "setup";

/**
 * The same setup in Python on the generated SDK, its shard's accounts picked by the SDK's own
 * `in_this_shard` (the same shard as TypeScript's inThisShard, by the shared vectors).
 */
const python = (shape: Shape) => `
import json
import pulumi_integration_platform as platform
from pulumi_integration_platform.sharding import in_this_shard

with open("tenants.json") as f:
    tenants = in_this_shard(json.load(f), lambda id: id)
for id in tenants:
${shape === "resources" ? PYTHON_RESOURCES : PYTHON_SETUP}`;

/** One account's three resources in Python. */
const PYTHON_RESOURCES = `    config = dict(slug="hubspot", linked_account_id=id, config_id=id)
    platform.ConfigField(f"{id}-pipeline", field_id="hs_pipeline", name=f"{id} pipeline",
                         restore_on_delete=platform.ConfigFieldValuesArgs(name="Pipeline"), **config)
    platform.WorkflowToggle(f"{id}-deal-alerts", workflow_id="wf_hs_deal_alerts", enabled=True,
                            restore_on_delete=False, **config)
    # As the peer program does: a tier the new account did not have, so destroy deletes it.
    platform.EnvVariableValue(f"{id}-tier", definition_id="${ACCOUNT_TIER}", linked_account_id=id,
                              value="tier-bench", no_value_before=True)
`;

/** The same three as one LinkedAccountSetup in Python. */
const PYTHON_SETUP = `    platform.LinkedAccountSetup(
        f"{id}-hubspot", linked_account_id=id, slug="hubspot", config_id=id,
        fields=[platform.SetupFieldArgs(field_id="hs_pipeline", name=f"{id} pipeline",
                                        restore_on_delete=platform.ConfigFieldValuesArgs(name="Pipeline"))],
        workflows={"wf_hs_deal_alerts": platform.SetupWorkflowArgs(enabled=True, restore_on_delete=False)},
        env_values=[platform.SetupEnvValueArgs(definition_id="${ACCOUNT_TIER}", value="tier-bench",
                                               no_value_before=True)])
`;

/**
 * The same setup in Go on the generated SDK (sdk/go, by a `replace`), its shard's accounts picked by the SDK's
 * `InThisShard`. The Go host builds the program at each command, as `pulumi new go` leaves it (`go`), or runs the
 * binary built once beforehand (`go-binary`).
 */
const go = (shape: Shape) => `package main

import (
	"encoding/json"
	"os"

	ip "github.com/pulumi-integration-platform/pulumi-integration-platform/sdk/go/integrationplatform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		data, err := os.ReadFile("tenants.json")
		if err != nil {
			return err
		}
		var all []string
		if err := json.Unmarshal(data, &all); err != nil {
			return err
		}
		where, err := ip.StackShard(ctx)
		if err != nil {
			return err
		}
		for _, id := range ip.InThisShard(all, func(id string) string { return id }, where) {
${shape === "resources" ? GO_RESOURCES : GO_SETUP}		}
		return nil
	})
}
`;

/** One account's three resources in Go. */
const GO_RESOURCES = `			account := pulumi.String(id)
			if _, err := ip.NewConfigField(ctx, id+"-pipeline", &ip.ConfigFieldArgs{
				Slug: pulumi.String("hubspot"), LinkedAccountId: account, ConfigId: account,
				FieldId: pulumi.String("hs_pipeline"), Name: pulumi.String(id + " pipeline"),
				RestoreOnDelete: &ip.ConfigFieldValuesArgs{Name: pulumi.String("Pipeline")},
			}); err != nil {
				return err
			}
			if _, err := ip.NewWorkflowToggle(ctx, id+"-deal-alerts", &ip.WorkflowToggleArgs{
				Slug: pulumi.String("hubspot"), LinkedAccountId: account, ConfigId: account,
				WorkflowId: pulumi.String("wf_hs_deal_alerts"), Enabled: pulumi.Bool(true), RestoreOnDelete: pulumi.Bool(false),
			}); err != nil {
				return err
			}
			// As the peer program does: a tier the new account did not have, so destroy deletes it.
			if _, err := ip.NewEnvVariableValue(ctx, id+"-tier", &ip.EnvVariableValueArgs{
				DefinitionId: pulumi.String("${ACCOUNT_TIER}"), LinkedAccountId: account,
				Value: pulumi.String("tier-bench"), NoValueBefore: pulumi.Bool(true),
			}); err != nil {
				return err
			}
`;

/** The same three as one LinkedAccountSetup in Go. */
const GO_SETUP = `			if _, err := ip.NewLinkedAccountSetup(ctx, id+"-hubspot", &ip.LinkedAccountSetupArgs{
				LinkedAccountId: pulumi.String(id), Slug: pulumi.String("hubspot"), ConfigId: pulumi.String(id),
				Fields: ip.SetupFieldArray{ip.SetupFieldArgs{
					FieldId: pulumi.String("hs_pipeline"), Name: pulumi.String(id + " pipeline"),
					RestoreOnDelete: &ip.ConfigFieldValuesArgs{Name: pulumi.String("Pipeline")},
				}},
				Workflows: ip.SetupWorkflowMap{"wf_hs_deal_alerts": ip.SetupWorkflowArgs{
					Enabled: pulumi.Bool(true), RestoreOnDelete: pulumi.Bool(false),
				}},
				EnvValues: ip.SetupEnvValueArray{ip.SetupEnvValueArgs{
					DefinitionId: pulumi.String("${ACCOUNT_TIER}"), Value: pulumi.String("tier-bench"), NoValueBefore: pulumi.Bool(true),
				}},
			}); err != nil {
				return err
			}
`;

/**
 * The same setup in Java on the generated SDK (installed in the tests' Maven repository), its shard's accounts
 * picked by the SDK's `Sharding.inThisShard`; the Java host runs it with `mvn compile exec:java`, as
 * `pulumi new java` leaves it (`java`), or the jar built once beforehand (`java-jar`). The accounts are read one a
 * line: the program needs no JSON library.
 */
const java = (shape: Shape) => `package bench;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import io.github.pulumiintegrationplatform.integrationplatform.*;
import io.github.pulumiintegrationplatform.integrationplatform.inputs.*;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        List<String> all;
        try {
            all = Files.readAllLines(Path.of("tenants.txt"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (var id : Sharding.inThisShard(all, t -> t, Sharding.stackShard(ctx))) {
${shape === "resources" ? JAVA_RESOURCES : JAVA_SETUP}        }
    }
}
`;

/** One account's three resources in Java. */
const JAVA_RESOURCES = `            new ConfigField(id + "-pipeline", ConfigFieldArgs.builder()
                .slug("hubspot").linkedAccountId(id).configId(id).fieldId("hs_pipeline").name(id + " pipeline")
                .restoreOnDelete(ConfigFieldValuesArgs.builder().name("Pipeline").build()).build());
            new WorkflowToggle(id + "-deal-alerts", WorkflowToggleArgs.builder()
                .slug("hubspot").linkedAccountId(id).configId(id).workflowId("wf_hs_deal_alerts")
                .enabled(true).restoreOnDelete(false).build());
            // As the peer program does: a tier the new account did not have, so destroy deletes it.
            new EnvVariableValue(id + "-tier", EnvVariableValueArgs.builder()
                .definitionId("${ACCOUNT_TIER}").linkedAccountId(id).value("tier-bench").noValueBefore(true).build());
`;

/** The same three as one LinkedAccountSetup in Java. */
const JAVA_SETUP = `            new LinkedAccountSetup(id + "-hubspot", LinkedAccountSetupArgs.builder()
                .linkedAccountId(id).slug("hubspot").configId(id)
                .fields(SetupFieldArgs.builder().fieldId("hs_pipeline").name(id + " pipeline")
                    .restoreOnDelete(ConfigFieldValuesArgs.builder().name("Pipeline").build()).build())
                .workflows(Map.of("wf_hs_deal_alerts", SetupWorkflowArgs.builder().enabled(true).restoreOnDelete(false).build()))
                .envValues(SetupEnvValueArgs.builder()
                    .definitionId("${ACCOUNT_TIER}").value("tier-bench").noValueBefore(true).build())
                .build());
`;

/** A program's language: how its project is laid out and which host runs it. */
type Runtime = "nodejs" | "python" | "go" | "java";

/**
 * The programs: their main file's text, the install their node_modules come from, their runtime, and for Go and
 * Java whether the program is built once beforehand (`prebuilt`, the runtime's `binary` option) instead of by the
 * host at each command (`go build`, `mvn compile exec:java`).
 */
export const PROGRAMS: Record<
  Program,
  { text: () => string; install: () => string; runtime: Runtime; prebuilt?: boolean }
> = {
  ours: { text: () => setup("pulumi-integration-platform"), install: () => installedPackage(), runtime: "nodejs" },
  native: { text: () => setup("pulumi-integration-platform-sdk"), install: () => nodeSdkInstall(), runtime: "nodejs" },
  floor: { text: () => FLOOR, install: () => installedPackage(), runtime: "nodejs" },
  // The plugin comes from the package's bin link (nativePath); the program runs in the venv of sdk/python.
  python: { text: () => python("resources"), install: () => installedPackage(), runtime: "python" },
  go: { text: () => go("resources"), install: () => installedPackage(), runtime: "go" },
  "go-binary": { text: () => go("resources"), install: () => installedPackage(), runtime: "go", prebuilt: true },
  java: { text: () => java("resources"), install: () => installedPackage(), runtime: "java" },
  "java-jar": { text: () => java("resources"), install: () => installedPackage(), runtime: "java", prebuilt: true },
  // The same accounts as one LinkedAccountSetup each, which the plugin constructs (what the Construct costs).
  "native-setup": {
    text: () => setup("pulumi-integration-platform-sdk", "setup"),
    install: () => nodeSdkInstall(),
    runtime: "nodejs",
  },
  "python-setup": { text: () => python("setup"), install: () => installedPackage(), runtime: "python" },
  "go-binary-setup": { text: () => go("setup"), install: () => installedPackage(), runtime: "go", prebuilt: true },
  "java-jar-setup": { text: () => java("setup"), install: () => installedPackage(), runtime: "java", prebuilt: true },
};

/** The same resources as no-op dynamic resources: the engine's floor. */
const FLOOR = `${NOOP_RESOURCE}
import * as platform from "pulumi-integration-platform";
const tenants: string[] = platform.inThisShard(require("./tenants.json"), (id: string) => id);
for (const id of tenants) {
  const config = { slug: "hubspot", linkedAccountId: id, configId: id };
  new Noop(\`\${id}-pipeline\`, { ...config, fieldId: "hs_pipeline", name: \`\${id} pipeline\` });
  new Noop(\`\${id}-deal-alerts\`, { ...config, workflowId: "wf_hs_deal_alerts", enabled: true });
  new Noop(\`\${id}-tier\`, { definitionId: "${ACCOUNT_TIER}", linkedAccountId: id, value: "tier-bench" });
}
`;

/** Writes `program` for `tenants` into `parent`/`name` (building a prebuilt one); returns its directory. */
export function writeScaleProgram(program: Program, parent: string, name: string, tenants: string[]): string {
  const { text, install, runtime, prebuilt } = PROGRAMS[program];
  const main = { nodejs: "index.ts", python: "__main__.py", go: "main.go", java: "src/main/java/bench/App.java" }[
    runtime
  ];
  const dir = writeProgram(parent, name, { [main]: text(), "tenants.json": JSON.stringify(tenants) }, install());
  if (runtime === "python") {
    const venv = path.dirname(pythonBin());
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: ${name}\nruntime:\n  name: python\n  options:\n    virtualenv: ${JSON.stringify(venv)}\n`,
    );
  }
  if (runtime !== "go" && runtime !== "java") return dir;
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: ${runtime}\n`);
  if (runtime === "go") writeGoModule(dir, name);
  else writeMavenProject(dir, name, tenants);
  if (prebuilt) {
    const seconds = runtime === "go" ? prebuildGo(dir) : prebuildJava(dir, "bench.App", javaEnv());
    process.stderr.write(`bench:   built the ${runtime} program once in ${seconds.toFixed(1)} s\n`);
  }
  return dir;
}

/** The Go example's module files, as this program's module, with the SDK replaced by this checkout's sdk/go. */
function writeGoModule(dir: string, name: string): void {
  const example = path.join(REPO, "examples", "native", "go");
  const gomod = fs
    .readFileSync(path.join(example, "go.mod"), "utf8")
    .replace(/^module .*$/m, `module ${name}`)
    .replace(/=> \.\.\/\.\.\/\.\.\/sdk\/go$/m, `=> ${path.join(REPO, "sdk", "go")}`);
  fs.writeFileSync(path.join(dir, "go.mod"), gomod);
  fs.copyFileSync(path.join(example, "go.sum"), path.join(dir, "go.sum"));
}

/** The Java example's pom (the SDK of this checkout's version) with this program's main class, and its accounts. */
function writeMavenProject(dir: string, name: string, tenants: string[]): void {
  const pom = fs
    .readFileSync(path.join(REPO, "examples", "native", "java", "pom.xml"), "utf8")
    .replace("<artifactId>quickstart-java</artifactId>", `<artifactId>${name}</artifactId>`)
    .replace("<mainClass>quickstart.App</mainClass>", "<mainClass>bench.App</mainClass>");
  fs.writeFileSync(path.join(dir, "pom.xml"), pom);
  fs.writeFileSync(path.join(dir, "tenants.txt"), tenants.join("\n") + "\n");
}

/**
 * A program's connection from the environment, as in CI, with `createWithoutRead` on; the native provider's plugin is
 * found on PATH, as npm's bin link puts it there for users (and the Python host beside it).
 */
export function connection(program: Program, emulator: RunningEmulator): Record<string, string> {
  return {
    INTEGRATION_PLATFORM_BASE_URL: emulator.url,
    INTEGRATION_PLATFORM_API_KEY: emulator.apiKey,
    INTEGRATION_PLATFORM_CREATE_WITHOUT_READ: "true",
    ...(program === "native" || program === "native-setup" ? { PATH: nativePath() } : {}),
    // The other languages' hosts beside the engine; Java's Maven with the repository that holds the SDK.
    ...(PROGRAMS[program].runtime !== "nodejs" ? { PATH: nativePath(languageHostsDir()) } : {}),
    ...(PROGRAMS[program].runtime === "java" ? javaEnv() : {}),
  };
}

/** What `withScaleProgram` hands its body. */
export interface ScaleSetup {
  emulator: RunningEmulator;
  workspace: Workspace;
  /** The program's directory. */
  dir: string;
  tenants: string[];
}

/**
 * Runs `body` on `program` written for `k` seeded accounts (named `<name>-<program>`), with an emulator of
 * its own (`emulator` its options) and its stacks' state in a versitygw bucket; removes all of it after.
 */
export async function withScaleProgram<T>(
  program: Program,
  k: number,
  name: string,
  emulator: EmulatorOptions,
  body: (setup: ScaleSetup) => Promise<T>,
): Promise<T> {
  const running = await startEmulator(emulator);
  const s3 = await startS3Backend();
  const workspace = new Workspace(s3);
  try {
    const tenants = await seedTenants(running, "tenant", k);
    const dir = writeScaleProgram(program, workspace.root, `${name}-${program}`, tenants);
    return await body({ emulator: running, workspace, dir, tenants });
  } finally {
    workspace.dispose();
    await s3.stop();
    await running.close();
  }
}
