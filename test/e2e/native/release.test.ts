// The release's archives of the plugin, the tools and the emulator, each checked as a user's machine
// would take it: the layout the CLI (or a person) unpacks, the executable's format and architecture,
// Node's application joined to it, the macOS signatures; the linux-amd64 ones run here with no
// Node.js: their version and help, and the plugin's schema through `pulumi package get-schema`.
// The tools' and the emulator's platform wheels carry the same executables. SHA256SUMS covers the
// whole folder.
import * as assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  archiveName,
  executableName,
  PROGRAMS,
  TARGETS,
  type ProgramName,
  type Target,
} from "../../../scripts/release/executables";
import { goVersion, pythonVersion, releasedVersions } from "../../../scripts/release/version";
import { wheelExecutablePath, wheelFileName } from "../../../scripts/release/wheels";
import { engineBinDir, REPO, Stack, Workspace } from "../../../harness/engine";
import { LANGUAGES, languageHostsDir } from "../../../harness/languages";
import {
  installPluginFromArchive,
  pluginArchive,
  programArchive,
  rcodesign,
  releaseFolder,
  releaseVersions,
} from "../../support/release";

/** A text of each program's own code, found in its executable only if the program was joined to it. */
const JOINED: Record<ProgramName, string> = {
  plugin: "pulumi-resource-integration-platform: cannot listen on 127.0.0.1",
  tools: "Print a pull request's summary of `pulumi preview --json`",
  emulator: "Runs a local emulator of the integration platform's public API on 127.0.0.1.",
};

/** What each target's executable must be: its container format and machine. */
const EXPECTED: Record<Target, { format: "ELF" | "Mach-O" | "PE"; machine: number }> = {
  "linux-amd64": { format: "ELF", machine: 62 }, // EM_X86_64
  "linux-arm64": { format: "ELF", machine: 183 }, // EM_AARCH64
  "darwin-amd64": { format: "Mach-O", machine: 0x01000007 }, // CPU_TYPE_X86_64
  "darwin-arm64": { format: "Mach-O", machine: 0x0100000c }, // CPU_TYPE_ARM64
  "windows-amd64": { format: "PE", machine: 0x8664 }, // IMAGE_FILE_MACHINE_AMD64
};

/** The container format and machine an executable's header declares. */
function headerOf(file: Buffer): { format: string; machine: number } {
  if (file.readUInt32BE(0) === 0x7f454c46) return { format: "ELF", machine: file.readUInt16LE(18) };
  if (file.readUInt32LE(0) === 0xfeedfacf) return { format: "Mach-O", machine: file.readUInt32LE(4) };
  if (file.toString("latin1", 0, 2) === "MZ") {
    const pe = file.readUInt32LE(0x3c);
    assert.equal(file.toString("latin1", pe, pe + 4), "PE\0\0", "a PE signature where the MZ header points");
    return { format: "PE", machine: file.readUInt16LE(pe + 4) };
  }
  return { format: "unknown", machine: -1 };
}

/** Every file under `folder`, by its path relative to it, sorted. */
function filesOf(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((name) => fs.statSync(path.join(folder, name)).isFile())
    .map((name) => name.split(path.sep).join("/"))
    .sort();
}

/** One member of a zip (a wheel, a jar), read with Python's zipfile as pip reads it; `suffix` picks the first that ends so. */
function zipMember(zip: string, suffix: string): string {
  const script =
    "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nname = next(n for n in z.namelist() if n.endswith(sys.argv[2]))\nsys.stdout.write(z.read(name).decode())";
  return execFileSync("python3", ["-c", script, zip, suffix], { encoding: "utf8" });
}

/** package.json of an npm tarball. */
function tarballManifest(tarball: string): { version: string; pulumi?: { version: string } } {
  return JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }));
}

/** The schema as the CLI prints it: it drops empty `required` lists. */
function normalized(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === "required" && Array.isArray(value) && value.length === 0 ? undefined : value,
  );
}

describe(`e2e: the release's plugin archives ${LANGUAGES}`, function () {
  this.timeout(40 * 60_000);
  let unpacked: string;
  before(() => {
    releaseFolder();
    unpacked = fs.mkdtempSync(path.join(os.tmpdir(), "pip-e2e-archives-"));
  });
  after(() => fs.rmSync(unpacked, { recursive: true, force: true }));

  it("SHA256SUMS lists every file of the release folder, and each matches", () => {
    const folder = releaseFolder();
    const listed = fs
      .readFileSync(path.join(folder, "SHA256SUMS"), "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split("  ")[1]);
    // Every file at the folder's top: what the GitHub release uploads.
    assert.deepEqual(
      listed,
      fs
        .readdirSync(folder)
        // maven/ (the Java SDK's repository layout, with its own checksums) is not a release asset; goproxy/ (the Go
        // module proxy tree) is one as goproxy.tar.gz.
        .filter((name) => name !== "SHA256SUMS" && fs.statSync(path.join(folder, name)).isFile())
        .sort(),
    );
    for (const target of TARGETS)
      assert.ok(listed.includes(path.basename(pluginArchive(target))), `SHA256SUMS lists the ${target} archive`);
    // sha256sum exits non-zero on any mismatch.
    execFileSync("sha256sum", ["--check", "--strict", "--quiet", "SHA256SUMS"], { cwd: folder });
  });

  for (const program of Object.keys(PROGRAMS) as ProgramName[]) {
    for (const target of TARGETS) {
      it(`${PROGRAMS[program].name}, ${target}: the executable at the archive's root, of the right format and machine, with the application joined`, () => {
        const archive = programArchive(program, target);
        const listing = execFileSync("tar", ["-tzf", archive], { encoding: "utf8" }).trim().split("\n").sort();
        assert.deepEqual(listing, ["LICENSE", "README.md", executableName(target, program)].sort());
        const dir = path.join(unpacked, program, target);
        fs.mkdirSync(dir, { recursive: true });
        execFileSync("tar", ["-xzf", archive, "-C", dir]);
        const executable = path.join(dir, executableName(target, program));
        const file = fs.readFileSync(executable);
        assert.deepEqual(headerOf(file), EXPECTED[target]);
        if (!target.startsWith("windows-"))
          assert.ok(fs.statSync(executable).mode & 0o100, "the executable bit is set");
        // Node flips its fuse when an application is joined; the program's own code is in the blob.
        assert.ok(
          file.includes("NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1"),
          "Node's single-executable fuse is set",
        );
        assert.ok(file.includes(JOINED[program]), `${PROGRAMS[program].name}'s code is joined`);
        if (target.startsWith("darwin-")) {
          const info = execFileSync(rcodesign(), ["print-signature-info", executable], { encoding: "utf8" });
          assert.match(info, /flags: CodeSignatureFlags\(ADHOC\)/, "signed ad hoc");
          assert.match(info, new RegExp(`identifier: ${PROGRAMS[program].name}\n`));
          const start = Number(/macho_signature_start_offset: (\d+)/.exec(info)?.[1]);
          const signed = Number(/signed_entity_size: (\d+)/.exec(info)?.[1]);
          assert.ok(
            start > 0 && signed === start,
            `the signature covers the whole executable before it (${signed} of ${start} bytes)`,
          );
        }
        if (program !== "plugin") {
          // The platform wheel carries the very same executable, where pip installs scripts.
          const wheelName = wheelFileName(program, releaseVersions().version, target);
          const inWheel = wheelExecutablePath(program, releaseVersions().version, target);
          // Read with Python's zipfile, as pip reads it.
          const carried = execFileSync(
            "python3",
            [
              "-c",
              "import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))",
              ...[path.join(releaseFolder(), wheelName), inWheel],
            ],
            { maxBuffer: 512 * 1024 * 1024 },
          );
          assert.ok(carried.equals(file), `${wheelName} carries the archive's executable`);
        }
        if (target !== "linux-amd64") fs.rmSync(dir, { recursive: true, force: true });
      });
    }
  }

  it("linux-amd64: the tools and the emulator run here with no Node.js, and answer --version and --help", () => {
    for (const program of ["tools", "emulator"] as const) {
      const executable = path.join(unpacked, program, "linux-amd64", executableName("linux-amd64", program));
      const run = (arg: string) => execFileSync(executable, [arg], { env: { PATH: "" }, encoding: "utf8" });
      assert.equal(run("--version").trim(), releaseVersions().version);
      assert.ok(run("--help").startsWith(`Usage: ${PROGRAMS[program].name} `));
    }
  });

  it("linux-amd64 runs here with no Node.js: it reports the release's version, and serves the schema the SDKs were generated from", () => {
    const executable = path.join(unpacked, "plugin", "linux-amd64", executableName("linux-amd64"));
    const { version } = releaseVersions();
    const versionRun = spawnSync(executable, ["-version"], { env: { PATH: "" }, encoding: "utf8" });
    assert.ifError(versionRun.error);
    assert.equal(versionRun.stdout.trim(), version);
    // Its code cache (linux-amd64's blob alone has one) is taken: Node.js says on stderr when it rejects one.
    assert.equal(versionRun.stderr, "");
    const workspace = new Workspace();
    try {
      const schema = execFileSync(path.join(engineBinDir(), "pulumi"), ["package", "get-schema", executable], {
        env: workspace.env({ PATH: engineBinDir() }),
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      // The release's schema.json: for a snapshot, sdk/schema.json with the snapshot's version.
      const expected = JSON.parse(fs.readFileSync(path.join(releaseFolder(), "schema.json"), "utf8"));
      assert.deepEqual(normalized(JSON.parse(schema)), normalized(expected));
      assert.equal(JSON.parse(schema).version, version);
    } finally {
      workspace.dispose();
    }
  });
});

describe(`e2e: a snapshot release's version ${LANGUAGES}`, function () {
  this.timeout(40 * 60_000);
  let unpacked: string;
  before(() => {
    releaseFolder();
    unpacked = fs.mkdtempSync(path.join(os.tmpdir(), "pip-e2e-versions-"));
  });
  after(() => fs.rmSync(unpacked, { recursive: true, force: true }));

  /** The linux-amd64 executable of a program, unpacked from its archive. */
  function executable(program: ProgramName): string {
    const dir = path.join(unpacked, program);
    fs.mkdirSync(dir, { recursive: true });
    execFileSync("tar", ["-xzf", programArchive(program, "linux-amd64"), "-C", dir]);
    return path.join(dir, executableName("linux-amd64", program));
  }

  it("differs from every version CHANGELOG.md lists, and every artifact, file name and executable says the same one", () => {
    const folder = releaseFolder();
    const versions = releaseVersions();
    const { version, python } = versions;
    assert.match(version, /^\d+\.\d+\.\d+-dev\.\d+\+g[0-9a-f]{7}(\.dirty)?$/, "a snapshot's <next>-dev.<n>+g<commit>");
    assert.deepEqual(versions, {
      version,
      python: pythonVersion(version),
      go: goVersion(version),
      maven: version,
      npm: version,
    });
    const released = releasedVersions(fs.readFileSync(path.join(REPO, "CHANGELOG.md"), "utf8"));
    assert.ok(released.length > 0, "CHANGELOG.md lists released versions");
    for (const spelling of Object.values(versions))
      assert.ok(!released.includes(spelling.replace(/^v/, "")), `${spelling} is not a released version`);

    const files = filesOf(folder);
    const find = (pattern: RegExp) => {
      // The first in path order: a file may be both at the top and in maven/.
      const found = files.filter((name) => pattern.test(path.basename(name)));
      assert.ok(found.length > 0, `a file ${pattern} in the release`);
      return path.join(folder, found[0]);
    };
    const run = (program: ProgramName, flag: string) =>
      execFileSync(executable(program), [flag], { env: { PATH: "" }, encoding: "utf8" }).trim();
    const nodeSdk = tarballManifest(find(/^pulumi-integration-platform-sdk-.*\.tgz$/));
    const wheel = find(/^pulumi_integration_platform-.*-py3-none-any\.whl$/);
    // What each artifact says, in the spelling its registry uses.
    const said: [string, string, string][] = [
      ["the plugin's -version", run("plugin", "-version"), version],
      ["the tools' --version", run("tools", "--version"), version],
      ["the emulator's --version", run("emulator", "--version"), version],
      [
        "schema.json",
        (JSON.parse(fs.readFileSync(path.join(folder, "schema.json"), "utf8")) as { version: string }).version,
        version,
      ],
      [
        "emulator-openapi.json",
        (
          JSON.parse(fs.readFileSync(path.join(folder, "emulator-openapi.json"), "utf8")) as {
            info: { version: string };
          }
        ).info.version,
        version,
      ],
      [
        "the Python wheel's pulumi-plugin.json",
        (JSON.parse(zipMember(wheel, "/pulumi-plugin.json")) as { version: string }).version,
        version,
      ],
      [
        "the Python wheel's METADATA",
        /^Version: (.*)$/m.exec(zipMember(wheel, ".dist-info/METADATA"))?.[1] ?? "",
        python,
      ],
      ["the Node.js SDK's package.json", nodeSdk.version, version],
      ["the Node.js SDK's pulumi.version", nodeSdk.pulumi?.version ?? "", version],
      [
        "the npm package's package.json",
        tarballManifest(find(/^pulumi-integration-platform-\d.*\.tgz$/)).version,
        version,
      ],
      [
        "the Java jar's version.txt",
        zipMember(find(new RegExp(`^integration-platform-${escape(version)}\\.jar$`)), "/version.txt").trim(),
        version,
      ],
    ];
    for (const [what, found, wanted] of said) assert.equal(found, wanted, `${what} says the release's version`);

    // Every file name that carries a version carries the release's, in one of its spellings, and no other.
    const spellings = [version, python, versions.go];
    // goproxy.tar.gz keeps one name, which the install docs unpack; the tree in it carries the Go version
    // (goproxy.test.ts holds it byte for byte to goproxy/, whose files are checked here).
    const unversioned = new Set([
      "SHA256SUMS",
      "CHANGELOG.md",
      "schema.json",
      "emulator-openapi.json",
      "release.json",
      "list",
      "goproxy.tar.gz",
    ]);
    for (const name of files) {
      const base = path.basename(name);
      if (unversioned.has(base) || base.startsWith("maven-metadata")) continue;
      const spelling = spellings.find((s) => base.includes(s));
      assert.ok(spelling, `${name} carries the release's version`);
      assert.doesNotMatch(base.replace(spelling, ""), /\d+\.\d+\.\d+/, `${name} carries no other version`);
    }
    assert.match(
      fs.readFileSync(path.join(folder, "CHANGELOG.md"), "utf8").split("\n")[0],
      new RegExp(`^## ${escape(version)} \\(a snapshot of the unreleased changes, not a release\\)$`),
    );
  });

  it("a plugin installed under another version than its own stops pulumi preview, saying which and how to install it", async () => {
    const { version } = releaseVersions();
    const wrong = "9.9.9";
    const workspace = new Workspace();
    try {
      installPluginFromArchive(workspace, { version: wrong });
      const dir = path.join(workspace.root, "program");
      fs.mkdirSync(dir);
      // A YAML program: the host asks the installed plugin for its schema, so the plugin starts at preview.
      fs.writeFileSync(
        path.join(dir, "Pulumi.yaml"),
        [
          "name: wrong-version",
          "runtime: yaml",
          "resources:",
          "  field:",
          "    type: integration-platform:index:ConfigField",
          "    properties: { slug: hubspot, linkedAccountId: acme, configId: acme, fieldId: f }",
          "",
        ].join("\n"),
      );
      const stack = new Stack(workspace, dir, "dev", {
        PATH: [engineBinDir(), languageHostsDir()].join(path.delimiter),
      });
      await stack.init();
      const preview = await stack.run(["preview"]);
      assert.notEqual(preview.code, 0, "preview fails");
      const output = preview.stdout + preview.stderr;
      assert.match(
        output,
        new RegExp(`this plugin is version ${escape(version)}, but it is installed as version ${wrong}`),
      );
      assert.match(
        output,
        new RegExp(
          `pulumi plugin install resource integration-platform ${escape(version)} --file ${escape(archiveName(version, "linux-amd64"))}`,
        ),
      );
    } finally {
      workspace.dispose();
    }
  });
});

/** `text` as a regular expression matching it literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
