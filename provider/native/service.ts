// The service the plugin registers with gRPC. The engine's first call, GetPluginInfo, is answered
// here with what this module already has; the rest of the provider (server.ts: the resources'
// definitions, zod, the schema, the SDK's runtime) is loaded on the first other call, or in the
// background once that first answer has gone, so that no engine waits for it at start
// (docs/design/native.md, "The plugin's start").
import type * as grpc from "@grpc/grpc-js";
import * as pluginproto from "@pulumi/pulumi/proto/plugin_pb";
import type { Connection } from "../connection";
import type { ServedMethods } from "./server";

/** How long after the first answer the rest is loaded, so that the answer's bytes leave first. */
const WARM_UP_DELAY_MS = 10;

/**
 * The plugin's service: GetPluginInfo answered at once with `version`; every other method served by
 * server.ts's `resourceProviderService(version, engine, connection)`, loaded on its first use.
 */
export function pluginService(version: string, engine?: string, connection?: Connection): ServedMethods {
  let served: ServedMethods | undefined;
  const full = (): ServedMethods => {
    if (!served) {
      const { resourceProviderService } = require("./server") as typeof import("./server");
      served = resourceProviderService(version, engine, connection);
      // Everything is loaded: the compile cache main.ts enabled (if any) is written now, not at an exit
      // that the engine's kill never lets come.
      require("node:module").flushCompileCache?.();
    }
    return served;
  };
  let warming: NodeJS.Timeout | undefined;
  const getPluginInfo: grpc.handleUnaryCall<unknown, pluginproto.PluginInfo> = (_call, callback) => {
    const info = new pluginproto.PluginInfo();
    info.setVersion(version);
    callback(null, info);
    // The engine's next calls (CheckConfig, Configure, Check) need the rest: load it while the
    // engine starts the program. unref: a plugin told to stop does not wait for it.
    if (!served && !warming) warming = setTimeout(full, WARM_UP_DELAY_MS).unref();
  };
  // Every served method but GetPluginInfo: a record, so that a method added to ServedMethods must be named here.
  const methods: Record<Exclude<keyof ServedMethods, "getPluginInfo">, true> = {
    getSchema: true,
    checkConfig: true,
    diffConfig: true,
    configure: true,
    check: true,
    diff: true,
    create: true,
    read: true,
    update: true,
    delete: true,
    invoke: true,
    construct: true,
    cancel: true,
    attach: true,
    getMapping: true,
    getMappings: true,
  };
  const delegated = Object.fromEntries(
    (Object.keys(methods) as (keyof typeof methods)[]).map((name) => [
      name,
      (call: unknown, callback: unknown) =>
        (full()[name] as (call: unknown, callback: unknown) => void)(call, callback),
    ]),
  );
  return { ...delegated, getPluginInfo } as ServedMethods;
}
