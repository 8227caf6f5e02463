// The process's connection to the platform, and the run it belongs to. In the dynamic provider's
// process, `configure()` hands over the stack config; in the program's process (lookups), the
// program's own config is read. Either way the environment is the fallback, and the run (with its
// client) is made lazily and reused until the settings change.
import * as pulumi from "@pulumi/pulumi";
import type { PlatformClient } from "./client/http";
import type { Run } from "./run";
import { ConfigReader, resolveSettings } from "./settings";

let stackConfig: ConfigReader | undefined;
let run: Run | undefined;
/** The settings the current run's client was made with, to tell a repeated configure() from a new connection. */
let runSettings: string | undefined;

/**
 * Records the stack config that the engine passed to `configure()`. The engine calls it once per
 * resource type's provider, with the same stack config, while other resources' operations may
 * already run: the run, with its shared reads and claims, is kept unless the settings differ.
 */
export function useStackConfig(config: ConfigReader | undefined): void {
  stackConfig = config;
  if (run && runSettings !== settingsKey(config)) newRun();
}

/** Ends the current run, so the next call starts a new one: what a new `pulumi` command's process starts with (tests use it). */
export function newRun(): void {
  run = undefined;
  runSettings = undefined;
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

/** This process's current run, made on first use so that a missing setting fails the operation that needs it. */
export function currentRun(): Run {
  // Loaded on first use: a program that only declares resources never needs axios, and every
  // `pulumi` command loads the program twice (preview, then update).
  if (!run) {
    const { PlatformClient } = require("./client/http") as typeof import("./client/http");
    const { Run: RunOf } = require("./run") as typeof import("./run");
    const settings = resolveSettings(stackConfig ?? programConfig);
    run = new RunOf(new PlatformClient(settings));
    runSettings = JSON.stringify(settings);
  }
  return run;
}

/** The current run's client. */
export function platformClient(): PlatformClient {
  return currentRun().client;
}
