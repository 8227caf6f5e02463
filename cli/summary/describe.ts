// A change as bullets of the change summary: what happens to the platform object, and one
// sub-bullet per changed property; a secret's value is never shown.
import { isDeepStrictEqual } from "node:util";
import { containsUnknown, isRecord } from "../../provider/resources/inputs";
import { objectKindOf, type Change } from "./changes";
import { code, show } from "./markdown";
import { containsSecret, isMasked, type Props } from "./values";

/** The bullet of one change, with one sub-bullet per changed property. */
export function describeChange(change: Change): string[] {
  const kind = objectKindOf(change);
  const oldInputs = change.old?.inputs ?? {};
  const newInputs = change.new?.inputs ?? {};
  const oldOutputs = change.old?.outputs ?? {};
  const secret = new Set([
    ...kind.secret,
    ...(change.old?.additionalSecretOutputs ?? []),
    ...(change.new?.additionalSecretOutputs ?? []),
  ]);
  const hidden = new Set(["__provider", ...kind.derived]);
  // The old outputs describe the new object only when it is the same one: an update.
  const head =
    change.kind === "delete" || !change.new
      ? `- **${change.kind}** ${kind.title(oldInputs, oldOutputs)}: resource ${code(change.name)}`
      : `- **${change.kind}** ${kind.title(newInputs, change.kind === "update" ? oldOutputs : {})}: resource ` +
        `${code(change.name)}`;
  const details: string[] = [];

  if (change.kind === "create") {
    const listed = Object.keys(newInputs)
      .filter((key) => !hidden.has(key) && !kind.identity.includes(key) && !kind.titled?.includes(key))
      .sort();
    for (const key of listed) {
      const secretValue = secret.has(key) || containsSecret(newInputs[key]);
      details.push(`${code(key)}: ${secretValue ? "set (secret, not shown)" : show(newInputs[key])}`);
    }
  } else if (change.kind === "update" || change.kind === "replace") {
    const found = propertyChanges(oldInputs, newInputs, hidden, secret);
    for (const { path, text } of found.visible) {
      details.push(`${code(path)}: ${text}${change.replaceReasons.includes(path) ? " (replaces)" : ""}`);
    }
    // Masked secrets cannot be compared; an update that changes nothing visible must change them.
    if (change.kind === "update" && found.visible.length === 0) {
      for (const key of found.masked) details.push(`${code(key)}: changes (secret, not shown)`);
    }
    if (change.kind === "replace" && change.old)
      details.push(`the old ${kind.title(oldInputs, oldOutputs)} is released: ${kind.release(oldInputs, oldOutputs)}`);
  } else if (change.kind === "delete") {
    details.push(kind.release(oldInputs, oldOutputs));
  }
  return [head, ...details.map((d) => `  - ${d}`)];
}

/**
 * Changed properties by dot path, as `old → new` with lists by added and removed entries, or in the
 * words `changed` gives (lists whole).
 */
export function propertyChanges(
  olds: Props,
  news: Props,
  hidden: Set<string>,
  secret: Set<string>,
  changed?: (before: unknown, after: unknown) => string,
) {
  const visible: { path: string; text: string }[] = [];
  const masked: string[] = [];
  const walk = (a: Props, b: Props, prefix: string) => {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const path = prefix + key;
      if (!prefix && hidden.has(key)) continue;
      const [before, after] = [a[key], b[key]];
      if ((!prefix && secret.has(key)) || containsSecret(before) || containsSecret(after)) {
        // Values masked on both sides cannot be compared; plaintext (a state file) can, but is never shown.
        if (isMasked(before) && isMasked(after)) masked.push(path);
        else if (!isDeepStrictEqual(before, after)) visible.push({ path, text: "changes (secret, not shown)" });
      } else if (isRecord(before) && isRecord(after) && !containsUnknown(after)) {
        walk(before, after, `${path}.`);
      } else if (Array.isArray(before) && Array.isArray(after) && !containsUnknown(after)) {
        if (!isDeepStrictEqual(before, after))
          visible.push({ path, text: changed ? changed(before, after) : listChange(before, after) });
      } else if (!isDeepStrictEqual(before, after)) {
        visible.push({ path, text: changed ? changed(before, after) : `${show(before)} → ${show(after)}` });
      }
    }
  };
  walk(olds, news, "");
  return { visible, masked };
}

/** Entries added and removed, or the whole list when only the order changed. */
function listChange(before: unknown[], after: unknown[]): string {
  const missingFrom = (list: unknown[], from: unknown[]) => {
    const pool = [...from];
    return list.filter((item) => {
      const at = pool.findIndex((other) => isDeepStrictEqual(item, other));
      if (at < 0) return true;
      pool.splice(at, 1);
      return false;
    });
  };
  const added = missingFrom(after, before);
  const removed = missingFrom(before, after);
  const parts = [];
  if (added.length) parts.push(`adds ${added.map(show).join(", ")}`);
  if (removed.length) parts.push(`removes ${removed.map(show).join(", ")}`);
  return parts.length ? parts.join("; ") : `order changes: ${show(before)} → ${show(after)}`;
}
