// The provider hosts' memory, sampled from /proc while a command runs (Linux): the dynamic
// resources' hosts and the native provider's plugin processes alike.
import * as fs from "node:fs";

/** What a provider host's command line holds: the dynamic resources' host, or the native plugin. */
const PROVIDER_HOSTS = ["cmd/dynamic-provider", "pulumi-resource-integration-platform"];

/** Peak RSS (VmHWM) of the provider hosts seen: the largest one's, and the sum over those alive at once at most. */
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

/** Like watchProviderHosts, also summing the hosts alive at each sample. */
export function watchProviderHostsTogether(): () => HostMemory {
  let peakKb = 0;
  let togetherKb = 0;
  const sample = () => {
    let now = 0;
    for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
      try {
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
        if (!PROVIDER_HOSTS.some((name) => cmdline.includes(name))) continue;
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
