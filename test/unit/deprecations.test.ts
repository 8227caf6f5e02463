// Every deprecation names the release that removes it, and fails this test once package.json reaches
// that release with the name still there: a deprecated name can no more outlive its promise than go
// early. CHANGELOG.md's "Upgrading" section names the same release (docs/design/release.md, "Cutting a release").
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { parseSemVer } from "../../contract/versions";
import { REPO } from "../../harness/tools";

/** The folders of hand-written code users call: the generated SDKs' own deprecations are Pulumi's. */
const SOURCES = ["provider", "cli", "emulator", "contract", "webhooks", "sdk-overlays"];
/** The files read there: TypeScript and the SDK overlays' and webhook checks' languages. */
const EXTENSIONS = new Set([".ts", ".py", ".go", ".java"]);
/** A deprecation in any of those languages: JSDoc and Javadoc, Go's convention, Python's warning. */
const DEPRECATION = /@deprecated|^\s*\/\/\s*Deprecated:|DeprecationWarning/;
/** How a deprecation names its removal: "Removed in 0.7.0." */
const REMOVED_IN = /Removed in (\d+\.\d+\.\d+)\b/;

/** One deprecation found in the sources. */
interface Deprecation {
  /** `file:line`, from the repository's root. */
  where: string;
  /** The line, trimmed. */
  text: string;
  /** The release it names as removing it, if it names one. */
  removedIn?: string;
}

/** Every deprecation in SOURCES, with the release it names. */
function deprecations(): Deprecation[] {
  const found: Deprecation[] = [];
  for (const source of SOURCES) {
    const root = path.join(REPO, source);
    if (!fs.existsSync(root)) continue;
    for (const file of fs.readdirSync(root, { recursive: true }) as string[]) {
      if (file.split(path.sep).some((part) => part === "node_modules" || part === "target" || part === "venv"))
        continue;
      if (!EXTENSIONS.has(path.extname(file))) continue;
      const full = path.join(root, file);
      if (!fs.statSync(full).isFile()) continue;
      for (const [i, line] of fs.readFileSync(full, "utf8").split("\n").entries()) {
        if (!DEPRECATION.test(line)) continue;
        found.push({
          where: `${path.join(source, file)}:${i + 1}`,
          text: line.trim(),
          removedIn: REMOVED_IN.exec(line)?.[1],
        });
      }
    }
  }
  return found;
}

/** A version's x.y.z as numbers; a pre-release of a version counts as that version (its removals are due). */
function parts(version: string): number[] {
  const { major, minor, patch } = parseSemVer(version);
  return [major, minor, patch];
}

/** Whether `version` is `release` or later. */
function reached(version: string, release: string): boolean {
  const [a, b] = [parts(version), parts(release)];
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

/** The deprecations still in the sources that `version` should have removed. */
function overdue(found: Deprecation[], version: string): Deprecation[] {
  return found.filter((d) => d.removedIn !== undefined && reached(version, d.removedIn));
}

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;

describe("deprecations: each names the release that removes it, and is gone by then", () => {
  const found = deprecations();

  it("finds the deprecated store names of 0.5.0 (so that the scan sees what it checks)", () => {
    const store = found.filter((d) => d.where.startsWith(path.join("emulator", "store.ts")));
    assert.equal(store.length, 17, store.map((d) => d.where).join("\n"));
  });

  it('every deprecation says "Removed in x.y.z."', () => {
    const unnamed = found.filter((d) => d.removedIn === undefined);
    assert.deepEqual(
      unnamed.map((d) => `${d.where}: ${d.text}`),
      [],
      'say in the deprecation which release removes it: "@deprecated Removed in 0.7.0. Use …"',
    );
  });

  it(`none is due at this version (package.json: ${VERSION})`, () => {
    assert.deepEqual(
      overdue(found, VERSION).map((d) => `${d.where}: removed in ${d.removedIn}, and still here`),
      [],
      "remove each name before releasing the version that its deprecation promised (and its CHANGELOG line)",
    );
  });

  it("the check fires at the removal version, and at a pre-release of it, not before", () => {
    const dated = found.filter((d) => d.removedIn !== undefined);
    assert.ok(dated.length > 0);
    for (const d of dated) {
      const [major, minor] = parts(d.removedIn!);
      const before = minor > 0 ? `${major}.${minor - 1}.99` : `${major - 1}.99.99`;
      assert.equal(overdue([d], d.removedIn!).length, 1, `${d.where} is due at ${d.removedIn}`);
      assert.equal(overdue([d], `${d.removedIn}-dev.3`).length, 1, `${d.where} is due at a pre-release`);
      assert.equal(overdue([d], before).length, 0, `${d.where} is not due at ${before}`);
    }
  });

  it("CHANGELOG.md's Upgrading section names each removal release", () => {
    const changelog = fs.readFileSync(path.join(REPO, "CHANGELOG.md"), "utf8");
    // The newest section that has an Upgrading part: [Unreleased], or the release just cut.
    const sections = changelog.split(/\n(?=## \[)/).filter((section) => section.startsWith("## ["));
    const newest = sections.find((section) => section.includes("### Upgrading")) ?? "";
    const upgrading = newest.slice(newest.indexOf("### Upgrading"));
    for (const release of new Set(found.map((d) => d.removedIn).filter(Boolean)))
      assert.match(upgrading, new RegExp(`removed in ${release!.replace(/\./g, "\\.")}`), `names ${release}`);
  });
});
