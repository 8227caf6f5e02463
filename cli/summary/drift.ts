// The drift report's own parts: a drifted object's bullets, and what a refresh cannot check. It
// compares the platform with the last deployment (a refresh's preview), or with the program
// (`pulumi preview --refresh`).
import { resourceTypeOf } from "../../provider/resources";
import { plural } from "../text";
import { objectKindOf, type Change } from "./changes";
import { propertyChanges } from "./describe";
import { code, show } from "./markdown";
import { PreviewJsonError, typeOf, type PreviewJson, type PreviewStep } from "./preview";
import { isRefreshOnly } from "./refresh";
import type { Words } from "./words";

/**
 * The bullet of one object drifted from the last deployment: a refresh's old side is the deployed
 * state, its new side the platform's. A secret's two sides are both masked.
 */
export function describeDeployedDrift(change: Change, words: Words): string[] {
  const kind = objectKindOf(change);
  const deployed = change.old?.inputs ?? {};
  const head =
    `- **${words.label(change.kind)}** ` +
    `${kind.title(deployed, change.new?.outputs ?? change.old?.outputs ?? {})}: resource ${code(change.name)}`;
  const details: string[] = [];
  if (change.kind === "update") {
    details.push(
      ...propertyLines(
        change,
        deployed,
        change.new?.inputs ?? {},
        (before, after) => `the platform holds ${show(after)}, the last deployment set ${show(before)}`,
      ),
    );
  } else if (change.kind === "delete") {
    details.push(
      "gone from the platform: `pulumi refresh` drops it from the state, and the next `up` creates it again",
    );
  }
  return [head, ...details.map((d) => `  - ${d}`)];
}

/** A drifted object's changed properties, secrets as "[secret] changed" (both their sides are masked). */
function propertyLines(
  change: Change,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  says: (before: unknown, after: unknown) => string,
): string[] {
  const kind = objectKindOf(change);
  const secret = new Set([
    ...kind.secret,
    ...(change.old?.additionalSecretOutputs ?? []),
    ...(change.new?.additionalSecretOutputs ?? []),
  ]);
  const found = propertyChanges(before, after, new Set(["__provider", ...kind.derived]), secret, says);
  const lines = found.visible.map(({ path, text }) => {
    const replaces = change.replaceReasons.includes(path) ? " (replaces)" : "";
    return `${code(path)}: ${text.replace(/^changes \(secret, not shown\)$/, "[secret] changed")}${replaces}`;
  });
  if (change.kind === "update" && found.visible.length === 0)
    for (const key of found.masked) lines.push(`${code(key)}: [secret] changed`);
  return lines;
}

/**
 * The bullet of one object drifted from the program. The preview compares the refreshed state
 * (what the platform holds) with the program: an update's old side is the platform's, its new side
 * the program's. A secret's two sides are both masked, so a changed one is only ever "[secret] changed".
 */
export function describeDrift(change: Change, words: Words): string[] {
  const kind = objectKindOf(change);
  const platform = change.old?.inputs ?? {};
  const declared = change.new?.inputs ?? {};
  const inputs = change.kind === "delete" || !change.new ? platform : declared;
  // The refreshed outputs describe the object as the platform holds it, e.g. a workflow's name.
  const head =
    `- **${words.label(change.kind)}** ${kind.title(inputs, change.old?.outputs ?? {})}: resource ` +
    `${code(change.name)}`;
  const details: string[] = [];
  if (change.kind === "create") {
    details.push("not on the platform: `up` creates it as declared");
  } else if (change.kind === "update" || change.kind === "replace") {
    details.push(
      ...propertyLines(
        change,
        platform,
        declared,
        (before, after) => `the platform holds ${show(before)}, the program declares ${show(after)}`,
      ),
    );
  } else if (change.kind === "delete") {
    details.push(
      `in the stack but no longer in the program: \`up\` releases it ` +
        `(${kind.release(platform, change.old?.outputs ?? {})})`,
    );
  }
  return [head, ...details.map((d) => `  - ${d}`)];
}

/**
 * Drift from the last deployment is read from a refresh's preview; a preview of the program would
 * report the program's changes as drift.
 */
export function requireRefreshOnly(preview: PreviewJson): void {
  if (isRefreshOnly(preview)) return;
  throw new PreviewJsonError(
    "the output of `pulumi preview`, which compares the program with the stack: for drift from the last " +
      "deployment, run `PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi refresh --preview-only --json`; for " +
      "drift from the program, pass this output with --drift-against-program",
  );
}

/**
 * A preview without --refresh compares the program with the last deployment only: it cannot show
 * drift, and saying "no drift" would be wrong.
 */
export function requireRefresh(steps: PreviewStep[]): void {
  const ours = steps.filter((s) => resourceTypeOf(typeOf(s)));
  if (ours.length > 0 && !steps.some((s) => s.op === "refresh")) {
    throw new PreviewJsonError(
      "a preview without --refresh, which cannot show drift: run `pulumi preview --refresh --expect-no-changes --json`",
    );
  }
}

/**
 * What a refresh cannot see, counted from the resources it read: application events (the API
 * has no read operation) and encrypted env values (read back redacted, so only whether they
 * exist is checked). A report of no drift must not be taken for more than it is.
 */
export function notChecked(steps: PreviewStep[]): string[] {
  const byUrn = new Map<string, PreviewStep>();
  for (const step of steps) if (step.op === "refresh" && resourceTypeOf(typeOf(step))) byUrn.set(step.urn, step);
  const type = (s: PreviewStep) => resourceTypeOf(typeOf(s));
  const events = [...byUrn.values()].filter((s) => type(s) === "ApplicationEvent").length;
  const encrypted = [...byUrn.values()].filter(
    (s) => type(s) === "EnvVariableValue" && (s.oldState?.inputs ?? s.newState?.inputs)?.encrypted === true,
  ).length;
  const parts: string[] = [];
  if (events > 0) parts.push(`${plural(events, "application event")} (the API has no read operation for events)`);
  if (encrypted > 0)
    parts.push(
      `the values of ${plural(encrypted, "encrypted env value")} (the platform reads them back redacted; only ` +
        `whether they exist is checked)`,
    );
  return parts.length > 0 ? [`Not checked: ${parts.join("; and ")}.`, ""] : [];
}
