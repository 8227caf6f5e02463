// `scripts/verify-release.ts`: installs a release the way each language's users do and previews a
// program with it (docs/design/release.md, "Checking what was published"), as pulumi-awsx's
// verify-release workflow does with pulumi/verify-provider-release. For each language asked it
// writes a program that declares one WorkflowToggle, installs the SDK from the registries (PyPI,
// npm, the Go module proxy, Maven Central) or from a release folder served over HTTP, lets the
// Pulumi CLI download the plugin (the GitHub release, or the folder through
// PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES), and runs `pulumi preview` on a local file backend against
// the release's own emulator (its executable: no Node.js). It prints, per language, what it
// installed and from where, the versions, the preview, and pass or fail; it exits 1 on any failure.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Command, Option } from "commander";
import { JAVA_BASE_PACKAGE, PLUGIN_DOWNLOAD_URL, SDK_NAMES } from "../provider/native/schema";
import { cacheRoot, REPO } from "../harness/tools";
import { archiveName, executableName, type Target } from "./release/executables";
import { releaseVersions as spellings, type ReleaseVersions } from "./release/context";
import { parseSemVer } from "./release/version";

export type { ReleaseVersions } from "./release/context";
import { serveFolder, type StaticServer } from "./lib/staticServer";

/** The languages a release is checked in (.NET has no package in the release yet). */
export const VERIFY_LANGUAGES = ["python", "typescript", "go", "java", "yaml"] as const;
/** One of them. */
export type VerifyLanguage = (typeof VERIFY_LANGUAGES)[number];

/** The Go module of the SDK (the import path's module: sdk/go). */
export const GO_MODULE = SDK_NAMES.go.replace(/\/integrationplatform$/, "");
const [MAVEN_GROUP, MAVEN_ARTIFACT] = SDK_NAMES.java.split(":");
/** The repository whose GitHub releases carry the plugin (what the SDKs' pluginDownloadURL names). */
const GITHUB_REPO = `${PLUGIN_DOWNLOAD_URL.replace("github://api.github.com/", "")}/pulumi-integration-platform`;
/** The resource every program declares, and how its preview names it. */
const RESOURCE = { type: "integration-platform:index:WorkflowToggle", name: "verify-toggle" };
/** What a preview that would create it prints (`+  <type>  <name>  create`). */
export const CREATE_LINE = new RegExp(`\\+\\s+${RESOURCE.type.replace(/[.]/g, "\\.")}\\s+${RESOURCE.name}\\s+create`);

/** The versions of one release, as the registries spell them (the rules of scripts/release/version.ts). */
export function versionsOf(version: string): ReleaseVersions {
  parseSemVer(version);
  return spellings(version);
}

/** The release target of this machine, whose plugin and emulator archives it runs. */
export function hostTarget(): Target {
  const os_ = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform as string];
  const arch = { x64: "amd64", arm64: "arm64" }[process.arch as string];
  const target = `${os_}-${arch}`;
  if (!os_ || !arch || target === "windows-arm64")
    throw new Error(`no release archive runs on ${process.platform}-${process.arch}`);
  return target as Target;
}

/** A Go module path escaped for a module proxy's URLs (an upper-case letter becomes `!` and the letter). */
export function escapeModulePath(module: string): string {
  return module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** Where the packages come from: the registries, or a release folder's address (ending with a slash). */
type Source = { kind: "registries" } | { kind: "http"; url: string };

/** Where each of the release's files is, in `source`: the check waits for each before installing it. */
export function artifactUrls(source: Source, v: ReleaseVersions, target: Target) {
  const mavenPath = `${MAVEN_GROUP.replace(/\./g, "/")}/${MAVEN_ARTIFACT}/${v.maven}/${MAVEN_ARTIFACT}-${v.maven}.pom`;
  const goInfo = `${escapeModulePath(GO_MODULE)}/@v/${v.go}.info`;
  if (source.kind === "http") {
    // Each name escaped as a path segment (`+` as %2B), but Go's `@v` as it is.
    const at = (file: string) =>
      `${source.url}${file
        .split("/")
        .map((segment) => encodeURIComponent(segment).replace(/%40/g, "@"))
        .join("/")}`;
    return {
      python: at(`${SDK_NAMES.python}-${v.python}-py3-none-any.whl`),
      typescript: at(`${SDK_NAMES.nodejs}-${v.npm}.tgz`),
      go: at(`goproxy/${goInfo}`),
      java: at(`maven/${mavenPath}`),
      plugin: at(archiveName(v.version, target)),
      emulator: at(archiveName(v.version, target, "emulator")),
    };
  }
  const github = (file: string) =>
    `https://github.com/${GITHUB_REPO}/releases/download/v${v.version}/${encodeURIComponent(file)}`;
  return {
    python: `https://pypi.org/pypi/${SDK_NAMES.python}/${encodeURIComponent(v.python)}/json`,
    typescript: `https://registry.npmjs.org/${SDK_NAMES.nodejs}/${encodeURIComponent(v.npm)}`,
    go: `https://proxy.golang.org/${goInfo}`,
    java: `https://repo1.maven.org/maven2/${mavenPath}`,
    plugin: github(archiveName(v.version, target)),
    emulator: github(archiveName(v.version, target, "emulator")),
  };
}

/** Prints progress on stderr (stdout is the report). */
function log(message: string): void {
  process.stderr.write(`verify-release: ${message}\n`);
}

/** What a command printed (stdout and stderr together, as a terminal shows them) and its exit code. */
interface Ran {
  code: number;
  output: string;
}

/**
 * Runs a command to its end. On Windows npm is a .cmd script, which Node starts only through a shell.
 * `timeoutMs`: killed after it, with what it printed so far in the error.
 */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
      shell: process.platform === "win32" && command === "npm",
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 15 * 60_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${command}: ${error.message} (is it installed and on PATH?)`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

/** Runs a command that must succeed; its failure names the command and shows its output. */
async function ok(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<string> {
  const ran = await run(command, args, options);
  if (ran.code !== 0)
    throw new Error(`'${[command, ...args].join(" ")}' exited with ${ran.code}:\n${indent(ran.output.trim())}`);
  return ran.output;
}

/** Indents every line of a text, to show a command's output under its heading. */
function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}

/**
 * Waits until `url` answers 200 (a HEAD request), polling every 10 s for `minutes`: a release's packages reach
 * the registries one after another, while this check may already run. Fails naming what is missing and where.
 */
export async function waitForArtifact(what: string, url: string, minutes: number): Promise<void> {
  const deadline = Date.now() + minutes * 60_000;
  for (;;) {
    let status: number | string;
    try {
      status = (await fetch(url, { method: "HEAD", redirect: "follow" })).status;
    } catch (error) {
      status = (error as Error).message;
    }
    if (status === 200) return;
    if (Date.now() >= deadline)
      throw new Error(
        `${what} is not at ${url} (answer: ${status}${minutes > 0 ? ` for ${minutes} minutes` : ""}): ` +
          "is it published (or in the release folder), and is the version right?",
      );
    await new Promise((resolve) => setTimeout(resolve, 10_000));
  }
}

/**
 * The release's versions: the folder's release.json, or for the registries (and a folder made before
 * release.json existed) the rules of scripts/release/version.ts applied to `version` (default package.json's).
 */
export async function releaseVersions(source: Source, version?: string): Promise<ReleaseVersions> {
  if (source.kind === "http") {
    const response = await fetch(`${source.url}release.json`);
    if (response.ok) {
      const manifest = (await response.json()) as Partial<ReleaseVersions>;
      const missing = (["version", "python", "go", "maven", "npm"] as const).filter(
        (key) => typeof manifest[key] !== "string",
      );
      if (missing.length > 0)
        throw new Error(`${source.url}release.json has no ${missing.join(", ")}: is it a release folder's manifest?`);
      if (version && version !== manifest.version)
        throw new Error(`--version ${version}, but ${source.url}release.json says ${manifest.version}`);
      return manifest as ReleaseVersions;
    }
    if (response.status !== 404) throw new Error(`${source.url}release.json answered ${response.status}`);
    log(`${source.url} has no release.json: the versions are derived from ${version ?? "package.json's version"}`);
  } else if (!version) throw new Error("--from registries needs --version <version> (the release's, e.g. 0.6.0)");
  return versionsOf(
    version ?? (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version,
  );
}

/** The cache this check keeps between runs (all but the release's own packages): Go modules, a Maven repository. */
function cacheDir(): string {
  return path.join(cacheRoot(), "verify-release");
}

/** Removes a folder that Go made read-only (its module cache), making each folder writable first. */
function removeTree(dir: string): void {
  if (!fs.existsSync(dir)) return;
  const walk = (d: string) => {
    fs.chmodSync(d, 0o755);
    for (const entry of fs.readdirSync(d, { withFileTypes: true }))
      if (entry.isDirectory()) walk(path.join(d, entry.name));
  };
  walk(dir);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** What one run of the check shares between its languages. */
interface Context {
  source: Source;
  versions: ReleaseVersions;
  urls: ReturnType<typeof artifactUrls>;
  /** The emulator's address and API key. */
  endpoint: { url: string; apiKey: string };
  /** The folder the programs are written in. */
  work: string;
  /** The environment every command starts from: this one without PULUMI_* and without a plugin on PATH. */
  baseEnv: NodeJS.ProcessEnv;
  wait: number;
}

/** What a language's check found. */
interface Outcome {
  language: VerifyLanguage;
  passed: boolean;
  /** What it installed and from where. */
  installed: string[];
  /** The preview's output (when it ran). */
  preview?: string;
  error?: string;
  seconds: number;
}

const PYTHON = process.platform === "win32" ? "python" : "python3";
const venvPython = (venv: string) =>
  process.platform === "win32" ? path.join(venv, "Scripts", "python.exe") : path.join(venv, "bin", "python");
const programName = (language: VerifyLanguage) => `verify-release-${language}`;

/** Writes the program and installs the SDK as the language's users do; returns what it installed. */
const LANGUAGE_SETUP: Record<
  VerifyLanguage,
  (ctx: Context, dir: string) => Promise<{ installed: string[]; env?: NodeJS.ProcessEnv }>
> = {
  async python(ctx, dir) {
    const { source, versions } = ctx;
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: ${programName("python")}\nruntime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n`,
    );
    fs.writeFileSync(path.join(dir, "requirements.txt"), `${SDK_NAMES.python}==${versions.python}\n`);
    fs.writeFileSync(
      path.join(dir, "__main__.py"),
      [
        "import pulumi_integration_platform as platform",
        "",
        "platform.WorkflowToggle(",
        `    "${RESOURCE.name}",`,
        '    slug="hubspot",',
        '    linked_account_id="globex",',
        '    config_id="globex",',
        '    workflow_id="wf_hs_contact_sync",',
        "    enabled=True,",
        ")",
        "",
      ].join("\n"),
    );
    await ok(PYTHON, ["-m", "venv", "venv"], { cwd: dir, env: ctx.baseEnv });
    // --find-links: pip reads the folder's page of links and takes the wheel from it; the
    // SDK's requirements (pulumi, grpcio…) come from PyPI, as for any user.
    const links = source.kind === "http" ? ["--find-links", source.url] : [];
    await ok(
      venvPython(path.join(dir, "venv")),
      ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", ...links, "-r", "requirements.txt"],
      { cwd: dir, env: ctx.baseEnv },
    );
    const shown = await ok(venvPython(path.join(dir, "venv")), ["-m", "pip", "show", SDK_NAMES.python], {
      cwd: dir,
      env: ctx.baseEnv,
    });
    const version = /^Version: (.+)$/m.exec(shown)?.[1]?.trim();
    if (version !== versions.python)
      throw new Error(`pip installed ${SDK_NAMES.python} ${version}, not ${versions.python}`);
    return {
      installed: [
        `${SDK_NAMES.python}==${version} (pip${source.kind === "http" ? ` --find-links ${source.url}` : ", PyPI"})`,
      ],
    };
  },

  async typescript(ctx, dir) {
    const { source, versions } = ctx;
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${programName("typescript")}\nruntime: nodejs\n`);
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify(
        {
          name: programName("typescript"),
          private: true,
          main: "index.ts",
          // What `pulumi new typescript` writes; the SDK is added by `npm install` below.
          dependencies: { "@pulumi/pulumi": "^3.200.0" },
          devDependencies: { "@types/node": "^22.20.5", typescript: "^5.9.3" },
        },
        null,
        2,
      ) + "\n",
    );
    fs.writeFileSync(
      path.join(dir, "index.ts"),
      [
        `import * as platform from "${SDK_NAMES.nodejs}";`,
        "",
        `new platform.WorkflowToggle("${RESOURCE.name}", {`,
        '  slug: "hubspot",',
        '  linkedAccountId: "globex",',
        '  configId: "globex",',
        '  workflowId: "wf_hs_contact_sync",',
        "  enabled: true,",
        "});",
        "",
      ].join("\n"),
    );
    const spec = source.kind === "http" ? ctx.urls.typescript : `${SDK_NAMES.nodejs}@${versions.npm}`;
    await ok("npm", ["install", "--no-audit", "--no-fund", "--loglevel", "error", spec], {
      cwd: dir,
      env: ctx.baseEnv,
    });
    const installed = (
      JSON.parse(fs.readFileSync(path.join(dir, "node_modules", SDK_NAMES.nodejs, "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
    if (installed !== versions.npm)
      throw new Error(`npm installed ${SDK_NAMES.nodejs} ${installed}, not ${versions.npm}`);
    return { installed: [`${SDK_NAMES.nodejs}@${installed} (npm install ${spec})`] };
  },

  async go(ctx, dir) {
    const { source, versions } = ctx;
    // A module cache of this check's own, kept between runs for everything but the release's
    // module, which is removed first: it is always fetched from the source under test.
    const modcache = path.join(cacheDir(), "gomodcache");
    removeTree(path.join(modcache, GO_MODULE.split("/").slice(0, 2).join("/")));
    removeTree(path.join(modcache, "cache", "download", GO_MODULE.split("/").slice(0, 2).join("/")));
    const env: NodeJS.ProcessEnv = {
      ...ctx.baseEnv,
      GOMODCACHE: modcache,
      // -modcacherw: the next run can remove the release's module from the cache.
      GOFLAGS: [ctx.baseEnv.GOFLAGS, "-modcacherw"].filter(Boolean).join(" "),
    };
    if (source.kind === "http") {
      // The folder's module proxy first; a 404 there (every other module) falls through to the
      // public proxy. The checksum database knows no snapshot: it is not asked for our modules.
      env.GOPROXY = `${source.url}goproxy,${ctx.baseEnv.GOPROXY || "https://proxy.golang.org"}`;
      env.GONOSUMDB = [ctx.baseEnv.GONOSUMDB, `${GO_MODULE.split("/").slice(0, 2).join("/")}/*`]
        .filter(Boolean)
        .join(",");
    }
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${programName("go")}\nruntime: go\n`);
    fs.writeFileSync(
      path.join(dir, "go.mod"),
      `module ${programName("go")}\n\ngo 1.25\n\nrequire ${GO_MODULE} ${versions.go}\n`,
    );
    fs.writeFileSync(
      path.join(dir, "main.go"),
      [
        "package main",
        "",
        "import (",
        `\tip "${SDK_NAMES.go}"`,
        '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
        ")",
        "",
        "func main() {",
        "\tpulumi.Run(func(ctx *pulumi.Context) error {",
        `\t\t_, err := ip.NewWorkflowToggle(ctx, "${RESOURCE.name}", &ip.WorkflowToggleArgs{`,
        '\t\t\tSlug: pulumi.String("hubspot"), LinkedAccountId: pulumi.String("globex"), ConfigId: pulumi.String("globex"),',
        '\t\t\tWorkflowId: pulumi.String("wf_hs_contact_sync"),',
        "\t\t\tEnabled:    pulumi.Bool(true),",
        "\t\t})",
        "\t\treturn err",
        "\t})",
        "}",
        "",
      ].join("\n"),
    );
    // `go mod tidy` adds the Pulumi SDK the module requires, and writes go.sum.
    await ok("go", ["mod", "tidy"], { cwd: dir, env });
    const version = (await ok("go", ["list", "-m", "-f", "{{.Version}}", GO_MODULE], { cwd: dir, env })).trim();
    if (version !== versions.go) throw new Error(`go resolved ${GO_MODULE} ${version}, not ${versions.go}`);
    return { installed: [`${GO_MODULE}@${version} (GOPROXY=${env.GOPROXY ?? "the default"})`], env };
  },

  async java(ctx, dir) {
    const { source, versions } = ctx;
    // A local repository of this check's own, kept between runs for everything but the release's
    // artifact, which is removed first: Maven fetches it from the source under test.
    const repository = path.join(cacheDir(), "maven");
    const group = path.join(repository, ...MAVEN_GROUP.split("."));
    fs.rmSync(group, { recursive: true, force: true });
    const env: NodeJS.ProcessEnv = {
      ...ctx.baseEnv,
      MAVEN_OPTS: [ctx.baseEnv.MAVEN_OPTS, `-Dmaven.repo.local=${repository}`].filter(Boolean).join(" "),
    };
    // The folder's repository before Maven Central (which Maven asks last).
    const repositories =
      source.kind === "http"
        ? `  <repositories>\n    <repository>\n      <id>release-under-test</id>\n      <url>${source.url}maven/</url>\n    </repository>\n  </repositories>\n`
        : "";
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${programName("java")}\nruntime: java\n`);
    fs.writeFileSync(
      path.join(dir, "pom.xml"),
      `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>verify</groupId>
  <artifactId>${programName("java")}</artifactId>
  <version>1.0-SNAPSHOT</version>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.release>17</maven.compiler.release>
    <mainClass>verify.App</mainClass>
  </properties>
${repositories}  <dependencies>
    <dependency>
      <groupId>${MAVEN_GROUP}</groupId>
      <artifactId>${MAVEN_ARTIFACT}</artifactId>
      <version>${versions.maven}</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.13.0</version>
      </plugin>
      <plugin>
        <groupId>org.codehaus.mojo</groupId>
        <artifactId>exec-maven-plugin</artifactId>
        <version>3.5.0</version>
        <configuration>
          <mainClass>\${mainClass}</mainClass>
          <cleanupDaemonThreads>false</cleanupDaemonThreads>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
`,
    );
    const javaDir = path.join(dir, "src", "main", "java", "verify");
    fs.mkdirSync(javaDir, { recursive: true });
    const pkg = `${JAVA_BASE_PACKAGE}.integrationplatform`;
    fs.writeFileSync(
      path.join(javaDir, "App.java"),
      [
        "package verify;",
        "",
        "import com.pulumi.Pulumi;",
        `import ${pkg}.WorkflowToggle;`,
        `import ${pkg}.WorkflowToggleArgs;`,
        "",
        "public class App {",
        "    public static void main(String[] args) {",
        `        Pulumi.run(ctx -> new WorkflowToggle("${RESOURCE.name}", WorkflowToggleArgs.builder()`,
        '            .slug("hubspot").linkedAccountId("globex").configId("globex")',
        '            .workflowId("wf_hs_contact_sync")',
        "            .enabled(true)",
        "            .build()));",
        "    }",
        "}",
        "",
      ].join("\n"),
    );
    // Maven resolves the SDK when the Java host builds the program (`mvn compile exec:java`), in the preview.
    const from = source.kind === "http" ? `${source.url}maven/` : "Maven Central";
    return { installed: [`${MAVEN_GROUP}:${MAVEN_ARTIFACT}:${versions.maven} (Maven, from ${from})`], env };
  },

  async yaml(ctx, dir) {
    const { versions } = ctx;
    // No SDK: the resource names the plugin's version and where it is downloaded from.
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      [
        `name: ${programName("yaml")}`,
        "runtime: yaml",
        "resources:",
        `  ${RESOURCE.name}:`,
        `    type: ${RESOURCE.type}`,
        "    properties:",
        "      slug: hubspot",
        "      linkedAccountId: globex",
        "      configId: globex",
        "      workflowId: wf_hs_contact_sync",
        "      enabled: true",
        "    options:",
        `      version: ${versions.version}`,
        `      pluginDownloadURL: ${PLUGIN_DOWNLOAD_URL}`,
        "",
      ].join("\n"),
    );
    return { installed: ["no SDK (Pulumi YAML)"] };
  },
};

/** Checks one language: its program, the SDK, the plugin by the CLI, the preview against the emulator. */
async function verifyLanguage(ctx: Context, language: VerifyLanguage): Promise<Outcome> {
  const started = Date.now();
  const outcome: Outcome = { language, passed: false, installed: [], seconds: 0 };
  const dir = path.join(ctx.work, language);
  try {
    fs.mkdirSync(dir, { recursive: true });
    if (language !== "yaml") await waitForArtifact(`the ${language} SDK`, ctx.urls[language], ctx.wait);
    await waitForArtifact(`the plugin's ${hostTarget()} archive`, ctx.urls.plugin, ctx.wait);
    log(`${language}: installing`);
    const setup = await LANGUAGE_SETUP[language](ctx, dir);
    outcome.installed.push(...setup.installed);
    // Each language on its own PULUMI_HOME, so that the CLI downloads the plugin for each.
    const home = path.join(dir, ".pulumi-home");
    const env: NodeJS.ProcessEnv = {
      ...(setup.env ?? ctx.baseEnv),
      PULUMI_HOME: home,
      // Forward slashes on Windows too: the CLI makes `file://C:/…` a path of its own.
      PULUMI_BACKEND_URL: `file://${path.join(dir, ".state").replace(/\\/g, "/")}`,
      PULUMI_CONFIG_PASSPHRASE: "verify-release",
      PULUMI_SKIP_UPDATE_CHECK: "true",
    };
    if (ctx.source.kind === "http") {
      // The SDKs name github://api.github.com/pulumi-integration-platform; the CLI asks the folder instead,
      // for pulumi-resource-integration-platform-v<version>-<os>-<arch>.tar.gz.
      const pattern = `^${PLUGIN_DOWNLOAD_URL}/pulumi-integration-platform$`.replace(/[.]/g, "\\.");
      env.PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES = `${pattern}=${ctx.source.url.replace(/\/$/, "")}`;
    }
    fs.mkdirSync(path.join(dir, ".state"), { recursive: true });
    const pulumi = (args: string[]) => ok("pulumi", [...args, "--non-interactive"], { cwd: dir, env });
    await pulumi(["stack", "init", "verify"]);
    await pulumi(["config", "set", "integration-platform:baseUrl", ctx.endpoint.url]);
    await pulumi(["config", "set", "--secret", "integration-platform:apiKey", ctx.endpoint.apiKey]);
    log(`${language}: pulumi preview`);
    const preview = await run("pulumi", ["preview", "--non-interactive", "--color", "never"], {
      cwd: dir,
      env,
      timeoutMs: 20 * 60_000,
    });
    outcome.preview = preview.output.split(ctx.endpoint.apiKey).join("[secret]");
    if (preview.code !== 0) throw new Error(`pulumi preview exited with ${preview.code}`);
    if (!CREATE_LINE.test(preview.output))
      throw new Error(`the preview does not say it would create ${RESOURCE.type} ${RESOURCE.name}`);
    // The plugin the CLI downloaded and ran: this PULUMI_HOME held none before.
    const plugins = JSON.parse(await ok("pulumi", ["plugin", "ls", "--json"], { cwd: dir, env })) as {
      name: string;
      kind: string;
      version: string;
    }[];
    const plugin = plugins.find((p) => p.kind === "resource" && p.name === "integration-platform");
    if (!plugin) throw new Error("the CLI installed no integration-platform plugin");
    if (plugin.version !== ctx.versions.version)
      throw new Error(`the CLI installed the plugin ${plugin.version}, not ${ctx.versions.version}`);
    outcome.installed.push(
      `plugin integration-platform ${plugin.version} (downloaded by the CLI from ${
        ctx.source.kind === "http" ? ctx.source.url : `the GitHub release v${ctx.versions.version} of ${GITHUB_REPO}`
      })`,
    );
    if (language === "java") {
      const jar = path.join(
        cacheDir(),
        "maven",
        ...MAVEN_GROUP.split("."),
        MAVEN_ARTIFACT,
        ctx.versions.maven,
        `${MAVEN_ARTIFACT}-${ctx.versions.maven}.jar`,
      );
      if (!fs.existsSync(jar)) throw new Error(`Maven did not fetch ${path.basename(jar)}`);
    }
    outcome.passed = true;
  } catch (error) {
    outcome.error = (error as Error).message.split(ctx.endpoint.apiKey).join("[secret]");
  }
  outcome.seconds = (Date.now() - started) / 1000;
  return outcome;
}

/** The release's emulator executable, downloaded and started on a free port; resolves once it listens. */
async function startEmulator(
  url: string,
  versions: ReleaseVersions,
  work: string,
  apiKey: string,
): Promise<{ url: string; child: ChildProcess }> {
  const target = hostTarget();
  const dir = path.join(work, "emulator");
  fs.mkdirSync(dir, { recursive: true });
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the emulator's archive: ${url} answered ${response.status}`);
  fs.writeFileSync(path.join(dir, "emulator.tar.gz"), Buffer.from(await response.arrayBuffer()));
  // A relative name: Git's tar on Windows reads `C:` as a remote host.
  await ok("tar", ["-xzf", "emulator.tar.gz"], { cwd: dir, env: process.env });
  const executable = path.join(dir, executableName(target, "emulator"));
  const child = spawn(executable, ["--port", "0", "--api-key", apiKey], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the emulator printed no address in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("error", (error) => (clearTimeout(timer), reject(error)));
    child.on("exit", (code) => (clearTimeout(timer), reject(new Error(`the emulator exited (${code}):\n${output}`))));
  });
  log(`the release's emulator ${versions.version} listens on ${address}`);
  return { url: address, child };
}

/** The check's options. */
export interface VerifyOptions {
  /** `registries`, a release folder's address, or a release folder (served here for the run). */
  from: string;
  languages: VerifyLanguage[];
  version?: string;
  /** Minutes to wait for each package to appear (default 15 from the registries, 0 from a folder). */
  wait?: number;
  /** Languages checked at once. */
  jobs: number;
  /** Keep the programs in this folder (default: a temporary one, removed). */
  work?: string;
}

/** Runs the check; resolves with each language's outcome (printed on stdout as they end). */
export async function verifyRelease(options: VerifyOptions): Promise<Outcome[]> {
  let served: StaticServer | undefined;
  let source: Source;
  if (options.from === "registries") source = { kind: "registries" };
  else if (/^https?:\/\//.test(options.from))
    source = { kind: "http", url: options.from.endsWith("/") ? options.from : `${options.from}/` };
  else {
    served = await serveFolder(path.resolve(options.from));
    source = { kind: "http", url: served.url };
    log(`serving ${path.resolve(options.from)} on ${served.url}`);
  }
  const work = options.work ? path.resolve(options.work) : fs.mkdtempSync(path.join(os.tmpdir(), "verify-release-"));
  fs.mkdirSync(work, { recursive: true });
  let emulator: ChildProcess | undefined;
  try {
    const versions = await releaseVersions(source, options.version);
    const urls = artifactUrls(source, versions, hostTarget());
    const wait = options.wait ?? (source.kind === "registries" ? 15 : 0);
    log(
      `release ${versions.version} (PyPI ${versions.python}, Go ${versions.go}, Maven ${versions.maven}, npm ${versions.npm}) from ${
        source.kind === "http" ? source.url : "the registries"
      }`,
    );
    await waitForArtifact(`the emulator's ${hostTarget()} archive`, urls.emulator, wait);
    const apiKey = `tk_verify_${randomBytes(8).toString("hex")}`;
    const started = await startEmulator(urls.emulator, versions, work, apiKey);
    emulator = started.child;
    // No PULUMI_* of this shell (a backend, a home, a token), and no plugin on PATH: the CLI must download it.
    const baseEnv: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("PULUMI_")) baseEnv[key] = value;
    const pathKey = Object.keys(baseEnv).find((key) => key.toUpperCase() === "PATH") ?? "PATH";
    baseEnv[pathKey] = (baseEnv[pathKey] ?? "")
      .split(path.delimiter)
      .filter(
        (dir) =>
          !["", ".exe", ".cmd"].some((ext) =>
            fs.existsSync(path.join(dir, `pulumi-resource-integration-platform${ext}`)),
          ),
      )
      .join(path.delimiter);
    const ctx: Context = { source, versions, urls, endpoint: { url: started.url, apiKey }, work, baseEnv, wait };
    const outcomes: Outcome[] = [];
    const queue = [...options.languages];
    await Promise.all(
      Array.from({ length: Math.max(1, options.jobs) }, async () => {
        for (let language = queue.shift(); language; language = queue.shift()) {
          const outcome = await verifyLanguage(ctx, language);
          outcomes.push(outcome);
          report(outcome);
        }
      }),
    );
    return options.languages.map((language) => outcomes.find((o) => o.language === language)!);
  } finally {
    emulator?.kill();
    await served?.close();
    if (!options.work) fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Prints one language's outcome: what it installed, its preview, pass or fail. */
function report(outcome: Outcome): void {
  const lines = [
    `== ${outcome.language}: ${outcome.passed ? "pass" : "FAIL"} (${outcome.seconds.toFixed(1)} s)`,
    ...outcome.installed.map((what) => `  installed: ${what}`),
  ];
  if (outcome.preview !== undefined) lines.push("  pulumi preview:", indent(outcome.preview.trimEnd()));
  if (outcome.error) lines.push(`  error: ${outcome.error}`);
  console.log(lines.join("\n"));
}

if (require.main === module) {
  const program = new Command()
    .name("verify-release")
    .description(
      "Installs a release as each language's users do and runs `pulumi preview` of a program that declares one " +
        'WorkflowToggle, against the release\'s emulator (docs/design/release.md, "Checking what was published").',
    )
    .requiredOption(
      "--from <source>",
      "'registries' (PyPI, npm, the Go proxy, Maven Central, the GitHub release), a release folder's address " +
        "(http://host:port/, its files at the root), or a release folder (served on 127.0.0.1 for the run)",
    )
    .addOption(
      new Option("--languages <languages...>", "the languages to check")
        .choices([...VERIFY_LANGUAGES])
        .default([...VERIFY_LANGUAGES]),
    )
    .option(
      "--version <version>",
      "the release's version (required with --from registries; a folder's release.json says its own)",
    )
    .option(
      "--wait <minutes>",
      "how long to wait for each package to appear (default: 15 from the registries, 0 from a folder)",
      (value) => {
        const minutes = Number(value);
        if (!Number.isFinite(minutes) || minutes < 0)
          throw new Error(`--wait takes minutes (0 or more), got "${value}"`);
        return minutes;
      },
    )
    .option(
      "--jobs <n>",
      "languages checked at once",
      (value) => {
        const jobs = Number(value);
        if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs takes a whole number from 1, got "${value}"`);
        return jobs;
      },
      1,
    )
    .option("--work <dir>", "write the programs here and keep them (default: a temporary folder, removed)")
    .parse();
  const options = program.opts<VerifyOptions>();
  verifyRelease(options).then(
    (outcomes) => {
      const failed = outcomes.filter((o) => !o.passed);
      console.log(
        `verify-release: ${outcomes.length - failed.length} of ${outcomes.length} passed` +
          (failed.length
            ? `; failed: ${failed.map((o) => `${o.language} (${o.error?.split("\n")[0]})`).join(", ")}`
            : ""),
      );
      process.exit(failed.length ? 1 : 0);
    },
    (error: Error) => {
      console.error(`verify-release: ${error.message}`);
      process.exit(1);
    },
  );
}
