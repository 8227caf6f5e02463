// `import` from a snapshot's tools (version `<next>-dev.<n>+g<commit>`) writes dependency versions each
// language's tools accept: Go's module versions carry no build metadata, and pip takes a local version
// only after `==` (docs/design/release.md, "Versions").
import * as assert from "node:assert/strict";
import { renderProject } from "../../cli/import/project";
import type { ImportPlan } from "../../cli/import/plan";
import type { ProjectMeta } from "../../cli/import/projectMeta";

const PLAN: ImportPlan = {
  slugs: ["hubspot"],
  accountsRead: 0,
  setups: [],
  shared: [],
  definitions: [],
  secrets: [],
  notBroughtIn: [],
  fieldNotes: [],
  counts: { fields: 0, workflows: 0, envValues: 0, encrypted: 0 },
};

/** The project's metadata as a snapshot's tools write it (versions.package is `^` and the package's version). */
function meta(language: ProjectMeta["language"], version: string): ProjectMeta {
  return {
    project: "adopted",
    language,
    command: "import --slug hubspot",
    versions: { package: `^${version}`, pulumi: "^3.200.0", typescript: "^5.9.3", typesNode: "^22.0.0" },
  };
}

describe("import: dependency versions from a snapshot's tools", () => {
  it("Go: go.mod requires the module at Go's spelling, without the build metadata", () => {
    const files = renderProject(PLAN, meta("go", "0.6.0-dev.370+gabc1234"));
    assert.match(files["go.mod"], /\/sdk\/go v0\.6\.0-dev\.370\n/);
    assert.doesNotMatch(files["go.mod"], /\+g/);
  });

  it("Python: requirements.txt's range starts at the PEP 440 spelling's public part", () => {
    const files = renderProject(PLAN, meta("python", "0.6.0-dev.370+gabc1234"));
    assert.match(files["requirements.txt"], /^pulumi_integration_platform>=0\.6\.0\.dev370,<0\.7\.0$/m);
  });

  it("a release's version is written as it is", () => {
    assert.match(renderProject(PLAN, meta("go", "0.6.0"))["go.mod"], /\/sdk\/go v0\.6\.0\n/);
    assert.match(
      renderProject(PLAN, meta("python", "0.6.0"))["requirements.txt"],
      /^pulumi_integration_platform>=0\.6\.0,<0\.7\.0$/m,
    );
  });
});
