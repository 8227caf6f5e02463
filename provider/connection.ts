// The provider process's connection to the platform. `configure()` hands over the stack config
// once per process; the client is made lazily from it (or from the environment) and reused.
import { PlatformClient } from "./client/http";
import { ConfigReader, resolveSettings } from "./settings";

let stackConfig: ConfigReader | undefined;
let client: PlatformClient | undefined;

/** Records the stack config that the engine passed to `configure()`. */
export function useStackConfig(config: ConfigReader | undefined): void {
  stackConfig = config;
  client = undefined;
}

/** The client for this process, made on first use so that a missing setting fails the operation that needs it. */
export function platformClient(): PlatformClient {
  client ??= new PlatformClient(resolveSettings(stackConfig));
  return client;
}
