// Pulumi programs with the package installed from its packed tarball, as users install it: a
// relative import of provider/ would capture our code by value into `__provider`.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO } from "./engine";

let installDir: string | undefined;

/** A tarball of this checkout, packed by the test runner, that `installedPackage` installs instead of packing. */
export const PACKAGE_TARBALL_ENV = "PULUMI_IP_PACKAGE_TARBALL";

function rootVersion(name: string): string {
  return (
    JSON.parse(fs.readFileSync(path.join(REPO, "node_modules", name, "package.json"), "utf8")) as { version: string }
  ).version;
}

/**
 * Packs the repository (its `dist/` must be built: `npm test` builds it first; --ignore-scripts
 * skips `prepare`, which would build again) and installs the tarball (see `installTarball`).
 * Returns the install directory; programs link its node_modules.
 */
export function installedPackage(): string {
  if (installDir) return installDir;
  // The test runner packs the checkout once for all its jobs (scripts/test.ts).
  const packed = process.env[PACKAGE_TARBALL_ENV];
  if (packed) return (installDir = installTarball(packed));
  const packDir = fs.mkdtempSync(path.join(os.tmpdir(), "pip-pack-"));
  try {
    installDir = installTarball(packTarball(REPO, packDir));
    return installDir;
  } finally {
    fs.rmSync(packDir, { recursive: true, force: true });
  }
}

/** Runs `npm pack` in a built checkout `dir` (without its scripts) and returns the tarball's path in `destination`. */
export function packTarball(dir: string, destination: string): string {
  const out = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", destination], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [{ filename }] = JSON.parse(out) as { filename: string }[];
  return path.join(destination, path.basename(filename));
}

/**
 * Installs a package tarball (and `also`, other packages' tarballs) with the engine's SDK into a directory keyed by
 * the tarballs' hash, reused across runs in the OS temporary directory, and returns that directory.
 */
export function installTarball(tarball: string, also: string[] = []): string {
  const hash = [tarball, ...also]
    .reduce((h, file) => h.update(fs.readFileSync(file)), createHash("sha256"))
    .digest("hex")
    .slice(0, 16);
  const dir = path.join(os.tmpdir(), `pip-e2e-install-${hash}`);
  if (!fs.existsSync(path.join(dir, ".complete"))) {
    // Installed beside, then renamed into place: concurrent test runs never see half an install.
    const staging = fs.mkdtempSync(`${dir}.staging-`);
    for (const file of [tarball, ...also]) fs.copyFileSync(file, path.join(staging, path.basename(file)));
    const manifest = {
      name: "e2e-programs",
      private: true,
      dependencies: {
        "pulumi-integration-platform": `file:./${path.basename(tarball)}`,
        // Other packages' tarballs, by their own names (the generated SDK, say).
        ...Object.fromEntries(
          also.map((file) => [
            path.basename(file).replace(/-\d+\.\d+\.\d+.*\.tgz$/, ""),
            `file:./${path.basename(file)}`,
          ]),
        ),
        "@pulumi/pulumi": rootVersion("@pulumi/pulumi"),
        typescript: rootVersion("typescript"),
        "@types/node": rootVersion("@types/node"),
      },
    };
    fs.writeFileSync(path.join(staging, "package.json"), JSON.stringify(manifest, null, 2));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel", "error"], {
      cwd: staging,
      stdio: ["ignore", "ignore", "inherit"],
    });
    fs.writeFileSync(path.join(staging, ".complete"), new Date().toISOString());
    try {
      fs.renameSync(staging, dir);
    } catch {
      // Another run finished first; its install is identical (same tarball hash).
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }
  return dir;
}

/**
 * Writes a TypeScript Pulumi program into `parent/<name>` with the installed package linked in (or
 * another install's, such as the native SDK's beside the package: harness/languages.ts nodeSdkInstall).
 */
export function writeProgram(
  parent: string,
  name: string,
  files: Record<string, string>,
  install = installedPackage(),
): string {
  const dir = path.join(parent, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, main: "index.ts" }, null, 2));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.symlinkSync(path.join(install, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

/**
 * Copies a program directory (e.g. examples/quickstart) into `parent` and links in the package
 * installed at `install` (by default this repository's, see `installedPackage`).
 */
export function copyProgram(source: string, parent: string, install = installedPackage()): string {
  const dir = path.join(parent, path.basename(source));
  fs.cpSync(source, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
  fs.symlinkSync(path.join(install, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}
