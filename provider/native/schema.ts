// The native provider's package schema, derived from the same definitions the dynamic resources
// use: each property's zod schema gives its type and description, its group whether it is an
// input and whether a change replaces, `secret` whether it is a secret (docs/design/native.md).
// `npm run gen:schema` writes it to sdk/schema.json; the SDKs are generated from that file.
import { z } from "zod";
import { LinkedAccountSetupDefinition } from "../components/setupDefinition";
import { LOOKUPS } from "../functions";
import { RESOURCES } from "../resources";
import { AnyProperties } from "../resources/properties";
import { SETTINGS, type SettingSource } from "../settingNames";
import { DYNAMIC_TYPE_PREFIX, nativeToken, PACKAGE } from "../typeTokens";
import { functionSpec } from "./functions";
import { REPOSITORY, sdkReadme } from "./sdkReadmes";
import { description, isOptional, objectOf, ObjectSpec, PropertySpec, typeOf } from "./types";

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
  /** The package's logo, which the Pulumi Registry shows: assets/logo.svg served raw from GitHub. */
  logoUrl: string;
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

/**
 * The logo the Pulumi Registry shows on the package's page: `assets/logo.svg` of the main branch, served raw
 * by GitHub (as pulumi-command's points at its `assets/logo.svg`).
 */
export const LOGO_URL =
  "https://raw.githubusercontent.com/pulumi-integration-platform/pulumi-integration-platform/main/assets/logo.svg";

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
  resources[nativeToken(LinkedAccountSetupDefinition.type)] = componentSpec(types);
  const functions: Record<string, unknown> = {};
  for (const lookup of LOOKUPS) functions[nativeToken(lookup.name)] = functionSpec(lookup, types);
  return {
    name: PACKAGE,
    displayName: "Integration Platform",
    version,
    description:
      "Config fields, application events, workflow toggles and env variable values of the integration platform, " +
      "as code.",
    keywords: ["pulumi", "integration-platform", "category/utility", "kind/native"],
    homepage: REPOSITORY,
    repository: REPOSITORY,
    license: "Apache-2.0",
    logoUrl: LOGO_URL,
    publisher: "pulumi-integration-platform",
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    config: { variables: settings },
    provider: {
      description:
        "The connection to the integration platform. Without an explicit provider, the stack config " +
        "`integration-platform:*` (or the environment variables) configures the default one.",
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
        // npm's page of the package (the generator writes it as sdk/nodejs/README.md).
        readme: sdkReadme("nodejs", version, PLUGIN_DOWNLOAD_URL),
        respectSchemaVersion: true,
      },
      python: {
        packageName: SDK_NAMES.python,
        requires: { pulumi: ">=3.200.0,<4.0.0" },
        // PyPI's page of the package: tools/sdkgen makes it the project's README.md, which pyproject.toml names.
        readme: sdkReadme("python", version, PLUGIN_DOWNLOAD_URL),
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

/**
 * LinkedAccountSetup as a multi-language component: the plugin constructs it (native/construct.ts),
 * so every SDK gets it with the TypeScript component's children and names. It has no outputs.
 */
function componentSpec(types: Record<string, ObjectSpec>) {
  const inputs = objectOf(LinkedAccountSetupDefinition.inputs, types);
  for (const [type, names] of Object.entries(LinkedAccountSetupDefinition.secret)) {
    for (const name of names) {
      const property = types[nativeToken(type)]?.properties[name];
      if (property) property.secret = true;
    }
  }
  return {
    isComponent: true,
    description: LinkedAccountSetupDefinition.description,
    // No `properties`: it has no outputs, and an empty object is what the engine drops from the
    // schema it serves, so the plugin's schema and sdk/schema.json would differ.
    inputProperties: inputs.properties,
    requiredInputs: inputs.required,
  };
}
