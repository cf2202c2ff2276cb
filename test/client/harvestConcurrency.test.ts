// How many requests a harvest keeps in flight: adapting by default, fixed with --concurrency N,
// date window probes side by side, and the same dump whatever the concurrency. But for the CLI's
// export (a child of its own, over loopback HTTP), the service, the client's sleeps and its pacer run
// on one virtual clock, in this process (no socket, no real timer): what a harvest does and how many
// requests it keeps in flight are the same on a quiet and on a loaded machine.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ConcurrencyController } from '../../src/client/ConcurrencyController.js';
import { harvest } from '../../src/client/harvest.js';
import { exportRdf } from '../../src/export/exportRdf.js';
import { runCli } from '../helpers/cli.js';
import {
  VirtualClock,
  makeRecords,
  randomFaults,
  startFakeService,
  virtualService,
  type FakeRecord,
  type FakeService,
  type FakeServiceOptions,
  type FaultHook,
  type VirtualService,
} from './fakeService.js';

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});
const dir = mkdtempSync(join(tmpdir(), 'harvest-concurrency-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fastRetries = { retries: 8, baseDelayMs: 1, maxDelayMs: 2 };
const dois = async (it: AsyncIterable<Record<string, unknown>>) => {
  const out: unknown[] = [];
  for await (const r of it) out.push(r['doi']);
  return out;
};

/** A service on a virtual clock, and the client options that put a harvest on the same clock. */
function onClock(options: FakeServiceOptions): {
  clock: VirtualClock;
  service: VirtualService;
  client: { baseUrl: string; fetch: typeof globalThis.fetch; sleep: VirtualClock['sleep']; clock: () => number };
} {
  const clock = new VirtualClock();
  const service = virtualService(options, clock);
  return {
    clock,
    service,
    client: { baseUrl: 'http://service.test', fetch: service.fetch, sleep: clock.sleep, clock: clock.now },
  };
}

/** Answers request number `at` with `status` (a 429 says Retry-After: 0). */
function failOnce(at: number, status: number): FaultHook {
  return ({ n, res }) => {
    if (n !== at) return false;
    res.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '0' } : {}) });
    res.end('{"status":"Fail","message":"Too many requests"}');
    return true;
  };
}

/** A controller that notes each pushback's limit before and after. */
function watched(): { controller: ConcurrencyController; halvings: [number, number][] } {
  const controller = new ConcurrencyController();
  const halvings: [number, number][] = [];
  const pushback = controller.pushback.bind(controller);
  controller.pushback = (ticket) => {
    const before = controller.limit;
    const epochHalvings = controller.halvings;
    pushback(ticket);
    if (controller.halvings > epochHalvings) halvings.push([before, controller.limit]);
  };
  return { controller, halvings };
}

describe('adaptive concurrency', () => {
  it('is the default: starting at 2, it grows while the harvest waits on the network', async () => {
    const { clock, service, client } = onClock({ records: makeRecords(300), latencyMs: 10 });
    const got = await clock.run(() => dois(harvest('x', { ...client, pageSize: 10 })));
    expect(got).toEqual(makeRecords(300).map((r) => r.doi));
    expect(service.maxInFlight).toBeGreaterThan(2);
  });

  for (const status of [429, 503]) {
    it(`halves when the service answers ${status}, and the harvest brings the same records`, async () => {
      const { clock, client } = onClock({ records: makeRecords(300), latencyMs: 5, fault: failOnce(15, status) });
      const { controller, halvings } = watched();
      const got = await clock.run(() =>
        dois(harvest('x', { ...client, pageSize: 10, controller, retryPolicy: fastRetries })),
      );
      expect(got).toEqual(makeRecords(300).map((r) => r.doi));
      expect(halvings).toHaveLength(1);
      const [before, after] = halvings[0]!;
      expect(before).toBeGreaterThan(2);
      expect(after).toBe(Math.floor(before / 2));
    });
  }

  it("does not grow while the client's rate limit (--rate) holds requests back: more would only wait there", async () => {
    // a slot every 200 ms, answers in 10: after the first, every request waits for its slot
    const { clock, service, client } = onClock({ records: makeRecords(70), latencyMs: 10 });
    const controller = new ConcurrencyController();
    const got = await clock.run(() => dois(harvest('x', { ...client, pageSize: 10, controller, rate: 5 })));
    expect(got).toHaveLength(70);
    expect(controller.peak).toBe(2);
    expect(service.maxInFlight).toBeLessThanOrEqual(2);
    expect(clock.now()).toBeGreaterThanOrEqual(6 * 200); // 7 requests, a slot every 200 ms
  });

  it('a fixed concurrency (--concurrency N) is kept: never more in flight, a 429 does not lower it', async () => {
    const { clock, service, client } = onClock({ records: makeRecords(300), latencyMs: 10, fault: failOnce(10, 429) });
    const controller = new ConcurrencyController({ fixed: 3 });
    const got = await clock.run(() =>
      dois(harvest('x', { ...client, pageSize: 10, controller, retryPolicy: fastRetries })),
    );
    expect(got).toHaveLength(300);
    expect(service.maxInFlight).toBe(3);
    expect(controller.limit).toBe(3);
  });

  // Two exports of 15 pages (was 30): a page of the CLI's export costs a loaded machine about a quarter of a second,
  // mostly waiting (30 pages: 7.7 s wall, 0.9 s CPU); the limit is for a hang, the assertions count requests, not time.
  it('the export command adapts by default and keeps --concurrency N', { timeout: 300_000 }, async () => {
    service = await startFakeService({ records: makeRecords(150), latencyMs: 50 });
    const args = (url: string) => [
      'export',
      '-q',
      'x',
      '--base-url',
      url,
      '--api-key',
      'k',
      '--page-size',
      '10',
      '--quiet',
    ];
    const fixed = await runCli([...args(service.url), '--concurrency', '3', '-o', 'fixed.nt'], { cwd: dir });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(service.maxInFlight).toBe(3);
    await service.close();
    service = await startFakeService({ records: makeRecords(150), latencyMs: 50 });
    const adaptive = await runCli([...args(service.url), '-o', 'adaptive.nt'], { cwd: dir });
    expect(adaptive.code, adaptive.stderr).toBe(0);
    expect(service.maxInFlight).toBeGreaterThan(2); // the old default was a fixed 2
    expect(readFileSync(join(dir, 'adaptive.nt'))).toEqual(readFileSync(join(dir, 'fixed.nt')));
  });
});

describe('date window probes', () => {
  /** Sorted request URLs of a harvest, and the most window probes (first pages of a window) in flight at once. */
  async function probeRun(concurrency: number): Promise<{ urls: string[]; maxProbes: number; got: unknown[] }> {
    const { clock, service, client } = onClock({
      records: makeRecords(700, { startYear: 2021 }),
      maxStart: 100,
      latencyMs: 5,
    });
    let probes = 0;
    let maxProbes = 0;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const url = new URL(String(input));
      const probe = url.searchParams.get('s') === '1' && /onlinedatefrom:/.test(url.searchParams.get('q') ?? '');
      if (probe) maxProbes = Math.max(maxProbes, ++probes);
      try {
        return await service.fetch(input, init);
      } finally {
        if (probe) probes--;
      }
    };
    const got = await clock.run(() =>
      dois(
        harvest('type:Journal', {
          ...client,
          fetch,
          pageSize: 50,
          maxStart: 100,
          concurrency,
          today: new Date('2023-06-01'),
        }),
      ),
    );
    const urls = service.requests.map((u) => u.search).sort();
    return { urls, maxProbes, got };
  }

  it('go side by side, and a harvest sends exactly the requests a sequential one sends', async () => {
    const sequential = await probeRun(1);
    const parallel = await probeRun(4);
    expect(sequential.maxProbes).toBe(1);
    expect(parallel.maxProbes).toBeGreaterThanOrEqual(2);
    expect(parallel.got).toEqual(sequential.got);
    expect(parallel.got).toHaveLength(700);
    expect(parallel.urls).toEqual(sequential.urls);
  });
});

describe('the dump', () => {
  it('is byte-identical at any concurrency, adaptive or fixed, in date windows, with duplicates and faults', async () => {
    const records: FakeRecord[] = makeRecords(600, { startYear: 2021 });
    // the same works again on later dates (another window): the first seen is kept
    for (const i of [3, 150, 299]) records.push({ ...records[i]!, onlineDate: '2022-11-30', title: `again ${i}` });
    records.sort((a, b) => a.onlineDate.localeCompare(b.onlineDate));
    const dumps: Buffer[] = [];
    for (const concurrency of [1, 3, 8, undefined]) {
      // in-process, on the real clock: nothing here waits but the 1-2 ms of a retry, and no count depends on time
      const service = virtualService(
        { records, maxStart: 100, fault: randomFaults(11, { error5xx: 0.05, tooMany: 0.05 }) },
        new VirtualClock(),
      );
      const output = join(dir, `c${concurrency ?? 'default'}.nt`);
      const summary = await exportRdf({
        query: 'type:Journal',
        baseUrl: 'http://service.test',
        fetch: service.fetch,
        apiKey: 'k',
        output,
        pageSize: 25,
        maxStart: 100,
        today: new Date('2023-06-01'),
        now: () => new Date('2026-01-02T03:04:05.000Z'),
        retryPolicy: fastRetries,
        ...(concurrency ? { concurrency } : {}),
      });
      expect(summary.counts).toMatchObject({ records: 600, duplicates: 3 });
      dumps.push(readFileSync(output));
    }
    for (const dump of dumps.slice(1)) expect(dump.equals(dumps[0]!)).toBe(true);
  });
});
