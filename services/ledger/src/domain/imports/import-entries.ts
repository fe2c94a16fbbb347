import { addDays } from '@finance/shared/calendar';
import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { BillAssignment } from '@finance/shared/contracts/internal/billing-for-ledger';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type BankUpdate,
  type CandidateRow,
  completeMatchedEntries,
  insertImportKeys,
  type KeyedEntry,
  lockImportHolders,
  markKeysBooked,
  selectKeyedEntries,
  selectMatchCandidates,
  selectSeriesHeads,
  updateFromBank,
} from '../../data-access/import-keys.ts';
import { countSuggestionsFor } from '../../data-access/reconciliation.ts';
import { insertReturningChanged, type NewTransaction } from '../../data-access/transaction-repository.ts';
import { assertCalendarsCurrent, type CalendarVersions, withCurrentCalendars } from '../card-entries/card-rows.ts';
import { reconcileForecasts } from '../open-banking/reconcile-forecasts.ts';
import { applyRulesToTransactions } from '../rules/apply-rules-to-transactions.ts';
import { keepSplitsWhole, withParts } from '../splits/keep-splits.ts';
import { blankTransaction } from '../transactions/new-transaction.ts';
import { recordTransactionChanges } from '../transactions/record-changes.ts';
import { type ImportSource, type PipelineEntry, type PipelineOutcome, SKIPPED_DELETED } from './import-entry.ts';
import { MATCH_WINDOW_DAYS, matchEntries, type StoredCandidate } from './match-entries.ts';

const ASSIGN_CHUNK = 5000;
const SERIES_PREFIX = 'series:';

const holderOf = (entry: PipelineEntry) => (entry.account_id ?? entry.credit_card_id) as string;
const billKey = (cardId: string, date: string, byDue: boolean) => `${cardId}:${byDue ? 'due:' : ''}${date}`;
const paidAtOf = (entry: PipelineEntry) => (entry.status === 'BOOKED' ? `${entry.date}T00:00:00.000Z` : null);

/**
 * The bill of each card entry, asked of billing before the transaction (docs/architecture.md rule 9): by the due
 * date the institution named, else by the entry's date. One call per card and 5,000 dates.
 */
async function planBills(
  billing: BillingLedgerClient,
  ctx: CallerContext,
  entries: PipelineEntry[],
  seen: CalendarVersions,
): Promise<Map<string, BillAssignment>> {
  const byCard = new Map<string, { dates: Set<string>; due: Set<string> }>();
  for (const entry of entries) {
    if (!entry.credit_card_id) continue;
    const card = byCard.get(entry.credit_card_id) ?? { dates: new Set(), due: new Set() };
    if (entry.bill_due_date) card.due.add(entry.bill_due_date);
    else card.dates.add(entry.date);
    byCard.set(entry.credit_card_id, card);
  }
  const bills = new Map<string, BillAssignment>();
  for (const [cardId, { dates, due }] of byCard) {
    const list = [...dates];
    const dueList = [...due];
    for (let i = 0; i < Math.max(list.length, dueList.length, 1); i += ASSIGN_CHUNK) {
      const answer = await billing.assign(
        ctx,
        cardId,
        list.slice(i, i + ASSIGN_CHUNK),
        dueList.slice(i, i + ASSIGN_CHUNK),
      );
      seen.set(cardId, Math.min(seen.get(cardId) ?? answer.card.calendar_version, answer.card.calendar_version));
      for (const bill of answer.assignments) bills.set(billKey(cardId, bill.date, false), bill);
      for (const bill of answer.due_assignments ?? []) bills.set(billKey(cardId, bill.date, true), bill);
    }
  }
  return bills;
}

function billOf(bills: Map<string, BillAssignment>, entry: PipelineEntry) {
  if (!entry.credit_card_id) return { bill_id: null, billed_at: null };
  const bill = entry.bill_due_date
    ? bills.get(billKey(entry.credit_card_id, entry.bill_due_date, true))
    : bills.get(billKey(entry.credit_card_id, entry.date, false));
  return { bill_id: bill?.bill_id ?? null, billed_at: bill?.billed_at ?? null };
}

/** The bank's side of an entry as the row's columns. */
function bankFields(entry: PipelineEntry, bills: Map<string, BillAssignment>) {
  return {
    amount: entry.amount,
    date: entry.date,
    title: entry.title,
    description: entry.description,
    is_expense: entry.is_expense,
    account_id: entry.account_id,
    credit_card_id: entry.credit_card_id,
    ...billOf(bills, entry),
    logo_url: entry.logo_url,
    merchant_cnae: entry.merchant_cnae,
    merchant_cnpj: entry.merchant_cnpj,
    merchant_name: entry.merchant_name,
    operation_type: entry.operation_type,
    original_amount: entry.original_amount,
    original_currency: entry.original_currency,
    paid: entry.status === 'BOOKED',
    paid_at: paidAtOf(entry),
  };
}

const toCandidate = (row: CandidateRow): StoredCandidate => ({
  id: row.id,
  holder: row.holder,
  amount: Number(row.amount),
  is_expense: row.is_expense,
  date: row.date,
  sourceKeys: row.source_keys,
  installment: row.installment_number,
});

/**
 * New rows for entries nothing matched. Installments of one purchase join one PARCELLED series: the member the
 * source first brought is its head (`connected_transaction_id`), found again by the bank's series key, so
 * installments arriving in later imports join it; `series_index` is the installment's number − 1.
 */
async function newRows(
  em: EntityManager,
  ctx: CallerContext,
  source: ImportSource,
  entries: PipelineEntry[],
  bills: Map<string, BillAssignment>,
) {
  const seriesKeys = [
    ...new Set(entries.flatMap((e) => (e.installment ? [SERIES_PREFIX + e.installment.series_key] : []))),
  ];
  const heads = await selectSeriesHeads(em, ctx, source.namespace, seriesKeys);
  const newHeads: Array<{ key: string; transaction_id: string; status: 'BOOKED' }> = [];
  const rows = entries.map((entry) =>
    blankTransaction({
      user_id: ctx.userId,
      profile_id: ctx.profileId,
      ...bankFields(entry, bills),
      external_id: entry.key,
      connection_id: source.connectionId,
      type: 'FIXED',
    }),
  );
  // the lowest installment of a series new to the source heads it
  const order = entries
    .map((_, index) => index)
    .sort((a, b) => (entries[a].installment?.number ?? 0) - (entries[b].installment?.number ?? 0));
  for (const index of order) {
    const installment = entries[index].installment;
    if (!installment) continue;
    const seriesKey = SERIES_PREFIX + installment.series_key;
    let head = heads.get(seriesKey);
    if (!head) {
      head = rows[index].id;
      heads.set(seriesKey, head);
      newHeads.push({ key: seriesKey, transaction_id: head, status: 'BOOKED' });
    }
    Object.assign(rows[index], {
      type: 'PARCELLED',
      installments: installment.total,
      installment_number: installment.number,
      series_index: installment.number - 1,
      connected_transaction_id: head,
    } satisfies Partial<NewTransaction>);
  }
  return { rows, newHeads };
}

/**
 * The import pipeline (docs/decisions.md §9): what every source hands over goes through here, so deduplication,
 * pending → effected, installments, card bills, user edits, rules, reconciliation and events are written once.
 * In one transaction per call, under a lock per account and card (imports of the same ones wait for each other):
 * 1. an entry whose id the source gave before updates that entry with the bank's data (never the fields the user
 *    edited, nor category and tags); one the user deleted stays deleted (skipped);
 * 2. else the matching rule may find it already there (another source brought it, or the source brought it
 *    pending under another id): the source's id is added to that entry, which becomes paid when this one is
 *    effected; nothing else changes;
 * 3. else it is created: paid at its date when BOOKED, unpaid when PENDING or FORECAST; enabled rules
 *    categorize it; an effected entry then settles (`auto_reconcile_enabled`) or is suggested for the unpaid
 *    manual forecast the rule matches.
 */
export async function importEntries(
  em: EntityManager,
  ctx: CallerContext,
  billing: BillingLedgerClient,
  source: ImportSource,
  entries: PipelineEntry[],
): Promise<PipelineOutcome> {
  const outcome: PipelineOutcome = {
    created: [],
    updated: [],
    duplicates: 0,
    skipped: [],
    categorized: 0,
    reconciled: 0,
    reconciliation_suggestions: 0,
  };
  if (entries.length === 0) return outcome;
  const holders = [...new Set(entries.map(holderOf))];
  return withCurrentCalendars(async () => {
    const seen: CalendarVersions = new Map();
    const bills = await planBills(billing, ctx, entries, seen);
    return em.transactional(async (tx) => {
      await assertCalendarsCurrent(tx, seen);
      await lockImportHolders(tx, holders);
      return writeEntries(tx, ctx, source, entries, bills);
    });
  });
}

async function writeEntries(
  tx: EntityManager,
  ctx: CallerContext,
  source: ImportSource,
  entries: PipelineEntry[],
  bills: Map<string, BillAssignment>,
): Promise<PipelineOutcome> {
  const skipped: PipelineOutcome['skipped'] = [];
  const keyed = new Map<string, KeyedEntry>(
    (
      await selectKeyedEntries(
        tx,
        ctx,
        source.namespace,
        entries.map((e) => e.key),
      )
    ).map((row) => [row.key, row]),
  );
  // 1. ids the source gave before
  const updates: BankUpdate[] = [];
  const booked: string[] = [];
  const rest: PipelineEntry[] = [];
  for (const entry of entries) {
    const known = keyed.get(entry.key);
    if (!known) rest.push(entry);
    else if (known.deleted) skipped.push({ line: entry.line, key: entry.key, reason: SKIPPED_DELETED });
    else {
      updates.push({ id: known.transaction_id, ...bankFields(entry, bills) });
      if (entry.status === 'BOOKED' && known.status !== 'BOOKED') booked.push(entry.key);
    }
  }
  await markKeysBooked(tx, ctx, source.namespace, booked);

  // 2. the matching rule against what other sources (or this one, pending) brought
  const dates = rest.map((entry) => entry.date).sort();
  const candidates = rest.length
    ? (
        await selectMatchCandidates(tx, ctx, source.namespace, [...new Set(rest.map(holderOf))], {
          from: addDays(dates[0], -MATCH_WINDOW_DAYS),
          to: addDays(dates[dates.length - 1], MATCH_WINDOW_DAYS),
        })
      ).map(toCandidate)
    : [];
  const pairs = matchEntries(
    rest.map((entry) => ({
      holder: holderOf(entry),
      amount: entry.amount,
      is_expense: entry.is_expense,
      date: entry.date,
      status: entry.status,
      installment: entry.installment?.number ?? null,
    })),
    candidates,
  );
  const matched = [...pairs].map(([index, id]) => ({ entry: rest[index], id }));
  // the effected state of an entry the source brought pending is the bank's final word on it
  const unbooked = new Set(candidates.filter((c) => c.sourceKeys === 'unbooked').map((c) => c.id));
  for (const { entry, id } of matched) if (unbooked.has(id)) updates.push({ id, ...bankFields(entry, bills) });
  const updated = await updateFromBank(tx, ctx, updates);
  const completed = await completeMatchedEntries(
    tx,
    ctx,
    matched
      .filter(({ id }) => !unbooked.has(id))
      .map(({ entry, id }) => ({
        id,
        paid: entry.status === 'BOOKED',
        paid_at: paidAtOf(entry),
        original_amount: entry.original_amount,
        original_currency: entry.original_currency,
      })),
  );

  // 3. what is new
  const fresh = rest.filter((_, index) => !pairs.has(index));
  const { rows, newHeads } = await newRows(tx, ctx, source, fresh, bills);
  const inserted = await insertReturningChanged(tx, rows);
  const insertedIds = new Set(inserted.map((row) => row.id));
  await insertImportKeys(tx, ctx, source.namespace, [
    ...matched.map(({ entry, id }) => ({ key: entry.key, transaction_id: id, status: entry.status })),
    ...fresh.flatMap((entry, index) =>
      insertedIds.has(rows[index].id) ? [{ key: entry.key, transaction_id: rows[index].id, status: entry.status }] : [],
    ),
    ...newHeads.filter((head) => insertedIds.has(head.transaction_id)),
  ]);
  recordTransactionChanges(tx, ctx, 'created', inserted);
  // a user's split stays: its parts follow an amount the bank changed
  const changed = withParts(
    [...updated, ...completed],
    await keepSplitsWhole(
      tx,
      updated.map((row) => row.id),
    ),
  );
  recordTransactionChanges(tx, ctx, 'updated', changed);
  const changedIds = [...new Set(changed.map((row) => row.id))];

  const createdIds = inserted.map((row) => row.id);
  const categorized = await applyRulesToTransactions(tx, ctx, createdIds);
  // effected entries settle (or are suggested for) the unpaid manual forecast they match
  const bookedIds = new Set([
    ...updates.filter((row) => row.paid).map((row) => row.id),
    ...matched.filter(({ entry }) => entry.status === 'BOOKED').map(({ id }) => id),
  ]);
  const effected = [
    ...inserted.filter((row) => row.paid).map((row) => row.id),
    ...changedIds.filter((id) => bookedIds.has(id)),
  ];
  const reconciled = await reconcileForecasts(tx, ctx, effected);
  const suggestions = reconciled.length === 0 ? await countSuggestionsFor(tx, ctx, effected, MATCH_WINDOW_DAYS) : 0;
  return {
    created: createdIds,
    updated: changedIds,
    duplicates: Math.max(0, entries.length - skipped.length - createdIds.length - changedIds.length),
    skipped,
    categorized,
    reconciled: reconciled.length,
    reconciliation_suggestions: suggestions,
  };
}
