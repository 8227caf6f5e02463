// The Java SDK in the release as Maven Central and Maven users take it (docs/design/release.md,
// "The Java SDK"): maven/ laid out as a Maven repository with the jar, the sources and javadoc jars
// and the pom, each with correct .md5/.sha1; plugin.json in the jar where Pulumi's Java SDK reads it;
// `mvn` resolving the SDK from maven/ as a repository; the Java host finding the plugin from the jar
// (`pulumi install` fetches it through a mirror, `pulumi about` lists it); and .asc signatures, made
// with a key this test generates and given through PULUMI_IP_GPG_KEY, that `gpg --verify` accepts.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PLUGIN_DOWNLOAD_URL } from "../../../provider/native/schema";
import { archiveName } from "../../../scripts/release/executables";
import {
  GPG_KEY_ENV,
  GPG_PASSPHRASE_ENV,
  javaPackages,
  MAVEN_CHECKSUMS,
  mavenDirectory,
  signFiles,
} from "../../../scripts/release/java";
import { engineBinDir, REPO, Stack, Workspace } from "../../../harness/engine";
import { step } from "../../../harness/e2e";
import {
  copyNativeExample,
  LANGUAGES,
  languageHostsDir,
  MAVEN_REPOSITORY,
  mavenOpts,
} from "../../../harness/languages";
import { ensureTool } from "../../../harness/tools";
import { packageVersion } from "../../../scripts/release/context";
import { releaseFolder, releaseVersions, startMirror } from "../../support/release";

/** The release's version as Maven spells it (a snapshot's is not package.json's). */
const VERSION = releaseVersions().maven;

const COORDINATES = {
  groupId: "io.github.pulumi-integration-platform",
  artifactId: "integration-platform",
  version: VERSION,
};
const BASE = `${COORDINATES.artifactId}-${VERSION}`;
/** The four files Maven Central takes for a version: jar, sources, javadoc, pom. */
function artifactNames(version: string): string[] {
  const base = `${COORDINATES.artifactId}-${version}`;
  return [`${base}.jar`, `${base}-sources.jar`, `${base}-javadoc.jar`, `${base}.pom`];
}
const ARTIFACTS = artifactNames(VERSION);
/** Where Pulumi's Java SDK looks for a package's plugin (com/<namespace>/<name>/plugin.json). */
const PLUGIN_JSON = "com/github/pulumi-integration-platform/integration-platform/plugin.json";

/** The names of a jar's entries. */
function jarEntries(jar: string): string[] {
  return execFileSync("unzip", ["-Z1", jar], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
    .trim()
    .split("\n");
}

/** One entry of a jar, as text. */
function jarEntry(jar: string, entry: string): string {
  return execFileSync("unzip", ["-p", jar, entry], { encoding: "utf8" });
}

/**
 * A Maven local repository for one test: a copy of the tests' own (Maven Central's downloads, kept
 * across runs) without this SDK, so that it can only come from the release's maven/.
 */
function localRepositoryWithoutSdk(parent: string): string {
  const repo = path.join(parent, "m2");
  const own = path.join(...COORDINATES.groupId.split("."));
  fs.cpSync(MAVEN_REPOSITORY, repo, {
    recursive: true,
    filter: (src) => !path.relative(MAVEN_REPOSITORY, src).startsWith(own),
  });
  return repo;
}

/** A `<repositories>` block naming the release's maven/ as a file:// repository. */
function releaseRepositoryXml(): string {
  return (
    "  <repositories>\n    <repository>\n      <id>integration-platform-release</id>\n" +
    `      <url>file://${path.join(releaseFolder(), "maven")}</url>\n    </repository>\n  </repositories>\n`
  );
}

describe(`e2e: the release's Java SDK for Maven Central (maven/, javadoc, plugin.json, checksums, signatures) ${LANGUAGES}`, function () {
  this.timeout(30 * 60_000);
  let scratch: string;
  let directory: string;
  before(() => {
    directory = path.join(releaseFolder(), "maven", mavenDirectory(COORDINATES));
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pip-e2e-release-java-"));
  });
  after(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("maven/ holds the jar, the sources and javadoc jars and the pom under <group path>/<artifact>/<version>/, each with its .md5 and .sha1, and nothing else (no key: no .asc)", () => {
    assert.equal(
      path.relative(releaseFolder(), directory),
      path.join("maven", "io", "github", "pulumi-integration-platform", "integration-platform", VERSION),
    );
    const expected = ARTIFACTS.flatMap((name) => [name, ...MAVEN_CHECKSUMS.map((a) => `${name}.${a}`)]).sort();
    assert.deepEqual(fs.readdirSync(directory).sort(), expected);
    for (const name of ARTIFACTS) {
      const bytes = fs.readFileSync(path.join(directory, name));
      for (const algorithm of MAVEN_CHECKSUMS)
        assert.equal(
          fs.readFileSync(path.join(directory, `${name}.${algorithm}`), "utf8"),
          createHash(algorithm).update(bytes).digest("hex"),
          `${name}.${algorithm} is ${name}'s ${algorithm}`,
        );
      // The same files at the folder's top, for the GitHub release and `mvn install:install-file`.
      assert.deepEqual(fs.readFileSync(path.join(releaseFolder(), name)), bytes, `${name} at the top is the same file`);
    }
    const pom = fs.readFileSync(path.join(directory, `${BASE}.pom`), "utf8");
    // What Central Portal refuses a pom without.
    for (const element of ["name", "description", "url", "licenses", "developers", "scm"])
      assert.match(pom, new RegExp(`<${element}>`), `the pom has <${element}>`);
    assert.match(
      pom,
      new RegExp(
        `<artifactId>integration-platform</artifactId>\\s*<version>${VERSION.replace(/[.+]/g, "\\$&")}</version>`,
      ),
    );
  });

  it("the javadoc jar holds the API's pages: index.html and a page for ConfigField", () => {
    const jar = path.join(directory, `${BASE}-javadoc.jar`);
    const entries = jarEntries(jar);
    assert.ok(entries.includes("index.html"), "index.html");
    const page = "io/github/pulumiintegrationplatform/integrationplatform/ConfigField.html";
    assert.ok(entries.includes(page), page);
    assert.match(jarEntry(jar, page), /Class ConfigField/);
    assert.match(jarEntry(jar, "index.html"), /io\.github\.pulumiintegrationplatform\.integrationplatform/);
  });

  it("the jar carries plugin.json where Pulumi's Java SDK reads it, naming the plugin, the release's version and the download server", () => {
    const jar = path.join(directory, `${BASE}.jar`);
    assert.ok(jarEntries(jar).includes(PLUGIN_JSON), `${PLUGIN_JSON} is in the jar`);
    assert.deepEqual(JSON.parse(jarEntry(jar, PLUGIN_JSON)), {
      resource: true,
      name: "integration-platform",
      version: VERSION,
      server: PLUGIN_DOWNLOAD_URL,
    });
    assert.equal(jarEntry(jar, "io/github/pulumiintegrationplatform/integration-platform/version.txt"), VERSION);
    // The sources jar carries the same sources the jar was compiled from.
    assert.ok(
      jarEntries(path.join(directory, `${BASE}-sources.jar`)).includes(
        "io/github/pulumiintegrationplatform/integrationplatform/ConfigField.java",
      ),
    );
  });

  it("mvn resolves the SDK from maven/ as a file:// repository (checksums enforced), its own dependencies from Maven Central", () => {
    const project = path.join(scratch, "resolve");
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, "pom.xml"),
      `<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n` +
        `  <modelVersion>4.0.0</modelVersion>\n  <groupId>test</groupId>\n  <artifactId>uses-sdk</artifactId>\n` +
        `  <version>1.0</version>\n${releaseRepositoryXml()}  <dependencies>\n    <dependency>\n` +
        `      <groupId>${COORDINATES.groupId}</groupId>\n      <artifactId>${COORDINATES.artifactId}</artifactId>\n` +
        `      <version>${VERSION}</version>\n    </dependency>\n  </dependencies>\n</project>\n`,
    );
    const local = localRepositoryWithoutSdk(scratch);
    // -C: a checksum file that does not match its file fails the build.
    const output = execFileSync(
      "mvn",
      [
        "--batch-mode",
        "--no-transfer-progress",
        "-C",
        `-Dmaven.repo.local=${local}`,
        "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:resolve",
      ],
      { cwd: project, encoding: "utf8", timeout: 10 * 60_000 },
    );
    assert.match(
      output,
      new RegExp(`${COORDINATES.groupId}:${COORDINATES.artifactId}:jar:${VERSION.replace(/[.+]/g, "\\$&")}:compile`),
    );
    assert.match(output, /com\.pulumi:pulumi:jar:1\.36\.1:compile/);
    const resolved = path.join(local, mavenDirectory(COORDINATES));
    assert.deepEqual(
      fs.readFileSync(path.join(resolved, `${BASE}.jar`)),
      fs.readFileSync(path.join(directory, `${BASE}.jar`)),
    );
    assert.match(
      fs.readFileSync(path.join(resolved, "_remote.repositories"), "utf8"),
      /\.jar>integration-platform-release=/,
    );
  });

  it("a Java program with the SDK from maven/: `pulumi install` fetches the plugin the jar names through a mirror, and `pulumi about` lists it at the release's version", async () => {
    const workspace = new Workspace();
    const mirror = await startMirror();
    try {
      const dir = copyNativeExample("java", workspace.root);
      const pomFile = path.join(dir, "pom.xml");
      const pom = fs
        .readFileSync(pomFile, "utf8")
        .replace("  <dependencies>", `${releaseRepositoryXml()}\n  <dependencies>`)
        .replace(/(<artifactId>integration-platform<\/artifactId>\s*<version>)[^<]+(<\/version>)/, `$1${VERSION}$2`);
      fs.writeFileSync(pomFile, pom);
      const source = `${PLUGIN_DOWNLOAD_URL}/pulumi-integration-platform`.replace(/[.]/g, "\\.");
      const stack = new Stack(workspace, dir, "dev", {
        // Maven 3.9 first: Debian's 3.8.7 writes ESC[0m after the host's JSON (scripts/ensure-maven.sh).
        PATH: [ensureTool("ensure-maven.sh"), engineBinDir(), languageHostsDir(), "/usr/bin", "/bin"].join(":"),
        MAVEN_OPTS: mavenOpts(localRepositoryWithoutSdk(workspace.root)),
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: undefined,
        PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${source}$=${mirror.url}/v\${VERSION}`,
      });
      const plugins = path.join(workspace.root, "home", "plugins");
      await step(
        "1. pulumi install asks the Java host for the program's packages and downloads the plugin",
        async () => {
          await stack.ok(["install"]);
          assert.deepEqual(mirror.asked, [`/v${VERSION}/${archiveName(VERSION, "linux-amd64")}`]);
          assert.ok(
            fs.existsSync(
              path.join(plugins, `resource-integration-platform-v${VERSION}`, "pulumi-resource-integration-platform"),
            ),
            "the CLI installed the plugin at the jar's version",
          );
        },
      );
      await step("2. pulumi about lists the plugin at the release's version", async () => {
        const about = await stack.ok(["about"]);
        assert.match(
          about.stdout,
          new RegExp(`resource\\s+integration-platform\\s+${VERSION.replace(/[.+]/g, "\\$&")}\\b`),
        );
      });
    } finally {
      await mirror.close();
      workspace.dispose();
    }
  });

  describe("signatures (a throwaway key generated here, given through the environment)", () => {
    let gnupg: string;
    let key: string;
    const passphrase = `pass-${randomBytes(12).toString("hex")}`;
    const gpg = (...args: string[]) =>
      execFileSync("gpg", ["--batch", "--no-tty", ...args], {
        env: { ...process.env, GNUPGHOME: gnupg },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
    before(() => {
      // gpg missing fails here: the release's signing needs it, and this test proves it.
      gnupg = fs.mkdtempSync(path.join(os.tmpdir(), "pip-e2e-gpg-"));
      fs.chmodSync(gnupg, 0o700);
      gpg(
        "--passphrase",
        passphrase,
        "--pinentry-mode",
        "loopback",
        "--quick-gen-key",
        "Release Test <release-test@example.invalid>",
        "ed25519",
        "sign",
        "1d",
      );
      key = gpg(
        "--passphrase",
        passphrase,
        "--pinentry-mode",
        "loopback",
        "--armor",
        "--export-secret-keys",
        "release-test@example.invalid",
      );
      assert.match(key, /-----BEGIN PGP PRIVATE KEY BLOCK-----/);
    });
    after(() => {
      try {
        execFileSync("gpgconf", ["--kill", "all"], { env: { ...process.env, GNUPGHOME: gnupg }, stdio: "ignore" });
      } finally {
        fs.rmSync(gnupg, { recursive: true, force: true });
      }
    });

    it("with PULUMI_IP_GPG_KEY and its passphrase, each of the four files gets an .asc that gpg --verify accepts, and neither secret is printed", () => {
      const out = path.join(scratch, "signed");
      const work = path.join(scratch, "signed-work");
      fs.mkdirSync(out);
      fs.mkdirSync(work);
      const printed: string[] = [];
      // sdk/ as committed, which carries package.json's version (a snapshot regenerates its own).
      const signedVersion = packageVersion(REPO);
      const signedArtifacts = artifactNames(signedVersion);
      const signedRelease = javaPackages(
        path.join(REPO, "sdk"),
        signedVersion,
        out,
        work,
        {
          ...process.env,
          MAVEN_OPTS: mavenOpts(MAVEN_REPOSITORY),
          [GPG_KEY_ENV]: key,
          [GPG_PASSPHRASE_ENV]: passphrase,
        },
        (message) => printed.push(message),
      );
      assert.equal(signedRelease.signed, true);
      const dir = path.join(out, signedRelease.directory);
      const expected = signedArtifacts
        .flatMap((name) => [name, `${name}.asc`, ...MAVEN_CHECKSUMS.map((a) => `${name}.${a}`)])
        .sort();
      assert.deepEqual(fs.readdirSync(dir).sort(), expected);
      for (const name of signedArtifacts) {
        assert.match(fs.readFileSync(path.join(dir, `${name}.asc`), "utf8"), /^-----BEGIN PGP SIGNATURE-----/);
        // gpg --verify exits non-zero on a bad signature; its status names the good one.
        const result = execFileSync(
          "gpg",
          ["--batch", "--status-fd", "1", "--verify", path.join(dir, `${name}.asc`), path.join(dir, name)],
          {
            env: { ...process.env, GNUPGHOME: gnupg },
            encoding: "utf8",
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        assert.match(result, /\[GNUPG:\] GOODSIG .* Release Test <release-test@example\.invalid>/, `${name}.asc`);
      }
      // A signature of a changed file does not verify.
      const changed = path.join(scratch, "changed.pom");
      fs.writeFileSync(
        changed,
        fs.readFileSync(path.join(dir, `${COORDINATES.artifactId}-${signedVersion}.pom`), "utf8") + "\n",
      );
      assert.throws(() =>
        execFileSync(
          "gpg",
          ["--batch", "--verify", path.join(dir, `${COORDINATES.artifactId}-${signedVersion}.pom.asc`), changed],
          {
            env: { ...process.env, GNUPGHOME: gnupg },
            stdio: "ignore",
          },
        ),
      );
      const all = printed.join("\n");
      assert.match(all, /signed .*\.jar/);
      assert.ok(
        !all.includes(passphrase) && !all.includes("PRIVATE KEY"),
        "neither the key nor the passphrase is printed",
      );
    });

    it("a wrong passphrase fails naming the variables, without printing the key or the passphrase; a key that is not one is refused by name", () => {
      const file = path.join(scratch, "to-sign.txt");
      fs.writeFileSync(file, "release\n");
      const wrong = `wrong-${randomBytes(8).toString("hex")}`;
      assert.throws(
        () => signFiles([file], { ...process.env, [GPG_KEY_ENV]: key, [GPG_PASSPHRASE_ENV]: wrong }),
        (error: Error) => {
          assert.match(
            error.message,
            /could not sign to-sign\.txt with PULUMI_IP_GPG_KEY \(is PULUMI_IP_GPG_PASSPHRASE its passphrase\?\)/,
          );
          assert.ok(!error.message.includes(wrong) && !error.message.includes("PRIVATE KEY"));
          return true;
        },
      );
      assert.ok(!fs.existsSync(`${file}.asc`));
      assert.throws(
        () => signFiles([file], { ...process.env, [GPG_KEY_ENV]: "not a key", [GPG_PASSPHRASE_ENV]: passphrase }),
        /PULUMI_IP_GPG_KEY is not an armored OpenPGP private key/,
      );
    });
  });
});
