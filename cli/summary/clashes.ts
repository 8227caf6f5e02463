// Platform objects that change hands in one update, usually a resource renamed without `aliases`:
// the change summary warns of each, since the values to restore on delete are lost.
import { containsUnknown } from "../../provider/resources/inputs";
import { compareChanges, objectKindOf, type Change } from "./changes";
import { code, showId } from "./markdown";
import { containsSecret, type Props } from "./values";

/**
 * Each object one resource releases (delete, a replace's old side) while another takes it over
 * (create, a replace's new side), as a line.
 */
export function clashes(changes: Change[]): string[] {
  const objectKey = (change: Change, inputs: Props | null | undefined) => {
    const identity = objectKindOf(change).identity;
    if (
      !inputs ||
      identity.length === 0 ||
      identity.some((p) => containsUnknown(inputs[p]) || containsSecret(inputs[p]))
    )
      return undefined;
    return JSON.stringify([change.type, ...identity.map((p) => inputs[p] ?? null)]);
  };
  const released = new Map<string, Change>();
  for (const change of changes) {
    const key =
      change.kind === "delete" || change.kind === "replace" ? objectKey(change, change.old?.inputs) : undefined;
    if (key) released.set(key, change);
  }
  const found: string[] = [];
  for (const taker of changes.filter((c) => c.kind === "create" || c.kind === "replace").sort(compareChanges)) {
    const inputs = taker.new?.inputs ?? {};
    const releaser = released.get(objectKey(taker, inputs) ?? "");
    if (!releaser || releaser === taker) continue;
    const account = inputs.linkedAccountId !== undefined ? `, linked account ${showId(inputs.linkedAccountId)}` : "";
    found.push(
      `${objectKindOf(taker).title(inputs, {})}${account}: ${code(releaser.name)} releases it, ` +
        `${code(taker.name)} takes it over`,
    );
  }
  return found;
}

/** The warning of the change summary's head: the `shown` clashes of `total`, and what to do. */
export function clashWarning(shown: string[], total: number): string[] {
  return shown.length === 0
    ? []
    : [
        "> **Warning: an object changes hands.** In each pair below one resource releases a platform object " +
          "that another takes over in the same update. The provider leaves the object to the new resource, but " +
          "the new one records the values it finds (the old one's) as what to restore on delete, so the original " +
          "values are forgotten:",
        ">",
        ...shown.map((line) => `> - ${line}`),
        ...(shown.length < total
          ? [`> - … and ${total - shown.length} more, left out here to keep this summary short`]
          : []),
        ">",
        "> A rename is the usual cause: give the new resource `aliases` naming its old name (it then stays the " +
          "same resource), and preview again.",
        "",
      ];
}
