// Every lookup, in the order the native schema lists its functions.
import type { AnyLookup } from "./definition";
import { AuditEventsLookup } from "./auditEvents";
import { EnvDefinitionLookup, EnvDefinitionsLookup } from "./envDefinitions";
import { EnvValuesLookup } from "./envValues";
import { LinkedAccountsLookup } from "./linkedAccounts";
import { ShardLookup } from "./shard";

/** Every lookup's definition, in the schema's order. */
export const LOOKUPS: readonly AnyLookup[] = [
  LinkedAccountsLookup,
  EnvDefinitionsLookup,
  EnvDefinitionLookup,
  EnvValuesLookup,
  AuditEventsLookup,
  ShardLookup,
];
