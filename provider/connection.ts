// The process's connection to the platform. In the dynamic provider's process, `configure()`
// hands over the stack config; in the program's process (lookups), the program's own config is
// read. Either way the environment is the fallback, and the client is made lazily and reused.
import * as pulumi from "@pulumi/pulumi";
import type { PlatformClient } from "./client/http";
import { ConfigReader, resolveSettings } from "./settings";

let stackConfig: ConfigReader | undefined;
let client: PlatformClient | undefined;

/** Records the stack config that the engine passed to `configure()`. */
export function useStackConfig(config: ConfigReader | undefined): void {
  stackConfig = config;
  client = undefined;
}

/** The program's own stack config, for lookups that run in the program rather than the provider process. */
const programConfig: ConfigReader = { get: (key) => pulumi.runtime.getConfig(key) };

/** The client for this process, made on first use so that a missing setting fails the operation that needs it. */
export function platformClient(): PlatformClient {
  // Loaded on first use: a program that only declares resources never needs axios, and every
  // `pulumi` run loads the program twice (preview, then update).
  if (!client) {
    const { PlatformClient: Client } = require("./client/http") as typeof import("./client/http");
    client = new Client(resolveSettings(stackConfig ?? programConfig));
  }
  return client;
}
