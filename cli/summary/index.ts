// The change summary's public face, for main.ts and the tests.
export { mergePreviews, parsePreview, PreviewJson, PreviewJsonError } from "./preview";
export {
  DEFAULT_MAX_CHARS,
  fullSummaryLink,
  MIN_MAX_CHARS,
  summarize,
  summarizeBounded,
  type FullSummaryAt,
  type LeftOut,
  type Summaries,
} from "./summarize";
export {
  breaches,
  GATES_EXAMPLE,
  GatesFileError,
  isLimitValue,
  LIMIT_OPTIONS,
  parseGates,
  type Breach,
  type Limit,
  type Limits,
} from "./gates";
export type { ReportMode } from "./words";
