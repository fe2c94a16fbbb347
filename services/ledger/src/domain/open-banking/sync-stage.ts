import type { ImportedTransaction } from '@finance/shared/contracts/ledger/open-banking';
import { newId } from '@finance/shared/db/base-entity';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  deleteAbandonedStages,
  deleteStagedEntries,
  insertStagedEntries,
  orderStagedEntries,
  type StagePosition,
  selectStagedEntries,
} from '../../data-access/sync-staged-entries.ts';

/** Entries a sync holds before writing them to its stage. */
const STAGE_WRITE = 500;
/** A stage no import took this long after its sync (the sync died, its job was never retried) is deleted. */
const ABANDONED_DAYS = 7;

/**
 * Where a sync puts its entries as the institution's pages arrive (`sync_staged_entries`): the sync holds at most a
 * page and `STAGE_WRITE` mapped entries, never the history; its import job reads them back in batches.
 */
export class SyncStage {
  readonly id = newId();
  private pending: ImportedTransaction[] = [];
  private written = 0;
  /** The stage's writes, one after the other, while the sync reads on; the first failure fails the sync. */
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private readonly em: EntityManager;

  constructor(em: EntityManager) {
    this.em = em;
  }

  /** Deletes what syncs that died left staged, before this one starts. */
  static async sweep(em: EntityManager): Promise<void> {
    await deleteAbandonedStages(em, ABANDONED_DAYS);
  }

  async add(entries: readonly ImportedTransaction[]): Promise<void> {
    if (this.failure) throw this.failure;
    for (const entry of entries) this.pending.push(entry);
    if (this.pending.length >= STAGE_WRITE) this.writeBehind();
  }

  /** Everything added is written and numbered in the order the import reads it. */
  async close(): Promise<{ id: string; count: number }> {
    this.writeBehind();
    await this.writing;
    if (this.failure) throw this.failure;
    await orderStagedEntries(this.em, this.id);
    return { id: this.id, count: this.written };
  }

  /** The sync failed: what it staged goes. */
  async discard(): Promise<void> {
    this.pending = [];
    await this.writing;
    await deleteStagedEntries(this.em, this.id);
  }

  /** Writes what is pending after the writes before it, without waiting (the next page is read meanwhile). */
  private writeBehind(): void {
    const entries = this.pending;
    if (entries.length === 0) return;
    this.pending = [];
    const from = this.written;
    this.written += entries.length;
    this.writing = this.writing.then(() =>
      insertStagedEntries(this.em, this.id, from, entries).catch((err: unknown) => {
        this.failure ??= err;
      }),
    );
  }
}

/** A sync's staged entries in their order, `size` at a time (a bank's repeated id kept in one batch). */
export async function* stagedBatches(
  em: EntityManager,
  stageId: string,
  size: number,
): AsyncGenerator<ImportedTransaction[]> {
  let after: StagePosition | null = null;
  for (;;) {
    const rows = await selectStagedEntries(em, stageId, after, size);
    if (rows.length === 0) return;
    after = rows[rows.length - 1];
    yield rows.map((row) => row.entry);
  }
}

/** The stage its import finished with, deleted. */
export const dropStage = (em: EntityManager, stageId: string) => deleteStagedEntries(em, stageId);
