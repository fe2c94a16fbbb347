import fc from 'fast-check';
import { type LeaseSource, leaseSize, RateBudget } from '../src/domain/rate-budget.ts';

/** The shared Redis counter, in memory: the same INCRBY semantics the Lua script has. */
class MemoryCounter implements LeaseSource {
  readonly totals = new Map<string, number>();
  calls = 0;
  async lease(keyId: string, window: number, count: number): Promise<number> {
    this.calls += 1;
    await Promise.resolve();
    const key = `${keyId}:${window}`;
    const total = (this.totals.get(key) ?? 0) + count;
    this.totals.set(key, total);
    return total;
  }
}

describe('rate budget: local buckets leased from a shared counter', () => {
  it('when replicas spend a key concurrently past its limit, then never more than the limit pass and at most one batch per replica is lost', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 3000 }),
        async (limit, replicaCount, picks) => {
          const counter = new MemoryCounter();
          const replicas = Array.from({ length: replicaCount }, () => new RateBudget(counter, limit, 60_000, () => 0));
          const decisions = await Promise.all(picks.map((pick) => replicas[pick % replicaCount].take('k')));
          const allowed = decisions.filter((decision) => decision.allowed).length;
          expect(allowed).toBeLessThanOrEqual(limit);
          const demand = picks.length;
          const used = new Set(picks.map((pick) => pick % replicaCount)).size;
          expect(allowed).toBeGreaterThanOrEqual(Math.min(demand, limit - used * leaseSize(limit)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('when the limit is 600, then one replica answers exactly 600 and needs about one round trip per 1 % of it', async () => {
    const counter = new MemoryCounter();
    const budget = new RateBudget(counter, 600, 60_000, () => 0);
    const decisions = await Promise.all(Array.from({ length: 700 }, () => budget.take('k')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(600);
    expect(decisions.at(-1)).toMatchObject({ allowed: false, remaining: 0, resetInMs: 60_000 });
    expect(counter.calls).toBeLessThanOrEqual(101);
    // exhausted: further requests of the window ask nobody
    const calls = counter.calls;
    expect((await budget.take('k')).allowed).toBe(false);
    expect(counter.calls).toBe(calls);
  });

  it('when the window turns, then the key gets its whole limit again and other keys never shared it', async () => {
    let now = 0;
    const budget = new RateBudget(new MemoryCounter(), 3, 1000, () => now);
    const first = [];
    for (let i = 0; i < 4; i += 1) first.push((await budget.take('a')).allowed);
    expect(first).toEqual([true, true, true, false]);
    expect((await budget.take('b')).allowed).toBe(true);
    now = 1000;
    expect((await budget.take('a')).allowed).toBe(true);
  });
});
