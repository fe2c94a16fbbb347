import type { EntityManager } from '@mikro-orm/postgresql';
import { materializeMissingYields, positionsWithPendingYields } from '../../data-access/investment-writes.ts';

const BATCH = 200;

/**
 * Daily run: adds the per-day yields missing for the positions whose snapshots were written without them (each such
 * position is marked, indexed), a batch of positions per transaction; returns how many yields it added.
 */
export async function materializeDailyYields(em: EntityManager): Promise<{ inserted: number }> {
  let inserted = 0;
  for (;;) {
    const added = await em.fork().transactional(async (tx) => {
      const positions = await positionsWithPendingYields(tx, BATCH);
      return positions.length ? await materializeMissingYields(tx, positions) : null;
    });
    if (added === null) return { inserted };
    inserted += added;
  }
}
