// Construct: the multi-language component LinkedAccountSetup, built in the plugin and registered
// through the engine's resource monitor, so that every language's SDK gets the TypeScript
// component's children under the same names. The SDK's own provider server does these steps in a
// class it does not export, and its main() would replace this plugin's service, so they are
// repeated here (docs/design/native.md, "Components").
// Types from the SDK's index; values from its modules: the index also loads the Automation API and
// closure serialization (TypeScript itself), a second of the plugin's start (docs/design/native.md).
import type * as pulumi from "@pulumi/pulumi";
import { isUnknown, output, secret, unsecret } from "@pulumi/pulumi/output";
import {
  ComponentResource,
  CustomResource,
  DependencyProviderResource,
  DependencyResource,
  rootStackResource,
} from "@pulumi/pulumi/resource";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as runtimeConfig from "@pulumi/pulumi/runtime/config";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { childName, envKey, fieldKey, LinkedAccountSetupDefinition } from "../components/setupDefinition";
import { RESOURCES, type ResourceType } from "../resources";
import { DYNAMIC_TYPE_PREFIX, nativeToken, PACKAGE } from "../typeTokens";
import { PLUGIN_DOWNLOAD_URL } from "./schema";

/**
 * What the SDK's provider server uses and marks internal (not in its declarations): the runtime's
 * settings, its per-call store, and the decoding of a call's inputs.
 */
const sdk = {
  settings: require("@pulumi/pulumi/runtime/settings") as {
    resetOptions(...args: [string, string, number, string, string, boolean, string]): void;
    awaitFeatureSupport(): Promise<void>;
    waitForRPCs(): Promise<void>;
    getEngine(): unknown;
  },
  state: require("@pulumi/pulumi/runtime/state") as {
    withLocalStorage<T>(body: () => Promise<T>): Promise<T>;
    getStore(): { settings: { monitor?: unknown; engine?: unknown } };
  },
  server: require("@pulumi/pulumi/provider/server") as {
    deserializeInputs(inputs: structproto.Struct, dependencies: unknown): Promise<Record<string, unknown>>;
  },
};

/** The component's token: `integration-platform:index:LinkedAccountSetup`. */
const SETUP_TOKEN = nativeToken(LinkedAccountSetupDefinition.type);

/** An Output's value with unknowns left as `unknown`; the SDK keeps this method to itself. */
function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return (output as unknown as { promise(withUnknowns: boolean): Promise<T> }).promise(true);
}

/** The component's resource options, from the request, as the SDK's server rebuilds them. */
function optionsOf(req: provproto.ConstructRequest): pulumi.ComponentResourceOptions {
  const aliases: pulumi.Input<string | pulumi.Alias>[] = req.getAliasesList().map((alias) => {
    if (alias.hasUrn()) return alias.getUrn();
    const spec = alias.getSpec()!;
    return {
      ...(spec.getName() ? { name: spec.getName() } : {}),
      ...(spec.getProject() ? { project: spec.getProject() } : {}),
      ...(spec.getStack() ? { stack: spec.getStack() } : {}),
      ...(spec.hasParenturn()
        ? { parent: spec.getParenturn() }
        : spec.getNoparent()
          ? { parent: rootStackResource }
          : {}),
    };
  });
  const providers: Record<string, pulumi.ProviderResource> = {};
  for (const [pkg, ref] of req.getProvidersMap().entries()) providers[pkg] = new DependencyProviderResource(ref);
  return {
    aliases,
    dependsOn: req.getDependenciesList().map((urn) => new DependencyResource(urn)),
    protect: req.getProtect(),
    providers,
    parent: req.getParent() ? new DependencyResource(req.getParent()) : undefined,
    retainOnDelete: req.getRetainondelete(),
    deletedWith: req.getDeletedwith() ? new DependencyResource(req.getDeletedwith()) : undefined,
  };
}

/** Thrown for an input the component cannot use; the message names the property and says what to do. */
class SetupInputError extends Error {}

/**
 * A list or map input: its plain value (to name the children) and, per entry, its properties as
 * Outputs of the whole input, so that a secret or a dependency anywhere in it reaches every child.
 */
async function entriesOf(setup: string, property: string, input: unknown) {
  const whole = output(input) as pulumi.Output<unknown>;
  const plain = await valueOf(whole);
  const unknownAt = `LinkedAccountSetup ${setup}: ${property}`;
  if (isUnknown(plain)) {
    throw new SetupInputError(`${unknownAt} must be known at preview: its entries' ids name the child resources`);
  }
  if (plain === undefined || plain === null) return [];
  const list = Array.isArray(plain) ? plain.map((v, i) => [i, v] as const) : Object.entries(plain as object);
  return list.map(([at, entry]) => {
    if (typeof entry !== "object" || entry === null || isUnknown(entry)) {
      throw new SetupInputError(`${unknownAt}[${JSON.stringify(at)}] must be an object known at preview`);
    }
    const values = entry as Record<string, unknown>;
    /** A property of this entry as an Output of the whole input. */
    const prop = (key: string) =>
      whole.apply((all) => (all as Record<string | number, Record<string, unknown>>)[at][key]);
    /** An id of this entry, which names the child: a string known at preview, or absent. */
    const id = (key: string, required: boolean): string | undefined => {
      const value = values[key];
      if (value === undefined && !required) return undefined;
      if (typeof value !== "string" || value === "") {
        throw new SetupInputError(
          `${unknownAt}[${JSON.stringify(at)}].${key} must be a non-empty string known at preview: ` +
            "it names the child resource",
        );
      }
      return value;
    };
    return { at, values, prop, id };
  });
}

/** Each type's secret properties, which its children wrap and register as secret outputs. */
const SECRETS = new Map(RESOURCES.map((d) => [d.type as ResourceType, d.properties.secret as string[]]));

/** The resource options of a child of `type`: its parent, the plugin, its dynamic alias and its secrets. */
function childOptions(type: ResourceType, parent: pulumi.Resource, version: string): pulumi.CustomResourceOptions {
  return {
    parent,
    version,
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    // The dynamic component's children had the dynamic token: a stack moves over with no write.
    aliases: [{ type: `${DYNAMIC_TYPE_PREFIX}${type}` }],
    additionalSecretOutputs: [...SECRETS.get(type)!],
  };
}

/** A child's inputs: its secret ones wrapped as secrets, as the generated SDKs do. */
function childInputs(type: ResourceType, inputs: Record<string, unknown>): pulumi.Inputs {
  const secrets = SECRETS.get(type)!;
  const out: pulumi.Inputs = {};
  for (const [key, value] of Object.entries(inputs)) {
    if (value === undefined) continue;
    out[key] = secrets.includes(key) ? secret(value as pulumi.Input<unknown>) : (value as pulumi.Input<unknown>);
  }
  return out;
}

/**
 * Constructs a resource through the SDK with Error.stackTraceLimit at 0, as the dynamic classes and the
 * generated TypeScript SDK do: the SDK formats a stack trace for each promise it makes, which only its
 * promise-leak report prints, and a fifth of the plugin's CPU at a preview of setups went to them
 * (docs/design/resources.md, "Registering many"). The limit comes back whatever happens.
 */
function withoutPromiseStacks<T>(construct: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return construct();
  } catch (error) {
    // What the SDK refuses at once keeps a stack, from the line that constructed the resource.
    Error.stackTraceLimit = limit;
    if (error instanceof Error) Error.captureStackTrace(error, withoutPromiseStacks);
    throw error;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The component resource itself: it has no outputs. */
class SetupComponent extends ComponentResource {
  constructor(name: string, opts: pulumi.ComponentResourceOptions) {
    super(SETUP_TOKEN, name, {}, opts);
  }

  /** Says the children are all declared. */
  done(): void {
    this.registerOutputs({});
  }
}

/** A child resource: served by this plugin when the engine creates it, like any native resource. */
class SetupChild extends CustomResource {}

/** Declares one child of `component`, served by this plugin at `version`. */
function declareChild(
  component: SetupComponent,
  version: string,
  type: ResourceType,
  child: string,
  props: Record<string, unknown>,
  retainOnDelete?: boolean,
): SetupChild {
  return withoutPromiseStacks(
    () =>
      new SetupChild(nativeToken(type), child, childInputs(type, props), {
        ...childOptions(type, component, version),
        ...(retainOnDelete === undefined ? {} : { retainOnDelete }),
      }),
  );
}

/**
 * Declares a LinkedAccountSetup and its children, as the TypeScript one does
 * (components/linkedAccountSetup.ts): what Construct runs, with the call's inputs decoded.
 */
export async function declareSetup(
  name: string,
  inputs: Record<string, unknown>,
  opts: pulumi.ComponentResourceOptions,
  version: string,
): Promise<SetupComponent> {
  const component = withoutPromiseStacks(() => new SetupComponent(name, opts));
  const config = {
    slug: inputs.slug,
    linkedAccountId: inputs.linkedAccountId,
    configId: inputs.configId ?? inputs.linkedAccountId,
  };
  const declare = (type: ResourceType, child: string, props: Record<string, unknown>, retainOnDelete?: boolean) =>
    declareChild(component, version, type, child, props, retainOnDelete);
  // A secret anywhere in a list arrives as the whole list secret (the SDKs push secretness up): a
  // flag (true or false) is never the secret, so it is stored plain; every other setting stays secret.
  const settingsOf = (
    entry: { values: Record<string, unknown>; prop: (key: string) => pulumi.Output<unknown> },
    skip: string[],
  ) =>
    Object.fromEntries(
      Object.keys(entry.values)
        .filter((k) => !skip.includes(k))
        .map((k) => [k, typeof entry.values[k] === "boolean" ? unsecret(entry.prop(k)) : entry.prop(k)]),
    );

  const seen = new Set<string>();
  for (const entry of await entriesOf(name, "fields", inputs.fields)) {
    const fieldId = entry.id("fieldId", true)!;
    const workflowId = entry.id("workflowId", false);
    const key = fieldKey(fieldId, workflowId);
    if (seen.has(key)) throw new SetupInputError(`LinkedAccountSetup ${name}: field ${key} is listed twice`);
    seen.add(key);
    declare("ConfigField", childName(name, "field", key), {
      ...config,
      fieldId,
      workflowId,
      ...settingsOf(entry, ["fieldId", "workflowId"]),
    });
  }
  for (const entry of await entriesOf(name, "workflows", inputs.workflows)) {
    const workflowId = String(entry.at);
    declare("WorkflowToggle", childName(name, "workflow", workflowId), {
      ...config,
      workflowId,
      ...settingsOf(entry, []),
    });
  }
  seen.clear();
  for (const entry of await entriesOf(name, "envValues", inputs.envValues)) {
    const definitionId = entry.id("definitionId", true)!;
    const workflowId = entry.id("workflowId", false);
    const key = envKey(definitionId, workflowId);
    if (seen.has(key)) throw new SetupInputError(`LinkedAccountSetup ${name}: env value ${key} is listed twice`);
    seen.add(key);
    const retain = entry.values.retainOnDelete;
    if (retain !== undefined && typeof retain !== "boolean") {
      throw new SetupInputError(
        `LinkedAccountSetup ${name}: envValues[${entry.at}].retainOnDelete must be true or false, known at preview`,
      );
    }
    // retainOnDelete is a resource option, not an input: it must not reach the provider.
    declare(
      "EnvVariableValue",
      childName(name, "env", key),
      {
        linkedAccountId: inputs.linkedAccountId,
        definitionId,
        workflowId,
        ...settingsOf(entry, ["definitionId", "workflowId", "retainOnDelete"]),
      },
      retain,
    );
  }
  component.done();
  return component;
}

/**
 * The resource monitor's and the engine's gRPC clients of the last Construct, which the next one of the same
 * deployment reuses: the SDK's per-call store would open two channels for every Construct and close neither.
 */
let clients: { monitorAddress: string; monitor: unknown; engine: unknown } | undefined;

/** The Construct method: `engine` is the engine's address the plugin was started with; `version` the plugin's. */
export function construct(
  engine: string | undefined,
  version: string,
): (req: provproto.ConstructRequest) => Promise<provproto.ConstructResponse> {
  return (req) =>
    // Each construct keeps its own resource registrations, as the SDK's server does.
    sdk.state.withLocalStorage(async () => {
      if (req.getType() !== SETUP_TOKEN) {
        throw new Error(
          `${PACKAGE}: unknown component ${JSON.stringify(req.getType())}; this provider serves ${SETUP_TOKEN}`,
        );
      }
      if (!engine) throw new Error(`${PACKAGE}: the plugin was started without the engine's address`);
      sdk.settings.resetOptions(
        req.getProject(),
        req.getStack(),
        req.getParallel(),
        engine,
        req.getMonitorendpoint(),
        req.getDryrun(),
        req.getOrganization(),
      );
      const { settings } = sdk.state.getStore();
      if (clients?.monitorAddress === req.getMonitorendpoint()) {
        settings.monitor = clients.monitor;
        settings.engine = clients.engine;
      }
      await sdk.settings.awaitFeatureSupport();
      clients = {
        monitorAddress: req.getMonitorendpoint(),
        monitor: settings.monitor,
        engine: sdk.settings.getEngine(),
      };
      runtimeConfig.setAllConfig(Object.fromEntries(req.getConfigMap().entries()), req.getConfigsecretkeysList());
      const inputs = await sdk.server.deserializeInputs(req.getInputs()!, req.getInputdependenciesMap());
      const component = await declareSetup(req.getName(), inputs, optionsOf(req), version);
      const response = new provproto.ConstructResponse();
      response.setUrn(await valueOf(component.urn));
      response.setState(structproto.Struct.fromJavaScript({}));
      // Every child's registration answered before the engine hears the component is done.
      await sdk.settings.waitForRPCs();
      return response;
    });
}
