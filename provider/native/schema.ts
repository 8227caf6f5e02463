// The native provider's package schema, derived from the same definitions the dynamic resources
// use: each property's zod schema gives its type and description, its group whether it is an
// input and whether a change replaces, `secret` whether it is a secret (docs/design/native.md).
// `npm run gen:schema` writes it to sdk/schema.json; the SDKs are generated from that file.
import { z } from "zod";
import { RESOURCES } from "../resources";
import { AnyProperties } from "../resources/properties";
import { schemaTypeOf, TypeSpec } from "../resources/schemaTypes";
import { SETTINGS, type SettingSource } from "../settingNames";
import { DYNAMIC_TYPE_PREFIX, nativeToken, PACKAGE } from "../typeTokens";
import { FUNCTIONS } from "./functions";

/** One property of a resource, a type, a function or the provider, as the schema writes it. */
export interface PropertySpec extends TypeSpec {
  /** What the property is, in the definition's words. */
  description?: string;
  /** Kept encrypted in state; the SDKs wrap it as a secret. */
  secret?: boolean;
  /** A change to it replaces the resource. */
  replaceOnChanges?: boolean;
  /** Default values the SDKs read from the environment (provider settings). */
  defaultInfo?: { environment: string[] };
}

/** An object type of the schema (`types`), or the shape of a function's inputs or outputs. */
export interface ObjectSpec {
  description?: string;
  type: "object";
  properties: Record<string, PropertySpec>;
  required?: string[];
}

/** The schema's top level: what `pulumi package get-schema` prints and the SDK generators read. */
export interface PackageSchema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  keywords: string[];
  homepage: string;
  repository: string;
  license: string;
  publisher: string;
  pluginDownloadURL: string;
  config: { variables: Record<string, PropertySpec> };
  provider: {
    description: string;
    inputProperties: Record<string, PropertySpec>;
    properties: Record<string, PropertySpec>;
  };
  resources: Record<string, unknown>;
  functions: Record<string, unknown>;
  types: Record<string, ObjectSpec>;
  language: Record<string, unknown>;
  meta: { supportPack: boolean };
}

/** The npm, PyPI, Go, NuGet and Maven names of the generated SDKs (docs/guides/languages.md). */
export const SDK_NAMES = {
  nodejs: "pulumi-integration-platform-sdk",
  python: "pulumi_integration_platform",
  go: "github.com/pulumi-integration-platform/pulumi-integration-platform/sdk/go/integrationplatform",
  dotnet: "PulumiIntegrationPlatform",
  /** Maven coordinates (groupId:artifactId), as Maven Central grants a GitHub organization its namespace. */
  java: "io.github.pulumi-integration-platform:integration-platform",
} as const;

/** The Java SDK's package prefix: the Maven groupId as a Java package name (a `-` is not allowed there). */
export const JAVA_BASE_PACKAGE = "io.github.pulumiintegrationplatform";

/**
 * Where the CLI downloads the plugin: the project's GitHub releases (repository
 * `pulumi-integration-platform`, as the CLI derives it from the plugin's name). Every generated SDK
 * carries it, so a program's first `pulumi up` installs the plugin by itself (docs/installation-configuration.md).
 */
export const PLUGIN_DOWNLOAD_URL = "github://api.github.com/pulumi-integration-platform";

/** Builds the package schema; `version` is the package's (package.json). */
export function packageSchema(version: string): PackageSchema {
  const types: Record<string, ObjectSpec> = {};
  const settings = Object.fromEntries(
    (Object.entries(SETTINGS) as [string, SettingSource][]).map(([name, s]) => [
      name,
      {
        type: s.type,
        description: s.description,
        ...(s.secret ? { secret: true } : {}),
        defaultInfo: { environment: [s.env] },
      } as PropertySpec,
    ]),
  );
  const resources: Record<string, unknown> = {};
  for (const definition of RESOURCES) resources[nativeToken(definition.type)] = resourceSpec(definition, types);
  const functions: Record<string, unknown> = {};
  for (const fn of FUNCTIONS) {
    functions[nativeToken(fn.name)] = {
      description: fn.description,
      inputs: objectOf(fn.args, types),
      outputs: fn.outputs(types),
    };
  }
  return {
    name: PACKAGE,
    displayName: "Integration Platform",
    version,
    description:
      "Config fields, application events, workflow toggles and env variable values of the integration platform, as code.",
    keywords: ["pulumi", "integration-platform", "category/utility", "kind/native"],
    homepage: "https://github.com/pulumi-integration-platform/pulumi-integration-platform",
    repository: "https://github.com/pulumi-integration-platform/pulumi-integration-platform",
    license: "Apache-2.0",
    publisher: "pulumi-integration-platform",
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    config: { variables: settings },
    provider: {
      description:
        "The connection to the integration platform. Without an explicit provider, the stack config `integration-platform:*` (or the environment variables) configures the default one.",
      inputProperties: settings,
      // The provider's state repeats its inputs; the secret ones stay secret.
      properties: Object.fromEntries(Object.entries(settings).filter(([name]) => name === "baseUrl")),
    },
    resources,
    functions,
    types,
    // The generators' current layout: among other things, the Go SDK gets its own go.mod.
    meta: { supportPack: true },
    language: {
      nodejs: {
        packageName: SDK_NAMES.nodejs,
        packageDescription: "Pulumi SDK for the integration platform's native provider (generated from its schema).",
        dependencies: { "@pulumi/pulumi": "^3.200.0" },
        devDependencies: { typescript: "^5.9.3", "@types/node": "^22.20.5" },
        respectSchemaVersion: true,
      },
      python: {
        packageName: SDK_NAMES.python,
        requires: { pulumi: ">=3.200.0,<4.0.0" },
        respectSchemaVersion: true,
        pyproject: { enabled: true },
      },
      go: { importBasePath: SDK_NAMES.go, generateResourceContainerTypes: true, respectSchemaVersion: true },
      csharp: { rootNamespace: SDK_NAMES.dotnet, packageReferences: { Pulumi: "3.*" }, respectSchemaVersion: true },
      java: { basePackage: JAVA_BASE_PACKAGE },
    },
  };
}

/** A resource's schema: state properties, inputs, which are required, and the dynamic token it was known by. */
function resourceSpec(definition: (typeof RESOURCES)[number], types: Record<string, ObjectSpec>) {
  const props = definition.properties as AnyProperties;
  const shapes = props.groups;
  const secret = new Set(props.secret as string[]);
  const spec = (name: string, schema: z.ZodType, identity: boolean): PropertySpec => ({
    ...typeOf(schema, types),
    ...(description(schema) ? { description: description(schema) } : {}),
    ...(secret.has(name) ? { secret: true } : {}),
    ...(identity ? { replaceOnChanges: true } : {}),
  });
  const inputs = { ...shapes.identity, ...shapes.settings } as Record<string, z.ZodType>;
  const state = { ...inputs, ...shapes.derived, ...shapes.outputs } as Record<string, z.ZodType>;
  const identity = new Set(props.identity);
  return {
    description: definition.description,
    properties: Object.fromEntries(
      Object.entries(state).map(([name, schema]) => [name, spec(name, schema, identity.has(name))]),
    ),
    // Derived properties are learned from the platform at check, so a state may lack them.
    required: Object.keys(state).filter((name) => !(name in shapes.derived) && !isOptional(state[name])),
    inputProperties: Object.fromEntries(
      Object.entries(inputs).map(([name, schema]) => [name, spec(name, schema, identity.has(name))]),
    ),
    requiredInputs: Object.keys(inputs).filter((name) => !isOptional(inputs[name])),
    // A TypeScript stack moves to the native resources without a replacement (docs/guides/moving-to-native.md).
    aliases: [{ type: `${DYNAMIC_TYPE_PREFIX}${definition.type}` }],
  };
}

/** The inputs or outputs of a function: an object of its zod shape. */
export function objectOf(shape: z.ZodRawShape, types: Record<string, ObjectSpec>): ObjectSpec {
  const entries = Object.entries(shape) as [string, z.ZodType][];
  return {
    type: "object",
    properties: Object.fromEntries(
      entries.map(([name, schema]) => [
        name,
        { ...typeOf(schema, types), ...(description(schema) ? { description: description(schema) } : {}) },
      ]),
    ),
    required: entries.filter(([, schema]) => !isOptional(schema)).map(([name]) => name),
  };
}

/** A property's description: its own, else its wrapped schema's (`.optional()` after `.describe()`). */
export function description(schema: z.ZodType): string | undefined {
  for (let s: z.ZodType | undefined = schema; s; s = inner(s)) if (s.description) return s.description;
  return undefined;
}

/** Whether the property may be left out. */
function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

/** The schema a wrapper wraps (optional, nullable, default, readonly, pipe's input), if it is one. */
function inner(schema: z.ZodType): z.ZodType | undefined {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
  if (def.type === "pipe") return def.in;
  return def.innerType;
}

/** A zod schema's type in the package schema; object types are added to `types` by their registered name. */
export function typeOf(schema: z.ZodType, types: Record<string, ObjectSpec>): TypeSpec {
  const registered = schemaTypeOf(schema);
  if (registered?.type) return registered.type;
  const def = schema._zod.def as {
    type: string;
    element?: z.ZodType;
    shape?: z.ZodRawShape;
    valueType?: z.ZodType;
    checks?: { _zod: { def: { check: string; format?: string } } }[];
  };
  switch (def.type) {
    case "string":
    case "enum":
    case "literal":
      return { type: "string" };
    case "number":
      return { type: (def.checks ?? []).some((c) => c._zod.def.format === "safeint") ? "integer" : "number" };
    case "boolean":
      return { type: "boolean" };
    case "array":
      return { type: "array", items: typeOf(def.element!, types) };
    case "record":
      return { type: "object", additionalProperties: typeOf(def.valueType!, types) };
    case "object": {
      const name = registered?.name;
      if (!name)
        throw new Error(
          `an object schema without a name for the native schema: register it with objectType() (${Object.keys(def.shape ?? {}).join(", ")})`,
        );
      const token = nativeToken(name);
      if (!types[token]) {
        types[token] = { type: "object", properties: {} }; // placeholder first: a type may refer to itself
        types[token] = objectOf(def.shape!, types);
      }
      return { $ref: `#/types/${token}` };
    }
    default: {
      const wrapped = inner(schema);
      if (wrapped) return typeOf(wrapped, types);
      return { $ref: "pulumi.json#/Any" };
    }
  }
}
