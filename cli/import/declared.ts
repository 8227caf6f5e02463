// What a generated program declares, computed here: each data line's LinkedAccountSetup inputs with
// the restoreOnDelete values found.json gives them, and the shared env values. The TypeScript,
// Python, Go and Java programs compute the same at every `pulumi up` from found.json (so that an
// edit of the data never moves what destroy puts back); a YAML program can neither read a file nor
// loop, so its renderer writes these values inline. The tests compare each program with this.
import type { FoundRecord } from "./found";
import type { ImportPlan, PlannedField, PlannedSetup, PlannedValue } from "./plan";

/** A declared env value: the text, or the stack config key of a secret. */
export type DeclaredValue = PlannedValue;

/** One entry of a LinkedAccountSetup's envValues, as the program declares it. */
export interface DeclaredEnvValue {
  definitionId: string;
  workflowId?: string;
  value: DeclaredValue;
  adoptEncryptedValue?: boolean;
  retainOnDelete?: boolean;
  noValueBefore?: boolean;
}

/** One field of a LinkedAccountSetup, as declared: the data line's, with the restoreOnDelete found. */
export interface DeclaredField extends PlannedField {
  restoreOnDelete?: Pick<PlannedField, "name" | "options" | "labels" | "value">;
}

/** One data line's LinkedAccountSetup: its resource name and inputs. */
export interface DeclaredSetup {
  name: string;
  linkedAccountId: string;
  slug: string;
  fields: DeclaredField[];
  workflows: Record<string, { enabled: true; restoreOnDelete?: boolean }>;
  envValues: DeclaredEnvValue[];
}

/** One shared env value (org, workspace, a workflow's for every account): its resource name and inputs. */
export interface DeclaredShared {
  name: string;
  definitionId: string;
  workflowId?: string;
  value: DeclaredValue;
  adoptEncryptedValue: boolean;
}

/** A data line's key among found.json's records. */
const lineKey = (line: { linkedAccountId: string; slug: string }) => JSON.stringify([line.linkedAccountId, line.slug]);

/**
 * A field's restoreOnDelete: the value found of each of name, options, labels and value it declares;
 * none when it declares one that was not found (programTemplate.ts's restoreField).
 */
function restoreField(field: PlannedField, was?: FoundRecord): DeclaredField["restoreOnDelete"] {
  const then = was?.fields?.find((f) => f.fieldId === field.fieldId && f.workflowId === field.workflowId);
  const declared = (["name", "options", "labels", "value"] as const).filter((key) => field[key] !== undefined);
  if (!then || declared.some((key) => then[key] === undefined)) return undefined;
  return Object.fromEntries(declared.map((key) => [key, then[key]]));
}

/** One data line's env values as declared: retained and adopted when found, noValueBefore when added since. */
function envValuesOf(
  setup: PlannedSetup,
  was: FoundRecord | undefined,
  encrypted: Map<string, boolean>,
): DeclaredEnvValue[] {
  const entries: [string, PlannedValue, string | undefined][] = [
    ...[...setup.env].map(([id, value]): [string, PlannedValue, undefined] => [id, value, undefined]),
    ...[...setup.workflowEnv].flatMap(([workflowId, values]) =>
      [...values].map(([id, value]): [string, PlannedValue, string] => [id, value, workflowId]),
    ),
  ];
  return entries.map(([definitionId, value, workflowId]) => {
    const key = workflowId ? `${definitionId}/${workflowId}` : definitionId;
    const declared = { definitionId, ...(workflowId ? { workflowId } : {}), value };
    if (was?.env && !was.env.includes(key)) return { ...declared, noValueBefore: true };
    return { ...declared, adoptEncryptedValue: encrypted.get(definitionId) ?? true, retainOnDelete: true };
  });
}

/** Every data line's LinkedAccountSetup, with what found.json's records give it to put back. */
export function declaredSetups(plan: ImportPlan, found: FoundRecord[]): DeclaredSetup[] {
  const byLine = new Map(found.map((record) => [lineKey(record), record]));
  const encrypted = new Map(plan.definitions.map((d) => [d.id, d.encrypted]));
  return plan.setups.map((setup) => {
    const was = byLine.get(lineKey(setup));
    return {
      name: `${setup.linkedAccountId}-${setup.slug}`,
      linkedAccountId: setup.linkedAccountId,
      slug: setup.slug,
      fields: setup.fields.map((field) => {
        const restore = restoreField(field, was);
        return restore ? { ...field, restoreOnDelete: restore } : { ...field };
      }),
      workflows: Object.fromEntries(
        setup.workflows.map((workflowId) => {
          const restore = was && Object.hasOwn(was.workflows, workflowId) ? was.workflows[workflowId] : undefined;
          return [workflowId, restore === undefined ? { enabled: true } : { enabled: true, restoreOnDelete: restore }];
        }),
      ),
      envValues: envValuesOf(setup, was, encrypted),
    };
  });
}

/** The shared env values, named as every program names them: `env/<definition>[/<workflow>]`. */
export function declaredShared(plan: ImportPlan): DeclaredShared[] {
  const byId = new Map(plan.definitions.map((d) => [d.id, d]));
  return plan.shared.map((shared) => {
    const definition = byId.get(shared.definitionId)!;
    return {
      name: shared.workflowId ? `env/${definition.key}/${shared.workflowId}` : `env/${definition.key}`,
      definitionId: shared.definitionId,
      ...(shared.workflowId ? { workflowId: shared.workflowId } : {}),
      value: shared.value,
      adoptEncryptedValue: definition.encrypted,
    };
  });
}
