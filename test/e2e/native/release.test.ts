// The release's archives of the plugin, the tools and the emulator, each checked as a user's machine
// would take it: the layout the CLI (or a person) unpacks, the executable's format and architecture,
// Node's application joined to it, the macOS signatures; the linux-amd64 ones run here with no
// Node.js: their version and help, and the plugin's schema through `pulumi package get-schema`.
// The tools' and the emulator's platform wheels carry the same executables. SHA256SUMS covers the
// whole folder.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { executableName, PROGRAMS, TARGETS, type ProgramName, type Target } from "../../../scripts/release/executables";
import { wheelExecutablePath, wheelFileName } from "../../../scripts/release/wheels";
import { engineBinDir, REPO, Workspace } from "../../../harness/engine";
import { LANGUAGES } from "../../../harness/languages";
import { pluginArchive, programArchive, rcodesign, releaseFolder, VERSION } from "../../support/release";

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
          const wheelName = wheelFileName(program, VERSION, target);
          const inWheel = wheelExecutablePath(program, VERSION, target);
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
      assert.equal(run("--version").trim(), VERSION);
      assert.ok(run("--help").startsWith(`Usage: ${PROGRAMS[program].name} `));
    }
  });

  it("linux-amd64 runs here with no Node.js: it reports the package's version, and serves the schema the SDKs were generated from", () => {
    const executable = path.join(unpacked, "plugin", "linux-amd64", executableName("linux-amd64"));
    assert.equal(execFileSync(executable, ["-version"], { env: { PATH: "" }, encoding: "utf8" }).trim(), VERSION);
    const workspace = new Workspace();
    try {
      const schema = execFileSync(path.join(engineBinDir(), "pulumi"), ["package", "get-schema", executable], {
        env: workspace.env({ PATH: engineBinDir() }),
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      const expected = JSON.parse(fs.readFileSync(path.join(REPO, "sdk", "schema.json"), "utf8"));
      assert.deepEqual(normalized(JSON.parse(schema)), normalized(expected));
      assert.equal(JSON.parse(schema).version, VERSION);
    } finally {
      workspace.dispose();
    }
  });
});
