import type { EntityManager } from '@mikro-orm/postgresql';
import { materializePositionYields, upsertPositions, upsertSnapshots } from '../../data-access/investment-writes.ts';
import type { ImportedInvestments } from './investments-payload.ts';

export type StoredInvestments = { positions: number; snapshots: number };

/**
 * Stores the positions and snapshots of one import and their daily yields, in one transaction:
 * keyed by (context, investment_id) and (position, day), so a redelivered job changes nothing.
 */
export async function storeInvestments(em: EntityManager, input: ImportedInvestments): Promise<StoredInvestments> {
  const { ctx, connectionId, positions } = input;
  if (positions.length > 0) {
    await em.transactional(async (tx) => {
      await upsertPositions(tx, ctx, connectionId, positions);
      await upsertSnapshots(tx, ctx, positions);
      await materializePositionYields(
        tx,
        ctx,
        positions.map((position) => position.investment_id),
      );
    });
  }
  return {
    positions: positions.length,
    snapshots: positions.reduce((sum, position) => sum + position.snapshots.length, 0),
  };
}
