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
export type { ReportMode } from "./words";
