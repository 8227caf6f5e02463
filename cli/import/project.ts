// Every file of the project `import` writes, in the language asked for, from the plan and the facts
// about the command.
import { goVersion, parseSemVer, pythonVersion } from "../../contract/versions";
import { foundRecords, renderFound } from "./found";
import { renderGo } from "./go";
import { renderJava } from "./java";
import type { Language } from "./language";
import { GO_SDK_MODULE, NATIVE_DEPENDENCIES } from "./native";
import type { ImportPlan } from "./plan";
import { renderProgram } from "./program";
import type { ProjectMeta } from "./projectMeta";
import { renderPython } from "./python";
import { renderReadme } from "./readme";
import { renderYaml } from "./yaml";

/** The project's files, by name (a path under the project for Java's source). */
export type ProjectFiles = Record<string, string>;

/** The SDK version the native projects depend on: the package's own. */
const sdkVersion = (meta: ProjectMeta) => meta.versions.package.replace(/^\^/, "");

/** The SDK's range in requirements.txt: this release's minor version, as `^` does in package.json for 0.x. */
function sdkRange(meta: ProjectMeta): string {
  const { major, minor } = parseSemVer(sdkVersion(meta));
  // In PEP 440's spelling; a local version (a snapshot's +g<commit>) is allowed only after ==, so the
  // range starts at its public part.
  return `>=${pythonVersion(sdkVersion(meta)).replace(/\+.*$/, "")},<${major}.${minor + 1}.0`;
}

/** The TypeScript project's own files: the dynamic provider's package, as before --language. */
function typescriptFiles(plan: ImportPlan, meta: ProjectMeta, description: string): ProjectFiles {
  return {
    "Pulumi.yaml": `name: ${meta.project}\ndescription: ${JSON.stringify(description)}\nruntime: nodejs\n`,
    "package.json": `${JSON.stringify(
      {
        name: meta.project,
        private: true,
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": meta.versions.pulumi, "pulumi-integration-platform": meta.versions.package },
        devDependencies: { "@types/node": meta.versions.typesNode, typescript: meta.versions.typescript },
      },
      null,
      2,
    )}\n`,
    "tsconfig.json": `${JSON.stringify(
      {
        compilerOptions: {
          strict: true,
          target: "ES2022",
          module: "commonjs",
          moduleResolution: "node",
          esModuleInterop: true,
          skipLibCheck: true,
        },
        files: ["index.ts"],
      },
      null,
      2,
    )}\n`,
    "index.ts": renderProgram(plan),
    ".gitignore": "node_modules/\n",
  };
}

/** The Python project: the layout `pulumi new python` writes (a virtualenv `venv` beside it). */
function pythonFiles(plan: ImportPlan, meta: ProjectMeta, description: string): ProjectFiles {
  return {
    "Pulumi.yaml":
      `name: ${meta.project}\ndescription: ${JSON.stringify(description)}\n` +
      "runtime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n",
    "requirements.txt": `pulumi${NATIVE_DEPENDENCIES.python}\npulumi_integration_platform${sdkRange(meta)}\n`,
    "__main__.py": renderPython(plan),
    ".gitignore": "venv/\n__pycache__/\n",
  };
}

/** The Go project: main.go and a go.mod that `go mod tidy` completes. */
function goFiles(plan: ImportPlan, meta: ProjectMeta, description: string): ProjectFiles {
  const { go } = NATIVE_DEPENDENCIES;
  return {
    "Pulumi.yaml": `name: ${meta.project}\ndescription: ${JSON.stringify(description)}\nruntime: go\n`,
    "go.mod":
      `module ${meta.project}\n\ngo ${go.directive}\n\nrequire (\n` +
      `\t${GO_SDK_MODULE} ${goVersion(sdkVersion(meta))}\n\tgithub.com/pulumi/pulumi/sdk/v3 ${go.sdk}\n)\n`,
    "main.go": renderGo(plan),
    ".gitignore": `/${meta.project}\n`,
  };
}

/** The Java project: the layout `pulumi new java` writes (Maven, run with exec:java). */
function javaFiles(plan: ImportPlan, meta: ProjectMeta, description: string): ProjectFiles {
  const { java } = NATIVE_DEPENDENCIES;
  const dependency = (group: string, artifact: string, version: string) =>
    `    <dependency>\n      <groupId>${group}</groupId>\n      <artifactId>${artifact}</artifactId>\n` +
    `      <version>${version}</version>\n    </dependency>`;
  const pom = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    '         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">',
    "  <modelVersion>4.0.0</modelVersion>",
    "  <groupId>platform</groupId>",
    `  <artifactId>${meta.project}</artifactId>`,
    "  <version>1.0-SNAPSHOT</version>",
    "  <properties>",
    "    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>",
    `    <maven.compiler.release>${java.release}</maven.compiler.release>`,
    "    <mainClass>platform.App</mainClass>",
    // The Java host asks for the program's plugins with -DmainArgs=packages (what `pulumi new java` wires up).
    "    <mainArgs/>",
    "  </properties>",
    "  <dependencies>",
    dependency("com.pulumi", "pulumi", java.sdk),
    dependency("io.github.pulumi-integration-platform", "integration-platform", sdkVersion(meta)),
    // found.json is read with Gson, which the Pulumi SDK brings at run time only.
    dependency("com.google.code.gson", "gson", java.gson),
    "  </dependencies>",
    "  <build>",
    "    <plugins>",
    "      <plugin>",
    "        <groupId>org.apache.maven.plugins</groupId>",
    "        <artifactId>maven-compiler-plugin</artifactId>",
    `        <version>${java.compiler}</version>`,
    "      </plugin>",
    "      <plugin>",
    "        <groupId>org.codehaus.mojo</groupId>",
    "        <artifactId>exec-maven-plugin</artifactId>",
    `        <version>${java.exec}</version>`,
    "        <configuration>",
    "          <mainClass>${mainClass}</mainClass>",
    "          <commandlineArgs>${mainArgs}</commandlineArgs>",
    "          <cleanupDaemonThreads>false</cleanupDaemonThreads>",
    "        </configuration>",
    "      </plugin>",
    "    </plugins>",
    "  </build>",
    "</project>",
    "",
  ].join("\n");
  return {
    "Pulumi.yaml": `name: ${meta.project}\ndescription: ${JSON.stringify(description)}\nruntime: java\n`,
    "pom.xml": pom,
    "src/main/java/platform/App.java": renderJava(plan),
    ".gitignore": "target/\n",
  };
}

/** Every file of the project, in its language; found.json and README.md in all. */
export function renderProject(plan: ImportPlan, meta: ProjectMeta): ProjectFiles {
  const description =
    `The integration platform setup (${plan.slugs.join(", ")}), ` + "brought in by pulumi-integration-platform import";
  const found = meta.found ?? foundRecords(plan);
  const byLanguage: Record<Language, () => ProjectFiles> = {
    typescript: () => typescriptFiles(plan, meta, description),
    python: () => pythonFiles(plan, meta, description),
    go: () => goFiles(plan, meta, description),
    yaml: () => ({ "Pulumi.yaml": renderYaml(plan, meta.project, description, found) }),
    java: () => javaFiles(plan, meta, description),
  };
  const { ".gitignore": gitignore, ...files } = byLanguage[meta.language]();
  return {
    ...files,
    "found.json": renderFound(found),
    "README.md": renderReadme(plan, meta),
    ...(gitignore ? { ".gitignore": gitignore } : {}),
  };
}
