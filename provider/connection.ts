// The process's connection to the platform, and the session it belongs to. The provider host hands
// over the stack config at `configure()`; a program's lookups read the program's own config.
// Either way the environment is the fallback (settings.ts).
import { getConfig } from "@pulumi/pulumi/runtime/config";
import type { PlatformClient } from "./client/http";
import type { Session } from "./session";
import { SettingsError } from "./client/errors";
import { ConfigReader, ConnectionSettings, SETTINGS, resolveSettings, validatesAtPreview } from "./settings";

let stackConfig: ConfigReader | undefined;
let session: Session | undefined;
/** Why validation stopped for this command (a refused credential, an unreachable platform), once reported. */
let validationStopped: string | undefined;
/** The settings the current session was made with, to tell a repeated configure() from a new connection. */
let sessionSettings: string | undefined;

/**
 * Records the stack config that the engine passed to `configure()`: once per resource type, while
 * other operations may already run, so the session is kept unless the settings differ.
 */
export function useStackConfig(config: ConfigReader | undefined): void {
  stackConfig = config;
  if (session && sessionSettings !== settingsKey(config)) newSession();
}

/** Ends the current session, so the next call starts a new one, as a new `pulumi` command's process would. */
export function newSession(): void {
  session = undefined;
  sessionSettings = undefined;
  validationStopped = undefined;
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
const programConfig: ConfigReader = { get: (key) => getConfig(key) };

/**
 * This process's current session, made on first use so that a missing setting fails the operation
 * that needs it. Only the provider host (dynamic/host.ts) and the lookups (functions/definition.ts) call it.
 */
export function currentSession(): Session {
  if (!session) {
    // Loaded on first use: a program that only declares resources never needs axios.
    const { Session: SessionOf } = require("./session") as typeof import("./session");
    const settings = resolveSettings(stackConfig ?? programConfig);
    session = new SessionOf(openClient(settings));
    sessionSettings = JSON.stringify(settings);
  }
  return session;
}

/**
 * A client for `settings`, and the one place the process-wide pacer takes its rate: every client
 * of a process shares the API key's limit, so the last connection opened sets it.
 */
export function openClient(settings: ConnectionSettings): PlatformClient {
  const { PlatformClient: ClientOf } = require("./client/http") as typeof import("./client/http");
  const { pacer } = require("./client/pacing") as typeof import("./client/pacing");
  pacer.configure(settings.requestsPerSecond);
  pacer.share(sharedPacer(settings));
  return new ClientOf(settings);
}

let broker: import("./client/rateBroker").RateBrokerClient | undefined;

/**
 * The pacer `shards` serves for every stack of this machine (rateBroker.ts), when it set one and
 * this stack's rate is the part it gave (a stack whose config sets its own rate keeps it).
 */
function sharedPacer(settings: ConnectionSettings) {
  const { RATE_BROKER_ENV, RateBrokerClient, brokerUrlProblem } =
    require("./client/rateBroker") as typeof import("./client/rateBroker");
  const url = process.env[RATE_BROKER_ENV];
  const part = Number(process.env[SETTINGS.requestsPerSecond.env]);
  if (!url || settings.requestsPerSecond <= 0 || settings.requestsPerSecond !== part) return undefined;
  const problem = brokerUrlProblem(url);
  if (problem) throw new SettingsError(`${RATE_BROKER_ENV} ${problem}; unset it to pace this stack alone`);
  if (broker?.url !== url) broker = new RateBrokerClient(url);
  return broker;
}

/** Whether checks validate changed resources against the platform (`integration-platform:validateAtPreview`). */
export function validatesChanges(): boolean {
  return validatesAtPreview(stackConfig ?? programConfig) && validationStopped === undefined;
}

/**
 * Stops validation for the rest of the command, because `problem` (a refused credential, an
 * unreachable platform) would fail every resource alike; true the first time, so it is reported once.
 */
export function stopValidation(problem: string): boolean {
  if (validationStopped !== undefined) return false;
  validationStopped = problem;
  return true;
}
