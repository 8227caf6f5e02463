// What `npm run bench:scale` records (scripts/bench-scale.ts) and its report reads
// (scripts/bench-scale-report.ts).

/**
 * The programs bench:scale runs (scripts/lib/scalePrograms.ts PROGRAMS): the dynamic resources (`ours`), the no-op
 * floor, the native provider from TypeScript, Python, Go and Java (`go-binary`, `java-jar` built once beforehand), and
 * the same accounts as one LinkedAccountSetup each (`*-setup`).
 */
export const PROGRAM_NAMES = [
  "ours",
  "native",
  "floor",
  "python",
  "go",
  "go-binary",
  "java",
  "java-jar",
  "native-setup",
  "python-setup",
  "go-binary-setup",
  "java-jar-setup",
] as const;
/** One of PROGRAM_NAMES. */
export type Program = (typeof PROGRAM_NAMES)[number];

/** The commands each program goes through, in order. */
export const COMMANDS = ["up", "preview", "refresh", "destroy"] as const;
/** One of COMMANDS. */
export type Command = (typeof COMMANDS)[number];

/** One command's figures. */
export interface Measured {
  seconds: number;
  calls: number;
  rateLimited: number;
  /** The largest provider host's peak RSS (MB). */
  hostPeakMb: number;
  /** The most all provider hosts held at once (MB). */
  hostsTogetherMb: number;
  /** The largest Pulumi program's peak RSS (MB); absent from results recorded before it was sampled. */
  programPeakMb?: number;
  /** The most all programs held at once (MB). */
  programsTogetherMb?: number;
  /**
   * CPU seconds of the command's processes (the CLI, its language hosts, programs and plugins; not the emulator,
   * which runs in the bench's own process), and of its provider hosts and its programs among them.
   */
  cpuSeconds?: number;
  hostsCpuSeconds?: number;
  programsCpuSeconds?: number;
  /** Seconds from the command's start to the first API call: engine, program and plugin start-up. */
  beforeFirstCall?: number;
  /** Seconds from the last API call's answer to the command's end: the final state writes and exits. */
  afterLastCall?: number;
  failed?: string;
}

/** One program's run through every command. */
export interface ProgramRun {
  commands: Record<Command, Measured>;
  /** Bytes of every stack's exported state after up, together. */
  stateBytes: number;
  /** The tenants' configs and env values that differ after destroy from before up (0: the platform as it was). */
  leftBehind?: number;
}

/** One phase of the peer (OpenTofu with restapi, scripts/lib/peer.ts). */
export interface PeerMeasured {
  seconds: number;
  calls: number;
  rateLimited: number;
  /** Its exit code: the peer fails when its retries run out. */
  code: number;
  failed?: string;
  /**
   * When the phase failed: the same command run again, as its user would, until it succeeded (or 3 more tries); totals
   * over every run.
   */
  untilDone?: { runs: number; seconds: number; calls: number; rateLimited: number; code: number };
}

/** Parses `option`'s comma-separated list of whole numbers above 0, e.g. "1000,3334"; an empty text is no number. */
export function wholeNumbers(option: string, text: string): number[] {
  const values = text
    .split(",")
    .filter((part) => part.trim() !== "")
    .map(Number);
  if (values.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`${option} takes whole numbers, e.g. 1000,3334; got ${text}`);
  return values;
}
