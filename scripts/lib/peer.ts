// The peer (BENCHMARKS.md, "Peer"): the same multi-tenant workload written for OpenTofu with the
// Mastercard restapi provider, what a team without this project would use. The benchmarks run it
// beside ours, against the same emulator, so both sets of figures come from one run on one machine.
// scripts/ensure-peer.sh builds it; this module lays out its working folder and runs its phases.
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunningEmulator } from "../../emulator";

const REPO = path.resolve(__dirname, "../..");
/** The peer's program: kept in shared/ beside the repository, not in it, as the steering side wrote it. */
export const PEER_PROGRAM = path.join(REPO, "..", "shared", "peer", "main.tf");

/** One of the peer's measured phases: `tofu apply`, `tofu apply -refresh-only`, `tofu destroy`. */
export type PeerPhase = "create" | "refresh" | "destroy";

/** What one tofu command did: its wall time, exit code, and stdout and stderr together. */
export interface PeerRun {
  seconds: number;
  code: number;
  output: string;
}

// The flags a script gives: no prompt, no colour codes in the output kept for failure messages.
const PHASE_ARGS: Record<PeerPhase, string[]> = {
  create: ["apply", "-auto-approve", "-input=false", "-no-color"],
  refresh: ["apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color"],
  destroy: ["destroy", "-auto-approve", "-input=false", "-no-color"],
};

// The API key of each prepared folder. The README passes it as TF_VAR_api_key rather than in
// terraform.tfvars, so it is kept in memory here and never written into the folder.
const apiKeys = new Map<string, string>();

/** Builds the peer if needed (scripts/ensure-peer.sh, progress on our stderr) and returns its PEER_HOME. */
export function ensurePeer(): string {
  const stdout = execFileSync("bash", [path.join(REPO, "scripts", "ensure-peer.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const home = stdout.trim().split("\n").pop() ?? "";
  if (!home || !fs.existsSync(path.join(home, "bin", "tofu")))
    throw new Error(`scripts/ensure-peer.sh printed no usable PEER_HOME (got "${home}")`);
  return home;
}

/**
 * The linked account ids main.tf addresses for K tenants: `tenant0000`, `tenant0001`, … (its `format("tenant%04d",
 * i)`).
 */
export function peerTenantIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `tenant${String(i).padStart(4, "0")}`);
}

/**
 * Adds the peer's K linked accounts to the emulator, each with an empty hubspot config (as harness/tenants.ts seeds
 * ours); returns their ids.
 */
export async function seedPeerTenants(emulator: RunningEmulator, count: number): Promise<string[]> {
  // Not seedTenants: its ids are `${prefix}-${i}`, and main.tf fixes the zero-padded form.
  const ids = peerTenantIds(count);
  for (const id of ids) {
    emulator.store.linkedAccounts.add({ account_id: id, name: `Tenant ${id}` });
    emulator.store.configs.upsert({ linkedAccountId: id, slug: "hubspot", configId: id }, undefined);
  }
  await emulator.store.commit();
  return ids;
}

/** Lays out the peer's working folder `dir` for K tenants: main.tf and terraform.tfvars, as the README's run does. */
export function preparePeer(dir: string, emulatorUrl: string, apiKey: string, tenants: number): void {
  if (!fs.existsSync(PEER_PROGRAM)) {
    throw new Error(`the peer's program is missing: ${PEER_PROGRAM} (shared/peer/main.tf beside the repository)`);
  }
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(PEER_PROGRAM, path.join(dir, "main.tf"));
  fs.writeFileSync(path.join(dir, "terraform.tfvars"), `uri = "${emulatorUrl}"\ntenants = ${tenants}\n`);
  apiKeys.set(path.resolve(dir), apiKey);
}

/**
 * Runs `tofu init` in a prepared folder (no API calls: the provider comes from PEER_HOME's mirror); throws when it
 * fails.
 */
export async function initPeer(peerHome: string, dir: string, env?: NodeJS.ProcessEnv): Promise<PeerRun> {
  const run = await tofu(peerHome, dir, ["init", "-input=false", "-no-color"], env);
  if (run.code !== 0)
    throw new Error(
      `tofu init failed in ${dir} (exit ${run.code}):\n${run.output.trim().split("\n").slice(-20).join("\n")}`,
    );
  return run;
}

/**
 * Runs one phase in a folder preparePeer laid out (and initPeer initialised, else it is initialised
 * first, outside the timing). A failed phase resolves with its exit code rather than throwing: the
 * benchmark records the peer's failures as results, as the README's table does.
 */
export async function runPeerPhase(
  peerHome: string,
  dir: string,
  phase: PeerPhase,
  env?: NodeJS.ProcessEnv,
): Promise<PeerRun> {
  if (!fs.existsSync(path.join(dir, ".terraform.lock.hcl"))) await initPeer(peerHome, dir, env);
  return tofu(peerHome, dir, PHASE_ARGS[phase], env);
}

function tofu(peerHome: string, dir: string, args: string[], env?: NodeJS.ProcessEnv): Promise<PeerRun> {
  const apiKey = apiKeys.get(path.resolve(dir));
  if (apiKey === undefined && !env?.TF_VAR_api_key)
    throw new Error(`${dir} was not prepared (preparePeer) in this process and no TF_VAR_api_key was given`);
  const fullEnv: NodeJS.ProcessEnv = {
    ...process.env,
    TF_IN_AUTOMATION: "1",
    TF_CLI_CONFIG_FILE: path.join(peerHome, "tofurc"),
    ...(apiKey === undefined ? {} : { TF_VAR_api_key: apiKey }),
    ...env,
    // The README's PATH, so that anything tofu starts by name finds the same build.
    PATH: `${path.join(peerHome, "bin")}${path.delimiter}${env?.PATH ?? process.env.PATH ?? ""}`,
  };
  const started = Date.now();
  return new Promise((resolve) => {
    // A big buffer: at K = 1,000 the peer prints several lines per object, retries included.
    execFile(
      path.join(peerHome, "bin", "tofu"),
      args,
      { cwd: dir, env: fullEnv, maxBuffer: 512 * 1024 * 1024 },
      (error, stdout, stderr) => {
        // error.code is the exit code, or a string when tofu could not run or its output overflowed.
        const code = !error ? 0 : typeof error.code === "number" ? error.code : 1;
        const output =
          error && typeof error.code !== "number" ? `${stdout}\n${stderr}\n${error.message}` : `${stdout}\n${stderr}`;
        resolve({ seconds: (Date.now() - started) / 1000, code, output });
      },
    );
  });
}
