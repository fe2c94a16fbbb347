import { Redis } from 'ioredis';
import { TestStack } from '../../test/support/stack.ts';
import { stackFloor } from '../stack-floor.ts';

// The bench's memory floor of the stack: the probe starts on a real database and Redis, is read, and leaves nothing.
describe('benchmark stack floor', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start();
  });
  afterAll(() => stack?.stop());

  it('when measured, then it answers the RSS and PSS of a running Node process and leaves no queue behind', async () => {
    const redis = new Redis(stack.env.REDIS_URL);
    try {
      const floor = await stackFloor({ DATABASE_URL: stack.databaseUrl, REDIS_URL: stack.env.REDIS_URL }, 0);
      // a bare node holds ≈45 MB; these libraries add tens of MB more
      expect(floor.rss).toBeGreaterThan(60);
      expect(floor.rss).toBeLessThan(400);
      expect(floor.pss).toBeGreaterThan(0);
      expect(floor.pss).toBeLessThanOrEqual(floor.rss);
      expect(await redis.keys('bull:stack-floor-*')).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});
