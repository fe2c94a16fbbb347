import type { Redis } from 'ioredis';

// adds the leased count to the window's counter (created with an expiry) and returns the new total
const LEASE_SCRIPT = `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
if total == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return total`;

/** The shared per-key, per-window counter every gateway replica leases request tokens from. */
export class RateLeaseStore {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.redis = redis;
    this.prefix = prefix;
  }

  get available(): boolean {
    return this.redis.status === 'ready';
  }

  /** Takes `count` tokens of `keyId`'s window `window`; resolves to the window's total taken so far (ours included). */
  async lease(keyId: string, window: number, count: number, ttlMs: number): Promise<number> {
    const total = await this.redis.eval(LEASE_SCRIPT, 1, `${this.prefix}:rl:${keyId}:${window}`, count, ttlMs);
    return Number(total);
  }
}
