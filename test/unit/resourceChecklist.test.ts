// docs/design/resources.md's "Adding a resource type" is the list of files a new type is written
// in: checked here against the code, so that it cannot drift from what a new type needs again.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { API_PREFIX } from "../../contract/api";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { stateSchemaOf } from "../../emulator/model";
import { OBJECTS } from "../../emulator/objects";
import { defineObject } from "../../emulator/platformObject";
import * as pkg from "../../provider";
import { DESCRIPTIONS } from "../../provider/descriptions";
import { RESOURCES } from "../../provider/resources";
import { REPLACES } from "../../provider/resources/properties";
import { pendingSections } from "../../scripts/generatedSections";
import { EMULATOR_PAGE, pending as pendingOpenApi } from "../../scripts/gen-openapi";
import { forwarderSource, pageOf, pending, readmeSections, registrySource } from "../../scripts/gen-registration";
import { entries, indexSection, pending as pendingIndex } from "../../scripts/gen-resource-index";

const REPO = path.resolve(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(REPO, file), "utf8");
const TYPES = RESOURCES.map((d) => d.type);

/** The checklist's section, and the repository paths it names (in backticks). */
function checklist() {
  const page = read("docs/design/resources.md");
  const start = page.indexOf("## Adding a resource type");
  assert.ok(start >= 0, "docs/design/resources.md has its section 'Adding a resource type'");
  const section = page.slice(start, page.indexOf("\n## ", start + 1));
  const paths = [...section.matchAll(/`((?:provider|emulator|harness|docs|cli)\/[^`\s]*|README\.md)`/g)].map(
    (m) => m[1],
  );
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
      // The client's object files are checked against the emulator's objects below.
      if (listed === "provider/client/<object>.ts") continue;
      // An emulator object's file is the platform object's, not the type's: checked for every object.
      if (listed.includes("<object>")) {
        for (const object of OBJECTS) {
          const file = listed.replace("<object>", object.name);
          assert.ok(fs.existsSync(path.join(REPO, file)), `${listed} (${file}) exists`);
        }
        continue;
      }
      for (const type of TYPES) {
        const file = listed
          .replace("<Type>", type)
          .replace("<type>", type[0].toLowerCase() + type.slice(1))
          .replace("<page>", pageOf(type));
        assert.ok(fs.existsSync(path.join(REPO, file)), `${listed} (${file}) exists`);
      }
    }
  });

  it("lists no file a generator writes among the docs written by hand", () => {
    const { section } = checklist();
    const start = section.indexOf("Written by hand, in the docs:");
    const docs = section.slice(start, section.indexOf("Then its tests", start));
    assert.ok(start >= 0 && docs.includes("docs/resources/<page>.md"), "the checklist lists the docs written by hand");
    for (const generated of ["`README.md`", "`docs/emulator.md`", "`docs/resources/README.md`"])
      assert.ok(
        !docs.includes(generated),
        `${generated} is written by a generator (npm run lint checks it), not by hand`,
      );
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

  it("writes README.md's list of types, their count in words, and their pages' links from RESOURCES", () => {
    const sections = readmeSections([...TYPES, "Probe"]);
    const words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
    assert.match(sections["resource types"], new RegExp(`^${words[TYPES.length + 1]} Pulumi resources,`));
    assert.match(sections["resource types"], /and `Probe`$/);
    assert.match(sections["resource pages"], /\[`Probe`\]\(docs\/resources\/probe\.md\)$/);
    assert.equal(
      pendingSections(path.join(REPO, "README.md"), readmeSections(TYPES)),
      undefined,
      "README.md's sections are what RESOURCES gives (npm run build)",
    );
    const linked = [...read("README.md").matchAll(/\[`(\w+)`\]\(docs\/resources\/([\w-]+)\.md\)/g)];
    for (const type of TYPES)
      assert.ok(
        linked.some(([, name, page]) => name === type && page === pageOf(type)),
        `README.md links ${type}'s page`,
      );
  });

  it("writes docs/resources/README.md's entry of each type from its definition and its page's first examples", () => {
    assert.deepEqual([...pendingIndex().keys()], [], "docs/resources/README.md is what RESOURCES and the pages give");
    const index = read("docs/resources/README.md");
    const headings = [...index.matchAll(/^## (\w+)$/gm)].map((m) => m[1]);
    assert.deepEqual(
      headings.filter((h) => TYPES.includes(h as never)),
      TYPES,
      "one entry per type, in RESOURCES' order",
    );
    const probe = {
      type: "Probe",
      description: "A throwaway type.",
      page: [
        "# Probe\n\nA lead.\n\n```ts",
        'import * as platform from "pulumi-integration-platform";\n\nconst probe = new platform.Probe("p", {});',
        '```\n\n```go\nip.NewProbe()\n```\n\n```python\nimport pulumi_integration_platform as platform\n\nplatform.Probe("p")',
        "```\n\n```ts\nlater();\n```\n",
      ].join("\n"),
    };
    const section = indexSection([...entries(), probe]);
    assert.ok(
      section.endsWith(
        [
          "## Probe\n\nA throwaway type.\nReference: [probe.md](probe.md).\n",
          '<!-- snippet: continues -->\n```ts\nconst probe = new platform.Probe("p", {});\n```\n',
          '```python\nplatform.Probe("p")\n```\n\n',
        ].join("\n"),
      ),
      `a new type's entry is its description and its page's first blocks, continuing the program:\n${section}`,
    );
    assert.match(
      section,
      /^\n\n## ConfigField\n[^]*?```ts\nimport \* as pulumi from "@pulumi\/pulumi";\nimport \* as platform /,
    );
    assert.equal(section.split('from "pulumi-integration-platform"').length, 2, "the package is imported once");
    assert.throws(
      () => indexSection([{ ...probe, page: "# Probe\n\n```ts\nx;\n```\n" }]),
      /probe\.md has no ```python/,
    );
  });

  it("derives 'Changing it replaces the resource.' from the identity group: no JSDoc writes it", () => {
    for (const [key, text] of Object.entries(DESCRIPTIONS))
      assert.ok(!text.includes(REPLACES), `${key}'s JSDoc leaves "${REPLACES}" to the identity group`);
    for (const { type, properties } of RESOURCES) {
      for (const [name, schema] of Object.entries(properties.groups.identity) as [string, z.ZodType][])
        assert.ok(schema.description?.endsWith(` ${REPLACES}`), `${type}.${name}: ${schema.description}`);
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

describe("adding a platform object to the client: one file, its response schemas and its operations together", () => {
  /** The transport (client/http.ts) and what it is made of; every other file of provider/client is an object's. */
  const TRANSPORT = ["http", "errors", "ids", "pacing", "pagination", "rateBroker"];
  const clientObjects = () =>
    filesUnder("provider/client")
      .map((file) => path.basename(file, ".ts"))
      .filter((name) => !TRANSPORT.includes(name));

  it("has a file per platform object, named as the emulator's object, each citing its contract section", () => {
    const headings = [...read("docs/design/contract.md").matchAll(/^## (.+)$/gm)].map((m) =>
      m[1]
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, "")
        .replace(/ /g, "-"),
    );
    assert.ok(clientObjects().length >= 6, `the client's objects: ${clientObjects().join(", ")}`);
    for (const object of clientObjects()) {
      const file = `provider/client/${object}.ts`;
      assert.ok(
        OBJECTS.some((o) => o.name === object),
        `${file} is named as one of the emulator's OBJECTS`,
      );
      const section = /docs\/design\/contract\.md#([a-z-]+)/.exec(read(file).split("\n")[0])?.[1];
      assert.ok(section && headings.includes(section), `${file}'s first line cites its section of contract.md`);
    }
  });

  it("takes only the transport's types: declaring resources, which import the objects' schemas, loads no axios", () => {
    for (const object of clientObjects()) {
      const file = `provider/client/${object}.ts`;
      for (const [line] of read(file).matchAll(/^import .* from "\.\/http";$/gm))
        assert.match(line, /^import type /, `${file}: ${line}`);
    }
  });

  it("sends the writes whose reads the session shares only from the session", () => {
    // Configs and env values are read once per command (docs/design/session.md): a write that skipped
    // the session would leave a later read of the same item stale.
    const booked = /\b(updateConfigField|setConfigFieldValue|setWorkflowEnabled|setEnvValue|deleteEnvValue)\(/;
    for (const file of [...filesUnder("provider"), ...filesUnder("cli")]) {
      if (file.startsWith("provider/client/") || file === "provider/session.ts") continue;
      const calls = read(file)
        .split("\n")
        .filter((line) => booked.test(line) && !/session\.\w+\(/.test(line));
      assert.deepEqual(calls, [], `${file} writes through the session`);
    }
  });
});

describe("adding a platform object to the emulator: one file and one line in OBJECTS", () => {
  const objectFiles = () =>
    filesUnder("emulator/objects")
      .map((file) => path.basename(file, ".ts"))
      .filter((name) => name !== "index");

  it("has each object's file under emulator/objects/, and every file there is an object of OBJECTS", () => {
    for (const object of OBJECTS) {
      const file = `emulator/objects/${object.name}.ts`;
      assert.match(
        read(file),
        new RegExp(`defineObject\\(\\{\\s*name: "${object.name}"`),
        `${file} defines ${object.name}`,
      );
    }
    assert.deepEqual(objectFiles().sort(), OBJECTS.map((o) => o.name).sort(), "one file per object, none unlisted");
  });

  it("builds the state schema, the store and the server from OBJECTS; the server imports no object file but the list", () => {
    for (const file of ["emulator/model.ts", "emulator/store.ts", "emulator/server.ts"]) {
      const imports = [...read(file).matchAll(/from "(\.\/objects[^"]*)"/g)].map((m) => m[1]);
      assert.ok(imports.includes("./objects"), `${file} imports the list`);
      // model.ts re-exports the records' types the package has always exported, and store.ts two key types.
      if (file === "emulator/server.ts") assert.deepEqual(imports, ["./objects"], `${file} imports only the list`);
    }
  });

  it("registers every object's routes, and puts every object's operations on the store", async () => {
    let emulator: RunningEmulator | undefined;
    try {
      // Limit off, though the platform has one (20/s, burst 5): this sends one request per route at
      // once, and a 429, answered before routing, would hide whether the route is served at all.
      emulator = await startEmulator({ quiet: true, rateLimit: "off" });
      const store = emulator.store as unknown as Record<string, unknown>;
      assert.ok(OBJECTS.flatMap(routesOf).length >= 12, "the objects' routes are recorded");
      for (const object of OBJECTS) {
        if (object.operations)
          assert.ok(store[object.name], `store.${object.name} holds the ${object.name}' operations`);
        for (const { method, url } of routesOf(object)) {
          const response = await fetch(`${emulator.url}${url.replace(/:[a-z_A-Z]+/g, "x")}`, {
            method,
            headers: { "x-api-key": "tk_emulator" },
          });
          const body = await response.text();
          assert.doesNotMatch(body, /No operation/, `${method} ${url} of ${object.name} is served`);
        }
      }
    } finally {
      await emulator?.close();
    }
  });

  it("has docs/emulator.md's list of objects and its Operations written from OBJECTS: every route, no other", () => {
    assert.ok(!pendingOpenApi().has(EMULATOR_PAGE), "docs/emulator.md is what OBJECTS gives (npm run gen:openapi)");
    const page = read("docs/emulator.md");
    const objects = page.slice(page.indexOf("## Platform objects"));
    for (const object of OBJECTS)
      assert.ok(objects.includes(`\`${object.name}\``), `Platform objects names ${object.name}`);
    const start = page.indexOf("## Operations");
    const table = page.slice(start, page.indexOf("\n## ", start + 1));
    const documented = new Set<string>();
    for (const [, methods, paths] of table.matchAll(/^\| ([A-Z, ]+) \| (.+?) \| .* \|$/gm))
      for (const method of methods.split(/, /))
        for (const [, route] of paths.matchAll(/`([^`]+)`/g))
          documented.add(`${method} ${route.replace(API_PREFIX, "")}`);
    const served = new Set(
      OBJECTS.flatMap(routesOf).map(({ method, url }) => `${method} ${url.replace(API_PREFIX, "")}`),
    );
    assert.deepEqual([...documented].sort(), [...served].sort());
  });

  it("puts a new object's state key into the state schema, after the others, with old data files still valid", () => {
    const throwaway = defineObject({
      name: "throwaways",
      state: { throwaways: z.array(z.object({ _id: z.string() })).default([]) },
      checkReferences: (state: { throwaways: { _id: string }[] }, issue) =>
        state.throwaways.forEach((t, i) => t._id === "bad" && issue(["throwaways", i], "bad throwaway")),
    });
    const fixture = JSON.parse(read("emulator/fixtures/default.json"));
    const withProbe = stateSchemaOf([...OBJECTS, throwaway]);
    const parsed = withProbe.parse(fixture);
    assert.deepEqual(Object.keys(parsed), [...Object.keys(stateSchemaOf(OBJECTS).parse(fixture)), "throwaways"]);
    assert.deepEqual(parsed.throwaways, [], "a data file written before the object existed loads, with none");
    const refused = withProbe.safeParse({ ...fixture, throwaways: [{ _id: "bad" }] });
    assert.equal(refused.success, false, "the new object's reference checks run");
    assert.match(JSON.stringify(refused.error?.issues), /bad throwaway/);
  });
});

/** The routes an object registers, recorded by a stand-in for fastify. */
function routesOf(object: (typeof OBJECTS)[number]): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = [];
  const add = (method: string) => (url: string) => void routes.push({ method, url });
  const app = {
    get: add("GET"),
    put: add("PUT"),
    post: add("POST"),
    delete: add("DELETE"),
    patch: add("PATCH"),
    route: ({ method, url }: { method: string | string[]; url: string }) =>
      [method].flat().forEach((m) => routes.push({ method: m, url })),
  } as unknown as FastifyInstance;
  object.routes?.(app, {} as never);
  return routes;
}
