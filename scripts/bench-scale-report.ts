// The tables of `npm run bench:scale` in Markdown, and a plot (SVG) of how each command's time grows
// with the number of linked accounts, against the rate floor and the engine floor:
//
//   npx ts-node --transpile-only scripts/bench-scale-report.ts <results.json> ... \
//     [--svg <file> --plot shards|shards-skip --backend file|s3 \
//      --provider dynamic|native|python|go|go-binary|java|java-jar \
//                 |native-setup|python-setup|go-binary-setup|java-jar-setup] \
//     [--target 1.15 --most-429 0.2]
import * as fs from "node:fs";
import { parseArgs } from "node:util";
import {
  COMMANDS,
  PROGRAM_NAMES,
  type Command,
  type Measured,
  type PeerMeasured,
  type Program,
  type ProgramRun,
} from "./lib/scale";
import { logLogSvg } from "./lib/plot";

/**
 * Which of our providers a row's program ran on: the dynamic resources (`dynamic`, the program `ours`), or the
 * program of that name (PROGRAM_NAMES) on the native provider.
 */
type Provider = "dynamic" | Exclude<Program, "ours" | "floor">;
/** Every provider, in the order of the programs. */
const PROVIDERS = PROGRAM_NAMES.filter((p) => p !== "floor").map((p) => (p === "ours" ? "dynamic" : p)) as Provider[];
/** The results' key of a provider's program. */
const programOf = (provider: Provider): Program => (provider === "dynamic" ? "ours" : provider);

/** How a plot's title names each provider other than the dynamic resources. */
const PROVIDER_TITLE: Record<Provider, string> = {
  dynamic: "dynamic resources",
  native: "native provider",
  python: "Python program",
  go: "Go program",
  "go-binary": "Go program, prebuilt",
  java: "Java program",
  "java-jar": "Java program, prebuilt jar",
  "native-setup": "native provider, LinkedAccountSetup",
  "python-setup": "Python program, LinkedAccountSetup",
  "go-binary-setup": "Go program, prebuilt, LinkedAccountSetup",
  "java-jar-setup": "Java program, prebuilt jar, LinkedAccountSetup",
};

/** One K, layout, backend and provider: our program's run, the floor's and the peer's when they ran at that K. */
interface Row {
  k: number;
  layout: string;
  /** Where the stacks' state was: a folder (`file`) or a bucket of an S3-compatible server (`s3`). */
  backend: string;
  provider: Provider;
  run: ProgramRun;
  floor?: ProgramRun;
  peer?: Record<"create" | "refresh" | "destroy", PeerMeasured>;
}

/** The platform's documented limit, which the emulator enforced by default. */
const RATE = 20;
/** The targets a row is held to. */
interface Targets {
  /** Each command within this many times the rate floor (`--target`, default 1.15; issue 40 asks 1.10). */
  ratio: number;
  /** At most this share of calls answered 429, in percent (`--most-429`, default 0.2; issue 40 asks 0.1). */
  most429Percent: number;
}
/** Our time over the peer's at most: create 0.7 (or the peer failing), refresh and destroy 0.5. */
const PEER_TARGET: Partial<Record<Command, number>> = { up: 0.7, refresh: 0.5, destroy: 0.5 };
/** The peer's phase for each of our commands. */
const PEER_PHASE: Partial<Record<Command, "create" | "refresh" | "destroy">> = {
  up: "create",
  refresh: "refresh",
  destroy: "destroy",
};
/**
 * The peer (OpenTofu + restapi, BENCHMARKS.md "Peer"), as measured by its own README at the same limit, for results
 * without a peer run: wall seconds.
 */
const PEER: Record<number, Partial<Record<Command, string>>> = {
  100: { up: "26-34", refresh: "28-32", destroy: "65-68" },
  1000: { up: "255", refresh: "290", destroy: "702" },
};

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** The rows of a results file: one per K, layout, backend and provider that ran. */
function rows(results: Record<string, unknown>): Row[] {
  const runs = new Map<string, Partial<Record<string, ProgramRun>>>();
  for (const [key, value] of Object.entries(results)) {
    const match = /^(\d+)\/([^/]+)\/([a-z-]+)(?:\/(s3))?$/.exec(key);
    if (!match) continue;
    const id = `${match[1]}/${match[2]}/${match[4] ?? "file"}`;
    runs.set(id, { ...runs.get(id), [match[3]]: value as ProgramRun });
  }
  const found: Row[] = [];
  for (const [id, programs] of runs) {
    const [k, layout, backend] = id.split("/");
    for (const provider of PROVIDERS) {
      const run = programs[programOf(provider)];
      if (!run) continue;
      const peer = results[`${k}/peer`] as Row["peer"];
      found.push({ k: Number(k), layout, backend, provider, run, floor: programs.floor, peer });
    }
  }
  return found.sort(
    (a, b) =>
      a.k - b.k ||
      a.layout.localeCompare(b.layout) ||
      a.backend.localeCompare(b.backend) ||
      a.provider.localeCompare(b.provider),
  );
}

/** The peer's time for a command at a row's K: measured in the same run, else the README's figure. */
function peerOf(row: Row, command: Command): string {
  const phase = PEER_PHASE[command];
  const measured = phase && row.peer?.[phase];
  if (measured) {
    const again = measured.untilDone;
    const done = !again
      ? ""
      : again.code === 0
        ? `; done after ${again.runs} runs, ${fmt(again.seconds)} s in all`
        : `; still failing after ${again.runs} runs, ${fmt(again.seconds)} s`;
    return `${fmt(measured.seconds)}${measured.code !== 0 ? " **failed**" : ""} (${measured.calls - measured.rateLimited} answered, ${measured.rateLimited} × 429${done})`;
  }
  return PEER[row.k]?.[command] ?? (command === "preview" ? "" : "not run");
}

/**
 * Where a command's seconds over its paced calls went: before the first call, and after the last (older results lack
 * them).
 */
function edges(o: Measured): string {
  return o.beforeFirstCall === undefined ? "" : `${fmt(o.beforeFirstCall)}, ${fmt(o.afterLastCall ?? 0)}`;
}

/** The programs' memory, where it was sampled (results before issue 40's 10,000-account run lack it). */
function programs(o: Measured): string {
  if (o.programPeakMb === undefined) return "–";
  // refresh and destroy run no program.
  return o.programPeakMb === 0 ? "none ran" : `${o.programPeakMb} / ${o.programsTogetherMb}`;
}

function table(all: Row[]): string[] {
  const lines = [
    "| K (resources) | layout | backend | provider | command | wall (s) | calls | answered 429 | rate floor (s) | wall / rate floor | first call at, after the last (s) | engine floor (s) | peer (s) | state (MB) | provider hosts' peak, largest / together (MB) | programs' peak, largest / together (MB) |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const row of all) {
    for (const command of COMMANDS) {
      const o = row.run.commands[command];
      if (!o) continue;
      const answered = o.calls - o.rateLimited;
      const floor = answered / RATE;
      const ratio = floor > 0 ? fmt(o.seconds / floor, 2) : "no call";
      const engine = row.floor?.commands[command]?.seconds;
      const peer = peerOf(row, command);
      lines.push(
        `| ${row.k} (${row.k * 3}) | ${row.layout} | ${row.backend} | ${row.provider} | ${command}${o.failed ? " **failed**" : ""} | ${fmt(o.seconds)} | ${o.calls} | ${o.rateLimited} | ${fmt(floor)} | ${ratio} | ${edges(o)} | ${engine === undefined ? "" : fmt(engine)} | ${peer} | ${command === "up" ? fmt(row.run.stateBytes / 2 ** 20, 2) : ""} | ${o.hostPeakMb} / ${o.hostsTogetherMb} | ${programs(o)} |`,
      );
    }
  }
  return lines;
}

/**
 * The longest a no-change preview may take: within the target of the engine's floor (no-op resources, the same layout)
 * where the floor ran at that K, else 60 s.
 */
function mostForPreview(row: Row, targets: Targets): number {
  const engine = row.floor?.commands.preview?.seconds;
  return engine ? engine * targets.ratio : 60;
}

function verdict(all: Row[], targets: Targets): string[] {
  const lines: string[] = [];
  for (const row of all) {
    const missed: string[] = [];
    let calls = 0;
    let limited = 0;
    for (const command of COMMANDS) {
      const o = row.run.commands[command];
      if (!o) continue;
      calls += o.calls;
      limited += o.rateLimited;
      const floor = (o.calls - o.rateLimited) / RATE;
      if (o.failed) missed.push(`${command} failed`);
      else if (command === "preview" && (o.calls > 0 || o.seconds > mostForPreview(row, targets)))
        missed.push(`preview: ${o.calls} calls, ${fmt(o.seconds)} s (at most ${fmt(mostForPreview(row, targets))} s)`);
      else if (floor > 0 && o.seconds / floor > targets.ratio)
        missed.push(`${command} at ${fmt(o.seconds / floor, 2)}`);
    }
    const share = calls > 0 ? (100 * limited) / calls : 0;
    if (share > targets.most429Percent) missed.push(`${fmt(share, 2)}% of calls answered 429`);
    const up = row.run.commands.up;
    const perAccount = up ? (up.calls - up.rateLimited) / row.k : 0;
    // Results of runs without destroy (`--commands up`, before bench-scale stopped writing it) hold a count that is no
    // destroy's: left out.
    const leftBehind = row.run.commands.destroy ? row.run.leftBehind : undefined;
    if (leftBehind !== undefined && leftBehind > 0) missed.push(`destroy left ${leftBehind} objects different`);
    const againstPeer: string[] = [];
    for (const [command, most] of Object.entries(PEER_TARGET) as [Command, number][]) {
      const theirs = row.peer?.[PEER_PHASE[command]!];
      const ours = row.run.commands[command];
      if (!theirs || !ours) continue;
      // A phase the peer finished only by running it again is compared with all those runs: what its user waited.
      const finished = theirs.code !== 0 && theirs.untilDone?.code === 0 ? theirs.untilDone : undefined;
      const ratio = ours.seconds / (finished?.seconds ?? theirs.seconds);
      const how = finished
        ? ` (the peer's ${finished.runs} runs until done)`
        : theirs.code !== 0
          ? " (the peer failed)"
          : "";
      againstPeer.push(`${command} ${fmt(ratio, 2)} × the peer's${how}`);
      if (ratio > most && !(command === "up" && theirs.code !== 0))
        missed.push(`${command} ${fmt(ratio, 2)} × the peer's${how} (at most ${most})`);
    }
    const facts = `${fmt(perAccount, 2)} calls per linked account at up, ${fmt(share, 2)}% of calls answered 429${leftBehind === undefined ? "" : `, ${leftBehind} objects left different by destroy`}${againstPeer.length ? `; ${againstPeer.join(", ")}` : ""}`;
    lines.push(
      `- K = ${row.k}, ${row.layout}, ${row.backend}, ${row.provider}: ${missed.length === 0 ? `every command within ${targets.ratio} × its rate floor, preview 0 calls within ${fmt(mostForPreview(row, targets))} s, ${facts}: **met**` : `**missed**: ${missed.join("; ")} (${facts})`}.`,
    );
  }
  return lines;
}

/**
 * The native provider against the dynamic resources where both ran at the same K, layout and
 * backend: each command's wall time and first call, and the state per resource.
 */
function nativeAgainstDynamic(all: Row[]): string[] {
  const lines = [
    "| K | layout | backend | command | dynamic wall (s) | native wall (s) | native / dynamic | first call, dynamic / native (s) | state per resource, dynamic / native (bytes) |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  const dynamicRows = all.filter((row) => row.provider === "dynamic");
  for (const dynamic of dynamicRows) {
    const native = all.find(
      (row) =>
        row.provider === "native" &&
        row.k === dynamic.k &&
        row.layout === dynamic.layout &&
        row.backend === dynamic.backend,
    );
    if (!native) continue;
    for (const command of COMMANDS) {
      const [d, n] = [dynamic.run.commands[command], native.run.commands[command]];
      if (!d || !n) continue;
      const state =
        command === "up"
          ? `${fmt(dynamic.run.stateBytes / (3 * dynamic.k), 0)} / ${fmt(native.run.stateBytes / (3 * native.k), 0)}`
          : "";
      const first = (m: Measured) => (m.beforeFirstCall === undefined ? "–" : fmt(m.beforeFirstCall));
      lines.push(
        `| ${dynamic.k} | ${dynamic.layout} | ${dynamic.backend} | ${command} | ${fmt(d.seconds)} | ${fmt(n.seconds)} | ${fmt(n.seconds / d.seconds, 2)} | ${first(d)} / ${first(n)} | ${state} |`,
      );
    }
  }
  return lines.length > 2 ? ["", "Native against dynamic:", "", ...lines] : [];
}

/** A log-log plot of wall time against K, per command, with the rate floor dashed. */
function svg(all: Row[], layoutOf: (row: Row) => boolean, title: string): string {
  const data = all.filter(layoutOf);
  const colors: Record<Command, string> = { up: "#1f77b4", preview: "#7f7f7f", refresh: "#2ca02c", destroy: "#d62728" };
  return logLogSvg({
    title: `${title}: wall time (solid), and the rate floor, calls / 20 per s (dashed)`,
    subtitle: "both axes logarithmic; one machine, 2 cores, at the platform's documented limit",
    xLabel: "linked accounts (3 resources each)",
    series: COMMANDS.map((command) => ({
      name: command,
      color: colors[command],
      points: data
        .filter((r) => r.run.commands[command]?.seconds > 0)
        .map((r): [number, number] => [r.k, r.run.commands[command].seconds]),
      floor: data.map((r): [number, number] => [
        r.k,
        ((r.run.commands[command]?.calls ?? 0) - (r.run.commands[command]?.rateLimited ?? 0)) / RATE,
      ]),
    })),
  });
}

/**
 * Adds a later results file to the earlier ones: a program's run at the same K, layout and backend keeps the earlier
 * run's commands that the later one did not run (a run of `--commands up,refresh,destroy` replaces those three only).
 */
function mergeRuns(earlier: Record<string, unknown>, later: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...earlier };
  for (const [key, value] of Object.entries(later)) {
    const before = earlier[key] as Partial<ProgramRun> | undefined;
    const run = value as Partial<ProgramRun> | undefined;
    merged[key] =
      before?.commands && run?.commands
        ? { ...before, ...run, commands: { ...before.commands, ...run.commands } }
        : value;
  }
  return merged;
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      svg: { type: "string" },
      plot: { type: "string", default: "shards" },
      backend: { type: "string", default: "file" },
      provider: { type: "string", default: "dynamic" },
      target: { type: "string", default: "1.15" },
      "most-429": { type: "string", default: "0.2" },
    },
  });
  const targets: Targets = { ratio: Number(values.target), most429Percent: Number(values["most-429"]) };
  if (!(targets.ratio > 1) || !(targets.most429Percent >= 0))
    throw new Error(
      `--target takes a ratio above 1 and --most-429 a percentage; got ${values.target}, ${values["most-429"]}`,
    );
  if (positionals.length < 1)
    throw new Error(
      "usage: bench-scale-report.ts <results.json> ... [--svg <file> --plot shards|shards-skip --backend file|s3" +
        " --provider dynamic|native|python|go|go-binary|java|java-jar|native-setup|python-setup|go-binary-setup|java-jar-setup] [--target 1.15 --most-429 0.2]",
    );
  // Several runs' results together: later files add to (or replace) the earlier ones' rows, command by command.
  const runs = positionals.map((file) => JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>);
  const all = rows(runs.reduce(mergeRuns, {}));
  const machines = runs.map(
    (run, i) => `${positionals[i]}: ${String(run.machine)}, load average before the run ${fmt(Number(run.load), 2)}.`,
  );
  const lines = [...machines, "", ...table(all), "", ...verdict(all, targets), ...nativeAgainstDynamic(all)];
  process.stdout.write(lines.join("\n") + "\n");
  const skip = values.plot === "shards-skip";
  const plotted = (row: Row) =>
    /^shards-\d+(-skip)?$/.test(row.layout) &&
    row.layout.endsWith("-skip") === skip &&
    row.backend === values.backend &&
    row.provider === values.provider;
  const title =
    `Shards${skip ? ", checkpoints skipped" : ""}${values.backend === "s3" ? ", state in S3" : ""}` +
    `${values.provider === "dynamic" ? "" : `, ${PROVIDER_TITLE[values.provider as Provider] ?? values.provider}`}`;
  if (values.svg) fs.writeFileSync(values.svg, svg(all, plotted, title));
}

main();
