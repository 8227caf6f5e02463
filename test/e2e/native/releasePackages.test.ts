// The release's packages as their registries take them (docs/design/release.md, "Package metadata"):
// PyPI's own check (`twine check --strict`, the workflow's pinned twine) on the Python SDK's wheel and
// sdist and on the tools' and the emulator's wheels; each wheel's license as an SPDX expression with
// its file (PEP 639); the SDK's page on PyPI (its long description); LICENSE in every package; an sdist
// that builds with no warning; and the two npm tarballs: what `npm publish` would correct, their file
// lists (no tests, no source maps), their README, LICENSE and links.
import * as assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO } from "../../../harness/engine";
import { LANGUAGES } from "../../../harness/languages";
import { releaseFolder, releaseVersions } from "../../support/release";

const LICENSE = fs.readFileSync(path.join(REPO, "LICENSE"), "utf8");

/** The one file of the release folder whose name matches `pattern` (the version is the release's business). */
function releaseFile(pattern: RegExp): string {
  const found = fs.readdirSync(releaseFolder()).filter((name) => pattern.test(name));
  assert.equal(found.length, 1, `one file of ${releaseFolder()} matches ${pattern}; found ${found.join(", ")}`);
  return path.join(releaseFolder(), found[0]);
}

/**
 * A virtualenv with the twine that the release workflow runs (its pin read from release.yml, so the two
 * agree) and the `build` that scripts/release.ts runs, made once and cached; returns its `bin/`.
 */
function checkTools(): string {
  const twine = /twine==([\d.]+)/.exec(fs.readFileSync(path.join(REPO, ".github/workflows/release.yml"), "utf8"))?.[1];
  const build = /"build==([\d.]+)"/.exec(fs.readFileSync(path.join(REPO, "scripts/release.ts"), "utf8"))?.[1];
  assert.ok(twine && build, "release.yml pins twine and scripts/release.ts pins build");
  const dir = path.join(
    process.env.PULUMI_IP_CACHE_DIR ?? path.join(os.homedir(), ".cache", "pulumi-integration-platform"),
    `release-check-twine-${twine}-build-${build}`,
  );
  if (!fs.existsSync(path.join(dir, ".complete"))) {
    fs.rmSync(dir, { recursive: true, force: true });
    execFileSync("python3", ["-m", "venv", dir], { stdio: ["ignore", "ignore", "inherit"] });
    execFileSync(
      path.join(dir, "bin", "pip"),
      ["install", "--quiet", "--disable-pip-version-check", `twine==${twine}`, `build==${build}`],
      { stdio: ["ignore", "ignore", "inherit"], timeout: 10 * 60_000 },
    );
    fs.writeFileSync(path.join(dir, ".complete"), "");
  }
  return path.join(dir, "bin");
}

/** Runs a Python snippet with the check virtualenv's interpreter (which has `packaging`, twine's); returns stdout. */
function python(code: string, ...args: string[]): string {
  return execFileSync(path.join(checkTools(), "python"), ["-c", code, ...args], { encoding: "utf8" });
}

/** A wheel's files: each name and its text (the executables' bytes are not read). */
function wheelEntries(wheel: string): Map<string, string> {
  const listing = python(
    `import json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
print(json.dumps({n: z.read(n).decode() if "/scripts/" not in n else "" for n in z.namelist()}))`,
    wheel,
  );
  return new Map(Object.entries(JSON.parse(listing) as Record<string, string>));
}

/** The fields and the body of a METADATA or PKG-INFO file (core metadata, an email-style header). */
function coreMetadata(text: string): { fields: [string, string][]; body: string } {
  const end = text.indexOf("\n\n");
  const header = end < 0 ? text : text.slice(0, end);
  const fields = header.split("\n").map((line): [string, string] => {
    const colon = line.indexOf(": ");
    return [line.slice(0, colon), line.slice(colon + 2)];
  });
  return { fields, body: end < 0 ? "" : text.slice(end + 2) };
}

/** Checks a wheel's METADATA gives the license as PEP 639 says, and the wheel carries the file it names. */
function assertLicenseMetadata(wheel: string): Map<string, string> {
  const entries = wheelEntries(wheel);
  const info = [...entries.keys()].find((name) => /^[^/]+\.dist-info\/METADATA$/.test(name));
  assert.ok(info, `${path.basename(wheel)} has a .dist-info/METADATA`);
  const metadata = entries.get(info)!;
  const { fields } = coreMetadata(metadata);
  const values = (name: string) => fields.filter(([key]) => key === name).map(([, value]) => value);
  const name = path.basename(wheel);
  assert.deepEqual(values("Metadata-Version"), ["2.4"], `${name}: core metadata 2.4, which has License-Expression`);
  assert.deepEqual(values("License-Expression"), ["Apache-2.0"], `${name}: the license as an SPDX expression`);
  assert.deepEqual(values("License-File"), ["LICENSE"], `${name}: the license file it carries`);
  assert.deepEqual(values("License"), [], `${name}: no License field beside the expression`);
  assert.deepEqual(
    values("Classifier").filter((c) => c.startsWith("License ::")),
    [],
    `${name}: no license classifier, which PyPI refuses beside an expression`,
  );
  assert.equal(
    entries.get(info.replace(/METADATA$/, "licenses/LICENSE")),
    LICENSE,
    `${name} carries LICENSE where PEP 639 puts it`,
  );
  // The PyPA's own reading of the metadata, validating each field (as PyPI's upload does).
  python(
    `import sys
from packaging.metadata import Metadata
m = Metadata.from_email(open(sys.argv[1], encoding="utf-8").read(), validate=True)
assert str(m.license_expression) == "Apache-2.0", m.license_expression`,
    writeTemp(metadata),
  );
  return entries;
}

let scratch: string;
/** Writes `text` to a fresh file of the test's scratch folder; returns its path. */
function writeTemp(text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(scratch, "t-")), "file");
  fs.writeFileSync(file, text);
  return file;
}

/** A tarball's entries, without npm's `package/` prefix. */
function tarballFiles(tarball: string): string[] {
  return execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .trim()
    .split("\n")
    .filter((entry) => !entry.endsWith("/"))
    .map((entry) => entry.replace(/^package\//, ""))
    .sort();
}

/** Unpacks a tarball into the scratch folder; returns the folder that holds its files. */
function unpack(tarball: string, strip = true): string {
  const dir = fs.mkdtempSync(path.join(scratch, "x-"));
  execFileSync("tar", ["-xzf", tarball, "-C", dir, ...(strip ? ["--strip-components=1"] : [])]);
  return dir;
}

describe(`e2e: the release's packages as PyPI and npm take them ${LANGUAGES}`, function () {
  this.timeout(20 * 60_000);
  let sdkWheel: string;
  let sdist: string;
  let toolWheels: string[];
  let npmPackage: string;
  let npmSdk: string;
  before(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pip-e2e-packages-"));
    sdkWheel = releaseFile(/^pulumi_integration_platform-.+-py3-none-any\.whl$/);
    sdist = releaseFile(/^pulumi_integration_platform-.+\.tar\.gz$/);
    toolWheels = [
      releaseFile(/^pulumi_integration_platform_tools-.+-manylinux_2_28_x86_64\.whl$/),
      releaseFile(/^pulumi_integration_platform_emulator-.+-manylinux_2_28_x86_64\.whl$/),
    ];
    npmPackage = releaseFile(/^pulumi-integration-platform-\d.*\.tgz$/);
    npmSdk = releaseFile(/^pulumi-integration-platform-sdk-.+\.tgz$/);
  });
  after(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("`twine check --strict` passes the SDK's wheel and sdist and the tools' and the emulator's wheels", () => {
    const packages = [sdkWheel, sdist, ...toolWheels];
    // Plain and unwrapped: twine prints through rich, in colour and at the terminal's width otherwise.
    const result = spawnSync(path.join(checkTools(), "twine"), ["--no-color", "check", "--strict", ...packages], {
      encoding: "utf8",
      env: { ...process.env, COLUMNS: "500" },
    });
    assert.equal(result.status, 0, `twine check --strict failed:\n${result.stdout}${result.stderr}`);
    for (const file of packages) assert.ok(result.stdout.includes(`Checking ${file}: PASSED\n`), result.stdout);
    assert.doesNotMatch(result.stdout + result.stderr, /WARNING/, "twine warns about nothing");
  });

  it("every wheel gives its license as an SPDX expression with the LICENSE file it carries (PEP 639)", () => {
    for (const wheel of [sdkWheel, ...toolWheels]) assertLicenseMetadata(wheel);
  });

  it("the SDK wheel's description (PyPI's page) says how to install, configure and use it", () => {
    const entries = wheelEntries(sdkWheel);
    const metadata = [...entries.entries()].find(([name]) => name.endsWith(".dist-info/METADATA"))![1];
    const { fields, body } = coreMetadata(metadata);
    assert.ok(
      fields.some(([k, v]) => k === "Description-Content-Type" && v === "text/markdown"),
      "Markdown",
    );
    assert.ok(body.length > 2000, `a description of real length (${body.length} characters)`);
    const plugin = JSON.parse(entries.get("pulumi_integration_platform/pulumi-plugin.json")!) as { version: string };
    for (const needed of [
      "## Install",
      "pip install pulumi_integration_platform",
      // The plugin the SDK asks for, installed ahead of time.
      `pulumi plugin install resource integration-platform ${plugin.version} --server github://api.github.com/pulumi-integration-platform`,
      "## Configuration",
      "`integration-platform:apiKey` | `INTEGRATION_PLATFORM_API_KEY`",
      "`integration-platform:baseUrl` | `INTEGRATION_PLATFORM_BASE_URL`",
      "## Example",
      "```python\nimport pulumi\nimport pulumi_integration_platform as platform\n",
      "https://github.com/pulumi-integration-platform/pulumi-integration-platform/blob/main/docs/installation-configuration.md",
    ])
      assert.ok(body.includes(needed), `the description has ${JSON.stringify(needed)}`);
    assert.doesNotMatch(body, /\]\((?!https:\/\/)/, "every link is absolute: PyPI shows the page away from GitHub");
  });

  it("the sdist carries LICENSE and builds the wheel with no warning", () => {
    const files = execFileSync("tar", ["-tzf", sdist], { encoding: "utf8" }).trim().split("\n");
    const root = files[0].split("/")[0];
    assert.ok(files.includes(`${root}/LICENSE`), `the sdist has ${root}/LICENSE`);
    const source = path.join(unpack(sdist, false), root);
    assert.equal(fs.readFileSync(path.join(source, "LICENSE"), "utf8"), LICENSE);
    const pkgInfo = coreMetadata(fs.readFileSync(path.join(source, "PKG-INFO"), "utf8")).fields;
    assert.ok(
      pkgInfo.some(([k, v]) => k === "License-Expression" && v === "Apache-2.0"),
      "PKG-INFO's license",
    );
    // As pip builds it on a machine with no wheel for it. PYTHONDONTWRITEBYTECODE (set on some machines,
    // this one among them) makes setuptools warn that it skips byte-compiling: a machine's setting, not the package's.
    const env = { ...process.env };
    delete env.PYTHONDONTWRITEBYTECODE;
    const out = path.join(scratch, "built");
    const result = spawnSync(path.join(checkTools(), "python"), ["-m", "build", "--wheel", "--outdir", out, source], {
      encoding: "utf8",
      env,
      timeout: 10 * 60_000,
    });
    const output = `${result.stdout}${result.stderr}`;
    assert.equal(result.status, 0, `python -m build failed:\n${output}`);
    assert.doesNotMatch(output, /warning|deprecat/i, "the build warns about nothing");
    const [built] = fs.readdirSync(out);
    assertLicenseMetadata(path.join(out, built));
  });

  it("the npm package ships no source maps and no tests of its own: dist, bin, docs, examples and the emulator's fixtures", () => {
    const files = tarballFiles(npmPackage);
    assert.deepEqual([...new Set(files.map((file) => file.split("/")[0]))].sort(), [
      "CHANGELOG.md",
      "LICENSE",
      "README.md",
      "bin",
      "dist",
      "docs",
      "emulator",
      "examples",
      "package.json",
    ]);
    assert.deepEqual(
      files.filter((file) => file.endsWith(".map")),
      [],
    );
    const dir = unpack(npmPackage);
    const naming = files.filter((file) => file.endsWith(".js") && /sourceMappingURL/.test(readText(dir, file)));
    assert.deepEqual(naming, [], "no script names a source map");
    // The webhook receiver's example is a receiver and its test against the emulator: its README, its
    // package.json (`npm test`) and its tsconfig name the test, which is part of what the example teaches.
    const tests = files.filter((file) => /\.test\.[cm]?[jt]s$|(^|\/)test_[^/]*\.py$/.test(file));
    for (const test of tests) {
      const example = /^examples\/[^/]+\//.exec(test)?.[0];
      assert.ok(example, `${test}: the only tests shipped are examples'`);
      assert.ok(
        readText(dir, `${example}README.md`).includes(path.basename(test)),
        `${test}: its example's README names it`,
      );
    }
    assert.equal(readText(dir, "LICENSE"), LICENSE);
  });

  it("the TypeScript SDK's tarball ships the compiled SDK, its README and LICENSE: no sources, no maps, no tests", () => {
    const files = tarballFiles(npmSdk);
    const loose = files.filter(
      (file) => !/\.(js|d\.ts)$/.test(file) && !["package.json", "README.md", "LICENSE"].includes(file),
    );
    assert.deepEqual(loose, [], "only .js, .d.ts, package.json, README.md and LICENSE");
    assert.deepEqual(
      files.filter((file) => /\.test\./.test(file) || (file.endsWith(".ts") && !file.endsWith(".d.ts"))),
      [],
    );
    assert.deepEqual(
      [...new Set(files.filter((file) => file.includes("/")).map((file) => file.split("/")[0]))].sort(),
      ["config", "types"],
    );
    const dir = unpack(npmSdk);
    assert.deepEqual(
      files.filter((file) => file.endsWith(".js") && /sourceMappingURL/.test(readText(dir, file))),
      [],
      "no script names a source map",
    );
    assert.equal(readText(dir, "LICENSE"), LICENSE);
    const readme = readText(dir, "README.md");
    for (const needed of [
      "## Install",
      "npm install pulumi-integration-platform-sdk",
      "## Configuration",
      "```typescript",
    ])
      assert.ok(readme.includes(needed), `the SDK's README has ${JSON.stringify(needed)}`);
  });

  for (const [which, pick] of [
    ["the npm package", () => npmPackage],
    ["the TypeScript SDK", () => npmSdk],
  ] as const) {
    it(`${which}'s package.json has its links and keywords, and \`npm publish --dry-run\` corrects nothing`, () => {
      const manifest = JSON.parse(readText(unpack(pick()), "package.json")) as Record<string, unknown>;
      const home = "https://github.com/pulumi-integration-platform/pulumi-integration-platform";
      assert.equal(manifest.license, "Apache-2.0");
      assert.deepEqual(manifest.repository, { type: "git", url: `git+${home}.git` });
      assert.deepEqual(manifest.bugs, { url: `${home}/issues` });
      assert.match(String(manifest.homepage), new RegExp(`^${home}`));
      assert.ok(Array.isArray(manifest.keywords) && manifest.keywords.includes("pulumi"), "keywords, with pulumi");
      // npm prints what it would fix in package.json ("auto-corrected some errors") before it publishes.
      // A snapshot is a pre-release, which npm publishes only under a tag of its own (the workflow's NPM_TAG).
      const tag = releaseVersions().version.includes("-") ? ["--tag", "dev"] : [];
      const result = spawnSync("npm", ["publish", "--dry-run", "--ignore-scripts", ...tag, pick()], {
        encoding: "utf8",
        cwd: scratch,
      });
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stderr, /\(dry-run\)/);
      assert.doesNotMatch(result.stderr, /auto-corrected|was changed|was normalized|was removed/);
    });
  }
});

/** A file of an unpacked package, as text. */
function readText(dir: string, file: string): string {
  return fs.readFileSync(path.join(dir, file), "utf8");
}
