// The resources' calls: check, diff, create, read, update and delete, each served by the same
// definition's provider the dynamic host serves (resources/served.ts), over the plugin's own
// connection, so validation, pacing and errors are the same code (docs/design/native.md, "The plugin").
import { isDeepStrictEqual } from "node:util";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import type { z } from "zod";
import { RESOURCES } from "../resources";
import { containsUnknown } from "../resources/inputs";
import type { Providers } from "../resources/served";
import { NATIVE_TYPE_PREFIX, PACKAGE } from "../typeTokens";
import { typeOf } from "./types";
import { answer, checkFailure, receive, type Props } from "./values";

/** The type's name from a URN (`urn:pulumi:stack::project::parent$integration-platform:index:ConfigField::name`). */
function typeOfUrn(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  const token = qualified.split("$").pop() ?? "";
  return token.startsWith(NATIVE_TYPE_PREFIX) ? token.slice(NATIVE_TYPE_PREFIX.length) : token;
}

/** The definition and the provider of `providers` serving a URN's type; an error naming the type otherwise. */
function served(providers: Providers, urn: string) {
  const type = typeOfUrn(urn);
  const definition = RESOURCES.find((d) => d.type === type);
  if (!definition) {
    const known = RESOURCES.map((d) => d.type).join(", ");
    throw new Error(`${PACKAGE}: unknown resource type ${JSON.stringify(type)}; this provider serves ${known}`);
  }
  // Served to the engine as the dynamic host's are (resources/served.ts): failures named in the reason.
  const provider = providers[definition.type];
  return { definition, provider, secrets: definition.properties.secret as string[], strings: stringInputs(definition) };
}

/**
 * The inputs a type declares as strings, by type name: what a number or a boolean given to them means.
 * Module state, but only a cache of what the definitions (constants) give: no session, nothing per stack.
 */
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

/** Check: the definition's check; what the user made secret stays secret, as do the type's secrets. */
export async function check(providers: Providers, req: provproto.CheckRequest): Promise<provproto.CheckResponse> {
  const { provider, secrets, strings } = served(providers, req.getUrn());
  const [olds, news] = [receive(req.getOlds()), receive(req.getNews())];
  const result = await provider.check!(olds.plain, asDeclared(news.plain, strings));
  const response = new provproto.CheckResponse();
  response.setInputs(answer((result.inputs ?? {}) as Props, secrets, news));
  response.setFailuresList((result.failures ?? []).map(checkFailure));
  return response;
}

/** Diff: the definition's diff, with a detailed diff naming each changed property. */
export async function diff(providers: Providers, req: provproto.DiffRequest): Promise<provproto.DiffResponse> {
  const { provider, definition } = served(providers, req.getUrn());
  const [olds, news] = [receive(req.getOlds()).plain, receive(req.getNews()).plain];
  const result = await provider.diff!(req.getId(), olds, news);
  const { identity, settings } = definition.properties as { identity: string[]; settings: string[] };
  const changed = [...identity, ...settings].filter(
    (key) => containsUnknown(news[key]) || !isDeepStrictEqual(olds[key], news[key]),
  );
  const response = new provproto.DiffResponse();
  const { DIFF_SOME, DIFF_NONE } = provproto.DiffResponse.DiffChanges;
  response.setChanges(result.changes ? DIFF_SOME : DIFF_NONE);
  response.setReplacesList(result.replaces ?? []);
  response.setDiffsList(changed);
  // The detailed diff names each changed property and whether it replaces, so previews show exactly those.
  const detailed = response.getDetaileddiffMap();
  for (const key of changed) {
    const kind = new provproto.PropertyDiff();
    kind.setKind(diffKind(olds[key], news[key], (result.replaces ?? []).includes(key)));
    kind.setInputdiff(true);
    detailed.set(key, kind);
  }
  response.setHasdetaileddiff(true);
  return response;
}

/** What a change to one property is: added, deleted or updated, each replacing or not. */
function diffKind(old: unknown, now: unknown, replaces: boolean): provproto.PropertyDiff.Kind {
  const K = provproto.PropertyDiff.Kind;
  if (old === undefined) return replaces ? K.ADD_REPLACE : K.ADD;
  if (now === undefined) return replaces ? K.DELETE_REPLACE : K.DELETE;
  return replaces ? K.UPDATE_REPLACE : K.UPDATE;
}

/** Create: takes the platform object over. */
export async function create(providers: Providers, req: provproto.CreateRequest): Promise<provproto.CreateResponse> {
  const { provider, secrets } = served(providers, req.getUrn());
  const inputs = receive(req.getProperties());
  const result = await provider.create!(inputs.plain);
  const response = new provproto.CreateResponse();
  response.setId(result.id);
  response.setProperties(answer(result.outs as Props, secrets, inputs));
  return response;
}

/** Read: a refresh; with an id and no properties, `pulumi import` (or the `import` option). */
export async function read(providers: Providers, req: provproto.ReadRequest): Promise<provproto.ReadResponse> {
  const { provider, secrets } = served(providers, req.getUrn());
  const props = receive(req.getProperties());
  const id = req.getId();
  // An import reads with the id alone: the definition finds the object from it.
  const importing = Object.keys(props.sent).length === 0;
  const result = importing ? await provider.importById(id) : await provider.read!(id, props.plain);
  const response = new provproto.ReadResponse();
  response.setId(result.id ?? "");
  response.setProperties(answer((result.props ?? {}) as Props, secrets, props));
  if (result.inputs) response.setInputs(answer(result.inputs as Props, secrets, props));
  return response;
}

/** Update: applies changed settings. */
export async function update(providers: Providers, req: provproto.UpdateRequest): Promise<provproto.UpdateResponse> {
  const { provider, secrets } = served(providers, req.getUrn());
  const [olds, news] = [receive(req.getOlds()), receive(req.getNews())];
  const result = await provider.update!(req.getId(), olds.plain, news.plain);
  const response = new provproto.UpdateResponse();
  response.setProperties(answer((result.outs ?? {}) as Props, secrets, news));
  return response;
}

/** Delete: puts back what create took over, or leaves the object as the resource documents. */
export async function del(providers: Providers, req: provproto.DeleteRequest): Promise<emptyproto.Empty> {
  const { provider } = served(providers, req.getUrn());
  await provider.delete!(req.getId(), receive(req.getProperties()).plain);
  return new emptyproto.Empty();
}
