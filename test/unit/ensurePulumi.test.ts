// Which Pulumi CLI scripts/ensure-pulumi.sh picks: the user's own at or above the minimum, the
// exact version in the pinned and minimum modes, and a clear refusal otherwise. Fake `pulumi`
// scripts stand in for installs; an empty cache and no Go on PATH stop it before any build.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO } from "../../harness/engine";

const SCRIPT = path.join(REPO, "scripts/ensure-pulumi.sh");

/** The version a tools/ go.mod requires of the CLI module. */
function required(dir: string): string {
  return /github\.com\/pulumi\/pulumi\/pkg\/v3 v(\S+)/.exec(
    fs.readFileSync(path.join(REPO, dir, "go.mod"), "utf8"),
  )![1];
}
const PINNED = required("tools/pulumi");
const MINIMUM = required("tools/pulumi-minimum");

describe("ensure-pulumi.sh: which CLI it uses", () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "pip-ensure-"));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  /** A directory holding a fake install of `version`: pulumi, its language host and the provider host. */
  function install(version: string): string {
    const dir = fs.mkdtempSync(path.join(root, "bin-"));
    for (const name of ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]) {
      fs.writeFileSync(path.join(dir, name), `#!/bin/sh\necho v${version}\n`, { mode: 0o755 });
    }
    return dir;
  }

  /** Runs the script with `bin` first on PATH, Node next, no Go, and an empty cache. */
  function ensure(bin: string, args: string[] = [], env: Record<string, string> = {}) {
    const result = spawnSync("bash", [SCRIPT, ...args], {
      cwd: REPO,
      encoding: "utf8",
      env: {
        PATH: [bin, path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
        PULUMI_IP_CACHE_DIR: path.join(root, "cache"),
        HOME: root,
        ...env,
      },
    });
    return { code: result.status, dir: result.stdout.trim().split("\n").pop(), stderr: result.stderr };
  }

  it("uses an installed CLI at the minimum or above, whatever the pin", () => {
    for (const version of [MINIMUM, PINNED, "3.999.0"]) {
      const bin = install(version);
      const result = ensure(bin);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.dir, bin);
      assert.match(result.stderr, new RegExp(`using the installed pulumi v${version.replace(/\./g, "\\.")} in `));
    }
  });

  it("ignores an installed CLI below the minimum, says why, and names both ways to get one", () => {
    const [major, minor] = MINIMUM.split(".").map(Number);
    const result = ensure(install(`${major}.${minor - 1}.0`));
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      new RegExp(
        `ignoring pulumi v${major}\\.${minor - 1}\\.0 on PATH: this project needs v${MINIMUM.replace(/\./g, "\\.")} or newer`,
      ),
    );
    assert.match(result.stderr, /no Go toolchain to build it/);
    assert.match(result.stderr, /install the official Pulumi CLI/);
  });

  it("in the pinned and minimum modes, uses an installed CLI only of exactly that version", () => {
    const newer = install("3.999.0");
    for (const [mode, version] of [
      ["pinned", PINNED],
      ["minimum", MINIMUM],
    ] as const) {
      const exact = ensure(install(version), [mode]);
      assert.equal(exact.code, 0, exact.stderr);
      const other = ensure(newer, [], { PULUMI_IP_ENGINE: mode });
      assert.equal(other.code, 1, `${mode} does not take 3.999.0`);
      assert.match(other.stderr, new RegExp(`the ${mode} mode needs exactly v${version.replace(/\./g, "\\.")}`));
    }
  });

  it("refuses an unknown mode with exit 2", () => {
    const result = ensure(install(PINNED), ["newest"]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown mode 'newest'.*use installed, pinned or minimum/);
  });
});
