import type { Redis } from 'ioredis';

/** What a key held while its first request runs (`pending`) and once the service answered below 500 (`done`). */
export type IdempotencyRecord =
  | { state: 'pending'; fingerprint: string; claim: string }
  | { state: 'done'; fingerprint: string; status: number; contentType: string | null; body: string };

export const IN_FLIGHT_TTL_SECONDS = 60;
export const REPLAY_TTL_SECONDS = 24 * 60 * 60;

// compare-and-swap so a request whose lock expired never overwrites or frees the next holder's
const SET_IF_HELD = `if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('set', KEYS[1], ARGV[2], 'EX', ARGV[3]) end return nil`;
const DELETE_IF_HELD = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

/** Idempotency records in Redis, one per API key and Idempotency-Key, under the environment's prefix. */
export class IdempotencyStore {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(redis: Redis, queuePrefix: string) {
    this.redis = redis;
    this.prefix = `${queuePrefix}:idem:`;
  }

  get available(): boolean {
    return this.redis.status === 'ready';
  }

  keyFor(apiKeyId: string, idempotencyKey: string): string {
    return `${this.prefix}${apiKeyId}:${idempotencyKey}`;
  }

  /** Takes the key with a short in-flight lock; returns the held value, or null when another request holds it. */
  async claim(key: string, record: Extract<IdempotencyRecord, { state: 'pending' }>): Promise<string | null> {
    const value = JSON.stringify(record);
    const ok = await this.redis.set(key, value, 'EX', IN_FLIGHT_TTL_SECONDS, 'NX');
    return ok === 'OK' ? value : null;
  }

  async read(key: string): Promise<IdempotencyRecord | null> {
    const value = await this.redis.get(key);
    return value === null ? null : (JSON.parse(value) as IdempotencyRecord);
  }

  /** Keeps the answer for replays, only if this request still holds the lock. */
  async complete(key: string, held: string, record: Extract<IdempotencyRecord, { state: 'done' }>): Promise<void> {
    await this.redis.eval(SET_IF_HELD, 1, key, held, JSON.stringify(record), REPLAY_TTL_SECONDS);
  }

  /** Frees the key after a failure so the client may retry. */
  async release(key: string, held: string): Promise<void> {
    await this.redis.eval(DELETE_IF_HELD, 1, key, held);
  }
}
