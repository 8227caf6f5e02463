// The provider hosts' memory, sampled from /proc while a command runs (Linux): the dynamic
// resources' hosts and the native provider's plugin processes alike; and the Pulumi programs'.
import * as fs from "node:fs";

/** What a provider host's command line holds: the dynamic resources' host, or the native plugin. */
const PROVIDER_HOSTS = ["cmd/dynamic-provider", "pulumi-resource-integration-platform"];
/** What a Node.js Pulumi program's command line holds: the language host runs it through the SDK's `cmd/run`. */
const PROGRAMS = ["@pulumi/pulumi/cmd/run/"];

/** Peak RSS (VmHWM) of the processes watched (hosts or programs): the largest one's, and their most at once. */
export interface HostMemory {
  /** The largest single host's peak, in MB. */
  peakMb: number;
  /** The most memory the hosts held together at one sample, in MB (several stacks at once). */
  togetherMb: number;
}

/**
 * Samples every provider host process every 100 ms until stopped; returns the largest host's peak RSS in MB.
 */
export function watchProviderHosts(): () => number {
  const watch = watchProviderHostsTogether();
  return () => watch().peakMb;
}

/** The parent of a process, from /proc/<pid>/stat (its name, in brackets, may hold spaces). */
function parentOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/** Whether a process descends from this one: another bench running beside this one has hosts of its own. */
function isOurs(pid: number): boolean {
  for (let p = pid; p > 1; p = parentOf(p)) if (p === process.pid) return true;
  return false;
}

/** Like watchProviderHosts, also summing the hosts alive at each sample; only this process's descendants count. */
export function watchProviderHostsTogether(): () => HostMemory {
  return watchProcesses(PROVIDER_HOSTS);
}

/** The same for the Pulumi programs themselves (a Node.js program holds every resource it registered). */
export function watchPrograms(): () => HostMemory {
  return watchProcesses(PROGRAMS);
}

/** Samples this process's descendants whose command line holds one of `names`, every 100 ms until stopped. */
function watchProcesses(names: string[]): () => HostMemory {
  let peakKb = 0;
  let togetherKb = 0;
  const sample = () => {
    let now = 0;
    for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
      try {
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
        if (!names.some((name) => cmdline.includes(name)) || !isOurs(Number(pid))) continue;
        const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
        const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
        const rss = /VmRSS:\s+(\d+) kB/.exec(status);
        if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
        if (rss) now += Number(rss[1]);
      } catch {
        // The process ended between listing and reading: nothing to sample.
      }
    }
    togetherKb = Math.max(togetherKb, now);
  };
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    sample();
    return { peakMb: Math.round(peakKb / 1024), togetherMb: Math.round(togetherKb / 1024) };
  };
}
