// A connection to the platform: the settings a host was configured with, the session they belong
// to, and the pacer its clients share. The dynamic host and the native plugin each hold one and hand
// it to the resources' providers and the lookups alike (docs/design/session.md). The provider host
// hands over the stack config at `configure()`; a program's lookups read the program's own config.
// Either way the environment is the fallback (settings.ts).
import { getConfig } from "@pulumi/pulumi/runtime/config";
import type { PlatformClient } from "./client/http";
import type { Pacer } from "./client/pacing";
import type { RateBrokerClient } from "./client/rateBroker";
import type { Session } from "./session";
import { SettingsError } from "./client/errors";
import { ConfigReader, ConnectionSettings, SETTINGS, resolveSettings, validatesAtPreview } from "./settings";

/** The program's own stack config, for lookups that run in the program rather than the provider process. */
const programConfig: ConfigReader = { get: (key) => getConfig(key) };

/**
 * One configured provider's connection: what the resources' providers and the lookups are handed
 * (resources/definition.ts `Host`). Its session is made on first use, so that a missing setting
 * fails the operation that needs it, and lasts until the settings change or `newSession()`.
 */
export class Connection {
  private stackConfig: ConfigReader | undefined;
  private current: Session | undefined;
  /** Why validation stopped for this command (a refused credential, an unreachable platform), once reported. */
  private validationStopped: string | undefined;
  /** The settings the current session was made with, to tell a repeated configure() from a new connection. */
  private sessionSettings: string | undefined;
  private broker: RateBrokerClient | undefined;
  private ownPacer: Pacer | undefined;

  /**
   * The pacer every client of this connection waits its turn at: they share the API key's limit.
   * Made on first use: a program that only declares resources never loads the client.
   */
  get pacer(): Pacer {
    if (!this.ownPacer) {
      const { Pacer: PacerOf } = require("./client/pacing") as typeof import("./client/pacing");
      this.ownPacer = new PacerOf();
    }
    return this.ownPacer;
  }

  /**
   * Records the stack config that the engine passed to `configure()`: once per resource type, while
   * other operations may already run, so the session is kept unless the settings differ.
   */
  useStackConfig(config: ConfigReader | undefined): void {
    this.stackConfig = config;
    if (this.current && this.sessionSettings !== settingsKey(config)) this.newSession();
  }

  /** Ends the current session, so the next call starts a new one, as a new `pulumi` command's process would. */
  newSession(): void {
    this.current = undefined;
    this.sessionSettings = undefined;
    this.validationStopped = undefined;
  }

  /** The current session, made on first use from the stack config (or the program's, or the environment). */
  session(): Session {
    if (!this.current) {
      // Loaded on first use: a program that only declares resources never needs axios.
      const { Session: SessionOf } = require("./session") as typeof import("./session");
      const settings = resolveSettings(this.stackConfig ?? programConfig);
      this.current = new SessionOf(this.openClient(settings));
      this.sessionSettings = JSON.stringify(settings);
    }
    return this.current;
  }

  /**
   * A client for `settings` at this connection's pacer, which takes its rate here: every client of a
   * connection shares the API key's limit, so the last one opened sets it.
   */
  openClient(settings: ConnectionSettings): PlatformClient {
    this.broker = brokerFor(settings, this.broker);
    return openClient(settings, this.pacer, this.broker);
  }

  /** Whether checks validate changed resources against the platform (`integration-platform:validateAtPreview`). */
  validates(): boolean {
    return validatesAtPreview(this.stackConfig ?? programConfig) && this.validationStopped === undefined;
  }

  /**
   * Stops validation for the rest of the command, because `problem` (a refused credential, an
   * unreachable platform) would fail every resource alike; true the first time, so it is reported once.
   */
  stopValidation(problem: string): boolean {
    if (this.validationStopped !== undefined) return false;
    this.validationStopped = problem;
    return true;
  }
}

function settingsKey(config: ConfigReader | undefined): string | undefined {
  try {
    return JSON.stringify(resolveSettings(config ?? programConfig));
  } catch {
    // Missing or bad settings: no client can be made from them; the call that needs one says why.
    return undefined;
  }
}

/**
 * A client for `settings`, waiting its turns at `pacer` (by default one of its own), which takes
 * the settings' rate and the machine's shared pacer (`broker`, by default the one `shards` set) if any.
 */
export function openClient(
  settings: ConnectionSettings,
  pacer?: Pacer,
  broker: RateBrokerClient | undefined = brokerFor(settings),
): PlatformClient {
  const { PlatformClient: ClientOf } = require("./client/http") as typeof import("./client/http");
  const { Pacer: PacerOf } = require("./client/pacing") as typeof import("./client/pacing");
  const paced = pacer ?? new PacerOf();
  paced.configure(settings.requestsPerSecond);
  paced.share(broker);
  return new ClientOf(settings, paced);
}

/**
 * The pacer `shards` serves for every stack of this machine (rateBroker.ts), when it set one and
 * this stack's rate is the part it gave (a stack whose config sets its own rate keeps it); `known`
 * is kept when it already serves that address.
 */
function brokerFor(settings: ConnectionSettings, known?: RateBrokerClient): RateBrokerClient | undefined {
  const { RATE_BROKER_ENV, RateBrokerClient, brokerUrlProblem } =
    require("./client/rateBroker") as typeof import("./client/rateBroker");
  const url = process.env[RATE_BROKER_ENV];
  const part = Number(process.env[SETTINGS.requestsPerSecond.env]);
  if (!url || settings.requestsPerSecond <= 0 || settings.requestsPerSecond !== part) return undefined;
  const problem = brokerUrlProblem(url);
  if (problem) throw new SettingsError(`${RATE_BROKER_ENV} ${problem}; unset it to pace this stack alone`);
  return known?.url === url ? known : new RateBrokerClient(url);
}

/**
 * This process's connection, for what no caller can hand one to: the dynamic host's providers
 * (`providers[type]` and `configure(req)` of the runtime subpath, which the forwarders that state
 * written by every release holds call with no handle: docs/design/dynamic.md), and the lookups a
 * program calls with their arguments alone. The one module-level state of provider/; the native
 * plugin holds a connection of its own per configured provider (native/server.ts).
 */
export const PROCESS_CONNECTION = new Connection();
