import { addDays, addMonthsClamped } from '@finance/shared/calendar';
import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { BillAssignment } from '@finance/shared/contracts/internal/billing-for-ledger';
import { AppError } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChangedRow } from '../../data-access/changed-rows-sql.ts';
import {
  type BankUpdate,
  type CandidateRow,
  completeMatchedEntries,
  type ImportKey,
  insertImportKeys,
  type KnownEntryRow,
  lockImportHolders,
  markKeysBooked,
  removeUnlisted,
  selectKnownEntries,
  selectMatchCandidates,
  updateFromBank,
} from '../../data-access/import-keys.ts';
import {
  linkTransferLegs,
  markBillPayments,
  movePaymentsToAccounts,
  type PairableRow,
  type PayingEntry,
  selectCardHeldPayments,
  selectPayingDebits,
  selectTransferLegs,
} from '../../data-access/import-matches.ts';
import { countSuggestionsFor, hasOpenForecasts } from '../../data-access/reconciliation.ts';
import { type EnabledRule, selectEnabledRules } from '../../data-access/rule-repository.ts';
import {
  insertReturningChanged,
  type NewTransaction,
  visibleAccountIds,
} from '../../data-access/transaction-repository.ts';
import { assertCalendarsCurrent, type CalendarVersions, withCurrentCalendars } from '../card-entries/card-rows.ts';
import { reconcileForecasts } from '../open-banking/reconcile-forecasts.ts';
import { splitByRules } from '../rules/rule-splits.ts';
import { winningRule } from '../rules/winning-rule.ts';
import { keepSplitsWhole, withParts } from '../splits/keep-splits.ts';
import { recordTransactionChanges } from '../transactions/record-changes.ts';
import { BILL_PAYMENT_WINDOW_DAYS, isPaymentLine, pairBillPayments } from './bill-payments.ts';
import { type BillPlan, bankFields, billKeyOf, entryRows, holderOf, paidAtOf } from './entry-rows.ts';
import {
  emptyOutcome,
  type ImportSource,
  type PipelineEntry,
  type PipelineOutcome,
  SKIPPED_ACCOUNT_DELETED,
  SKIPPED_CARD_DELETED,
  SKIPPED_DELETED,
  type SkippedEntry,
} from './import-entry.ts';
import { MATCH_WINDOW_DAYS, matchEntries, type StoredCandidate } from './match-entries.ts';
import { ownMoneyMove, pairOwnTransfers, TRANSFER_WINDOW_DAYS, type TransferLeg } from './own-money.ts';
import { distinctEntries, pairKnownEntries } from './source-ids.ts';

const ASSIGN_CHUNK = 5000;

/** A card entry that is the bill's payment: the source said so, or (it said nothing) a card credit whose text says so. */
const isReportedPayment = (entry: PipelineEntry) =>
  entry.credit_card_id !== null && !entry.is_expense && (entry.bill_payment ?? isPaymentLine(entry.title));

/**
 * The day billing places a card entry by: a payment line without the bank's bill pays the bill closed before it
 * (the bill of a month earlier); anything else, the bill of its date.
 */
const billDateOf = (entry: PipelineEntry) => (isReportedPayment(entry) ? addMonthsClamped(entry.date, -1) : entry.date);

/**
 * The bill of each card entry, asked of billing before the transaction (docs/architecture.md rule 9): by the due
 * date the institution named, else by the entry's date. One call per card and 5,000 dates.
 */
async function planBills(
  billing: BillingLedgerClient,
  ctx: CallerContext,
  entries: PipelineEntry[],
  seen: CalendarVersions,
  deletedCards: Set<string>,
): Promise<BillPlan> {
  const byCard = new Map<string, { dates: Set<string>; due: Set<string> }>();
  for (const entry of entries) {
    if (!entry.credit_card_id) continue;
    const card = byCard.get(entry.credit_card_id) ?? { dates: new Set(), due: new Set() };
    if (entry.bill_due_date) card.due.add(entry.bill_due_date);
    else card.dates.add(billDateOf(entry));
    byCard.set(entry.credit_card_id, card);
  }
  const bills = new Map<string, BillAssignment>();
  for (const [cardId, { dates, due }] of byCard) {
    const list = [...dates];
    const dueList = [...due];
    for (let i = 0; i < Math.max(list.length, dueList.length, 1); i += ASSIGN_CHUNK) {
      const answer = await billing
        .assign(ctx, cardId, list.slice(i, i + ASSIGN_CHUNK), dueList.slice(i, i + ASSIGN_CHUNK))
        .catch((err: unknown) => {
          // the card was the context's when the import was asked for: gone now, it was deleted meanwhile
          if (err instanceof AppError && err.status === 404) return null;
          throw err;
        });
      if (!answer) {
        deletedCards.add(cardId);
        break;
      }
      seen.set(cardId, Math.min(seen.get(cardId) ?? answer.card.calendar_version, answer.card.calendar_version));
      for (const bill of answer.assignments) bills.set(billKeyOf(cardId, bill.date, false), bill);
      for (const bill of answer.due_assignments ?? []) bills.set(billKeyOf(cardId, bill.date, true), bill);
    }
  }
  return { bills, dateOf: billDateOf };
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

/** The days a rule must look at around some entries: their range widened by its window. */
function rangeOf(entries: Array<{ date: string }>, windowDays: number) {
  const dates = entries.map((entry) => entry.date).sort();
  return { from: addDays(dates[0], -windowDays), to: addDays(dates[dates.length - 1], windowDays) };
}

const legOf = (row: PairableRow): TransferLeg => ({
  id: row.id,
  account_id: row.account_id as string,
  amount: Number(row.amount),
  is_expense: row.is_expense,
  date: row.date,
  operation_type: row.operation_type,
  merchant_cnpj: row.merchant_cnpj,
});

/**
 * The import pipeline (docs/decisions.md §9): what every source hands over goes through here, so deduplication,
 * pending → effected, installments, card bills, bill payments, own transfers, investment moves, user edits,
 * rules, reconciliation and events are decided once, whatever the source and the order things arrive in.
 * In one transaction per call, under the context's import lock and a lock per account and card (imports of the same
 * ones wait for each other, and so does a deletion of one: entries of an account or card deleted before the lock are
 * skipped, with why):
 * 1. source ids: an entry an id of its holder already names (the one with its content) takes the bank's data
 *    (never the fields the user edited, nor category and tags), or only its effected state where another
 *    holder's or source's data came first; one the user deleted stays deleted (skipped);
 * 2. the matching rule may find it already there (another source brought it, or the source brought it pending
 *    under another id): the source's id is added to that entry, which becomes paid when this one is effected;
 * 3. a bill payment the bank reports joins the account debit that made it (the debit becomes that bill's
 *    payment), or waits on its card until that debit arrives; a debit arriving later joins it;
 * 4. money between the holder's own accounts and investments becomes a transfer;
 * 5. the rest is created: paid at its date when BOOKED, unpaid when PENDING or FORECAST; enabled rules categorize
 *    it; an effected entry then settles (`auto_reconcile_enabled`) or is suggested for the unpaid manual forecast
 *    it matches.
 */
export async function importEntries(
  em: EntityManager,
  ctx: CallerContext,
  billing: BillingLedgerClient,
  source: ImportSource,
  entries: PipelineEntry[],
  /** What the caller records of this import, committed with it (a statement's count of entries done). */
  alongside?: (tx: EntityManager, outcome: PipelineOutcome) => Promise<void>,
): Promise<PipelineOutcome> {
  const outcome = emptyOutcome();
  if (entries.length === 0 && !source.listed?.length) return outcome;
  const holders = [...new Set(entries.map(holderOf))];
  return withCurrentCalendars(async () => {
    const seen: CalendarVersions = new Map();
    const deletedCards = new Set<string>();
    const bills = await planBills(billing, ctx, entries, seen, deletedCards);
    return em.transactional(async (tx) => {
      await assertCalendarsCurrent(tx, seen);
      await lockImportHolders(tx, ctx, holders);
      // checked again under the lock a deletion takes too: what was deleted meanwhile gets nothing
      const accounts = [...new Set(entries.flatMap((entry) => (entry.account_id ? [entry.account_id] : [])))];
      const liveAccounts = accounts.length ? await visibleAccountIds(tx, ctx, accounts) : new Set<string>();
      const skipped: PipelineOutcome['skipped'] = [];
      const kept = entries.filter((entry) => {
        const reason = entry.account_id
          ? !liveAccounts.has(entry.account_id) && SKIPPED_ACCOUNT_DELETED
          : deletedCards.has(holderOf(entry)) && SKIPPED_CARD_DELETED;
        if (reason) skipped.push({ line: entry.line, key: entry.key, reason });
        return !reason;
      });
      const written = await writeEntries(tx, ctx, source, kept, bills);
      const outcome = { ...written, skipped: [...skipped, ...written.skipped] };
      await alongside?.(tx, outcome);
      return outcome;
    });
  });
}

/**
 * Enabled rules categorize the rows about to be created (docs/decisions.md §9), written with them: one read of the
 * context's rules, no second write of each row. The winning rule of each row categorized.
 */
async function categorize(tx: EntityManager, ctx: CallerContext, rows: NewTransaction[]) {
  const ruled = new Map<string, EnabledRule>();
  if (rows.length === 0) return ruled;
  const rules = await selectEnabledRules(tx, ctx);
  if (rules.length === 0) return ruled;
  for (const row of rows) {
    const rule = winningRule(rules, row);
    if (!rule) continue;
    Object.assign(row, { category_id: rule.category_id, subcategory_id: rule.subcategory_id });
    ruled.set(row.id, rule);
  }
  return ruled;
}

/** An arriving entry nothing stored is, with the row it would be. */
interface Fresh {
  entry: PipelineEntry;
  row: NewTransaction;
}

/** What one import writes besides its new rows, gathered by the rules before anything is written. */
interface Writes {
  keys: ImportKey[];
  updates: BankUpdate[];
  completions: Completion[];
  booked: Array<{ holder_id: string; key: string; transaction_id: string }>;
  /** Bill payments held by their card that a debit arriving now made. */
  moved: PayingEntry[];
  /** Stored debits that made a bill payment arriving now. */
  paying: Array<{ id: string; bill_id: string }>;
  /** Stored legs of transfers found now. */
  links: Array<{ id: string; outgoing_id: string; index: 0 | 1 }>;
  /** Fresh rows that joined a stored entry instead of being created. */
  dropped: Set<string>;
  skipped: SkippedEntry[];
}

type Completion = ReturnType<typeof completionOf>;

/** What an entry another source (or state) brought first takes from an arrival: its effected state, the original amount. */
function completionOf(id: string, entry: PipelineEntry) {
  return {
    id,
    paid: entry.status === 'BOOKED',
    paid_at: paidAtOf(entry),
    original_amount: entry.original_amount,
    original_currency: entry.original_currency,
  };
}

const keyOf = (entry: PipelineEntry, transactionId: string, owns: boolean): ImportKey => ({
  holder_id: holderOf(entry),
  key: entry.key,
  transaction_id: transactionId,
  status: entry.status,
  owns,
});

/**
 * 1. Source ids: each arriving entry an id of its holder names (the one with its content) updates that entry, or
 * only completes it where another holder's or source's data came first; a deleted one is skipped. The rest returns.
 */
async function applySourceIds(
  tx: EntityManager,
  ctx: CallerContext,
  source: ImportSource,
  entries: PipelineEntry[],
  plan: BillPlan,
  writes: Writes,
): Promise<PipelineEntry[]> {
  const rows = await selectKnownEntries(
    tx,
    ctx,
    source.namespace,
    entries.map((entry) => ({ holder: holderOf(entry), key: entry.key })),
  );
  const rowOf = new Map(rows.map((row) => [`${row.transaction_id}|${row.holder_id}|${row.key}`, row]));
  const pairs = pairKnownEntries(
    // a reported payment is stored as the money leaving towards the bill
    entries.map((entry) => ({
      ...entry,
      holder: holderOf(entry),
      is_expense: entry.is_expense || isReportedPayment(entry),
    })),
    rows.map((row) => ({
      id: row.transaction_id,
      holder: row.holder_id,
      key: row.key,
      amount: Number(row.amount),
      is_expense: row.is_expense,
      date: row.date,
      status: row.status,
      deleted: row.deleted,
    })),
  );
  const rest: PipelineEntry[] = [];
  for (const [index, entry] of entries.entries()) {
    const stored = pairs.get(index);
    if (!stored) {
      rest.push(entry);
      continue;
    }
    if (stored.deleted) {
      writes.skipped.push({ line: entry.line, key: entry.key, reason: SKIPPED_DELETED });
      continue;
    }
    const row = rowOf.get(`${stored.id}|${stored.holder}|${stored.key}`) as KnownEntryRow;
    // a reported bill payment is stored as the payment it describes; the bank's data rewrites an entry only
    // through the key of the holder and source it came from first
    if (row.owns && row.row_holder === row.holder_id && !isReportedPayment(entry)) {
      writes.updates.push({ id: stored.id, ...bankFields(entry, plan) });
    } else writes.completions.push(completionOf(stored.id, entry));
    if (entry.status === 'BOOKED' && stored.status !== 'BOOKED') {
      writes.booked.push({ holder_id: row.holder_id, key: entry.key, transaction_id: stored.id });
    }
  }
  return rest;
}

/**
 * 2. The matching rule against what other sources (or this one, pending) brought: the source's id joins the
 * stored entry; a pending or scheduled one of the same source takes the effected state's data. Returns the
 * entries nothing matched.
 */
async function applyMatchingRule(
  tx: EntityManager,
  ctx: CallerContext,
  source: ImportSource,
  entries: PipelineEntry[],
  plan: BillPlan,
  writes: Writes,
): Promise<PipelineEntry[]> {
  if (entries.length === 0) return [];
  const candidates = (
    await selectMatchCandidates(
      tx,
      ctx,
      source.namespace,
      [...new Set(entries.map(holderOf))],
      rangeOf(entries, MATCH_WINDOW_DAYS),
    )
  ).map(toCandidate);
  const pairs = matchEntries(
    entries.map((entry) => ({
      holder: holderOf(entry),
      amount: entry.amount,
      is_expense: entry.is_expense,
      date: entry.date,
      status: entry.status,
      installment: entry.installment?.number ?? null,
    })),
    candidates,
  );
  const unbooked = new Set(candidates.filter((c) => c.sourceKeys === 'unbooked').map((c) => c.id));
  for (const [index, id] of pairs) {
    const entry = entries[index];
    if (unbooked.has(id)) writes.updates.push({ id, ...bankFields(entry, plan) });
    else writes.completions.push(completionOf(id, entry));
    writes.keys.push(keyOf(entry, id, unbooked.has(id)));
  }
  return entries.filter((_, index) => !pairs.has(index));
}

const payingDebit = (id: string, entry: { amount: number; date: string; title: string }, billId: string | null) => ({
  id,
  amount: entry.amount,
  date: entry.date,
  title: entry.title,
  bill_id: billId,
});

/**
 * 3. Bill payments: an account debit arriving joins the payment its card holds since the bank reported it (the
 * payment moves to the account, with the debit's data); a payment arriving joins the debit that made it (stored
 * or arriving: it becomes that bill's payment); a payment no debit made waits on its card.
 */
async function applyBillPayments(
  tx: EntityManager,
  ctx: CallerContext,
  source: ImportSource,
  fresh: Fresh[],
  writes: Writes,
) {
  const debits = fresh.filter(({ row }) => row.account_id !== null && row.is_expense && row.type === 'FIXED');
  const held = debits.length
    ? await selectCardHeldPayments(
        tx,
        ctx,
        debits.map(({ row }) => row.amount),
        rangeOf(
          debits.map(({ row }) => row),
          BILL_PAYMENT_WINDOW_DAYS,
        ),
      )
    : [];
  for (const [index, rowId] of pairBillPayments(
    held.map((row) => ({ amount: Number(row.amount), date: row.date, bill_id: row.bill_id as string })),
    debits.map(({ row }) => payingDebit(row.id, row, null)),
  )) {
    const { entry } = debits.find(({ row }) => row.id === rowId) as Fresh;
    writes.dropped.add(rowId);
    writes.moved.push({
      id: held[index].id,
      account_id: entry.account_id as string,
      date: entry.date,
      title: entry.title,
      description: entry.description,
      operation_type: entry.operation_type,
      merchant_name: entry.merchant_name,
      merchant_cnpj: entry.merchant_cnpj,
      paid: entry.status === 'BOOKED',
      paid_at: paidAtOf(entry),
    });
    writes.keys.push(keyOf(entry, held[index].id, true));
  }

  const payments = fresh.filter(({ entry }) => isReportedPayment(entry));
  const open = debits.filter(({ row }) => !writes.dropped.has(row.id));
  const stored = payments.length
    ? await selectPayingDebits(
        tx,
        ctx,
        source.namespace,
        payments.map(({ row }) => row.amount),
        rangeOf(
          payments.map(({ row }) => row),
          BILL_PAYMENT_WINDOW_DAYS,
        ),
        [...new Set(payments.map(({ row }) => row.bill_id as string))],
      )
    : [];
  const pairs = pairBillPayments(
    payments.map(({ row }) => ({ amount: row.amount, date: row.date, bill_id: row.bill_id as string })),
    [
      ...stored.map((row) => payingDebit(row.id, { ...row, amount: Number(row.amount) }, row.bill_id)),
      ...open.map(({ row }) => payingDebit(row.id, row, null)),
    ],
  );
  for (const [index, debitId] of pairs) {
    const { entry, row: payment } = payments[index];
    writes.dropped.add(payment.id);
    writes.keys.push(keyOf(entry, debitId, false));
    const arriving = open.find(({ row }) => row.id === debitId);
    if (arriving) Object.assign(arriving.row, { is_bill_payment: true, bill_id: payment.bill_id });
    else writes.paying.push({ id: debitId, bill_id: payment.bill_id as string });
  }
}

/**
 * 4. Own money: an arriving account entry that moves the holder's own money alone (to their account elsewhere,
 * to or from an investment) becomes a one-leg transfer; the others pair with the other leg in another account of
 * the context (stored or arriving) as a transfer.
 */
async function applyOwnMoney(
  tx: EntityManager,
  ctx: CallerContext,
  source: ImportSource,
  fresh: Fresh[],
  writes: Writes,
) {
  const legs = fresh.filter(
    ({ row }) => row.account_id !== null && row.type === 'FIXED' && !row.is_bill_payment && !writes.dropped.has(row.id),
  );
  const pairable: Fresh[] = [];
  for (const leg of legs) {
    if (ownMoneyMove(leg.entry, source.holderDocuments ?? [])) {
      Object.assign(leg.row, { type: 'TRANSFER', connected_transaction_id: leg.row.id, series_index: 0 });
    } else pairable.push(leg);
  }
  if (pairable.length === 0) return;
  const rows = pairable.map(({ row }) => row);
  const stored = await selectTransferLegs(
    tx,
    ctx,
    rows.map((row) => row.amount),
    rangeOf(rows, TRANSFER_WINDOW_DAYS),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const arriving = rows.map((row) => ({ ...row, account_id: row.account_id as string }));
  for (const [outgoing, incoming] of pairOwnTransfers(arriving, stored.map(legOf))) {
    for (const [id, index] of [
      [outgoing, 0],
      [incoming, 1],
    ] as const) {
      const row = byId.get(id);
      if (row) Object.assign(row, { type: 'TRANSFER', connected_transaction_id: outgoing, series_index: index });
      else writes.links.push({ id, outgoing_id: outgoing, index });
    }
  }
}

async function writeEntries(
  tx: EntityManager,
  ctx: CallerContext,
  source: ImportSource,
  received: PipelineEntry[],
  plan: BillPlan,
): Promise<PipelineOutcome> {
  const writes: Writes = {
    keys: [],
    updates: [],
    completions: [],
    booked: [],
    moved: [],
    paying: [],
    links: [],
    dropped: new Set(),
    skipped: [],
  };
  const { entries } = distinctEntries(received.map((entry) => ({ ...entry, holder: holderOf(entry) })));
  const rest = await applySourceIds(tx, ctx, source, entries, plan, writes);
  const movements = await applyMatchingRule(
    tx,
    ctx,
    source,
    rest.filter((entry) => !isReportedPayment(entry)),
    plan,
    writes,
  );
  const arriving = [...movements, ...rest.filter(isReportedPayment)];
  const { rows, seriesHeads } = await entryRows(tx, ctx, source, arriving, plan);
  const fresh = arriving.map((entry, index) => ({ entry, row: rows[index] }));
  // a reported payment is stored as the payment it describes: the money leaving towards the bill
  for (const { entry, row } of fresh) {
    if (isReportedPayment(entry)) Object.assign(row, { is_expense: true, is_bill_payment: true, billed_at: null });
  }
  await applyBillPayments(tx, ctx, source, fresh, writes);
  await applyOwnMoney(tx, ctx, source, fresh, writes);

  const creating = rows.filter((row) => !writes.dropped.has(row.id));
  const ruled = await categorize(tx, ctx, creating);
  const inserted = await insertReturningChanged(tx, creating);
  const insertedIds = new Set(inserted.map((row) => row.id));
  for (const { entry, row } of fresh) if (insertedIds.has(row.id)) writes.keys.push(keyOf(entry, row.id, true));
  writes.keys.push(...seriesHeads.filter((head) => insertedIds.has(head.transaction_id)));
  await insertImportKeys(tx, ctx, source.namespace, writes.keys);
  await markKeysBooked(tx, ctx, source.namespace, writes.booked);

  const updated = await updateFromBank(tx, ctx, writes.updates);
  const changed: ChangedRow[] = [
    ...updated,
    ...(await completeMatchedEntries(tx, ctx, writes.completions)),
    ...(await movePaymentsToAccounts(tx, ctx, writes.moved)),
    ...(await markBillPayments(tx, ctx, writes.paying)),
    ...(await linkTransferLegs(tx, ctx, writes.links)),
  ];
  // a winning rule that splits splits what it categorized
  const ruleParts = await splitByRules(
    tx,
    inserted.flatMap((row) => {
      const shares = ruled.get(row.id)?.splits;
      return shares ? [{ id: row.id, amount: Number(row.amount), current: null, shares }] : [];
    }),
  );
  recordTransactionChanges(tx, ctx, 'created', withParts(inserted, ruleParts));
  // a user's split stays: its parts follow an amount the bank changed
  recordTransactionChanges(
    tx,
    ctx,
    'updated',
    withParts(
      changed,
      await keepSplitsWhole(
        tx,
        updated.map((row) => row.id),
      ),
    ),
  );
  // after the effected states above: what is still pending or scheduled and did not arrive was dropped
  const removed = await removeUnlisted(
    tx,
    ctx,
    source.namespace,
    source.listed ?? [],
    source.arrived ?? entries.map((entry) => ({ holder_id: holderOf(entry), key: entry.key })),
  );
  recordTransactionChanges(tx, ctx, 'deleted', removed);
  const changedIds = [...new Set(changed.map((row) => row.id))];
  const createdIds = inserted.map((row) => row.id);
  const categorized = inserted.filter((row) => ruled.has(row.id)).length;

  // effected entries settle (or are suggested for) the unpaid manual forecast they match
  const bookedIds = new Set([...writes.updates, ...writes.completions].filter((row) => row.paid).map((row) => row.id));
  const effected = [
    ...inserted.filter((row) => row.paid).map((row) => row.id),
    ...changedIds.filter((id) => bookedIds.has(id)),
  ];
  // most imports meet no forecast at all: one probe of the forecasts' index spares both statements
  const forecasts = effected.length > 0 && (await hasOpenForecasts(tx, ctx));
  const reconciled = forecasts ? await reconcileForecasts(tx, ctx, effected) : [];
  const suggestions =
    forecasts && reconciled.length === 0 ? await countSuggestionsFor(tx, ctx, effected, MATCH_WINDOW_DAYS) : 0;
  return {
    created: createdIds,
    updated: changedIds,
    duplicates: Math.max(0, received.length - writes.skipped.length - createdIds.length - changedIds.length),
    skipped: writes.skipped,
    categorized,
    reconciled: reconciled.length,
    reconciliation_suggestions: suggestions,
    removed: removed.map((row) => row.id),
  };
}
