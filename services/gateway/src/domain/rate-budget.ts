/**
 * Local token bucket of one gateway replica, fed by leases from a counter every replica shares.
 *
 * Each key gets a fixed window aligned on the clock. A request spends a token held locally; when none is
 * left the replica leases a small batch (about 1 % of the limit) from the shared counter in one round trip.
 * A lease never grants more than the limit minus what every replica took, so the limit is never exceeded;
 * tokens a replica leased but did not spend are lost with the window, so a key may meet its 429 up to one
 * batch per replica early (≤ 1 % of the limit per replica). Once a lease comes back short the window is
 * exhausted here and further requests answer 429 without asking again.
 */
export interface LeaseSource {
  lease(keyId: string, window: number, count: number, ttlMs: number): Promise<number>;
}

interface KeyBudget {
  window: number;
  tokens: number;
  /** Total taken by every replica at the last lease. */
  taken: number;
  exhausted: boolean;
  pending: Promise<void> | null;
}

export interface RateDecision {
  allowed: boolean;
  /** Requests still allowed in the window, as far as this replica knows. */
  remaining: number;
  /** Milliseconds until the window resets. */
  resetInMs: number;
}

export const leaseSize = (limit: number): number => Math.min(1000, Math.max(1, Math.floor(limit / 100)));

export class RateBudget {
  private readonly budgets = new Map<string, KeyBudget>();
  readonly batch: number;
  readonly limit: number;
  readonly windowMs: number;
  private readonly source: LeaseSource;
  private readonly now: () => number;

  constructor(source: LeaseSource, limit: number, windowMs: number, now: () => number = Date.now) {
    this.source = source;
    this.limit = limit;
    this.windowMs = windowMs;
    this.now = now;
    this.batch = leaseSize(limit);
  }

  private budgetOf(keyId: string, window: number): KeyBudget {
    let budget = this.budgets.get(keyId);
    if (!budget || budget.window !== window) {
      if (!budget && this.budgets.size > 10_000) this.sweep(window);
      budget = { window, tokens: 0, taken: 0, exhausted: false, pending: null };
      this.budgets.set(keyId, budget);
    }
    return budget;
  }

  private sweep(window: number): void {
    for (const [key, budget] of this.budgets) if (budget.window !== window) this.budgets.delete(key);
  }

  private async refill(keyId: string, budget: KeyBudget): Promise<void> {
    const total = await this.source.lease(keyId, budget.window, this.batch, this.windowMs + 1000);
    const granted = Math.max(0, Math.min(this.batch, this.limit - (total - this.batch)));
    budget.tokens += granted;
    budget.taken = total;
    if (granted < this.batch) budget.exhausted = true;
  }

  /** Spends one token of `keyId`, leasing more when none is held; a failing lease rejects (callers fail open). */
  async take(keyId: string): Promise<RateDecision> {
    for (;;) {
      const now = this.now();
      const window = Math.floor(now / this.windowMs);
      const resetInMs = (window + 1) * this.windowMs - now;
      const budget = this.budgetOf(keyId, window);
      if (budget.tokens > 0) {
        budget.tokens -= 1;
        return { allowed: true, remaining: this.remaining(budget), resetInMs };
      }
      if (budget.exhausted) return { allowed: false, remaining: 0, resetInMs };
      budget.pending ??= this.refill(keyId, budget).finally(() => {
        budget.pending = null;
      });
      await budget.pending;
    }
  }

  private remaining(budget: KeyBudget): number {
    return budget.tokens + (budget.exhausted ? 0 : Math.max(0, this.limit - budget.taken));
  }
}
