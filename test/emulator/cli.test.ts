import { after, before, describe, it } from "mocha";
import axios from "axios";
import { strict as assert } from "node:assert";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SETTINGS } from "../../provider/settings";
import { runEmulator, waitForBanner } from "../support/emulatorProcess";
import { FIXTURE } from "../../harness/fixture";

describe("emulator: command line (main.ts as a child process)", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "emulator-cli-"));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("prints URL, key, token and control plane; --port 0 picks a port; SIGTERM flushes --data and exits 0", async () => {
    const data = join(dir, "state.json");
    const { child, exited, output } = runEmulator(["--port", "0", "--data", data]);
    try {
      const banner = await waitForBanner({ output, exited });
      const url = /Integration platform emulator listening on (http:\/\/127\.0\.0\.1:(\d+))\n/.exec(banner);
      assert.ok(url, banner);
      assert.notEqual(Number(url[2]), 0);
      assert.match(banner, /^API key: tk_emulator$/m);
      assert.match(banner, /^Bearer token: emulator_token$/m);
      assert.ok(banner.includes(`Control plane: ${url[1]}/_emulator/`));
      assert.match(banner, /^Rate limit: 20 requests\/s, burst 5, per credential \(--rate-limit off to disable\)$/m);
      // docs/emulator.md shows the banner as it is printed, at the default port.
      const documented = /On start it prints:\n\n```\n([\s\S]*?)```/.exec(
        await readFile(resolve(__dirname, "../../docs/emulator.md"), "utf8"),
      );
      assert.ok(documented, "docs/emulator.md shows the banner");
      assert.equal(
        documented[1],
        banner
          .replace(/State file: .*/, "State: in memory (use --data FILE to keep it)")
          .split(url[1])
          .join("http://127.0.0.1:4010"),
      );
      // The lines a new user copies to point a stack at it: the provider's own setting names.
      const lines = banner.split("\n").map((line) => line.trim());
      for (const expected of [
        `pulumi config set ${SETTINGS.baseUrl.config} ${url[1]}`,
        `pulumi config set --secret ${SETTINGS.apiKey.config} tk_emulator`,
        `export ${SETTINGS.baseUrl.env}=${url[1]}`,
        `export ${SETTINGS.apiKey.env}=tk_emulator`,
      ]) {
        assert.ok(lines.includes(expected), `the banner has no line ${JSON.stringify(expected)}:\n${banner}`);
      }

      assert.equal((await axios.get(`${url[1]}/_emulator/health`)).data.status, "ok");
      const created = await axios.post(
        `${url[1]}/api/v2/public/env/values`,
        { variable_definition_id: FIXTURE.definitions.accountQuota, value: "77", linked_account_id: "globex" },
        { headers: { "x-api-key": "tk_emulator" } },
      );
      child.kill("SIGTERM");
      const exit = await exited;
      assert.deepEqual([exit.code, exit.signal], [0, null], exit.stderr);
      const state = JSON.parse(await readFile(data, "utf8"));
      assert.equal(state.envValues.find((v: { _id: string }) => v._id === created.data._id).value, "77");
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("is never wedged: a value nested 8,000 deep is refused, the next write answers within a second, the data file is 0600, and SIGTERM ends it", async () => {
    const data = join(dir, "deep.json");
    const { child, exited, output } = runEmulator(["--port", "0", "--data", data]);
    try {
      const base = /listening on (\S+)/.exec(await waitForBanner({ output, exited }))![1];
      const headers = { "x-api-key": "tk_emulator", linked_account_id: "acme", slug: "hubspot" };
      // Written as text: 8,000 levels are past what JSON.stringify can walk, in this process too.
      const deep = `${"[".repeat(8000)}"x"${"]".repeat(8000)}`;
      const body = { slug: "hubspot", config_id: "acme", workflows: [] };
      const text = `{"slug":"hubspot","config_id":"acme","fields":[{"id":"hs_pipeline","value":${deep}}],"workflows":[]}`;
      const refused = await axios.put(`${base}/api/v2/public/config/field/hs_pipeline`, text, {
        headers: { ...headers, "content-type": "application/json" },
        validateStatus: () => true,
      });
      assert.equal(refused.status, 400);
      assert.match(refused.data.message, /^The body nests deeper than 32 levels/);

      const started = Date.now();
      const written = await axios.put(
        `${base}/api/v2/public/config/field/hs_pipeline`,
        { ...body, fields: [{ id: "hs_pipeline", name: "Still writable" }] },
        { headers, timeout: 1000 },
      );
      assert.equal(written.status, 200);
      assert.ok(Date.now() - started < 1000);
      assert.equal((await stat(data)).mode & 0o777, 0o600, "the data file holds encrypted values in clear: owner only");

      const stopped = Date.now();
      child.kill("SIGTERM");
      const exit = await exited;
      assert.deepEqual([exit.code, exit.signal], [0, null], exit.stderr);
      assert.ok(Date.now() - stopped < 5000, `stopped in ${Date.now() - stopped} ms`);
      assert.match(await readFile(data, "utf8"), /Still writable/);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("takes --api-key and --token, and exits 0 on SIGINT", async () => {
    const { child, exited, output } = runEmulator(["--port", "0", "--api-key", "tk_cli", "--token", "cli_token"]);
    try {
      const banner = await waitForBanner({ output, exited });
      assert.match(banner, /^API key: tk_cli$/m);
      assert.match(banner, /^Bearer token: cli_token$/m);
      assert.match(banner, /^ +pulumi config set --secret integration-platform:apiKey tk_cli$/m);
      assert.match(banner, /^ +export INTEGRATION_PLATFORM_API_KEY=tk_cli$/m);
      const base = /listening on (\S+)/.exec(banner)![1];
      const res = await axios.get(`${base}/api/v2/public/audit/event-received`, {
        headers: { authorization: "Bearer cli_token" },
      });
      assert.equal(res.status, 200);
      child.kill("SIGINT");
      assert.equal((await exited).code, 0);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("takes --rate-limit off and --rate-limit RPS/BURST with --retry-after", async () => {
    const children = [
      runEmulator(["--port", "0", "--rate-limit", "off"]),
      runEmulator(["--port", "0", "--rate-limit", "5/2", "--retry-after"]),
    ];
    try {
      const [off, limited] = await Promise.all(children.map(waitForBanner));
      const get = (banner: string, count: number) => {
        const base = /listening on (\S+)/.exec(banner)![1];
        return Promise.all(
          Array.from({ length: count }, () =>
            axios.get(`${base}/api/v2/public/linked-account`, {
              headers: { "x-api-key": "tk_emulator" },
              validateStatus: () => true,
            }),
          ),
        );
      };

      assert.match(off, /^Rate limit: off \(--rate-limit RPS\/BURST to enable\)$/m);
      assert.deepEqual(
        (await get(off, 20)).map((r) => r.status),
        Array(20).fill(200),
      );

      assert.match(
        limited,
        /^Rate limit: 5 requests\/s, burst 2, per credential, with Retry-After \(--rate-limit off to disable\)$/m,
      );
      // The burst of 2 passes, and one more per 200 ms while the requests are under way: a child
      // process cannot have its clock stopped, and a loaded machine takes a while over 40 requests.
      const started = Date.now();
      const responses = await get(limited, 40);
      const earned = Math.ceil((Date.now() - started) / 200);
      const passed = responses.filter((r) => r.status === 200).length;
      assert.ok(passed >= 2 && passed <= 2 + earned, `${passed} of 40 passed, with ${earned} tokens earned meanwhile`);
      assert.equal(responses.filter((r) => r.status === 429).length, 40 - passed);
      const refused = responses.find((r) => r.status === 429);
      assert.ok(refused, "the requests beyond the burst and the rate are refused");
      assert.equal(refused.data.message, "Rate limit exceeded: 5 requests per second with a burst of 2");
      assert.equal(refused.headers["retry-after"], "1");
      const base = /listening on (\S+)/.exec(limited)![1];
      assert.deepEqual((await axios.get(`${base}/_emulator/rate-limit`)).data, {
        rateLimit: "5/2",
        requestsPerSecond: 5,
        burst: 2,
        retryAfter: true,
        status: 429,
      });
    } finally {
      for (const { child } of children) child.kill("SIGKILL");
    }
  });

  it("exits 2 with a clear message for bad arguments and a bad fixture, 0 for --help", async () => {
    const [badPort, host, positional, missingFixture, help, badRateLimit, emptyRateLimit] = await Promise.all(
      [
        ["--port", "http"],
        ["--host", "0.0.0.0"],
        ["serve"],
        ["--port", "0", "--fixtures", join(dir, "nope.json")],
        ["--help"],
        ["--rate-limit", "20/0"],
        ["--rate-limit"],
      ].map((args) => runEmulator(args).exited),
    );
    assert.equal(badPort.code, 2);
    assert.match(badPort.stderr, /--port must be an integer from 0 to 65535/);
    assert.equal(host.code, 2);
    // In the emulator's words, not Node's parser's ("To specify a positional argument ...").
    assert.equal(
      host.stderr,
      "pulumi-integration-platform-emulator: unknown option --host\nRun `pulumi-integration-platform-emulator --help` for usage.\n",
    );
    assert.equal(positional.code, 2);
    assert.match(positional.stderr, /^pulumi-integration-platform-emulator: takes options only; got "serve"$/m);
    assert.equal(missingFixture.code, 2);
    assert.match(missingFixture.stderr, /cannot read fixture .*nope\.json/);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--fixtures FILE/);
    assert.match(help.stdout, /--rate-limit RPS\/BURST\|off/);
    assert.match(help.stdout, /--retry-after/);
    assert.equal(badRateLimit.code, 2);
    assert.match(
      badRateLimit.stderr,
      /^pulumi-integration-platform-emulator: --rate-limit must be "RPS\/BURST" \(RPS > 0, decimals allowed; BURST a whole number >= 1; e\.g\. "20\/5" or "0\.5\/1"\) or "off"; got "20\/0"$/m,
    );
    assert.match(badRateLimit.stderr, /^Run `pulumi-integration-platform-emulator --help` for usage\.$/m);
    assert.equal(emptyRateLimit.code, 2);
    assert.match(emptyRateLimit.stderr, /: --rate-limit needs a value: --rate-limit <value>$/m);
  });
});
