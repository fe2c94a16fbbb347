import { addDays, todayUtc } from '@finance/shared/calendar';
import { now, todayIn } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import {
  type ImportedCreditCard,
  type ImportedTransaction,
  importedTransaction,
  type OpenBankingImport,
} from '@finance/shared/contracts/ledger/open-banking';
import { newId } from '@finance/shared/db/base-entity';
import { contextKey, contextRef } from '@finance/shared/db/context-scope';
import { joiMessagesPt } from '@finance/shared/http/joi-messages';
import { QUEUES } from '@finance/shared/queue/catalogue';
import { recordEvent, recordJob } from '@finance/shared/queue/outbox';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type ConnectionRow,
  endConnection,
  finishSync,
  leaseSync,
  markSyncQueued,
  selectOpenEntriesSince,
} from '../../data-access/connection-repository.ts';
import { MAX_WAIT_MS } from '../../data-access/open-finance/institution-http.ts';
import { IMPORT_KIND } from '../jobs/background-jobs.ts';
import { contextTimeZone } from '../preferences/personal-config.ts';
import { BankError, type SkippedRecord } from './bank-connector.ts';
import { ImportRejected, parseStoredPayload, type SyncNotes, withSyncNotes } from './import-payload.ts';
import { type OpenFinance, PLUGGY } from './open-finance.ts';
import { mapAccountPage, mapCard, mapSnapshot } from './open-finance-mapping.ts';
import { mapPluggySnapshot, mapPluggyTransactions } from './pluggy-mapping.ts';
import { enqueueImport } from './start-import.ts';
import { SyncStage } from './sync-stage.ts';

export const SYNC_JOB = 'open-banking.sync';
/** The first sync reads 12 months back; later ones from a little before the last (entries booked late). */
const HISTORY_DAYS = 365;
const OVERLAP_DAYS = 2;

/**
 * Queues a sync of the connection through the outbox, in the caller's transaction, unless one is queued already
 * (requests coalesce: one queued per connection at a time). True when this call queued it.
 */
export async function queueSync(tx: EntityManager, ctx: CallerContext, connectionId: string): Promise<boolean> {
  if (!(await markSyncQueued(tx, connectionId))) return false;
  recordJob(tx, QUEUES.openBankingSync, SYNC_JOB, { connection_id: connectionId, context: contextRef(ctx) }, newId());
  return true;
}

/** The consent's end as the connection's status: expired by date or reason, else revoked. */
const endedAs = (code: string | null): 'EXPIRED' | 'REVOKED' =>
  code === 'CONSENT_EXPIRED' || code === 'CONSENT_MAX_DATE_REACHED' ? 'EXPIRED' : 'REVOKED';

/**
 * The consent ended at the institution: the connection becomes EXPIRED or REVOKED with the institution's
 * reason, and `connection.expired|revoked` leaves with the commit (insights notifies and sends the webhooks).
 */
export async function endAtInstitution(
  em: EntityManager,
  ctx: CallerContext,
  connection: ConnectionRow,
  status: 'EXPIRED' | 'REVOKED',
  reason: string | null,
): Promise<void> {
  const reasonText =
    status === 'EXPIRED' ? 'O consentimento expirou na instituição' : 'O consentimento foi revogado na instituição';
  await em.transactional(async (tx) => {
    // the sync's lease ends with it
    await finishSync(tx, connection.id, { importJobId: null, error: reasonText, resealedToken: null });
    const ended = await endConnection(tx, connection.id, status, reasonText);
    if (!ended) return;
    recordEvent(tx, status === 'EXPIRED' ? 'connection.expired' : 'connection.revoked', contextRef(ctx), {
      connection_id: connection.id,
      institution: connection.institution,
      status,
      reason,
    });
  });
}

export type SyncOutcome = 'synced' | 'busy' | 'ended' | 'failed';

/**
 * The sync's payload into the import pipeline (the JSON import's path, with the records the sync left out for the
 * job's result), its lease freed and the left-out records shown on the connection in the same commit.
 */
async function handOver(
  em: EntityManager,
  ctx: CallerContext,
  connection: ConnectionRow,
  mapped: { payload: OpenBankingImport; skipped: SkippedRecord[]; listed: SyncNotes['listed'] },
  stage: SyncStage,
  resealedToken: string | null,
): Promise<void> {
  // the entries wait in the stage, the rest goes through the public schema of the JSON import: one rule for what
  // an import may hold (each entry was checked against it as it was mapped)
  await stage.add(mapped.payload.transactions);
  const payload = parseStoredPayload({ ...mapped.payload, transactions: [] });
  const staged = await stage.close();
  await em.transactional(async (tx) => {
    const importJobId = await enqueueImport(tx, ctx, {
      kind: IMPORT_KIND,
      payload: withSyncNotes(payload, { ...mapped, staged }),
      connectionId: payload.connection.id,
    });
    await finishSync(tx, connection.id, { importJobId, error: null, resealedToken, skipped: mapped.skipped });
  });
}

/** Staged entries are the import's as the JSON import's schema allows them, as its payload was (one rule). */
function checkedEntries(entries: ImportedTransaction[]): ImportedTransaction[] {
  for (const entry of entries) {
    const { error } = importedTransaction.validate(entry, {
      messages: joiMessagesPt,
      errors: { wrap: { label: false } },
    });
    if (error)
      throw new ImportRejected(`Importação inválida: transação ${entry.external_id}: ${error.message}`.slice(0, 400));
  }
  return entries;
}

/** A Pluggy item's sync: an item Pluggy no longer has ends the connection; else the same hand-over. */
async function syncPluggyItem(
  em: EntityManager,
  openFinance: OpenFinance,
  ctx: CallerContext,
  connection: ConnectionRow,
  stage: SyncStage,
  relaySoon: () => void,
): Promise<SyncOutcome> {
  const pluggy = openFinance.pluggy;
  if (!pluggy || !connection.consent_id) throw new BankError('refused', 'Pluggy não configurada');
  const item = await pluggy.item(connection.consent_id);
  if (!item || item.clientUserId !== connection.id) {
    await endAtInstitution(em, ctx, connection, 'REVOKED', 'ITEM_DELETED');
    return 'ended';
  }
  const today = todayUtc(now());
  const earliest = addDays(today, -HISTORY_DAYS);
  const since = connection.last_synced_at
    ? addDays(todayUtc(new Date(connection.last_synced_at)), -OVERLAP_DAYS)
    : earliest;
  const timeZone = await contextTimeZone(em, ctx);
  const snapshot = await pluggy.fetchSnapshot(
    connection.consent_id,
    [since, earliest].sort()[1],
    async (account, page, accounts) =>
      stage.add(checkedEntries(mapPluggyTransactions(accounts, account, page, timeZone))),
  );
  const payload = mapPluggySnapshot(snapshot, {
    connectionId: connection.external_id,
    timeZone,
    today: todayIn(timeZone),
  });
  await handOver(em, ctx, connection, { payload, skipped: [], listed: [] }, stage, null);
  relaySoon();
  return 'synced';
}

/** The institution asked to be left alone for longer than a sync waits: the sync is tried again after it. */
export class RetryLater extends Error {
  readonly delayMs: number;
  constructor(delayMs: number) {
    super(`A instituição pediu para aguardar ${Math.ceil(delayMs / 1000)} s`);
    this.name = 'RetryLater';
    this.delayMs = delayMs;
  }
}

/** A failure of this sync in Portuguese for `last_sync_error` (the institution's answer is never shown). */
function syncError(err: unknown): string {
  if (err instanceof BankError) {
    if (err.kind === 'timeout') return 'A instituição não respondeu a tempo; a sincronização será tentada de novo';
    if (err.retryAfterMs !== undefined && err.retryAfterMs > MAX_WAIT_MS) {
      return `A instituição pediu para aguardar ${Math.ceil(err.retryAfterMs / 1000)} s; a sincronização será retomada depois disso`;
    }
    if (err.kind === 'unavailable') return 'A instituição está indisponível; a sincronização será tentada de novo';
    if (err.kind === 'incomplete') return `A sincronização ficou incompleta: ${err.message}`.slice(0, 500);
    if (err.kind === 'refused') return 'A instituição recusou o acesso aos dados';
    return 'A instituição respondeu fora do padrão Open Finance';
  }
  return (err as Error).name === 'ImportRejected' || (err as Error).name === 'UnmappableRecord'
    ? `Dados da instituição recusados: ${(err as Error).message}`.slice(0, 500)
    : 'Falha inesperada na sincronização; será tentada de novo';
}

/**
 * One sync (docs/open-banking.md): under the connection's lease (a second sync meanwhile does nothing), the
 * consent is checked at the institution (rejected or expired ends the connection), everything it shares is read
 * (12 months on the first sync, then from shortly before the last one), mapped and handed to the import pipeline
 * as an import job, exactly like a JSON import. Transient failures (timeouts, 429 and 5xx after their retries)
 * throw, for the job to try again later; the others are recorded on the connection.
 */
export async function syncConnection(
  em: EntityManager,
  openFinance: OpenFinance,
  ctx: CallerContext,
  connectionId: string,
  relaySoon: () => void,
): Promise<SyncOutcome> {
  const connection = await leaseSync(em, connectionId, openFinance.syncLeaseSeconds);
  if (!connection) return 'busy';
  if ((connection.profile_id ?? connection.user_id) !== contextKey(ctx)) {
    await finishSync(em, connectionId, { importJobId: null, error: null, resealedToken: null });
    return 'busy';
  }
  const fail = async (err: unknown) => {
    await finishSync(em, connection.id, { importJobId: null, error: syncError(err), resealedToken: null });
  };
  const stage = new SyncStage(em);
  try {
    await SyncStage.sweep(em);
    if (connection.institution_id === PLUGGY) {
      return await syncPluggyItem(em, openFinance, ctx, connection, stage, relaySoon);
    }
    const institution = openFinance.institutions().find((candidate) => candidate.id === connection.institution_id);
    if (!institution || !connection.consent_id || !connection.refresh_token) {
      await fail(new BankError('refused', 'instituição não configurada'));
      return 'failed';
    }
    // raw rows carry timestamps as text
    if (connection.consent_expires_at && new Date(connection.consent_expires_at).getTime() <= now().getTime()) {
      await endAtInstitution(em, ctx, connection, 'EXPIRED', null);
      return 'ended';
    }
    const consent = await openFinance.connector.consentStatus(institution, connection.consent_id);
    if (consent.status === 'REJECTED') {
      await endAtInstitution(em, ctx, connection, endedAs(consent.rejectionCode), consent.rejectionCode);
      return 'ended';
    }
    const refreshToken = openFinance.secrets.open(connection.refresh_token);
    const today = todayUtc(now());
    const earliest = addDays(today, -HISTORY_DAYS);
    const since = connection.last_synced_at
      ? addDays(todayUtc(new Date(connection.last_synced_at)), -OVERLAP_DAYS)
      : earliest;
    // never before the 12 months the documents serve
    const within = (day: string) => [day, earliest].sort()[1];
    const openSince = Object.fromEntries(
      Object.entries(await selectOpenEntriesSince(em, ctx, connection.id)).map(([id, day]) => [
        id,
        within(addDays(day, -OVERLAP_DAYS)),
      ]),
    );
    const timeZone = await contextTimeZone(em, ctx);
    const localToday = todayIn(timeZone);
    // what the account lists and the cards leave out, as they are read
    const pageSkipped: SkippedRecord[] = [];
    const readCards: ImportedCreditCard[] = [];
    const snapshot = await openFinance.connector.fetchSnapshot(institution, {
      consentId: connection.consent_id,
      refreshToken,
      from: within(since),
      to: today,
      openSince,
      onAccountEntries: (account, page) => stage.add(mapAccountPage(account, page, timeZone, pageSkipped)),
      onCardRead: async (card) => {
        const mapped = mapCard(card, { timeZone, today: localToday }, pageSkipped);
        readCards.push(mapped.card);
        await stage.add(mapped.transactions);
      },
    });
    const mapped = mapSnapshot(snapshot, {
      connectionId: connection.external_id,
      institution: connection.institution,
      timeZone,
      today: localToday,
      cards: readCards,
      holderDocument: connection.holder_document ? openFinance.secrets.open(connection.holder_document) : undefined,
    });
    const stale = openFinance.secrets.isStale(connection.refresh_token);
    await handOver(
      em,
      ctx,
      connection,
      { ...mapped, skipped: [...mapped.skipped, ...pageSkipped] },
      stage,
      stale ? openFinance.secrets.seal(refreshToken) : null,
    );
    relaySoon();
    return 'synced';
  } catch (err) {
    // a stage that cannot be deleted now is swept by age
    await stage.discard().catch(() => undefined);
    await fail(err);
    if (err instanceof BankError && err.retryAfterMs !== undefined && err.retryAfterMs > MAX_WAIT_MS) {
      throw new RetryLater(err.retryAfterMs);
    }
    // the institution's silence, its outages and our own unexpected failures are tried again by the job
    const definitive =
      (err instanceof BankError && (err.kind === 'refused' || err.kind === 'invalid')) ||
      (err as Error).name === 'ImportRejected' ||
      (err as Error).name === 'UnmappableRecord';
    if (!definitive) throw err;
    return 'failed';
  }
}
