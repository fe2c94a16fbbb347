import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import { holderOf } from './entry-rows.ts';
import { importEntries } from './import-entries.ts';
import { emptyOutcome, type ImportSource, type PipelineEntry, type PipelineOutcome } from './import-entry.ts';

/** Entries the pipeline writes in one transaction: what a large import holds at once, and a crash loses at most. */
export const IMPORT_BATCH = 2000;

/**
 * The entries in batches of about `size`, in their order, the entries that share a holder and id (a bank's
 * repeated id for different entries) in the same batch: the pipeline pairs them with each other, not with the
 * first of them a batch before stored.
 */
export function batchesOf(entries: readonly PipelineEntry[], size = IMPORT_BATCH): PipelineEntry[][] {
  const groups = new Map<string, PipelineEntry[]>();
  for (const entry of entries) {
    const id = `${holderOf(entry)}\u0000${entry.key}`;
    const group = groups.get(id);
    if (group) group.push(entry);
    else groups.set(id, [entry]);
  }
  const batches: PipelineEntry[][] = [[]];
  for (const group of groups.values()) {
    if (batches[batches.length - 1].length >= size) batches.push([]);
    batches[batches.length - 1].push(...group);
  }
  return batches;
}

const merged = (a: PipelineOutcome, b: PipelineOutcome): PipelineOutcome => ({
  created: [...a.created, ...b.created],
  updated: [...a.updated, ...b.updated],
  duplicates: a.duplicates + b.duplicates,
  skipped: [...a.skipped, ...b.skipped],
  categorized: a.categorized + b.categorized,
  reconciled: a.reconciled + b.reconciled,
  removed: [...a.removed, ...b.removed],
  reconciliation_suggestions: a.reconciliation_suggestions + b.reconciliation_suggestions,
});

/**
 * A whole import (a sync's) through the pipeline a batch at a time, each batch its own transaction: what one batch
 * wrote, the next finds stored (a transfer's other leg, a bill's payment), and a retry after a crash finds it
 * again (duplicates). The batches may be read as they are imported (a sync's stage): only their ids are kept, and
 * the days the source listed whole are checked against all of them once the last is in.
 */
export async function importInBatches(
  em: EntityManager,
  ctx: CallerContext,
  billing: BillingLedgerClient,
  source: ImportSource,
  batches: AsyncIterable<PipelineEntry[]> | Iterable<PipelineEntry[]>,
  afterBatch: (done: number) => Promise<void>,
): Promise<PipelineOutcome> {
  const arrived: NonNullable<ImportSource['arrived']> = [];
  let outcome = emptyOutcome();
  let done = 0;
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    for (const entry of batch) arrived.push({ holder_id: holderOf(entry), key: entry.key });
    outcome = merged(outcome, await importEntries(em, ctx, billing, { ...source, listed: undefined }, batch));
    done += batch.length;
    await afterBatch(done);
  }
  // what is still pending or scheduled on the days read whole, and did not arrive, was dropped at the source
  if (source.listed?.length)
    outcome = merged(outcome, await importEntries(em, ctx, billing, { ...source, arrived }, []));
  return outcome;
}
