// The native provider's gRPC service: the engine's calls, each served by the same definition
// the dynamic resources use (docs/design/native.md). The SDK's own provider server answers
// CheckConfig and DiffConfig with "not implemented", drops Configure's variables and loses
// secrets, so the service is written here against the SDK's generated stubs.
import * as grpc from "@grpc/grpc-js";
import type { z } from "zod";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import { SettingsError } from "../client/errors";
import { useStackConfig } from "../connection";
import { RESOURCES } from "../resources";
import { UNKNOWN, containsUnknown } from "../resources/inputs";
import { providers } from "../dynamic/host";
import { resolveSettings, type ConfigReader } from "../settings";
import { SETTINGS, type SettingSource } from "../settingNames";
import { PACKAGE, NATIVE_TYPE_PREFIX } from "../typeTokens";
import { functionNamed } from "./functions";
import { packageSchema, typeOf } from "./schema";

const provproto = require("@pulumi/pulumi/proto/provider_pb");
const pluginproto = require("@pulumi/pulumi/proto/plugin_pb");

/** The key and value that mark a secret in the engine's property values. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

type Props = Record<string, unknown>;
type Call<Req> = grpc.ServerUnaryCall<Req, unknown>;
type Callback = grpc.sendUnaryData<unknown>;

/** True for a value the engine marked secret. */
function isSecret(value: unknown): value is { value: unknown } {
  return typeof value === "object" && value !== null && (value as Props)[SIG_KEY] === SECRET_SIG;
}

/** The value with every secret marker removed, at any depth. */
export function reveal(value: unknown): unknown {
  if (isSecret(value)) return reveal(value.value);
  if (Array.isArray(value)) return value.map(reveal);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v)]));
  return value;
}

/** Marks a value secret for the engine. */
function secret(value: unknown): unknown {
  return value === undefined || isSecret(value) ? value : { [SIG_KEY]: SECRET_SIG, value };
}

/** The properties with `keys` marked secret; `undefined`s dropped (a Struct cannot hold them). */
export function conceal(props: Props, keys: Iterable<string>): Props {
  const out: Props = Object.fromEntries(Object.entries(props).filter(([, v]) => v !== undefined));
  for (const key of keys) if (key in out) out[key] = secret(out[key]);
  return out;
}

/** The top-level keys the engine sent as secrets. */
function secretKeys(props: Props): string[] {
  return Object.keys(props).filter((key) => isSecret(props[key]));
}

/** A Struct's properties, as plain values, without the dynamic resources' `__provider` (a stack moved from them keeps it in its old state). */
function propsOf(struct: { toJavaScript(): Props } | undefined): Props {
  const props = (struct?.toJavaScript() ?? {}) as Props;
  delete props.__provider;
  return props;
}

function toStruct(props: Props) {
  return structproto.Struct.fromJavaScript(props as Record<string, structproto.JavaScriptValue>);
}

/** The type's name from a URN (`urn:pulumi:stack::project::parent$integration-platform:index:ConfigField::name`). */
function typeOfUrn(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  const token = qualified.split("$").pop() ?? "";
  return token.startsWith(NATIVE_TYPE_PREFIX) ? token.slice(NATIVE_TYPE_PREFIX.length) : token;
}

/** The definition and the provider serving a URN's type; an error naming the type otherwise. */
function served(urn: string) {
  const type = typeOfUrn(urn);
  const definition = RESOURCES.find((d) => d.type === type);
  if (!definition)
    throw new Error(
      `${PACKAGE}: unknown resource type ${JSON.stringify(type)}; this provider serves ${RESOURCES.map((d) => d.type).join(", ")}`,
    );
  // The same providers the dynamic host serves (dynamic/host.ts), failures named in the reason.
  const provider = providers[definition.type];
  return { definition, provider, secrets: definition.properties.secret as string[], strings: stringInputs(definition) };
}

/** The inputs a type declares as strings, by type name: what a number or a boolean given to them means. */
const STRING_INPUTS = new Map<string, Set<string>>();
function stringInputs(definition: (typeof RESOURCES)[number]): Set<string> {
  let names = STRING_INPUTS.get(definition.type);
  if (!names) {
    const { identity, settings } = definition.properties.groups as unknown as Record<string, Record<string, z.ZodType>>;
    names = new Set(
      Object.entries({ ...identity, ...settings })
        .filter(([, schema]) => typeOf(schema, {}).type === "string")
        .map(([name]) => name),
    );
    STRING_INPUTS.set(definition.type, names);
  }
  return names;
}

/**
 * The inputs with a number or boolean given to a string property turned into its text. Pulumi YAML
 * passes a config value that reads as a number as a number, even one declared `type: string`;
 * the schema says the property is a string, so that is what the value means.
 */
function asDeclared(news: Props, strings: Set<string>): Props {
  const out = { ...news };
  for (const name of strings) {
    const value = out[name];
    if (typeof value === "number" || typeof value === "boolean") out[name] = String(value);
  }
  return out;
}

/** Serves one gRPC method: runs `body`, answers its result, or the error as a gRPC status whose message says what to do. */
function method<Req>(body: (req: Req) => Promise<unknown>) {
  return (call: Call<Req>, callback: Callback) => {
    body(call.request).then(
      (response) => callback(null, response),
      (error: Error) =>
        callback({ code: grpc.status.UNKNOWN, details: error?.message ?? String(error) } as grpc.ServiceError, null),
    );
  };
}

/** The provider's settings, by name (`baseUrl`), as the config reader that settings.ts reads `integration-platform:baseUrl` with. */
function readerOf(values: Props): ConfigReader {
  return {
    get: (key) => {
      const value = reveal(values[key.slice(PACKAGE.length + 1)]);
      if (value === undefined || value === null || value === UNKNOWN) return undefined;
      return typeof value === "string" ? value : JSON.stringify(value);
    },
  };
}

/** Why the provider's settings cannot work, one failure per setting; a missing setting is not one (the environment may supply it, and a preview may need none). */
function settingsFailures(news: Props): { property: string; reason: string }[] {
  const reader = readerOf(news);
  // Stand-ins for the two required settings, so that what remains to fail is a value given.
  const complete: ConfigReader = {
    get: (key) =>
      reader.get(key) ??
      (key === SETTINGS.baseUrl.config ? "http://localhost" : key === SETTINGS.apiKey.config ? "set" : undefined),
  };
  try {
    resolveSettings(complete, {});
    return [];
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    // The reason names the setting; a failure with a property would have the engine print its value.
    return [{ property: "", reason: error.message }];
  }
}

/** The settings that are secrets: always kept secret in the provider's state, however they were given. */
const SECRET_SETTINGS = (Object.entries(SETTINGS) as [string, SettingSource][])
  .filter(([, s]) => s.secret)
  .map(([name]) => name);

/** The service the engine calls; `version` is the package's. */
export function resourceProviderService(version: string) {
  const schema = JSON.stringify(packageSchema(version));
  return {
    getPluginInfo: method(async () => {
      const info = new pluginproto.PluginInfo();
      info.setVersion(version);
      return info;
    }),
    getSchema: method(async (req: { getVersion(): number }) => {
      if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
      const response = new provproto.GetSchemaResponse();
      response.setSchema(schema);
      return response;
    }),
    checkConfig: method(async (req: { getNews(): { toJavaScript(): Props } }) => {
      const news = propsOf(req.getNews());
      const response = new provproto.CheckResponse();
      response.setInputs(toStruct(conceal(news, SECRET_SETTINGS)));
      const failures = containsUnknown(news) ? [] : settingsFailures(news);
      response.setFailuresList(failures.map(checkFailure));
      return response;
    }),
    diffConfig: method(async (req: { getOlds(): { toJavaScript(): Props }; getNews(): { toJavaScript(): Props } }) => {
      const [olds, news] = [reveal(propsOf(req.getOlds())) as Props, reveal(propsOf(req.getNews())) as Props];
      const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((key) => key !== "version");
      const changed = keys.filter((key) => !isDeepStrictEqual(olds[key], news[key]));
      // A new address or credential reaches the same platform objects: the resources stay, none is replaced.
      const response = new provproto.DiffResponse();
      response.setChanges(
        changed.length > 0
          ? provproto.DiffResponse.DiffChanges.DIFF_SOME
          : provproto.DiffResponse.DiffChanges.DIFF_NONE,
      );
      response.setDiffsList(changed);
      return response;
    }),
    configure: method(
      async (req: {
        getVariablesMap(): { toObject(): [string, string][] };
        hasArgs(): boolean;
        getArgs(): { toJavaScript(): Props };
      }) => {
        // Typed arguments where the engine sends them; else its variables, `integration-platform:config:<name>`.
        const settings: Props = req.hasArgs() ? propsOf(req.getArgs()) : {};
        for (const [key, value] of req.getVariablesMap().toObject()) {
          const name = key.replace(`${PACKAGE}:config:`, "").replace(`${PACKAGE}:`, "");
          if (!(name in settings)) settings[name] = value;
        }
        useStackConfig(readerOf(settings));
        const response = new provproto.ConfigureResponse();
        response.setAcceptsecrets(true);
        response.setSupportspreview(false);
        response.setAcceptresources(false);
        response.setAcceptoutputs(false);
        return response;
      },
    ),
    check: method(
      async (req: { getUrn(): string; getOlds(): { toJavaScript(): Props }; getNews(): { toJavaScript(): Props } }) => {
        const { provider, secrets, strings } = served(req.getUrn());
        const [olds, news] = [propsOf(req.getOlds()), propsOf(req.getNews())];
        const result = await provider.check!(reveal(olds) as Props, asDeclared(reveal(news) as Props, strings));
        const response = new provproto.CheckResponse();
        // Whatever the user made secret stays secret, and the type's secrets always are.
        response.setInputs(toStruct(conceal((result.inputs ?? {}) as Props, [...secrets, ...secretKeys(news)])));
        response.setFailuresList((result.failures ?? []).map(checkFailure));
        return response;
      },
    ),
    diff: method(
      async (req: {
        getId(): string;
        getUrn(): string;
        getOlds(): { toJavaScript(): Props };
        getNews(): { toJavaScript(): Props };
      }) => {
        const { provider, definition } = served(req.getUrn());
        const [olds, news] = [reveal(propsOf(req.getOlds())) as Props, reveal(propsOf(req.getNews())) as Props];
        const result = await provider.diff!(req.getId(), olds, news);
        const { identity, settings } = definition.properties as { identity: string[]; settings: string[] };
        const changed = [...identity, ...settings].filter(
          (key) => containsUnknown(news[key]) || !isDeepStrictEqual(olds[key], news[key]),
        );
        const response = new provproto.DiffResponse();
        response.setChanges(
          result.changes ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE,
        );
        response.setReplacesList(result.replaces ?? []);
        response.setDiffsList(changed);
        // The detailed diff names each changed property and whether it replaces, so previews show exactly those.
        const detailed = response.getDetaileddiffMap();
        for (const key of changed) {
          const kind = new provproto.PropertyDiff();
          const replaces = (result.replaces ?? []).includes(key);
          const was = olds[key] === undefined,
            gone = news[key] === undefined;
          const K = provproto.PropertyDiff.Kind;
          kind.setKind(
            was
              ? replaces
                ? K.ADD_REPLACE
                : K.ADD
              : gone
                ? replaces
                  ? K.DELETE_REPLACE
                  : K.DELETE
                : replaces
                  ? K.UPDATE_REPLACE
                  : K.UPDATE,
          );
          kind.setInputdiff(true);
          detailed.set(key, kind);
        }
        response.setHasdetaileddiff(true);
        return response;
      },
    ),
    create: method(async (req: { getUrn(): string; getProperties(): { toJavaScript(): Props } }) => {
      const { provider, secrets } = served(req.getUrn());
      const inputs = propsOf(req.getProperties());
      const result = await provider.create!(reveal(inputs) as Props);
      const response = new provproto.CreateResponse();
      response.setId(result.id);
      response.setProperties(toStruct(conceal(result.outs as Props, [...secrets, ...secretKeys(inputs)])));
      return response;
    }),
    read: method(
      async (req: {
        getId(): string;
        getUrn(): string;
        getProperties(): { toJavaScript(): Props };
        getInputs(): { toJavaScript(): Props };
      }) => {
        const { provider, secrets } = served(req.getUrn());
        const props = propsOf(req.getProperties());
        const id = req.getId();
        // `pulumi import` (or the `import` option) reads with the id alone: the definition finds the object from it.
        const importing = Object.keys(props).length === 0;
        const result = importing ? await provider.importById(id) : await provider.read!(id, reveal(props) as Props);
        const response = new provproto.ReadResponse();
        response.setId(result.id ?? "");
        const keep = [...secrets, ...secretKeys(props)];
        response.setProperties(toStruct(conceal((result.props ?? {}) as Props, keep)));
        if (result.inputs) response.setInputs(toStruct(conceal(result.inputs as Props, keep)));
        return response;
      },
    ),
    update: method(
      async (req: {
        getId(): string;
        getUrn(): string;
        getOlds(): { toJavaScript(): Props };
        getNews(): { toJavaScript(): Props };
      }) => {
        const { provider, secrets } = served(req.getUrn());
        const [olds, news] = [propsOf(req.getOlds()), propsOf(req.getNews())];
        const result = await provider.update!(req.getId(), reveal(olds) as Props, reveal(news) as Props);
        const response = new provproto.UpdateResponse();
        response.setProperties(toStruct(conceal((result.outs ?? {}) as Props, [...secrets, ...secretKeys(news)])));
        return response;
      },
    ),
    delete: method(async (req: { getId(): string; getUrn(): string; getProperties(): { toJavaScript(): Props } }) => {
      const { provider } = served(req.getUrn());
      await provider.delete!(req.getId(), reveal(propsOf(req.getProperties())) as Props);
      return new emptyproto.Empty();
    }),
    invoke: method(async (req: { getTok(): string; getArgs(): { toJavaScript(): Props } }) => {
      const token = req.getTok();
      const fn = token.startsWith(NATIVE_TYPE_PREFIX)
        ? functionNamed(token.slice(NATIVE_TYPE_PREFIX.length))
        : undefined;
      if (!fn) throw new Error(`${PACKAGE}: unknown function ${JSON.stringify(token)}`);
      const outputs = await fn.run(reveal(propsOf(req.getArgs())) as Props);
      const response = new provproto.InvokeResponse();
      // getEnvValues' list may hold readable values: it stays a secret, as getEnvValuesOutput's does.
      response.setReturn(
        toStruct(
          conceal(JSON.parse(JSON.stringify(outputs)) as Props, fn.name === "getEnvValues" ? Object.keys(outputs) : []),
        ),
      );
      return response;
    }),
    cancel: method(async () => new emptyproto.Empty()),
    attach: method(async () => new emptyproto.Empty()),
    getMapping: method(async () => new provproto.GetMappingResponse()),
    getMappings: method(async () => new provproto.GetMappingsResponse()),
  };
}

function checkFailure(failure: pulumi.dynamic.CheckFailure) {
  const f = new provproto.CheckFailure();
  f.setProperty(failure.property);
  f.setReason(failure.reason);
  return f;
}
