// The process's connection to the platform. In the dynamic provider's process, `configure()`
// hands over the stack config; in the program's process (lookups), the program's own config is
// read. Either way the environment is the fallback, and the client is made lazily and reused.
import * as pulumi from "@pulumi/pulumi";
import type { PlatformClient } from "./client/http";
import { ConfigReader, resolveSettings } from "./settings";

let stackConfig: ConfigReader | undefined;
let client: PlatformClient | undefined;
/** The settings the current client was made with, to tell a repeated configure() from a new connection. */
let clientSettings: string | undefined;

/**
 * Records the stack config that the engine passed to `configure()`. The engine calls it once per
 * resource type's provider, with the same stack config, while other resources' operations may
 * already run: the client, and with it the run's shared reads and pacing, is kept unless the
 * settings differ.
 */
export function useStackConfig(config: ConfigReader | undefined): void {
  stackConfig = config;
  if (client && clientSettings !== settingsKey(config)) newConnection();
}

/** Drops the client, so the next call makes a new one: what a new `pulumi` command's process starts with (tests use it). */
export function newConnection(): void {
  client = undefined;
  clientSettings = undefined;
}

function settingsKey(config: ConfigReader | undefined): string | undefined {
  try {
    return JSON.stringify(resolveSettings(config ?? programConfig));
  } catch {
    // Missing or bad settings: no client can be made from them; the call that needs one says why.
    return undefined;
  }
}

/** The program's own stack config, for lookups that run in the program rather than the provider process. */
const programConfig: ConfigReader = { get: (key) => pulumi.runtime.getConfig(key) };

/** The client for this process, made on first use so that a missing setting fails the operation that needs it. */
export function platformClient(): PlatformClient {
  // Loaded on first use: a program that only declares resources never needs axios, and every
  // `pulumi` run loads the program twice (preview, then update).
  if (!client) {
    const { PlatformClient: Client } = require("./client/http") as typeof import("./client/http");
    const settings = resolveSettings(stackConfig ?? programConfig);
    client = new Client(settings);
    clientSettings = JSON.stringify(settings);
  }
  return client;
}
