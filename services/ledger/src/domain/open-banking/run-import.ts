import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { BillAssignment, ImportedCard } from '@finance/shared/contracts/internal/billing-for-ledger';
import type { ImportedTransaction, OpenBankingImport } from '@finance/shared/contracts/ledger/open-banking';
import { contextRef } from '@finance/shared/db/context-scope';
import type { InvestmentsImported } from '@finance/shared/queue/catalogue';
import type { EntityManager } from '@mikro-orm/postgresql';
import { selectImportPayload } from '../../data-access/connection-repository.ts';
import { assertCalendarsCurrent, type CalendarVersions, withCurrentCalendars } from '../card-entries/card-rows.ts';
import { updateBackgroundJob } from '../jobs/background-jobs.ts';
import { applyRulesToTransactions } from '../rules/apply-rules-to-transactions.ts';
import { checkReferences } from './check-references.ts';
import { findConnectionByExternalId, upsertConnection } from './connections.ts';
import { calendarDay, ImportRejected, orNull, parseStoredPayload } from './import-payload.ts';
import { reconcileForecasts } from './reconcile-forecasts.ts';
import { REVOKED_MESSAGE } from './start-import.ts';
import { accountsOfConnection, type ConnectionAccount, upsertAccounts } from './upsert-accounts.ts';
import { type ImportRow, upsertTransactions } from './upsert-transactions.ts';

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
  transactions: { received: number; created: number; updated: number; skipped: number; categorized: number };
  investments: { received: number; snapshots: number };
}

const ASSIGN_CHUNK = 5000;

async function loadPayload(em: EntityManager, jobId: string): Promise<OpenBankingImport> {
  const rows = await selectImportPayload(em, jobId);
  if (rows.length === 0) throw new ImportRejected('Importação não encontrada para esta tarefa');
  return parseStoredPayload(rows[0].payload);
}

const byExternalId = <T extends { external_id: string }>(rows: T[]) =>
  new Map(rows.map((row) => [row.external_id, row]));

/** The bill of each card transaction's date, one billing call per card (and per 5,000 dates). */
async function billsOf(
  deps: ImportDeps,
  ctx: CallerContext,
  rows: Array<{ credit_card_id: string; date: string }>,
  seen: CalendarVersions,
): Promise<Map<string, BillAssignment>> {
  const datesByCard = new Map<string, Set<string>>();
  for (const row of rows)
    datesByCard.set(row.credit_card_id, (datesByCard.get(row.credit_card_id) ?? new Set()).add(row.date));
  const bills = new Map<string, BillAssignment>();
  for (const [cardId, dates] of datesByCard) {
    const list = [...dates];
    for (let i = 0; i < list.length; i += ASSIGN_CHUNK) {
      const { card, assignments } = await deps.billing.assign(ctx, cardId, list.slice(i, i + ASSIGN_CHUNK));
      seen.set(cardId, Math.min(seen.get(cardId) ?? card.calendar_version, card.calendar_version));
      for (const assignment of assignments) bills.set(`${cardId}:${assignment.date}`, assignment);
    }
  }
  return bills;
}

/** Resolves each transaction to its live account or card; rows of what the user deleted are skipped. */
function resolveRows(
  transactions: ImportedTransaction[],
  accounts: Map<string, ConnectionAccount>,
  cards: Map<string, ImportedCard>,
): ImportRow[] {
  const rows: ImportRow[] = [];
  for (const tx of transactions) {
    const account = tx.account_external_id !== undefined ? accounts.get(tx.account_external_id) : undefined;
    const card = tx.credit_card_external_id !== undefined ? cards.get(tx.credit_card_external_id) : undefined;
    if (account?.deleted || card?.deleted || (!account && !card)) continue;
    rows.push({
      external_id: tx.external_id,
      account_id: account?.id ?? null,
      credit_card_id: card?.id ?? null,
      bill_id: null,
      billed_at: null,
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
    });
  }
  return rows;
}

/**
 * The import worker's use case (docs/decisions.md §9). References are checked before anything is written; then
 * each stage commits on its own and is idempotent, so a retry after a crash converges: connection and
 * accounts, cards (billing), transactions with their bills and rules, investments (insights).
 */
export async function runImport(em: EntityManager, ctx: CallerContext, jobId: string, deps: ImportDeps) {
  const progress = (value: number) => updateBackgroundJob(em, jobId, { state: 'active', progress: value });
  await progress(5);
  const payload = await loadPayload(em, jobId);

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
  await progress(35);

  const cardResult = await deps.billing.importCards(
    ctx,
    connectionId,
    payload.credit_cards.map((card) => {
      const account = accounts.get(card.account_external_id);
      return {
        external_id: card.external_id,
        name: card.name,
        account_id: account && !account.deleted ? account.id : null,
        closing_day: card.closing_day ?? null,
        due_day: card.due_day,
        limit: card.limit,
      };
    }),
  );
  const cards = byExternalId(cardResult.cards);
  await progress(55);

  const rows = resolveRows(payload.transactions, accounts, cards);
  const cardRows = rows.filter((row) => row.credit_card_id !== null) as Array<ImportRow & { credit_card_id: string }>;
  // bills are asked of billing before the transaction and their calendar versions re-checked in it (rule 9)
  const { created, updated, categorized } = await withCurrentCalendars(async () => {
    const seen: CalendarVersions = new Map();
    const bills = await billsOf(deps, ctx, cardRows, seen);
    for (const row of cardRows) {
      const bill = bills.get(`${row.credit_card_id}:${row.date}`);
      row.bill_id = bill?.bill_id ?? null;
      row.billed_at = bill?.billed_at ?? null;
    }
    return em.transactional(async (tx) => {
      await assertCalendarsCurrent(tx, seen);
      const changed = await upsertTransactions(tx, ctx, connectionId, rows);
      // enabled rules categorize what arrived new; a re-import never overrides a category
      const count = await applyRulesToTransactions(tx, ctx, changed.created);
      await reconcileForecasts(tx, ctx, changed.created);
      return { ...changed, categorized: count };
    });
  });
  await progress(80);

  const snapshots = payload.investments.reduce((sum, investment) => sum + investment.snapshots.length, 0);
  if (payload.investments.length > 0) {
    await deps.handOverInvestments({
      background_job_id: jobId,
      context: contextRef(ctx),
      connection_id: connectionId,
      investments: payload.investments,
    });
  }
  const result: ImportResult = {
    connection_id: connectionId,
    accounts: { received: payload.accounts.length, ...accountCounts },
    credit_cards: { received: payload.credit_cards.length, created: cardResult.created, updated: cardResult.updated },
    transactions: {
      received: payload.transactions.length,
      created: created.length,
      updated: updated.length,
      skipped: payload.transactions.length - rows.length,
      categorized,
    },
    investments: { received: payload.investments.length, snapshots },
  };
  await updateBackgroundJob(em, jobId, { state: 'completed', progress: 100, result, error: null });
  return result;
}
