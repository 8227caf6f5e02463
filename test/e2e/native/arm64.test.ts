// The release's linux-arm64 executables, run on this x86-64 machine under qemu's user-mode
// emulation of aarch64 (`qemu-aarch64-static`, with Debian's aarch64 libraries as its sysroot;
// scripts/ensure-qemu.sh installs them): each reports the release's version, and the plugin serves a
// YAML program's `pulumi up` and `pulumi destroy` against the emulator, with no Node.js on the CLI's PATH.
//
// How the CLI starts an aarch64 plugin here. On an arm64 machine the CLI execs the plugin's
// executable. On this one the kernel would refuse it (ENOEXEC), unless binfmt_misc sent aarch64 ELF
// files to qemu: that is a registration in the kernel, for every process of the machine, made as root
// and outliving the test, which a test must not make (and a CI machine may not allow). So the plugin
// is installed as Pulumi installs it, `pulumi plugin install --file` of the linux-arm64 archive into
// the workspace's PULUMI_HOME, and then its executable is moved aside and replaced by a two-line shell
// script that execs `qemu-aarch64-static -L <sysroot> <the arm64 executable> <the engine's arguments>`:
// what binfmt_misc would do, for this plugin only. The assertions prove the aarch64 code served:
// every process the engine started for the plugin during up and destroy is qemu (its /proc/<pid>/exe)
// running the very executable of the release's arm64 archive (its argv, its ELF machine, its bytes).
import * as assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { executableName, PROGRAMS, type ProgramName } from "../../../scripts/release/executables";
import { observableState, step, useEmulatorStack } from "../../../harness/e2e";
import { engineBinDir, Stack, type BackgroundResult, type Workspace } from "../../../harness/engine";
import { copyNativeExample, LANGUAGES, languageHostsDir } from "../../../harness/languages";
import { assertQuickstartCreated, nativeSecrets, observeQuickstart } from "../../../harness/native";
import {
  AARCH64_SYSROOT,
  installPluginFromArchive,
  pathWithoutNode,
  programArchive,
  qemuAarch64,
  releaseFolder,
  releaseVersions,
} from "../../support/release";

/** ELF's e_machine for AArch64. */
const EM_AARCH64 = 183;

/** The ELF machine of an executable, or -1 if it is not an ELF file. */
function elfMachine(file: Buffer): number {
  return file.readUInt32BE(0) === 0x7f454c46 ? file.readUInt16LE(18) : -1;
}

const sha256 = (file: Buffer) => createHash("sha256").update(file).digest("hex");

/** The executable of a program's linux-arm64 archive, as its bytes (read from the archive, not from where it was put). */
function archivedExecutable(program: ProgramName): Buffer {
  return execFileSync(
    "tar",
    ["-xzOf", programArchive(program, "linux-arm64"), executableName("linux-arm64", program)],
    {
      maxBuffer: 512 * 1024 * 1024,
    },
  );
}

/** A process the engine started for the plugin: what the kernel runs (`exe`) and its arguments. */
interface PluginProcess {
  pid: number;
  exe: string;
  argv: string[];
}

/**
 * Installs the linux-arm64 plugin into the workspace's PULUMI_HOME from its archive, then puts the
 * wrapper (above) where the executable was; returns the path of the arm64 executable it runs.
 */
function installArm64PluginUnderQemu(workspace: Workspace, qemu: string): string {
  installPluginFromArchive(workspace, { target: "linux-arm64" });
  const dir = path.join(
    workspace.root,
    "home",
    "plugins",
    `resource-integration-platform-v${releaseVersions().version}`,
  );
  const entry = path.join(dir, executableName("linux-arm64"));
  const arm64 = `${entry}.aarch64`;
  fs.renameSync(entry, arm64);
  fs.writeFileSync(entry, `#!/bin/sh\nexec '${qemu}' -L '${AARCH64_SYSROOT}' '${arm64}' "$@"\n`, { mode: 0o755 });
  return arm64;
}

/**
 * Runs `pulumi <args>` and, while it runs, looks every 50 ms at the processes it started whose
 * arguments name the plugin; returns how it ended and each such process as first seen running `qemu`
 * (or, if never, as last seen).
 */
async function watchingPlugins(
  stack: Stack,
  args: string[],
  qemu: string,
): Promise<{ result: BackgroundResult; plugins: PluginProcess[] }> {
  const command = stack.start(args);
  const seen = new Map<number, PluginProcess>();
  const look = () => {
    for (const pid of command.plugins()) {
      try {
        const argv = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
        if (!argv.some((arg) => arg.includes(executableName("linux-arm64")))) continue;
        const exe = fs.readlinkSync(`/proc/${pid}/exe`);
        // The wrapper's shell is seen for the moment before its exec; keep the process as qemu once it is.
        if (seen.get(pid)?.exe !== qemu) seen.set(pid, { pid, exe, argv });
      } catch {
        // The process ended while it was read.
      }
    }
  };
  const timer = setInterval(look, 50);
  try {
    const result = await command.exited;
    return { result, plugins: [...seen.values()] };
  } finally {
    clearInterval(timer);
  }
}

describe(`e2e: the linux-arm64 executables under qemu's aarch64 emulation ${LANGUAGES}`, function () {
  this.timeout(40 * 60_000);
  const secrets = nativeSecrets();
  let qemu: string;
  let unpacked: string;
  let arm64Plugin: string;
  // Made (or found) before the emulator starts: the first run on a machine takes minutes.
  before(() => {
    releaseFolder();
    qemu = fs.realpathSync(qemuAarch64());
    unpacked = fs.mkdtempSync(path.join(os.tmpdir(), "pip-e2e-arm64-"));
  });
  after(() => fs.rmSync(unpacked, { recursive: true, force: true }));
  const e2e = useEmulatorStack(
    (workspace) => {
      arm64Plugin = installArm64PluginUnderQemu(workspace, qemu);
      return new Stack(workspace, copyNativeExample("yaml", workspace.root), "dev", {
        PATH: pathWithoutNode(engineBinDir(), languageHostsDir()),
      });
    },
    { emulator: { apiKey: secrets.apiKey }, secrets: { crmToken: secrets.crmToken, accountQuota: secrets.quota } },
  );

  it("the plugin, the tools and the emulator for linux-arm64 report the release's version under qemu, with no Node.js", () => {
    for (const program of Object.keys(PROGRAMS) as ProgramName[]) {
      const executable = path.join(unpacked, executableName("linux-arm64", program));
      fs.writeFileSync(executable, archivedExecutable(program), { mode: 0o755 });
      assert.equal(elfMachine(fs.readFileSync(executable)), EM_AARCH64, `${PROGRAMS[program].name} is an aarch64 ELF`);
      const run = (arg: string) =>
        execFileSync(qemu, ["-L", AARCH64_SYSROOT, executable, arg], { env: { PATH: "" }, encoding: "utf8" });
      // The plugin takes Go's single-dash flags, as the engine passes them; the tools and the emulator, --version.
      assert.equal(
        run(program === "plugin" ? "-version" : "--version").trim(),
        releaseVersions().version,
        PROGRAMS[program].name,
      );
      if (program !== "plugin") assert.ok(run("--help").startsWith(`Usage: ${PROGRAMS[program].name} `));
    }
  });

  it("serves a YAML program's up, which creates its resources on the emulator, and its destroy, which leaves the emulator as found", async () => {
    const { emulator, stack } = e2e;
    const before = observableState(emulator);
    const fixture = await observeQuickstart(emulator);
    const archived = sha256(archivedExecutable("plugin"));

    /** Every plugin process of a command ran qemu on the arm64 executable, which is the archive's. */
    const servedByArm64 = (plugins: PluginProcess[], what: string) => {
      assert.ok(plugins.length > 0, `${what} started the plugin`);
      for (const { pid, exe, argv } of plugins) {
        assert.equal(exe, qemu, `${what}: the plugin's process ${pid} is qemu (${argv.join(" ")})`);
        assert.deepEqual(argv.slice(1, 4), ["-L", AARCH64_SYSROOT, arm64Plugin], `${what}: qemu runs the arm64 plugin`);
      }
      const file = fs.readFileSync(arm64Plugin);
      assert.equal(elfMachine(file), EM_AARCH64, "what qemu ran is an aarch64 ELF executable");
      assert.equal(sha256(file), archived, "what qemu ran is the executable of the release's linux-arm64 archive");
    };

    const noSecretIn = (result: BackgroundResult, what: string) => {
      for (const secret of Object.values(secrets))
        assert.ok(!(result.stdout + result.stderr).includes(secret), `${what}'s output holds no secret`);
    };

    await step("1. up, the plugin under qemu, creates the program's resources as declared", async () => {
      const { result, plugins } = await watchingPlugins(stack, ["up", "--yes", "--skip-preview"], qemu);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      servedByArm64(plugins, "up");
      noSecretIn(result, "up");
      await assertQuickstartCreated(result.stdout, emulator, secrets);
    });

    await step("2. destroy, the plugin under qemu, leaves the emulator as it found it", async () => {
      const { result, plugins } = await watchingPlugins(stack, ["destroy", "--yes", "--skip-preview"], qemu);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(result.stdout, /- 8 deleted/);
      servedByArm64(plugins, "destroy");
      assert.deepEqual(await observeQuickstart(emulator), fixture);
      assert.deepEqual(observableState(emulator), before);
      noSecretIn(result, "destroy");
    });
  });
});
