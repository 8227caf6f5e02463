// docs/design/resources.md's "Adding a resource type" is the list of files a new type is written
// in: checked here against the code, so that it cannot drift from what a new type needs again.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as pkg from "../../provider";
import { RESOURCES } from "../../provider/resources";
import { forwarderSource, pending, registrySource } from "../../scripts/gen-registration";

const REPO = path.resolve(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(REPO, file), "utf8");
const TYPES = RESOURCES.map((d) => d.type);
/** The page name of a type: `ConfigField` → `config-field`. */
const pageOf = (type: string) => type.replace(/(?<=[a-z])(?=[A-Z])/g, "-").toLowerCase();

/** The checklist's section, and the repository paths it names (in backticks). */
function checklist() {
  const page = read("docs/design/resources.md");
  const start = page.indexOf("## Adding a resource type");
  assert.ok(start >= 0, "docs/design/resources.md has its section 'Adding a resource type'");
  const section = page.slice(start, page.indexOf("\n## ", start + 1));
  const paths = [...section.matchAll(/`((?:provider|emulator|harness|docs)\/[^`\s]+)`/g)].map((m) => m[1]);
  return { section, paths: [...new Set(paths)] };
}

/** The files of a folder, recursively, relative to the repository. */
function filesUnder(folder: string): string[] {
  return fs
    .readdirSync(path.join(REPO, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => path.relative(REPO, path.join(entry.parentPath, entry.name)));
}

describe("adding a resource type: the checklist is the real list", () => {
  it("names files that exist, for every type", () => {
    const { paths } = checklist();
    assert.ok(paths.length >= 15, `the checklist names ${paths.length} paths`);
    for (const listed of paths) {
      // A routes file is the area's: which one is the new type's to choose.
      if (listed.includes("<area>")) continue;
      for (const type of TYPES) {
        const file = listed
          .replace("<Type>", type)
          .replace("<type>", type[0].toLowerCase() + type.slice(1))
          .replace("<page>", pageOf(type));
        assert.ok(fs.existsSync(path.join(REPO, file)), `${listed} (${file}) exists`);
      }
    }
  });

  it("lists every provider/ file that names every type: a per-type list written by hand would be one", () => {
    const { paths } = checklist();
    const perType = filesUnder("provider").filter((file) => TYPES.every((type) => read(file).includes(type)));
    assert.ok(perType.length > 0, "RESOURCES itself names every type");
    for (const file of perType) assert.ok(paths.includes(file), `${file} names every type, and the checklist lists it`);
  });

  it("has each type's definition file, class, forwarder module and docs page where the checklist says", () => {
    const index = read("docs/resources/README.md");
    for (const definition of RESOURCES) {
      const { type } = definition;
      const file = `provider/resources/${type[0].toLowerCase()}${type.slice(1)}.ts`;
      assert.match(read(file), new RegExp(`type: "${type}"`), `${file} defines ${type}`);
      const exported = (pkg as Record<string, unknown>)[type] as { prototype: unknown } | undefined;
      assert.ok(
        exported && exported.prototype instanceof pulumi.dynamic.Resource,
        `the package exports ${type}, a dynamic resource`,
      );
      assert.equal(
        read(`provider/dynamic/forwarders/${type}.ts`).trim().split("\n").pop(),
        `export = forwardingProvider("${type}");`,
      );
      assert.ok(index.includes(`(${pageOf(type)}.md)`), `docs/resources/README.md links ${pageOf(type)}.md`);
      assert.ok(fs.existsSync(path.join(REPO, "docs/resources", `${pageOf(type)}.md`)), `${type} has its page`);
    }
  });

  it("picks a new definition up: its class, its Args and its forwarder are derived, and what is derived is current", async () => {
    const throwaway = { type: "Probe", description: "A throwaway type." };
    const registry = registrySource([...RESOURCES, throwaway]);
    assert.match(registry, /\n {2}Probe: \(\) => require\("\.\/forwarders\/Probe"\),\n/);
    assert.match(
      registry,
      /\/\*\* A throwaway type\. \*\/\nexport class Probe extends resourceClass\(definitionOf\("Probe"\), FORWARDERS\.Probe\(\)\) \{\}\n/,
    );
    assert.match(registry, /export type ProbeArgs = ArgsOfType<"Probe">;/);
    assert.match(forwarderSource("Probe"), /\nexport = forwardingProvider\("Probe"\);\n$/);
    const stale = [...(await pending()).keys()].map((file) => path.relative(REPO, file));
    assert.deepEqual(stale, [], "the checked-in registry and forwarders are what RESOURCES gives (npm run build)");
  });
});
