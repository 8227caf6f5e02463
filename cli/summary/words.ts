// The words of each report, so that the drift report reads as one and not as a list of changes.

/**
 * What a report is about: the changes a pull request makes; drift, the platform against the last
 * deployment (Pulumi's convention, `refresh --preview-only`); or the platform against the program.
 */
export type ReportMode = "changes" | "drift" | "programDrift";

/** The words of each report, so the drift report reads as one and not as a list of changes. */
export interface Words {
  title: string;
  /** The noun counted: "change", "drifted object". */
  noun: string;
  /** A change's kind as a bullet's label. */
  label(kind: string): string;
  /** "3 to create" or "3 missing". */
  count(n: number, kind: string): string;
  none: string;
  footer: string;
}

/** Drift from the program, in the words of what the platform holds: `up` would make each of these a change. */
const DRIFT_LABELS: Record<string, string> = {
  update: "changed",
  create: "missing",
  replace: "changed (replaces)",
  delete: "not declared",
};
/** Drift from the last deployment: what a refresh would write into the state. */
const DEPLOYED_DRIFT_LABELS: Record<string, string> = { update: "changed", delete: "gone" };

/** Each report's words, by mode. */
export const WORDS: Record<ReportMode, Words> = {
  changes: {
    title: "Integration platform changes",
    noun: "change",
    label: (kind) => kind,
    count: (n, kind) => `${n} to ${kind}`,
    none: "No changes to integration platform objects.",
    footer:
      "Secret values are never shown. Made by `pulumi-integration-platform summarize` from `pulumi preview --json`.",
  },
  drift: {
    title: "Integration platform drift",
    noun: "drifted object",
    label: (kind) => DEPLOYED_DRIFT_LABELS[kind] ?? kind,
    count: (n, kind) => `${n} ${DEPLOYED_DRIFT_LABELS[kind] ?? kind}`,
    none: "No drift: the platform holds what was last deployed, for every object it could read.",
    footer:
      "Secret values are never shown. Made by `pulumi-integration-platform summarize --drift` from `pulumi " +
      "refresh --preview-only --json`. To put back what was deployed, run `pulumi up --refresh`; to keep what " +
      "the platform holds, run `pulumi refresh` and change the program to match it.",
  },
  programDrift: {
    title: "Integration platform drift",
    noun: "drifted object",
    label: (kind) => DRIFT_LABELS[kind] ?? kind,
    count: (n, kind) => `${n} ${DRIFT_LABELS[kind] ?? kind}`,
    none: "No drift: the platform holds what the program declares, for every object it could read.",
    footer:
      "Secret values are never shown. Made by `pulumi-integration-platform summarize --drift-against-program` " +
      "from `pulumi preview --refresh --json`. To put back what the program declares, run `pulumi up --refresh`; " +
      "to keep what the platform holds, change the program to match it.",
  },
};
