import type { SplitPart } from '@finance/shared/contracts/ledger/transaction-splits';
import type { EntityManager } from '@mikro-orm/postgresql';
import { partsOf, type SplitWrite, splitAmounts, writeSplits } from '../../data-access/split-repository.ts';
import { partsFor, rebalanced, sumOf } from './split-parts.ts';

/**
 * New series members (a recurrence's next occurrences, appended installments) take their template's parts, as they
 * take its tags: apportioned to their own amount, none where a part would get no cent. The parts each new row got.
 */
export async function copyTemplateSplits(
  tx: EntityManager,
  rows: Array<{ id: string; amount: number; template_id: string | undefined }>,
): Promise<Map<string, SplitPart[]>> {
  const templates = await partsOf(tx, [...new Set(rows.flatMap((row) => (row.template_id ? [row.template_id] : [])))]);
  const writes: SplitWrite[] = rows.flatMap((row) => {
    const template = row.template_id ? templates.get(row.template_id) : undefined;
    const parts = template && partsFor(template, row.amount);
    return parts ? [{ transaction_id: row.id, parts }] : [];
  });
  await writeSplits(tx, writes);
  return new Map(writes.map((write) => [write.transaction_id, write.parts]));
}

/**
 * After the amount of entries changed (an edit, a bank's re-import): each split one whose parts no longer sum to
 * its amount gets them apportioned to it (`rebalanced`). The new parts of each entry that changed (an empty list:
 * its split was removed).
 */
export async function keepSplitsWhole(tx: EntityManager, transactionIds: string[]): Promise<Map<string, SplitPart[]>> {
  const split = await splitAmounts(tx, transactionIds);
  if (split.length === 0) return new Map();
  const parts = await partsOf(
    tx,
    split.map((row) => row.id),
  );
  const writes: SplitWrite[] = split.flatMap(({ id, amount }) => {
    const current = parts.get(id) ?? [];
    return sumOf(current) === amount ? [] : [{ transaction_id: id, parts: rebalanced(current, amount) }];
  });
  await writeSplits(tx, writes);
  return new Map(writes.map((write) => [write.transaction_id, write.parts]));
}

/** Rows of an event with the parts written after they were read. */
export const withParts = <Row extends { id: string }>(rows: Row[], parts: Map<string, SplitPart[]>) =>
  parts.size === 0 ? rows : rows.map((row) => (parts.has(row.id) ? { ...row, splits: parts.get(row.id) } : row));
