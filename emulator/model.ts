// The emulated organisation's state: the schema fixtures and data files are checked against, built
// from the platform objects (objects/index.ts), and the names the package has always exported.
import { z } from "zod";
import { OBJECTS } from "./objects";
import { orgSchema, type Issue } from "./platformObject";

export { FIXTURE_EPOCH, nameValueSchema, type NameValue } from "./platformObject";
export { isPlainObject } from "./validation";
export {
  FIELD_TYPES,
  appSchema,
  fieldDefinitionSchema,
  workflowDefinitionSchema,
  type App,
  type FieldDefinition,
  type FieldType,
  type WorkflowDefinition,
} from "./objects/applications";
export { linkedAccountSchema, type LinkedAccount } from "./objects/linkedAccounts";
export {
  configSchema,
  fieldStateSchema,
  workflowStateSchema,
  type Config,
  type FieldState,
  type WorkflowState,
} from "./objects/configs";
export {
  applicationEventSchema,
  describeSample,
  eventPropertySchema,
  parseSampleDocument,
  type ApplicationEvent,
  type EventProperty,
} from "./objects/applicationEvents";
export {
  ENV_SCOPES,
  REDACTED,
  VAR_FORMATS,
  envDefinitionSchema,
  envValueSchema,
  scopeIdProblem,
  varFormatProblem,
  type EnvDefinition,
  type EnvScope,
  type EnvValue,
  type EnvValueIds,
  type VarFormat,
} from "./objects/envVariables";
export { AUDIT_EVENT_TYPES, auditEntrySchema, type AuditEntry, type AuditEventType } from "./objects/audit";

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The organisation's key, then every listed object's keys in the state file. */
type StateShape<Objects extends readonly { state: z.ZodRawShape }[]> = { org: typeof orgSchema } & UnionToIntersection<
  Objects[number]["state"]
>;

/**
 * The state's schema for a list of objects: the organisation, then each object's keys in the list's
 * order (the order the state file is written in), checked by each object's reference checks.
 */
export function stateSchemaOf<const Objects extends readonly { state: z.ZodRawShape }[]>(objects: Objects) {
  const shape = Object.assign({ org: orgSchema }, ...objects.map((object) => object.state)) as StateShape<Objects>;
  return z.object(shape).superRefine((state, ctx) => {
    const issue: Issue = (path, message) => ctx.addIssue({ code: "custom", path, message });
    for (const object of objects as readonly { checkReferences?: (state: never, issue: Issue) => void }[]) {
      object.checkReferences?.(state as never, issue);
    }
  });
}

/** The whole emulated organisation: what fixtures seed and what `--data` persists. */
export const emulatorStateSchema = stateSchemaOf(OBJECTS);

/** The whole emulated state. */
export type EmulatorState = z.output<typeof emulatorStateSchema>;
/** A fixture file before defaults are applied. */
export type EmulatorFixture = z.input<typeof emulatorStateSchema>;

// An object without checks reads nothing (`object`, not `unknown`, which would swallow the union).
type CheckedState<O> = O extends { checkReferences?: (state: infer S, issue: Issue) => void }
  ? unknown extends S
    ? object
    : S
  : object;
// The loop in stateSchemaOf cannot see each object's check's type: this line fails to compile when
// the state the schema yields is not what every listed object's reference check reads.
void ((state: EmulatorState): UnionToIntersection<CheckedState<(typeof OBJECTS)[number]>> => state);
