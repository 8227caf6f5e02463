// The tools' and the emulator's platform wheels: each carries the same executable as its archive, so
// that `pip install pulumi-integration-platform-tools` gives a Python team the command with no other
// runtime, as ruff's wheels do. scripts/release/tool_wheel.py writes the wheel itself.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { executableName, PROGRAMS, type Target } from "./executables";
import { pythonVersion } from "./version";

const execFileAsync = promisify(execFile);

/** Each target's wheel platform tag: that of the Node.js wheel its executable is made from (ensure-sea-node.sh). */
export const WHEEL_PLATFORMS: Record<Target, string> = {
  "linux-amd64": "manylinux_2_28_x86_64",
  "linux-arm64": "manylinux_2_28_aarch64",
  "darwin-amd64": "macosx_13_0_x86_64",
  "darwin-arm64": "macosx_13_0_arm64",
  "windows-amd64": "win_amd64",
};

/** The projects on PyPI, and what their pages say. */
export const WHEEL_PROJECTS = {
  tools: {
    distribution: "pulumi-integration-platform-tools",
    summary:
      "The integration platform's command-line tools as one executable: change summaries for pull requests, drift reports, import, shards, webhook tests.",
  },
  emulator: {
    distribution: "pulumi-integration-platform-emulator",
    summary:
      "A local emulator of the integration platform's public API, with state and fault injection, as one executable.",
  },
} as const;

/**
 * A wheel's file name as PyPA's format spells it: the distribution with underscores, the release's version
 * (semver) in PEP 440's spelling, tags.
 */
export function wheelFileName(program: keyof typeof WHEEL_PROJECTS, version: string, target: Target): string {
  return `${WHEEL_PROJECTS[program].distribution.replace(/-/g, "_")}-${pythonVersion(version)}-py3-none-${WHEEL_PLATFORMS[target]}.whl`;
}

/** Where a wheel holds its executable: `<name>-<PEP 440 version>.data/scripts/`, which pip installs onto PATH. */
export function wheelExecutablePath(program: keyof typeof WHEEL_PROJECTS, version: string, target: Target): string {
  return `${WHEEL_PROJECTS[program].distribution.replace(/-/g, "_")}-${pythonVersion(version)}.data/scripts/${executableName(target, program)}`;
}

const HOMEPAGE = "https://github.com/pulumi-integration-platform/pulumi-integration-platform";

/** The project's description on PyPI. */
function readme(program: keyof typeof WHEEL_PROJECTS, version: string): string {
  const { distribution, summary } = WHEEL_PROJECTS[program];
  const command = PROGRAMS[program].name;
  const usage =
    program === "tools"
      ? [
          "```bash",
          "pulumi preview --json > preview.json",
          `${command} summarize preview.json          # the change summary, by linked account and app`,
          "PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi refresh --preview-only --expect-no-changes --json > drift.json",
          `${command} summarize --drift drift.json    # exits 1 on drift`,
          `${command} webhook send --url http://127.0.0.1:3000/webhooks`,
          `${command} --help`,
          "```",
        ]
      : [
          "```bash",
          `${command} --port 4010                    # the platform's API on 127.0.0.1:4010, at its documented rate limit`,
          `${command} --help`,
          "```",
          "",
          "Point the provider at it with `INTEGRATION_PLATFORM_BASE_URL=http://127.0.0.1:4010` and",
          "`INTEGRATION_PLATFORM_API_KEY=tk_emulator`.",
        ];
  return [
    `# ${distribution}`,
    "",
    summary,
    "",
    `This wheel carries the \`${command}\` executable of [pulumi-integration-platform](${HOMEPAGE}) ${version}`,
    "for one platform; `pip install` puts it on the environment's PATH. It needs no Node.js: the",
    "executable is Node.js with the program joined to it (a single executable application). The same",
    `executable is in the GitHub release as \`${command}-v${version}-<os>-<arch>.tar.gz\`, for teams that do not use pip.`,
    "",
    "```bash",
    `pip install ${distribution}==${pythonVersion(version)}`,
    "```",
    "",
    ...usage,
    "",
    `\`python -m ${distribution.replace(/-/g, "_")}\` runs it too. The guides: ${HOMEPAGE}/tree/main/docs/guides`,
    "",
  ].join("\n");
}

/**
 * Writes the program's wheel of the release `version` (semver; the wheel carries its PEP 440 spelling) for
 * `target`, carrying `executable`, into `out`; resolves to its path.
 */
export async function toolWheel(
  repo: string,
  program: keyof typeof WHEEL_PROJECTS,
  version: string,
  target: Target,
  executable: string,
  out: string,
): Promise<string> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "pip-wheel-"));
  try {
    const description = path.join(work, "README.md");
    fs.writeFileSync(description, readme(program, version));
    const { distribution, summary } = WHEEL_PROJECTS[program];
    // The script's own interpreter is the machine's python3: a wheel is a zip, written with its standard library.
    const { stdout } = await execFileAsync(
      "python3",
      [
        path.join(repo, "scripts", "release", "tool_wheel.py"),
        ...["--distribution", distribution, "--version", pythonVersion(version), "--platform", WHEEL_PLATFORMS[target]],
        ...["--executable", executable, "--command", PROGRAMS[program].name, "--summary", summary],
        ...["--readme", description, "--license", path.join(repo, "LICENSE"), "--homepage", HOMEPAGE, "--out", out],
      ],
      { encoding: "utf8" },
    );
    return stdout.trim();
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
