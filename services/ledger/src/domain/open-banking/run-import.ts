import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { ImportedCard } from '@finance/shared/contracts/internal/billing-for-ledger';
import type { ImportedTransaction, OpenBankingImport } from '@finance/shared/contracts/ledger/open-banking';
import { contextRef } from '@finance/shared/db/context-scope';
import type { InvestmentsImported } from '@finance/shared/queue/catalogue';
import type { EntityManager } from '@mikro-orm/postgresql';
import { successorAccount } from '../../data-access/account-repository.ts';
import { selectImportPayload } from '../../data-access/connection-repository.ts';
import { batchesOf, IMPORT_BATCH, importInBatches } from '../imports/import-batches.ts';
import type { PipelineEntry } from '../imports/import-entry.ts';
import { connectionSource, decimalText } from '../imports/import-entry.ts';
import { updateBackgroundJob } from '../jobs/background-jobs.ts';
import { checkReferences } from './check-references.ts';
import { findConnectionByExternalId, upsertConnection } from './connections.ts';
import {
  calendarDay,
  ImportRejected,
  orNull,
  parseStoredPayload,
  type SyncNotes,
  splitSyncNotes,
} from './import-payload.ts';
import { REVOKED_MESSAGE } from './start-import.ts';
import { dropStage, stagedBatches } from './sync-stage.ts';
import { accountsOfConnection, type ConnectionAccount, upsertAccounts } from './upsert-accounts.ts';

export interface ImportDeps {
  billing: BillingLedgerClient;
  /** Hands the positions to insights and resolves once they are stored there (rejects otherwise). */
  handOverInvestments: (job: InvestmentsImported) => Promise<void>;
  logoBase: string;
}

export interface ImportResult {
  connection_id: string;
  accounts: { received: number; created: number; updated: number };
  credit_cards: { received: number; created: number; updated: number };
  transactions: {
    received: number;
    created: number;
    updated: number;
    duplicates: number;
    skipped: number;
    categorized: number;
    reconciled: number;
    reconciliation_suggestions: number;
    /** Pending or scheduled entries the institution no longer lists, removed. */
    removed: number;
  };
  investments: { received: number; snapshots: number };
}

async function loadStoredPayload(em: EntityManager, jobId: string): Promise<unknown> {
  const rows = await selectImportPayload(em, jobId);
  if (rows.length === 0) throw new ImportRejected('Importação não encontrada para esta tarefa');
  return rows[0].payload;
}

const byExternalId = <T extends { external_id: string }>(rows: T[]) =>
  new Map(rows.map((row) => [row.external_id, row]));

/** Each transaction as a pipeline entry of its live account or card; those of what the user deleted are left out. */
function pipelineEntries(
  transactions: ImportedTransaction[],
  accounts: Map<string, ConnectionAccount>,
  cards: Map<string, ImportedCard>,
): PipelineEntry[] {
  const entries: PipelineEntry[] = [];
  for (const tx of transactions) {
    const account = tx.account_external_id !== undefined ? accounts.get(tx.account_external_id) : undefined;
    const card = tx.credit_card_external_id !== undefined ? cards.get(tx.credit_card_external_id) : undefined;
    if (account?.deleted || card?.deleted || (!account && !card)) continue;
    entries.push({
      key: tx.external_id,
      account_id: account?.id ?? null,
      credit_card_id: card?.id ?? null,
      status: tx.status ?? 'BOOKED',
      amount: tx.amount,
      date: calendarDay(tx.date),
      is_expense: tx.is_expense,
      title: tx.title,
      description: orNull(tx.description),
      merchant_name: orNull(tx.merchant_name),
      merchant_cnpj: orNull(tx.merchant_cnpj),
      merchant_cnae: orNull(tx.merchant_cnae),
      operation_type: orNull(tx.operation_type),
      logo_url: orNull(tx.logo_url),
      installment: tx.installment ?? null,
      original_amount: tx.original_amount ? decimalText(tx.original_amount) : null,
      original_currency: tx.original_currency ?? null,
      bill_due_date: card && tx.bill_due_date ? calendarDay(tx.bill_due_date) : null,
      counterparty_document: tx.counterparty_document ?? null,
      ...(card && tx.bill_payment !== undefined ? { bill_payment: tx.bill_payment } : {}),
      line: null,
    });
  }
  return entries;
}

/**
 * The payments the bank reports for its cards' bills, as card entries the pipeline joins with the account debits
 * that made them (docs/decisions.md §9); a payment without the bank's id is keyed by its bill, day and amount.
 */
function billPaymentEntries(payload: OpenBankingImport, cards: Map<string, ImportedCard>): PipelineEntry[] {
  const entries: PipelineEntry[] = [];
  for (const imported of payload.credit_cards) {
    const card = cards.get(imported.external_id);
    if (!card || card.deleted) continue;
    for (const bill of imported.bills ?? []) {
      const dueDate = calendarDay(bill.due_date);
      const seen = new Map<string, number>();
      for (const payment of bill.payments) {
        const date = calendarDay(payment.date);
        const base = `bill:${dueDate}:${date}:${payment.amount}`;
        const repeat = (seen.get(base) ?? 0) + 1;
        seen.set(base, repeat);
        entries.push({
          key: payment.external_id ?? (repeat > 1 ? `${base}#${repeat}` : base),
          account_id: null,
          credit_card_id: card.id,
          status: 'BOOKED',
          amount: payment.amount,
          date,
          is_expense: false,
          title: `Pagamento da fatura ${imported.name}`.slice(0, 255),
          description: null,
          merchant_name: null,
          merchant_cnpj: null,
          merchant_cnae: null,
          operation_type: null,
          logo_url: null,
          installment: null,
          original_amount: null,
          original_currency: null,
          bill_due_date: dueDate,
          bill_payment: true,
          line: null,
        });
      }
    }
  }
  return entries;
}

/**
 * The import worker's use case (docs/decisions.md §9): the job's stored payload through `importOpenBanking`, with
 * the job's progress and its result recorded.
 */
export async function runImport(em: EntityManager, ctx: CallerContext, jobId: string, deps: ImportDeps) {
  const progress = (value: number) => updateBackgroundJob(em, jobId, { state: 'active', progress: value });
  await progress(5);
  const stored = await loadStoredPayload(em, jobId);
  const { payload: body, notes } = splitSyncNotes(stored);
  const payload = parseStoredPayload(body);
  const imported = await importOpenBanking(em, ctx, payload, deps, {
    jobId,
    progress,
    listed: notes.listed,
    staged: notes.staged,
  });
  // what the connection's sync left out is the job's too (a JSON import leaves nothing out)
  const result = notes.skipped.length ? { ...imported, skipped_records: notes.skipped } : imported;
  await updateBackgroundJob(em, jobId, { state: 'completed', progress: 100, result, error: null });
  // after the job's end: a retry before it still finds the stage
  if (notes.staged) await dropStage(em, notes.staged.id);
  return result;
}

/**
 * One connection's data in (the JSON import, and the Open Finance connector's syncs): references are checked
 * before anything is written; then each stage commits on its own and is idempotent, so a retry after a crash
 * converges: connection and accounts, cards (billing), transactions through the import pipeline
 * (`importEntries`: deduplication, pending → effected, installments, bills, rules, reconciliation), investments
 * (insights). `job` ties the investments' hand-over to a background job and reports progress.
 */
export async function importOpenBanking(
  em: EntityManager,
  ctx: CallerContext,
  payload: OpenBankingImport,
  deps: ImportDeps,
  job: {
    jobId: string;
    progress: (value: number) => Promise<void>;
    listed?: SyncNotes['listed'];
    staged?: SyncNotes['staged'];
  },
): Promise<ImportResult> {
  const { progress } = job;
  const existing = await findConnectionByExternalId(em, ctx, payload.connection.id);
  if (existing?.status === 'REVOKED') throw new ImportRejected(REVOKED_MESSAGE);
  const knownAccounts = existing ? await accountsOfConnection(em, ctx, existing.id) : [];
  const knownCards = existing ? (await deps.billing.importCards(ctx, existing.id, [])).cards : [];
  checkReferences(
    payload,
    new Set(knownAccounts.map((account) => account.external_id)),
    new Set(knownCards.map((card) => card.external_id)),
  );
  await progress(15);

  const { connectionId, accountCounts } = await em.transactional(async (tx) => {
    const id = await upsertConnection(tx, ctx, payload.connection);
    return { connectionId: id, accountCounts: await upsertAccounts(tx, ctx, id, payload.accounts, deps.logoBase) };
  });
  const accounts = byExternalId(await accountsOfConnection(em, ctx, connectionId));
  // a card the bank shared without its account follows the context's default account
  const fallback = payload.credit_cards.some((card) => card.account_external_id === undefined)
    ? ((await successorAccount(em, ctx))?.id ?? null)
    : null;
  await progress(35);

  const cardResult = await deps.billing.importCards(
    ctx,
    connectionId,
    payload.credit_cards.map((card) => {
      const account = card.account_external_id === undefined ? undefined : accounts.get(card.account_external_id);
      return {
        external_id: card.external_id,
        name: card.name,
        account_id: card.account_external_id === undefined ? fallback : account && !account.deleted ? account.id : null,
        // shared alone, in a context with no account yet: kept, waiting for one
        without_account: card.account_external_id === undefined && fallback === null,
        closing_day: card.closing_day ?? null,
        due_day: card.due_day,
        limit: card.limit,
        available_limit: card.available_limit ?? null,
      };
    }),
  );
  const cards = byExternalId(cardResult.cards);
  await progress(55);

  const movements = pipelineEntries(payload.transactions, accounts, cards);
  let transactionEntries = movements.length;
  const received = payload.transactions.length + (job.staged?.count ?? 0);
  const payments = billPaymentEntries(payload, cards);
  const total = received + payments.length;
  const staged = job.staged;
  // a sync's entries read back from its stage a batch at a time, then what the payload holds
  async function* batches() {
    if (staged) {
      for await (const page of stagedBatches(em, staged.id, IMPORT_BATCH)) {
        const entries = pipelineEntries(page, accounts, cards);
        transactionEntries += entries.length;
        yield entries;
      }
    }
    yield* batchesOf([...movements, ...payments]);
  }
  const holder = payload.connection.holder_document;
  // the days a sync read whole: a pending or scheduled entry of its accounts missing from them was dropped
  const listed = (job.listed ?? []).flatMap((days) => {
    const account = accounts.get(days.account_external_id);
    return account && !account.deleted ? [{ holder_id: account.id, from: days.from, to: days.to }] : [];
  });
  // in batches: a sync of a long history never holds its whole pipeline at once
  const outcome = await importInBatches(
    em,
    ctx,
    deps.billing,
    { ...connectionSource(connectionId, holder ? [holder] : []), listed },
    batches(),
    (done) => progress(55 + Math.floor((25 * done) / Math.max(total, 1))),
  );
  await progress(80);

  const snapshots = payload.investments.reduce((sum, investment) => sum + investment.snapshots.length, 0);
  if (payload.investments.length > 0) {
    await deps.handOverInvestments({
      background_job_id: job.jobId,
      context: contextRef(ctx),
      connection_id: connectionId,
      investments: payload.investments,
    });
  }
  return {
    connection_id: connectionId,
    accounts: { received: payload.accounts.length, ...accountCounts },
    credit_cards: { received: payload.credit_cards.length, created: cardResult.created, updated: cardResult.updated },
    transactions: {
      received,
      created: outcome.created.length,
      updated: outcome.updated.length,
      duplicates: outcome.duplicates,
      skipped: received - transactionEntries + outcome.skipped.length,
      categorized: outcome.categorized,
      reconciled: outcome.reconciled,
      reconciliation_suggestions: outcome.reconciliation_suggestions,
      removed: outcome.removed.length,
    },
    investments: { received: payload.investments.length, snapshots },
  };
}
