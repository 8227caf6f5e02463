// The provider hosts' memory, sampled from /proc while a command runs (Linux): the dynamic
// resources' hosts and the native provider's plugin processes alike; and the Pulumi programs'.
import * as fs from "node:fs";
import * as path from "node:path";
import { PREBUILT_GO } from "../../harness/prebuilt";

/** What a provider host's command line holds: the dynamic resources' host, or the native plugin. */
const PROVIDER_HOSTS = ["cmd/dynamic-provider", "pulumi-resource-integration-platform"];
/**
 * What a Pulumi program's command line holds: a Node.js one runs through the SDK's `cmd/run`, a
 * Python one through the host's `pulumi-language-python-exec`, a Go one is the binary the host built
 * (`/tmp/pulumi-go.<n>`) or the one built beforehand (harness/prebuilt.ts), a Java one Maven's `exec:java` or the
 * jar built beforehand.
 */
const PROGRAMS = [
  "@pulumi/pulumi/cmd/run/",
  "pulumi-language-python-exec",
  "/pulumi-go.",
  PREBUILT_GO,
  "exec:java",
  "-1.0-SNAPSHOT.jar",
];

/** Peak RSS (VmHWM) of the processes watched (hosts or programs): the largest one's, and their most at once. */
export interface HostMemory {
  /** The largest single host's peak, in MB. */
  peakMb: number;
  /** The most memory the hosts held together at one sample, in MB (several stacks at once). */
  togetherMb: number;
  /** Their CPU seconds together (user and system), as last sampled before each ended (within 100 ms). */
  cpuSeconds: number;
}

/**
 * Samples every provider host process every 100 ms until stopped; returns the largest host's peak RSS in MB.
 */
export function watchProviderHosts(): () => number {
  const watch = watchMemory();
  return () => watch().hosts.peakMb;
}

/**
 * The numeric fields of /proc/<pid>/stat after the process's name (which, in brackets, may hold spaces): index 0 is
 * the state's, so field N of proc(5) is at N - 3 (the parent 1, utime 11, stime 12, cutime 13, cstime 14).
 */
function statFields(pid: number | "self"): number[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
}

/** Linux counts CPU time in ticks of 1/100 s (USER_HZ). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds of the children this process waited for, and of theirs (cutime and cstime): a command's whole cost
 * to the machine's cores, whatever else runs beside it.
 */
export function childrenCpuSeconds(): number {
  const fields = statFields("self");
  return (fields[13] + fields[14]) / TICKS_PER_SECOND;
}

/** The parent of a process. */
const parentOf = (pid: number): number => statFields(pid)[1];

/** Whether a process descends from this one: another bench running beside this one has hosts of its own. */
function isOurs(pid: number): boolean {
  for (let p = pid; p > 1; p = parentOf(p)) if (p === process.pid) return true;
  return false;
}

/** The provider hosts' and the programs' memory while a command ran. */
export interface CommandMemory {
  hosts: HostMemory;
  programs: HostMemory;
}

/**
 * Samples this process's descendant provider hosts and Pulumi programs (a Node.js program holds every resource it
 * registered) every 100 ms, in one pass over /proc, until stopped.
 */
export function watchMemory(): () => CommandMemory {
  const groups = { hosts: PROVIDER_HOSTS, programs: PROGRAMS };
  const peakKb = { hosts: 0, programs: 0 };
  const togetherKb = { hosts: 0, programs: 0 };
  // Each process's CPU ticks when last sampled: its total when it ended, to a sample's interval.
  const ticks = { hosts: new Map<number, number>(), programs: new Map<number, number>() };
  // A process's ancestry does not change while it runs: walk it once per process.
  const ours = new Map<number, boolean>();
  const sample = () => {
    const now = { hosts: 0, programs: 0 };
    for (const pid of fs
      .readdirSync("/proc")
      .filter((p) => /^\d+$/.test(p))
      .map(Number)) {
      try {
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
        const group = (["hosts", "programs"] as const).find((g) => groups[g].some((name) => cmdline.includes(name)));
        if (group === undefined) continue;
        if (!ours.has(pid)) ours.set(pid, isOurs(pid));
        if (!ours.get(pid)) continue;
        const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
        const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
        const rss = /VmRSS:\s+(\d+) kB/.exec(status);
        if (hwm) peakKb[group] = Math.max(peakKb[group], Number(hwm[1]));
        if (rss) now[group] += Number(rss[1]);
        const fields = statFields(pid);
        ticks[group].set(pid, fields[11] + fields[12]);
      } catch {
        // The process ended between listing and reading: nothing to sample.
      }
    }
    for (const group of ["hosts", "programs"] as const) togetherKb[group] = Math.max(togetherKb[group], now[group]);
  };
  const timer = setInterval(sample, 100);
  const mb = (kb: number) => Math.round(kb / 1024);
  return () => {
    clearInterval(timer);
    sample();
    const cpu = (group: "hosts" | "programs") =>
      [...ticks[group].values()].reduce((a, b) => a + b, 0) / TICKS_PER_SECOND;
    return {
      hosts: { peakMb: mb(peakKb.hosts), togetherMb: mb(togetherKb.hosts), cpuSeconds: cpu("hosts") },
      programs: { peakMb: mb(peakKb.programs), togetherMb: mb(togetherKb.programs), cpuSeconds: cpu("programs") },
    };
  };
}

/**
 * The environment in which every Node.js process a command starts (programs, plugins, hosts) writes a CPU
 * profile into `dir` when it ends: exitOnSignal.js makes SIGINT and SIGTERM exit, since Node.js writes none
 * for a process a signal kills. Needs Node.js 22 or later (20 refuses --cpu-prof in NODE_OPTIONS).
 */
export function cpuProfileEnv(dir: string): { NODE_OPTIONS: string } {
  return { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir} --require ${path.join(__dirname, "exitOnSignal.js")}` };
}
