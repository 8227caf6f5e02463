// The preview's steps as changes: one per resource (a replace's several steps merged), in the
// order the summary lists them.
import { resourceTypeOf } from "../../provider/resources";
import { KINDS, UNKNOWN_KIND, type ObjectKind } from "./kinds";
import { resourceName, typeOf, type PreviewState, type PreviewStep } from "./preview";

/** How a step changes its object, in the words `pulumi preview` uses. */
export type Kind = "create" | "update" | "replace" | "delete";
const KIND_OF_OP: Record<string, Kind> = {
  create: "create",
  import: "create",
  update: "update",
  replace: "replace",
  "create-replacement": "replace",
  "delete-replaced": "replace",
  "import-replacement": "replace",
  delete: "delete",
};
/** Steps that change nothing on the platform (also what a rollout's wave leaves out: cli/shards/rollout.ts). */
export const NO_CHANGE_OPS = new Set(["same", "read", "refresh", "read-replacement", "remove-pending-replace"]);
const KIND_ORDER = ["create", "update", "replace", "delete"];

/** One resource's change, its steps merged. `kind` is an op we do not know when it is not a Kind. */
export interface Change {
  kind: Kind | string;
  name: string;
  type: string;
  old?: PreviewState;
  new?: PreviewState;
  replaceReasons: string[];
}

/** One Change per URN: a replace shown as several steps becomes one. */
export function mergeSteps(steps: PreviewStep[]): Change[] {
  const byUrn = new Map<string, Change>();
  for (const step of steps) {
    if (NO_CHANGE_OPS.has(step.op)) continue;
    const kind = KIND_OF_OP[step.op] ?? step.op;
    const known = byUrn.get(step.urn);
    const change: Change = known ?? { kind, name: resourceName(step.urn), type: typeOf(step), replaceReasons: [] };
    if (kind === "replace") change.kind = "replace";
    change.old ??= step.oldState ?? undefined;
    // A delete-replaced step's "new" side does not exist; the replacement's newState is the new object.
    if (step.op !== "delete-replaced") change.new ??= step.newState ?? undefined;
    if (step.replaceReasons?.length) change.replaceReasons = step.replaceReasons;
    byUrn.set(step.urn, change);
  }
  return [...byUrn.values()];
}

/** What the summary knows of a change's resource type: UNKNOWN_KIND for a type it does not know. */
export function objectKindOf(change: Change): ObjectKind {
  const type = resourceTypeOf(change.type);
  return (type && KINDS[type]) || UNKNOWN_KIND;
}

/** Fields before workflows before env values before events, then creates first, then by name. */
export function compareChanges(a: Change, b: Change): number {
  const order = (c: Change) => (resourceTypeOf(c.type) ? objectKindOf(c).order : 0);
  return order(a) - order(b) || rank(a.kind) - rank(b.kind) || a.name.localeCompare(b.name);
}

/** Creates first, deletes last, ops we do not know after them. */
export function rank(kind: string): number {
  const at = KIND_ORDER.indexOf(kind);
  return at < 0 ? KIND_ORDER.length : at;
}
