import { Redis } from 'ioredis';

/** Unlinks every key matching the pattern (a test stack's queue prefix), so runs leave Redis as they found it. */
export async function deleteRedisKeys(url: string, pattern: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  let deleted = 0;
  try {
    await redis.connect();
    for await (const keys of redis.scanStream({ match: pattern, count: 500 })) {
      if ((keys as string[]).length) deleted += await redis.unlink(...(keys as string[]));
    }
  } finally {
    redis.disconnect();
  }
  return deleted;
}
