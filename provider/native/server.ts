// The native provider's gRPC service: the engine's calls, each served by the same definition
// the dynamic resources use (docs/design/native.md). The SDK's own provider server answers
// CheckConfig and DiffConfig with "not implemented", drops Configure's variables and loses
// secrets, so the service is written here against the SDK's generated stubs.
import * as grpc from "@grpc/grpc-js";
import type { IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as pluginproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import { Connection } from "../connection";
import { providersOf, servedToTheEngine } from "../resources/served";
import { PACKAGE } from "../typeTokens";
import { checkConfig, configure, diffConfig } from "./config";
import { construct } from "./construct";
import { invokeLookup, lookupOfToken } from "./functions";
import { check, create, del, diff, read, update } from "./resources";
import { packageSchema } from "./schema";
import { answer, receive, type Props } from "./values";

/** The methods this provider serves; the engine's other calls (Call, …) are unimplemented. */
export type ServedMethods = Pick<
  IResourceProviderServer,
  | "getPluginInfo"
  | "getSchema"
  | "checkConfig"
  | "diffConfig"
  | "configure"
  | "check"
  | "diff"
  | "create"
  | "read"
  | "update"
  | "delete"
  | "invoke"
  | "construct"
  | "cancel"
  | "attach"
  | "getMapping"
  | "getMappings"
>;

/** Serves one gRPC method: runs `body`, answers its result, or the error as a status saying what to do. */
function method<Req, Res>(body: (req: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    body(call.request).then(
      (response) => callback(null, response),
      (error: Error) =>
        callback({ code: grpc.status.UNKNOWN, details: error?.message ?? String(error) } as grpc.ServiceError, null),
    );
  };
}

/** Invoke: runs the lookup a token names over `connection`; a secret result if the lookup's definition says so. */
async function invoke(connection: Connection, req: provproto.InvokeRequest): Promise<provproto.InvokeResponse> {
  const token = req.getTok();
  const lookup = lookupOfToken(token);
  if (!lookup) throw new Error(`${PACKAGE}: unknown function ${JSON.stringify(token)}`);
  const outputs = await invokeLookup(connection, lookup, receive(req.getArgs()).plain);
  const response = new provproto.InvokeResponse();
  const plain = JSON.parse(JSON.stringify(outputs)) as Props;
  response.setReturn(answer(plain, lookup.secret ? Object.keys(plain) : []));
  return response;
}

/** The plugin's version, as `pulumi plugin ls` shows it. */
function pluginInfo(version: string): () => Promise<pluginproto.PluginInfo> {
  return async () => {
    const info = new pluginproto.PluginInfo();
    info.setVersion(version);
    return info;
  };
}

/** GetSchema: the package schema, serialized on the first call only (most engines never ask for it). */
function schemaOf(version: string): (req: provproto.GetSchemaRequest) => Promise<provproto.GetSchemaResponse> {
  let schema: string | undefined;
  return async (req) => {
    if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
    schema ??= JSON.stringify(packageSchema(version));
    const response = new provproto.GetSchemaResponse();
    response.setSchema(schema);
    return response;
  };
}

/** Answers with nothing: what the plugin has no use for. */
async function empty(): Promise<emptyproto.Empty> {
  return new emptyproto.Empty();
}

/**
 * The service the engine calls; `version` is the package's, `engine` the engine's address (for
 * Construct). The engine starts a plugin per configured provider, so the service holds that
 * provider's one connection, which Configure sets and every resource and lookup is handed.
 */
export function resourceProviderService(
  version: string,
  engine?: string,
  connection: Connection = new Connection(),
): ServedMethods {
  const providers = servedToTheEngine(providersOf(connection));
  return {
    getPluginInfo: method(pluginInfo(version)),
    getSchema: method(schemaOf(version)),
    checkConfig: method(checkConfig),
    diffConfig: method(diffConfig),
    configure: method((req) => configure(connection, req)),
    check: method((req) => check(providers, req)),
    diff: method((req) => diff(providers, req)),
    create: method((req) => create(providers, req)),
    read: method((req) => read(providers, req)),
    update: method((req) => update(providers, req)),
    delete: method((req) => del(providers, req)),
    invoke: method((req) => invoke(connection, req)),
    construct: method(construct(engine, version)),
    cancel: method(empty),
    attach: method(empty),
    getMapping: method(async () => new provproto.GetMappingResponse()),
    getMappings: method(async () => new provproto.GetMappingsResponse()),
  };
}
