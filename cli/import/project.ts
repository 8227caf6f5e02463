// Every file of the project `import` writes, from the plan and the facts about the command.
import { foundRecords, renderFound } from "./found";
import type { ImportPlan } from "./plan";
import { renderProgram } from "./program";
import type { ProjectMeta } from "./projectMeta";
import { renderReadme } from "./readme";

/** The project's files, by name. */
export type ProjectFiles = Record<string, string>;

/** Every file of the project. */
export function renderProject(plan: ImportPlan, meta: ProjectMeta): ProjectFiles {
  const description =
    `The integration platform setup (${plan.slugs.join(", ")}), ` + "brought in by pulumi-integration-platform import";
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
    "found.json": renderFound(meta.found ?? foundRecords(plan)),
    "README.md": renderReadme(plan, meta),
    ".gitignore": "node_modules/\n",
  };
}
