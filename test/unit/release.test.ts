// The release command's pure parts and the workflow that runs it on a tag: the CHANGELOG section a
// release carries, the archive names the CLI asks for, and a workflow that publishes exactly the
// files the command writes, each registry with its token or as a dry run.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { SDK_NAMES } from "../../provider/native/schema";
import { changelogSection } from "../../scripts/release";
import { archiveName, executableName, PROGRAMS } from "../../scripts/release/executables";
import { WHEEL_PLATFORMS, wheelExecutablePath, wheelFileName } from "../../scripts/release/wheels";
import { REPO } from "../../harness/engine";

describe("npm run release", () => {
  it("names the archives as the CLI downloads them, with the executable the CLI runs", () => {
    assert.equal(
      archiveName("0.6.0", "darwin-arm64"),
      "pulumi-resource-integration-platform-v0.6.0-darwin-arm64.tar.gz",
    );
    assert.equal(executableName("windows-amd64"), "pulumi-resource-integration-platform.exe");
    assert.equal(executableName("linux-arm64"), "pulumi-resource-integration-platform");
  });

  it("names the tools' and the emulator's archives and executables by the commands users type", () => {
    assert.equal(archiveName("0.6.0", "linux-amd64", "tools"), "pulumi-integration-platform-v0.6.0-linux-amd64.tar.gz");
    assert.equal(
      archiveName("0.6.0", "windows-amd64", "emulator"),
      "pulumi-integration-platform-emulator-v0.6.0-windows-amd64.tar.gz",
    );
    assert.equal(executableName("windows-amd64", "tools"), "pulumi-integration-platform.exe");
    assert.equal(executableName("darwin-arm64", "emulator"), "pulumi-integration-platform-emulator");
    // The same names as the npm package's bin entries: a guide's command works either way.
    const bin = (
      JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { bin: Record<string, string> }
    ).bin;
    for (const program of Object.values(PROGRAMS))
      assert.ok(program.name in bin, `${program.name} is a bin of the package`);
  });

  it("tags each platform wheel as the Node.js wheel its executable is made from (scripts/ensure-sea-node.sh)", () => {
    const script = fs.readFileSync(path.join(REPO, "scripts", "ensure-sea-node.sh"), "utf8");
    const declared = /declare -A platform=\(([^)]*)\)/.exec(script)?.[1] ?? "";
    const tags = Object.fromEntries([...declared.matchAll(/\[([\w-]+)\]=(\S+)/g)].map((m) => [m[1], m[2]]));
    assert.deepEqual(tags, WHEEL_PLATFORMS);
    assert.equal(
      wheelFileName("tools", "0.6.0", "darwin-arm64"),
      "pulumi_integration_platform_tools-0.6.0-py3-none-macosx_13_0_arm64.whl",
    );
    assert.equal(
      wheelExecutablePath("emulator", "0.6.0", "windows-amd64"),
      "pulumi_integration_platform_emulator-0.6.0.data/scripts/pulumi-integration-platform-emulator.exe",
    );
  });

  it("takes the version's CHANGELOG section, up to the next release, and none for a version it lacks", () => {
    const changelog = "# Changelog\n\n## [Unreleased]\n\n- new\n\n## [0.5.0] - 2026-11-20\n\n- old\n";
    assert.equal(changelogSection(changelog, "Unreleased"), "- new\n");
    assert.equal(changelogSection(changelog, "0.5.0"), "- old\n");
    assert.equal(changelogSection(changelog, "0.6.0"), undefined);
    // The release of this package.json's version holds the executables (0.6.0 brought them).
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"));
    const text = fs.readFileSync(path.join(REPO, "CHANGELOG.md"), "utf8");
    assert.ok((changelogSection(text, version) ?? changelogSection(text, "Unreleased"))?.includes("one executable"));
  });
});

describe(".github/workflows/release.yml", () => {
  const text = fs.readFileSync(path.join(REPO, ".github", "workflows", "release.yml"), "utf8");
  const workflow = parse(text) as {
    on: { push: { tags: string[] } };
    jobs: { release: { steps: { name?: string; run?: string; env?: Record<string, string> }[] } };
  };
  const steps = workflow.jobs.release.steps;
  const step = (name: string) => steps.find((s) => s.name?.startsWith(name))!;

  it("runs on a version tag, checks it against package.json, and runs npm run release", () => {
    assert.deepEqual(workflow.on.push.tags, ["v*.*.*"]);
    assert.match(step("The tag is package.json's version").run!, /GITHUB_REF_NAME" != "v\$version"/);
    assert.match(step("npm run release").run!, /npm run release\b/);
  });

  it("uploads the release folder's files, and publishes the files the command writes, with a dry run where a token is missing", () => {
    // The folder's top-level files: goproxy/ goes up as goproxy.tar.gz, maven/ to Maven Central.
    assert.match(step("GitHub release").run!, /find "\$FOLDER" -maxdepth 1 -type f/);
    assert.match(step("GitHub release").run!, /gh release create "v\$VERSION" "\$\{assets\[@\]\}"/);
    const central = step("Maven Central");
    assert.match(central.run!, /cd "\$FOLDER\/maven" && zip/);
    assert.match(central.run!, /-z "\$MAVEN_CENTRAL_TOKEN" \]; then\s+echo "dry run/);
    assert.match(central.run!, /-name '\*\.asc'/);
    const npm = step("npm (");
    assert.match(npm.run!, /pulumi-integration-platform-\$VERSION\.tgz/);
    assert.match(npm.run!, new RegExp(`${SDK_NAMES.nodejs}-\\$VERSION\\.tgz`));
    assert.match(npm.run!, /-z "\$NODE_AUTH_TOKEN" \]; then\s+npm publish --dry-run --tag "\$NPM_TAG"/);
    assert.match(step("npm run release").run!, /NPM_TAG=.*"dev" : "latest"/);
    const pypi = step("PyPI");
    assert.match(pypi.run!, new RegExp(`${SDK_NAMES.python}-"\\$PEP440_VERSION"-py3-none-any\\.whl`));
    assert.match(pypi.run!, /-z "\$TWINE_PASSWORD" \]; then\s+echo "dry run/);
    assert.match(step("Go SDK tag").run!, /git tag "sdk\/go\/v\$VERSION"/);
    assert.match(step("Go webhook check tag").run!, /git tag "webhooks\/go\/v\$VERSION"/);
    const tools = step("PyPI (pulumi-integration-platform-tools");
    assert.match(tools.run!, /pulumi_integration_platform_tools-"\$PEP440_VERSION"-py3-none-\*\.whl/);
    assert.match(tools.run!, /pulumi_integration_platform_emulator-"\$PEP440_VERSION"-py3-none-\*\.whl/);
    assert.match(tools.run!, /twine check --strict/);
  });
});
