// The package's public surface: resources, the component, lookups, their types, and errors.
// Every resource type's class and Args, generated from RESOURCES (provider/dynamic/registry.ts).
export * from "./dynamic/registry";
export { ConfigFieldRecord, NameValueInput } from "./resources/configField";
export { DeclaredKey, EventDefinition, EventResponseSample } from "./resources/applicationEvent";
export {
  ApiError,
  AuthenticationError,
  BadRequestError,
  FieldNotFoundError,
  WorkflowNotPublishedError,
  ConnectionError,
  GoneError,
  NotFoundError,
  RateLimitError,
  RedirectError,
  ResponseValidationError,
  ServerError,
  SettingsError,
} from "./client/errors";
export { SETTINGS } from "./settings";
export { InvalidIdError, MAX_ID_LENGTH } from "./client/ids";
export {
  LinkedAccountSetup,
  LinkedAccountSetupArgs,
  SetupEnvValue,
  SetupField,
  SetupWorkflow,
} from "./components/linkedAccountSetup";
export {
  getEnvDefinition,
  getEnvDefinitionOutput,
  getEnvDefinitions,
  getEnvDefinitionsOutput,
  EnvDefinition,
  GetEnvDefinitionArgs,
  GetEnvDefinitionsArgs,
} from "./functions/envDefinitions";
export { getEnvValues, getEnvValuesOutput, EnvValue, GetEnvValuesArgs } from "./functions/envValues";
export {
  getLinkedAccounts,
  getLinkedAccountsOutput,
  LinkedAccount,
  GetLinkedAccountsArgs,
} from "./functions/linkedAccounts";
export { getAuditEvents, getAuditEventsOutput, AuditEvent, GetAuditEventsArgs } from "./functions/auditEvents";
export { getShard, getShardOutput, GetShardArgs, GetShardResult } from "./functions/shard";
export {
  checkWebhookSignature,
  parseWebhookPayload,
  signWebhookBody,
  verifyWebhookSignature,
  WebhookSignatureError,
  WEBHOOK_EVENTS,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookEvent,
  type WebhookPayload,
  type WebhookSignatureCheck,
  type WorkflowRunStatus,
} from "./webhooks";
export { shardOf, stackShard, inThisShard, StackShard, SHARDS_SETTING, MAX_SHARDS } from "./sharding";
