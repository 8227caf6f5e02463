// A Go or Java program built once and run by its language host from what was built (the runtime's `binary`
// option), as docs/guides/scaling.md recommends for CI jobs: as `pulumi new` leaves them, the Go host runs
// `go build` and the Java host `mvn compile exec:java` at every command, refresh and destroy included.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** The plugin that makes a Java program's jar with its dependencies, `mainClass` in its manifest. */
const shade = (mainClass: string) => `      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-shade-plugin</artifactId>
        <version>3.6.2</version>
        <executions>
          <execution>
            <phase>package</phase>
            <goals><goal>shade</goal></goals>
            <configuration>
              <createDependencyReducedPom>false</createDependencyReducedPom>
              <transformers>
                <transformer implementation="org.apache.maven.plugins.shade.resource.ServicesResourceTransformer"/>
                <transformer implementation="org.apache.maven.plugins.shade.resource.ManifestResourceTransformer">
                  <mainClass>${mainClass}</mainClass>
                </transformer>
              </transformers>
            </configuration>
          </execution>
        </executions>
      </plugin>
`;

/** Sets `Pulumi.yaml`'s runtime to `name` with the `binary` option, keeping its other lines. */
function useBinary(dir: string, name: "go" | "java", binary: string): void {
  const file = path.join(dir, "Pulumi.yaml");
  const runtime = new RegExp(`^runtime:( ${name})?\\n(?:[ ]+.*\\n)*`, "m");
  const text = fs.readFileSync(file, "utf8");
  if (!runtime.test(text)) throw new Error(`${file} has no runtime ${name} to give a binary`);
  fs.writeFileSync(file, text.replace(runtime, `runtime:\n  name: ${name}\n  options:\n    binary: ${binary}\n`));
}

/** Where `prebuildGo` puts the program, relative to its folder. */
export const PREBUILT_GO = "bin/program";

/** Builds a program once, as a CI job would before its commands; returns the seconds it took. */
function build(dir: string, command: string, args: string[], env: Record<string, string | undefined>): number {
  const started = Date.now();
  execFileSync(command, args, {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 20 * 60_000,
  });
  return (Date.now() - started) / 1000;
}

/**
 * Builds the Go program in `dir` into `PREBUILT_GO` and has the Go host run it; returns the build's seconds.
 * `env` is the go command's (GOPROXY, GOFLAGS, …).
 */
export function prebuildGo(dir: string, env: Record<string, string | undefined> = {}): number {
  const seconds = build(dir, "go", ["build", "-o", PREBUILT_GO, "."], env);
  // A relative path that names a folder: the host does not look it up on PATH.
  useBinary(dir, "go", `./${PREBUILT_GO}`);
  return seconds;
}

/**
 * Adds maven-shade-plugin to the Maven program in `dir` (main class `mainClass`), packages it into a jar with its
 * dependencies, and has the Java host run that jar; returns the build's seconds. `env` is Maven's (MAVEN_OPTS).
 */
export function prebuildJava(dir: string, mainClass: string, env: Record<string, string | undefined> = {}): number {
  const pom = path.join(dir, "pom.xml");
  const text = fs.readFileSync(pom, "utf8");
  if (!text.includes("    </plugins>")) throw new Error(`${pom} has no <plugins> to add the shade plugin to`);
  fs.writeFileSync(pom, text.replace("    </plugins>", `${shade(mainClass)}    </plugins>`));
  const seconds = build(dir, "mvn", ["--batch-mode", "--quiet", "--no-transfer-progress", "package"], env);
  const artifact = /<artifactId>([^<]+)<\/artifactId>\s*<version>([^<]+)<\/version>/.exec(text);
  if (!artifact) throw new Error(`${pom} names no artifactId and version before its dependencies`);
  useBinary(dir, "java", `target/${artifact[1]}-${artifact[2]}.jar`);
  return seconds;
}
