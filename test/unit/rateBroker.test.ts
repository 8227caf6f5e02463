// The pacer `shards` serves to the stacks of one machine (provider/client/rateBroker.ts): every
// shard takes its turns there, so a shard with nothing to send leaves its part to the others,
// and together they never pass the whole rate.
import * as assert from "node:assert/strict";
import { Pacer } from "../../provider/client/pacing";
import { brokerUrlProblem, RateBrokerClient, startRateBroker, type RateBroker } from "../../provider/client/rateBroker";

/** A shard's pacer: its part of the rate, taking turns at the broker. */
function shard(broker: RateBroker, part: number): Pacer {
  const pacer = new Pacer();
  pacer.configure(part);
  pacer.share(new RateBrokerClient(broker.url));
  return pacer;
}

/** When each of `count` turns was granted, in ms from the start. */
async function turns(pacer: Pacer, count: number, start: number): Promise<number[]> {
  return Promise.all(Array.from({ length: count }, () => pacer.turn().then(() => performance.now() - start)));
}

/** The most turns granted within any window of `windowMs`. */
function busiest(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] > windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe("rate broker (shards on one machine share one pacer)", () => {
  let broker: RateBroker;
  afterEach(async () => broker?.close());

  it("a shard alone uses the whole rate, not only its part", async () => {
    broker = await startRateBroker(20);
    const start = performance.now();
    const times = await turns(shard(broker, 5), 40, start);
    // Its part (5/s) alone would take about 8 s; the whole rate (20/s) about 2 s.
    assert.ok(Math.max(...times) < 2_600, `40 turns took ${Math.round(Math.max(...times))} ms`);
    assert.ok(Math.max(...times) > 1_700, `40 turns at 20/s cannot take ${Math.round(Math.max(...times))} ms`);
    assert.equal(broker.turns, 40);
  });

  it("shards starting together stay within the whole rate and a burst of 2, and share it", async () => {
    broker = await startRateBroker(20);
    const start = performance.now();
    const shards = Array.from({ length: 4 }, () => shard(broker, 5));
    const each = await Promise.all(shards.map((pacer) => turns(pacer, 15, start)));
    const all = each.flat();
    // 60 turns at 20/s: no window of one second holds more than 20 and the bucket's 2.
    assert.ok(busiest(all, 1_000) <= 22, `${busiest(all, 1_000)} turns in one second`);
    assert.ok(busiest(all, 20) <= 2, `${busiest(all, 20)} turns within 20 ms`);
    assert.ok(Math.max(...all) < 3_600, `60 turns took ${Math.round(Math.max(...all))} ms`);
  });

  it("tells when each stack asked its first turn, at its own address, from the one pacer", async () => {
    broker = await startRateBroker(20);
    const asked: number[] = [];
    for (const shard of [0, 1, 2]) void broker.firstTurn(shard).then(() => asked.push(shard));
    assert.match(broker.urlFor(1), new RegExp(`^${broker.url}/stack/1$`));
    assert.equal(await new RateBrokerClient(broker.urlFor(1)).turn(), true);
    assert.equal(await new RateBrokerClient(broker.url).turn(), true, "the address without a stack still serves");
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(asked, [1], "only stack 1 has asked");
    new RateBrokerClient(broker.urlFor(0)).rateLimited();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(asked, [1], "a 429 reported is no turn asked");
    assert.equal(await new RateBrokerClient(broker.urlFor(2)).turn(), true);
    assert.deepEqual(asked, [1, 2]);
    assert.equal(broker.turns, 3, "one pacer counted every stack's turns");
  });

  it("refuses a stack path that is not a number", async () => {
    broker = await startRateBroker(20);
    assert.equal(await new RateBrokerClient(`${broker.url}/stack/x`).turn(), false);
    assert.equal(await new RateBrokerClient(`${broker.url}/stack/1/extra`).turn(), false);
    assert.equal(broker.turns, 0);
  });

  it("one shard's 429 slows every shard", async () => {
    broker = await startRateBroker(20);
    const a = new RateBrokerClient(broker.url);
    a.rateLimited();
    for (let i = 0; i < 50 && broker.pacer.cutCount === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(broker.pacer.cutCount, 1);
    assert.equal(broker.pacer.currentRate, 10);
  });

  it("when the broker is gone, a shard paces itself to its part", async () => {
    broker = await startRateBroker(20);
    const pacer = shard(broker, 10);
    await broker.close();
    const start = performance.now();
    const times = await turns(pacer, 12, start);
    assert.ok(Math.max(...times) > 900, `12 turns at its part of 10/s took ${Math.round(Math.max(...times))} ms`);
  });

  it("refuses any address but plain http on 127.0.0.1: a turn never leaves the machine", () => {
    assert.equal(brokerUrlProblem("http://127.0.0.1:4000/abc"), undefined);
    for (const url of [
      "https://127.0.0.1:4000/abc",
      "http://example.com/abc",
      "http://localhost:4000/abc",
      "http://u:p@127.0.0.1:1/x",
      "http://127.0.0.1:1/x?y",
      "not a url",
    ]) {
      assert.ok(brokerUrlProblem(url), url);
    }
  });
});
