import type { EntityManager } from '@mikro-orm/postgresql';
import { materializeMissingYields } from '../../data-access/investment-writes.ts';

/** Daily run: adds every missing per-day position yield in one set-based statement; returns how many it added. */
export async function materializeDailyYields(em: EntityManager): Promise<{ inserted: number }> {
  return em.transactional(async (tx) => ({ inserted: await materializeMissingYields(tx) }));
}
