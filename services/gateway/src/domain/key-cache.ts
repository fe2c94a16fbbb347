import type { VerifiedKeyRow } from './authenticate-key.ts';

/**
 * Verified key rows kept in memory so an authenticated request costs no query. It is only trusted while
 * something guarantees revocations reach it (`enable`, called once the gateway listens for access changes);
 * every change of access (`invalidate`) empties it at once, and a lookup that started before a change is
 * never stored after it (the generation check), so a revoked key fails on the very next request.
 */
export class KeyCache {
  private readonly rows = new Map<string, { row: VerifiedKeyRow; expiresAt: number; verified: Buffer | null }>();
  private generation = 0;
  private active = false;

  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(ttlMs = 60_000, maxEntries = 50_000, now: () => number = Date.now) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.now = now;
  }

  /** Starts trusting the cache (the change listener is connected); starts empty. */
  enable(): void {
    this.invalidate();
    this.active = true;
  }

  /** Stops trusting it (the change listener is gone): every request reads the database again. */
  disable(): void {
    this.active = false;
    this.invalidate();
  }

  /** Some key, license or membership changed: forget everything. */
  invalidate(): void {
    this.generation += 1;
    this.rows.clear();
  }

  get size(): number {
    return this.rows.size;
  }

  /** The cached row of a token, or undefined (also while disabled). */
  get(token: string): VerifiedKeyRow | undefined {
    return this.entry(token)?.row;
  }

  /** The digest of the secret last seen to match the token's cached row (`secretDigest`), if any. */
  verifiedDigest(token: string): Buffer | undefined {
    return this.entry(token)?.verified ?? undefined;
  }

  /** Remembers that a secret matched the token's cached row; forgotten with the row. */
  rememberVerified(token: string, digest: Buffer): void {
    const entry = this.entry(token);
    if (entry) entry.verified = digest;
  }

  private entry(token: string) {
    if (!this.active) return undefined;
    const entry = this.rows.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.rows.delete(token);
      return undefined;
    }
    return entry;
  }

  /** Marks the start of a database lookup; pass the result to `set`. */
  begin(): number {
    return this.generation;
  }

  /** Stores a row read since `begin` unless access changed meanwhile or the cache is not trusted. */
  set(token: string, row: VerifiedKeyRow, startedAt: number): void {
    if (!this.active || startedAt !== this.generation) return;
    if (this.rows.size >= this.maxEntries) {
      const oldest = this.rows.keys().next().value;
      if (oldest !== undefined) this.rows.delete(oldest);
    }
    this.rows.set(token, { row, expiresAt: this.now() + this.ttlMs, verified: null });
  }
}
