// The command line as a user meets it: --version, the overview and each command's own help, a
// command after `--`, and the words of every refusal: the product's, never zod's or a parser's.
// The commands' work is tested in summarize.test.ts, import.test.ts and the shards tests.
import * as assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../cli/main";
import { apiErrorFrom } from "../../provider/client/errors";
import { resolveSettings, type SettingTerms } from "../../provider/settings";
import { useResetEmulator } from "../support/emulator";

const REPO = path.resolve(__dirname, "../..");
const BIN = path.join(REPO, "dist/cli/main.js");
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;

/** What one run printed, and its exit status. */
interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command line in-process, as the tests of the commands do. */
async function cli(args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  const run = { stdout: "", stderr: "" };
  const code = await main(args, {
    stdout: (text) => (run.stdout += text),
    stderr: (text) => (run.stderr += text),
    readStdin: async () => options.stdin ?? "",
    env: options.env ?? {},
  });
  return { code, ...run };
}

/** Runs the built command (dist/cli/main.js) in a child process, as npx does. */
function bin(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Words of zod's and of Node's parseArgs' messages, which must never reach the user. */
const FOREIGN = /Invalid input|expected|received|To specify a positional argument|ERR_PARSE_ARGS|^error: /im;

/** Whether a help text lists `option` as one of its options (not merely mentions it, as `--expect-no-changes` in a command to run). */
const lists = (help: string, option: string) => help.split("\n").some((line) => line.startsWith(`  ${option}`));

/** Each command's own options: its help lists them, no other command's help does. */
const OPTIONS = {
  summarize: [
    "--drift",
    "--drift-against-program",
    "--max-chars <n>",
    "--full <file>",
    "--full-link <url>",
    "--max-linked-accounts <n>",
    "--max-deletes <n>",
    "--max-replaces <n>",
    "--gates <file>",
  ],
  import: ["--slug <slug>", "--linked-account <id>", "--out <dir>", "--force"],
  shards: ["--shards <n>", "--requests-per-second <n>", "--expect-no-changes", "--waves <shares>", "--resume"],
  "shards move": ["--from <n>", "--to <n>", "--dry-run"],
  "webhook send": [
    "--url <url>",
    "--event <event>",
    "--linked-account-id <id>",
    "--config-id <id>",
    "--workflow-id <id>",
    "--workflow-name <name>",
    "--instance-id <id>",
    "--key-env <name>",
    "--timeout <ms>",
  ],
};

describe("the command line", () => {
  describe("--version", () => {
    it("stops quietly when the reader of its output goes away (`summarize … | head`): no EPIPE, its own exit status", async () => {
      const child = spawn(process.execPath, [BIN, "summarize", path.join(REPO, "test/e2e/golden/preview.json")], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      // The reader is gone before the first line, as when `head` has had its lines.
      child.stdout.destroy();
      let stderr = "";
      child.stderr.on("data", (chunk) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      assert.equal(stderr, "");
      assert.equal(code, 0);
    });

    it("prints the version in package.json, with -V too", async () => {
      for (const flag of ["--version", "-V"]) {
        assert.deepEqual(await cli([flag]), { code: 0, stdout: `${VERSION}\n`, stderr: "" });
      }
    });

    it("finds package.json from the built command, two levels below it", async () => {
      assert.deepEqual(await bin(["--version"]), { code: 0, stdout: `${VERSION}\n`, stderr: "" });
    });
  });

  describe("--help", () => {
    it("the overview lists the commands, one line each, how to get a command's help, and the exit statuses", async () => {
      const run = await cli(["--help"]);
      assert.deepEqual([run.code, run.stderr], [0, ""]);
      assert.match(run.stdout, /^Usage: pulumi-integration-platform <command> \[options\]\n/);
      assert.match(run.stdout, /\n {2}-V, --version +Print the version\.\n/);
      for (const command of ["summarize", "import", "shards"])
        assert.match(run.stdout, new RegExp(`\\n {2}${command} +\\S`), command);
      assert.match(
        run.stdout,
        /Run `pulumi-integration-platform <command> --help` for a command's options,\nexamples and exit status/,
      );
      assert.match(run.stdout, /\nExit status: 0 when .*\n[\s\S]*3 for an unexpected failure\.\n/);
      for (const option of Object.values(OPTIONS).flat())
        assert.ok(!lists(run.stdout, option), `the overview leaves ${option} to its command's help`);
      assert.equal((await cli(["-h"])).stdout, run.stdout);
    });

    for (const [command, own] of Object.entries(OPTIONS)) {
      it(`${command} --help prints ${command}'s help only`, async () => {
        const run = await cli([...command.split(" "), "--help"]);
        assert.deepEqual([run.code, run.stderr], [0, ""]);
        assert.ok(run.stdout.startsWith(`Usage: pulumi-integration-platform ${command} `), run.stdout);
        for (const option of own) assert.ok(lists(run.stdout, option), `${command}'s help lists ${option}`);
        for (const [other, theirs] of Object.entries(OPTIONS)) {
          if (other === command) continue;
          // `shards up --waves --dry-run` and `shards move --dry-run`: the same word, each command's own.
          for (const option of theirs.filter((o) => !(command === "shards" && o === "--dry-run")))
            assert.ok(!lists(run.stdout, option), `${command}'s help does not list ${other}'s ${option}`);
        }
        assert.match(run.stdout, /\nExit status: /);
        assert.equal((await cli([...command.split(" "), "-h"])).stdout, run.stdout);
      });
    }

    it("keeps what the one help text said: the drift commands to run, the environment import reads, shards move's example", async () => {
      const summarize = (await cli(["summarize", "--help"])).stdout;
      assert.match(
        summarize,
        /PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi refresh --preview-only --json > refresh\.json \|\| true\n/,
      );
      // Wrapped to the options' column, wherever it breaks.
      assert.match(
        summarize,
        /default\s+60000,\s+at\s+least\s+1000\.\s+GitHub\s+refuses\s+a\s+comment\s+over\s+65536\./,
      );
      const imports = (await cli(["import", "--help"])).stdout;
      assert.match(imports, /INTEGRATION_PLATFORM_BASE_URL and\s+INTEGRATION_PLATFORM_API_KEY/);
      assert.match(imports, /npx pulumi-integration-platform import --slug hubspot --out platform\n/);
      const shards = (await cli(["shards", "--help"])).stdout;
      assert.match(shards, /\n {2}move +Re-shard/);
      assert.match(
        (await cli(["shards", "move", "--help"])).stdout,
        /npx pulumi-integration-platform shards move --from 4 --to 5 --stack prod-\{shard\}\n/,
      );
    });
  });

  describe("a command after --", () => {
    it("runs as if it came first: -- import --help, -- summarize -", async () => {
      const help = await cli(["--", "import", "--help"]);
      assert.deepEqual([help.code, help.stderr], [0, ""]);
      assert.equal(help.stdout, (await cli(["import", "--help"])).stdout);
      const summary = await cli(["--", "summarize", "-"], { stdin: JSON.stringify({ steps: [] }) });
      assert.deepEqual([summary.code, summary.stderr], [0, ""]);
      assert.match(summary.stdout, /^## /);
    });
  });

  describe("refusals: exit 2, the product's words, and the help to read", () => {
    /** Runs a refused command line: exit 2, nothing on stdout, one message and the usage hint for `help`. */
    async function refused(args: string[], message: RegExp, help: string, stdin?: string): Promise<string> {
      const run = await cli(args, { stdin });
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stdout, "");
      assert.match(run.stderr, /^pulumi-integration-platform: /);
      assert.match(run.stderr, message);
      assert.ok(run.stderr.endsWith(`\nRun \`pulumi-integration-platform ${help}--help\` for usage.\n`), run.stderr);
      assert.doesNotMatch(run.stderr, FOREIGN);
      return run.stderr;
    }

    it("an unknown command, before or after --, lists all four commands", async () => {
      for (const args of [["diff"], ["--", "diff"], ["summarise", "preview.json"]]) {
        await refused(args, /unknown command "\w+": the commands are summarize, import, shards and webhook\n/, "");
      }
      await refused([], /missing command: the commands are summarize, import, shards and webhook\n/, "");
    });

    it("an unknown option, in commander's words without its 'error: ', and no parser advice about positionals", async () => {
      await refused(["--json"], /^pulumi-integration-platform: unknown option '--json'\n/, "");
      await refused(["summarize", "--json", "preview.json"], /unknown option '--json'/, "summarize ");
      await refused(
        ["summarize", "--max-char", "2000", "preview.json"],
        /unknown option '--max-char'\n\(Did you mean --max-chars\?\)\n/,
        "summarize ",
      );
      await refused(["import", "--all"], /unknown option '--all'/, "import ");
      await refused(["shards", "up", "--from", "4"], /unknown option '--from'/, "shards ");
      await refused(["shards", "move", "--shards", "4"], /unknown option '--shards'/, "shards move ");
      await refused(["summarize", "-x", "preview.json"], /unknown option '-x'/, "summarize ");
    });

    it("an option without its value names the option and shows it with one", async () => {
      await refused(
        ["summarize", "preview.json", "--max-chars"],
        /: --max-chars needs a value: --max-chars <n>\n/,
        "summarize ",
      );
      await refused(["import", "--slug", "hubspot", "--out"], /: --out needs a value: --out <dir>\n/, "import ");
      await refused(["shards", "up", "--shards"], /: --shards needs a value: --shards <n>\n/, "shards ");
      await refused(["shards", "move", "--from", "4", "--to"], /: --to needs a value: --to <n>\n/, "shards move ");
    });

    it("a bad number names the option, what it takes, and what it got", async () => {
      await refused(
        ["summarize", "--max-chars", "lots", "-"],
        /--max-chars must be a whole number of characters, at least 1000 \(default 60000\); got "lots"/,
        "summarize ",
      );
      await refused(
        ["shards", "up", "--shards", "four"],
        /--shards must be a whole number of shards from 1 to 1000; got "four"/,
        "shards ",
      );
      await refused(
        ["shards", "up", "--shards", "4", "--requests-per-second", "-5"],
        /--requests-per-second must be a number above 0, at most 1000 \(the API key's limit in all\); got "-5"/,
        "shards ",
      );
      await refused(
        ["shards", "up", "--stack", "prod", "--shards", "4"],
        /--stack "prod" names one stack \(no \{shard\} in it\), so --shards is 1 or not given; got --shards 4/,
        "shards ",
      );
      await refused(
        ["shards", "move", "--from", "0", "--to", "5"],
        /--from must be a whole number of shards from 1 to 1000; got "0"/,
        "shards move ",
      );
    });

    it("shards options given before move are refused, not silently dropped", async () => {
      await refused(
        ["shards", "--stack", "prod-{shard}", "move", "--from", "4", "--to", "5"],
        /give --stack after `move`/,
        "shards move ",
      );
    });

    describe("summarize's input", () => {
      let tmp: string;
      beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pip-cli-"))));
      afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

      it("JSON without steps: names the file, what it is not, and the command that writes the right one", async () => {
        const file = path.join(tmp, "preview.json");
        fs.writeFileSync(file, "{}");
        const message = await refused(
          ["summarize", file],
          /is not the output of `pulumi preview --json`/,
          "summarize ",
        );
        assert.ok(message.includes(`${file} is not the output`), message);
        assert.match(
          message,
          /`steps` is missing; it should be a list\. Run `pulumi preview --json > preview\.json` and pass that file\n/,
        );
      });

      it("with --drift and --drift-against-program, the command of that report", async () => {
        const file = path.join(tmp, "refresh.json");
        fs.writeFileSync(file, '{"steps": {}}');
        await refused(
          ["summarize", "--drift", file],
          /refresh\.json is not the output of `pulumi refresh --preview-only --json`: `steps` is an object; it should be a list\. Run `PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi refresh --preview-only --json > refresh\.json` and pass that file/,
          "summarize ",
        );
        await refused(
          ["summarize", "--drift-against-program", file],
          /is not the output of `pulumi preview --refresh --json`: .* Run `pulumi preview --refresh --expect-no-changes --json > preview\.json` and pass that file/,
          "summarize ",
        );
      });

      it("a step of the wrong shape, and a stream of engine events of the wrong shape", async () => {
        await refused(
          ["summarize", "-"],
          /`steps\[1\]\.urn` is missing; it should be text/,
          "summarize ",
          JSON.stringify({
            steps: [{ op: "same", urn: "urn:pulumi:dev::demo::pulumi:pulumi:Stack::demo-dev" }, { op: "create" }],
          }),
        );
        const events = [
          '{"sequence":0,"resourcePreEvent":{"metadata":{"op":"refresh","urn":7}}}',
          '{"sequence":1}',
        ].join("\n");
        await refused(
          ["summarize", "--drift", "-"],
          /standard input is not a stream of Pulumi engine events: in event 0, `resourcePreEvent\.metadata\.urn` is a number; it should be text; run `PULUMI_ENABLE_STREAMING_JSON_PREVIEW=true pulumi refresh/,
          "summarize ",
          events,
        );
      });

      it("text that is not JSON: where it goes wrong, without the parser's message", async () => {
        await refused(
          ["summarize", "-"],
          /standard input is not JSON \(it starts with "Previewing update \(dev\):"\); pass what `pulumi preview --json` printed on standard output, without stderr: `pulumi preview --json > preview\.json`/,
          "summarize ",
          "Previewing update (dev):\n{}",
        );
        await refused(
          ["summarize", "-"],
          /standard input is not JSON \(it stops being JSON at "\}"\)/,
          "summarize ",
          '{"steps": [}',
        );
        await refused(
          ["summarize", "-"],
          /standard input is not JSON \(it stops being JSON at line 2, column 3\)/,
          "summarize ",
          '{"steps": [],\n  ,}',
        );
      });
    });
  });

  describe("import names the environment variables it reads, never stack config keys", () => {
    const ctx = useResetEmulator();
    let tmp: string;
    beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pip-cli-import-"))));
    afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

    /** Runs import into a new directory with `env` as its whole environment. */
    const importWith = (env: NodeJS.ProcessEnv) =>
      cli(["import", "--slug", "hubspot", "--out", path.join(tmp, "platform")], { env });

    it("a refused API key (401)", async () => {
      const run = await importWith({
        INTEGRATION_PLATFORM_BASE_URL: ctx.emulator.url,
        INTEGRATION_PLATFORM_API_KEY: "tk_wrong",
      });
      assert.equal(run.code, 2, run.stderr);
      assert.match(
        run.stderr,
        /401 from GET \/linked-account: .*the API key was refused; check `INTEGRATION_PLATFORM_API_KEY`\n/,
      );
      assert.doesNotMatch(run.stderr, /integration-platform:apiKey|integration-platform:/);
    });

    it("an unreachable platform, and a setting out of range", async () => {
      const unreachable = await importWith({
        INTEGRATION_PLATFORM_BASE_URL: "http://127.0.0.1:1",
        INTEGRATION_PLATFORM_API_KEY: "k",
        INTEGRATION_PLATFORM_MAX_RETRIES: "0",
      });
      assert.equal(unreachable.code, 2, unreachable.stderr);
      assert.match(
        unreachable.stderr,
        /the platform could not be reached \(ECONNREFUSED\); check `INTEGRATION_PLATFORM_BASE_URL` and that the service is up/,
      );
      const bad = await importWith({
        INTEGRATION_PLATFORM_BASE_URL: ctx.emulator.url,
        INTEGRATION_PLATFORM_API_KEY: "k",
        INTEGRATION_PLATFORM_TIMEOUT_MS: "soon",
      });
      assert.equal(bad.code, 2, bad.stderr);
      assert.match(
        bad.stderr,
        /import: INTEGRATION_PLATFORM_TIMEOUT_MS must be a whole number from 100 to 600000; got "soon"\n/,
      );
      for (const run of [unreachable, bad]) assert.doesNotMatch(run.stderr, /integration-platform:/);
    });

    it("every message of the client and the settings, in environment terms, names each setting by its variable", () => {
      const env = { INTEGRATION_PLATFORM_BASE_URL: "https://api.example.com", INTEGRATION_PLATFORM_API_KEY: "k" };
      /** Each message the client and the settings can give about a setting, in `terms`. */
      const messagesIn = (terms: SettingTerms) => {
        const messages = [
          apiErrorFrom({ operation: "GET /linked-account", auth: "apiKey", status: 401, attempts: 1, terms }).message,
          apiErrorFrom({ operation: "GET /linked-account", auth: "token", status: 403, attempts: 1, terms }).message,
          apiErrorFrom({
            operation: "GET /linked-account",
            auth: "apiKey",
            transportCode: "ECONNREFUSED",
            attempts: 4,
            terms,
          }).message,
          apiErrorFrom({ operation: "GET /linked-account", auth: "apiKey", status: 302, attempts: 1, terms }).message,
          apiErrorFrom({
            operation: "GET /linked-account",
            auth: "apiKey",
            status: 429,
            attempts: 9,
            rateLimitedMs: 120_000,
            rateLimitBudgetMs: 120_000,
            terms,
          }).message,
        ];
        for (const bad of [
          { INTEGRATION_PLATFORM_BASE_URL: "not a url" },
          { INTEGRATION_PLATFORM_BASE_URL: "http://api.example.com" },
          { INTEGRATION_PLATFORM_REQUESTS_PER_SECOND: "9999" },
          { INTEGRATION_PLATFORM_ALLOW_PLAIN_HTTP: "yes" },
          { INTEGRATION_PLATFORM_BASE_URL: "", INTEGRATION_PLATFORM_API_KEY: "" },
        ]) {
          assert.throws(
            () => resolveSettings(undefined, { ...env, ...bad }, terms),
            (error: Error) => (messages.push(error.message), true),
          );
        }
        return messages;
      };
      for (const said of messagesIn("environment")) {
        assert.doesNotMatch(said, /integration-platform:|pulumi config set/, said);
        assert.match(said, /INTEGRATION_PLATFORM_[A-Z_]+/, said);
      }
      assert.match(
        messagesIn("environment")[4],
        /lower `INTEGRATION_PLATFORM_REQUESTS_PER_SECOND`, or raise `INTEGRATION_PLATFORM_RATE_LIMIT_BUDGET_MS`/,
      );
      assert.match(
        messagesIn("environment")[9],
        /^ {2}INTEGRATION_PLATFORM_BASE_URL: export INTEGRATION_PLATFORM_BASE_URL=https:\/\/<your platform host>$/m,
      );
      // The provider's own messages, read from stack config first, name the config key and the variable.
      for (const said of messagesIn("stack")) assert.match(said, /integration-platform:\w+/, said);
    });
  });
});
