// The native schema is derived from the definitions: every property described, identity replacing,
// secrets secret, the dynamic token an alias; and sdk/schema.json is what the definitions give.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { packageSchema } from "../../provider/native/schema";
import { RESOURCES } from "../../provider/resources";
import { description } from "../../provider/native/types";
import { REPLACES, type AnyProperties } from "../../provider/resources/properties";

const REPO = path.resolve(__dirname, "../..");
const { version } = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string };
const schema = packageSchema(version);
type Spec = { description?: string; secret?: boolean; replaceOnChanges?: boolean; $ref?: string; items?: Spec };
type ResourceSpec = {
  description: string;
  properties: Record<string, Spec>;
  inputProperties: Record<string, Spec>;
  requiredInputs: string[];
  aliases: { type: string }[];
};
const resource = (type: string) => schema.resources[`integration-platform:index:${type}`] as ResourceSpec;

describe("native schema", () => {
  it("is checked in as sdk/schema.json, byte for byte what the definitions give (npm run gen:schema)", () => {
    const checkedIn = fs.readFileSync(path.join(REPO, "sdk", "schema.json"), "utf8");
    assert.equal(
      checkedIn,
      `${JSON.stringify(schema, null, 2)}\n`,
      "run `npm run gen:schema` and `bash scripts/gen-sdk.sh`, and commit both",
    );
  });

  it("has every resource type, described, with its dynamic token as an alias, and the component", () => {
    assert.deepEqual(
      Object.keys(schema.resources).sort(),
      [...RESOURCES.map((d) => d.type), "LinkedAccountSetup"]
        .map((type) => `integration-platform:index:${type}`)
        .sort(),
    );
    for (const definition of RESOURCES) {
      const spec = resource(definition.type);
      assert.ok(spec.description.length > 20, `${definition.type} is described`);
      assert.deepEqual(spec.aliases, [{ type: `pulumi-nodejs:dynamic/integration-platform:${definition.type}` }]);
    }
  });

  it("has LinkedAccountSetup as a component whose entry types are the children's settings, secrets kept secret", () => {
    const setup = schema.resources["integration-platform:index:LinkedAccountSetup"] as ResourceSpec & {
      isComponent: boolean;
    };
    assert.equal(setup.isComponent, true);
    assert.deepEqual(setup.requiredInputs, ["linkedAccountId", "slug"]);
    assert.deepEqual(Object.keys(setup.inputProperties), [
      "linkedAccountId",
      "slug",
      "configId",
      "fields",
      "workflows",
      "envValues",
    ]);
    const type = (name: string) =>
      (schema.types as Record<string, { properties: Record<string, { secret?: boolean }> }>)[
        `integration-platform:index:${name}`
      ];
    assert.deepEqual(Object.keys(type("SetupField").properties), [
      "fieldId",
      "workflowId",
      ...Object.keys(resource("ConfigField").inputProperties).filter(
        (name) => !["slug", "linkedAccountId", "configId", "fieldId", "workflowId"].includes(name),
      ),
    ]);
    assert.deepEqual(
      Object.entries(type("SetupEnvValue").properties)
        .filter(([, p]) => p.secret)
        .map(([name]) => name),
      ["value", "restoreOnDelete"],
    );
  });

  it("describes every property, replaces on identity, and keeps secrets secret", () => {
    for (const definition of RESOURCES) {
      const props = definition.properties as AnyProperties;
      const spec = resource(definition.type);
      for (const [name, property] of Object.entries(spec.properties)) {
        assert.ok(
          property.description && property.description.length > 5,
          `${definition.type}.${name} has a description`,
        );
        assert.equal(
          property.replaceOnChanges === true,
          props.identity.includes(name),
          `${definition.type}.${name}: replaceOnChanges only for identity`,
        );
        assert.equal(
          property.secret === true,
          (props.secret as string[]).includes(name),
          `${definition.type}.${name}: secret as declared`,
        );
      }
      assert.deepEqual(
        Object.keys(spec.inputProperties),
        [...props.identity, ...props.settings],
        `${definition.type}: inputs are identity and settings`,
      );
    }
    assert.deepEqual(
      Object.entries(resource("EnvVariableValue").properties)
        .filter(([, p]) => p.secret)
        .map(([name]) => name),
      ["value", "restoreOnDelete", "previousValue"],
    );
    assert.deepEqual(resource("WorkflowToggle").requiredInputs, [
      "slug",
      "linkedAccountId",
      "configId",
      "workflowId",
      "enabled",
    ]);
    assert.deepEqual(resource("ConfigField").properties.options, {
      type: "array",
      items: { $ref: "#/types/integration-platform:index:NameValue" },
      description: "The options of a select or map field. Omit them to leave the options alone; `[]` clears them.",
    });
  });

  it("gives the provider every setting, the API key and token as secrets, each with its environment variable", () => {
    const settings = schema.provider.inputProperties as Record<
      string,
      Spec & { defaultInfo?: { environment: string[] } }
    >;
    assert.deepEqual(Object.keys(settings), [
      "baseUrl",
      "apiKey",
      "token",
      "timeoutMs",
      "maxRetries",
      "requestsPerSecond",
      "rateLimitBudgetMs",
      "createWithoutRead",
      "allowPlainHttp",
      "validateAtPreview",
    ]);
    assert.deepEqual(
      Object.entries(settings)
        .filter(([, s]) => s.secret)
        .map(([name]) => name),
      ["apiKey", "token"],
    );
    assert.deepEqual(settings.apiKey.defaultInfo, { environment: ["INTEGRATION_PLATFORM_API_KEY"] });
    assert.deepEqual(schema.config.variables, settings);
  });

  it("has the lookups and getShard as functions, getEnvValues' list secret", () => {
    assert.deepEqual(
      Object.keys(schema.functions),
      ["getLinkedAccounts", "getEnvDefinitions", "getEnvDefinition", "getEnvValues", "getAuditEvents", "getShard"].map(
        (n) => `integration-platform:index:${n}`,
      ),
    );
    const values = schema.functions["integration-platform:index:getEnvValues"] as {
      outputs: { properties: Record<string, Spec> };
    };
    assert.equal(values.outputs.properties.values.secret, true);
  });

  it("says what each property's JSDoc says: the description is the same text, as data (identity: and REPLACES)", () => {
    // The JSDoc is what TypeScript users of the dynamic classes see; the description is what every other surface shows.
    // An identity property's says, after its JSDoc, that a change replaces the resource: the group adds it.
    let compared = 0;
    for (const file of ["configField", "workflowToggle", "envVariableValue", "applicationEvent"]) {
      const source = ts.createSourceFile(
        file,
        fs.readFileSync(path.join(REPO, "provider/resources", `${file}.ts`), "utf8"),
        ts.ScriptTarget.Latest,
        true,
      );
      const definition = RESOURCES.find((d) => d.type.toLowerCase() === file.toLowerCase())!;
      const groups = (definition.properties as AnyProperties).groups as unknown as Record<
        string,
        Record<string, import("zod").ZodType>
      >;
      const shape = Object.assign({}, ...Object.values(groups).filter((g) => !Array.isArray(g)));
      const visit = (node: ts.Node) => {
        if (
          ts.isPropertyAssignment(node) &&
          ts.isIdentifier(node.name) &&
          node.name.text in shape &&
          // A property of the type's documented shape (provider/documented.ts), whose JSDoc is its description.
          node.parent.parent.getText().startsWith(`documented(${JSON.stringify(definition.type)}`)
        ) {
          const doc = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc).pop();
          if (doc) {
            const text = (
              typeof doc.comment === "string" ? doc.comment : (doc.comment ?? []).map((c) => c.text).join("")
            )
              .replace(/\s+/g, " ")
              .trim();
            const identity = (definition.properties as AnyProperties).identity.includes(node.name.text);
            const expected = identity ? `${text} ${REPLACES}` : text;
            assert.equal(description(shape[node.name.text]), expected, `${definition.type}.${node.name.text}`);
            compared++;
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    assert.ok(compared >= 30, `compared ${compared} properties`);
  });
});
