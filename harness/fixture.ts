// What the tests know of the default fixture (emulator/fixtures/default.json) and of the
// package's type tokens: one table for every level (unit, emulator, e2e). Spelled out rather
// than read from the fixture or the provider, so that a changed id or token fails the tests.

/** Ids from emulator/fixtures/default.json that the tests rely on. */
export const FIXTURE = {
  /** The linked accounts, each with a hubspot and a slack config. */
  accounts: ["acme", "globex", "initech"],
  /** Env variable definitions, with their scope and format. */
  definitions: {
    apiBaseUrl: "64f0000000000000000000d1", // org, url
    maxRetries: "64f0000000000000000000d2", // org, number
    workspaceRegion: "64f0000000000000000000d3", // workspace, string
    crmApiToken: "64f0000000000000000000d4", // linked_account, string, encrypted
    accountTier: "64f0000000000000000000d5", // linked_account, string
    accountQuota: "64f0000000000000000000d6", // linked_account, number
    webhookUrl: "64f0000000000000000000d7", // workflow, url
    batchSize: "64f0000000000000000000d8", // workflow, number
  },
  /** Env values the fixture holds. */
  values: {
    apiBaseUrl: "64f0000000000000000000f1",
    maxRetries: "64f0000000000000000000f2",
    crmApiTokenAcme: "64f0000000000000000000f4",
    accountTierAcme: "64f0000000000000000000f5",
    webhookUrlContactSync: "64f0000000000000000000f8",
    batchSizeAcmeContactSync: "64f0000000000000000000f9",
  },
  /** Application events. */
  events: ["64f0000000000000000000e1", "64f0000000000000000000e2", "64f0000000000000000000e3"],
};

/** The package's four resource kinds. */
export type Kind = "ConfigField" | "WorkflowToggle" | "ApplicationEvent" | "EnvVariableValue";
/** The prefix of every type token of the package's resources. */
export const TYPE_PREFIX = "pulumi-nodejs:dynamic/integration-platform:";
/** The full type token of one of the package's resources, as the engine records it. */
export const TYPE = (kind: Kind) => `${TYPE_PREFIX}${kind}`;
