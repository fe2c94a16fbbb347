import { type CalendarDate, type Frequency, occurrenceDate } from '@finance/shared/calendar';
import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import { now, todayIn } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { CreateTransactionBody } from '@finance/shared/contracts/ledger/transactions';
import { newId } from '@finance/shared/db/base-entity';
import { invalidField, notFound } from '@finance/shared/errors/app-error';
import { servingIdempotentRequest } from '@finance/shared/http/idempotency';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import { JsonBytes } from '@finance/shared/http/service-routes';
import type { EntityManager } from '@mikro-orm/postgresql';
import { insertRecurrenceSeries } from '../../data-access/recurrence-series-repository.ts';
import {
  insertTags,
  insertWithEvent,
  type NewTransaction,
  visibleAccountIds,
} from '../../data-access/transaction-repository.ts';
import {
  assertCalendarsCurrent,
  assertOneHolder,
  billCardRows,
  type CalendarVersions,
  withCurrentCalendars,
} from '../card-entries/card-rows.ts';
import { contextTimeZone } from '../preferences/personal-config.ts';
import { assertReferences } from '../references/assert-references.ts';
import { splitInstallments } from '../split-installments.ts';
import { blankTransaction, pendingOccurrences, recurrenceHorizon } from './new-transaction.ts';
import { transactionChangesEvent } from './record-changes.ts';
import { assertBusinessAllowed, descriptionOf, entryDateOf } from './transaction-input.ts';

/** Checks the body's rules before anything is read or written. */
function validate(ctx: CallerContext, input: CreateTransactionBody): void {
  if (input.type === 'TRANSFER') {
    throw invalidField('type', 'transferências são criadas com POST /v1/transactions/create-transfer');
  }
  assertOneHolder(input);
  if (input.type === 'PARCELLED' && (input.installments === undefined || input.installments < 2)) {
    throw invalidField('installments', 'compras parceladas têm de 2 a 120 parcelas');
  }
  if (input.type === 'PARCELLED' && input.is_full_amount && input.amount < (input.installments as number)) {
    throw invalidField('amount', 'o total deve ter ao menos 1 centavo por parcela');
  }
  assertBusinessAllowed(ctx, input);
}

/** The rows of the request: one, the installments of a purchase or the occurrences of a recurrence. */
export function buildRows(ctx: CallerContext, input: CreateTransactionBody, today: CalendarDate): NewTransaction[] {
  const date = entryDateOf('date', input.date);
  const type = input.type ?? 'FIXED';
  const paid = input.paid ?? false;
  const first = blankTransaction({
    user_id: ctx.userId,
    profile_id: ctx.profileId,
    amount: input.amount,
    date,
    title: input.title,
    is_expense: input.is_expense,
    type,
    description: descriptionOf(input.description),
    paid,
    paid_at: paid ? now().toISOString() : null,
    currency: input.currency ?? 'BRL',
    account_id: input.account_id ?? null,
    category_id: input.category_id ?? null,
    subcategory_id: input.subcategory_id ?? null,
    competence_date: input.competence_date ? entryDateOf('competence_date', input.competence_date) : null,
    contact_id: input.contact_id ?? null,
    cost_center_id: input.cost_center_id ?? null,
    document_number: input.document_number ?? null,
    show_on_balance: input.show_on_balance ?? true,
    is_full_amount: type === 'PARCELLED' ? (input.is_full_amount ?? false) : false,
  });
  if (type === 'FIXED') return [first];
  // the first member's id links the whole series, itself included
  const seriesId = first.id;
  const member = (index: number, memberDate: CalendarDate, extra: Partial<NewTransaction>): NewTransaction => ({
    ...first,
    id: index === 0 ? seriesId : newId(),
    date: memberDate,
    connected_transaction_id: seriesId,
    series_index: index,
    paid: index === 0 ? first.paid : false,
    paid_at: index === 0 ? first.paid_at : null,
    ...extra,
  });
  if (type === 'PARCELLED') {
    const n = input.installments as number;
    const amounts = first.is_full_amount ? splitInstallments(input.amount, n) : Array(n).fill(input.amount);
    return amounts.map((amount, i) =>
      member(i, occurrenceDate(date, 'MONTHLY', i), { amount, installments: n, installment_number: i + 1 }),
    );
  }
  const frequency: Frequency = input.frequency ?? 'MONTHLY';
  const dates = pendingOccurrences(date, frequency, recurrenceHorizon(today), 0);
  return (dates.length ? dates : [date]).map((d, i) => member(i, d, { frequency }));
}

/** POST /v1/transactions: the first member of what was created, in one database transaction. */
export async function createTransaction(
  em: EntityManager,
  billing: BillingLedgerClient,
  ctx: CallerContext,
  input: CreateTransactionBody,
  today: CalendarDate | null = null,
) {
  validate(ctx, input);
  // a recurrence's horizon is 12 months after the context's own today (only recurrences need it)
  const needsToday = today === null && input.type === 'RECURRENT';
  const day = today ?? (needsToday ? todayIn(await contextTimeZone(em, ctx)) : todayIn());
  return withCurrentCalendars(async () => {
    const built = buildRows(ctx, input, day);
    // billing answers before the transaction opens; the calendar version is re-checked inside it
    const seen: CalendarVersions = new Map();
    const rows = input.credit_card_id ? await billCardRows(billing, ctx, input.credit_card_id, built, seen) : built;
    return insertCreated(em, ctx, input, rows, seen);
  });
}

async function insertCreated(
  em: EntityManager,
  ctx: CallerContext,
  input: CreateTransactionBody,
  rows: NewTransaction[],
  seen: CalendarVersions,
) {
  const first = rows[0];
  const references = Boolean(
    input.category_id || input.subcategory_id || input.contact_id || input.cost_center_id || input.tag_ids?.length,
  );
  const write = async (tx: EntityManager) => {
    await assertCalendarsCurrent(tx, seen);
    // with other references to check, the account is checked first, so its 404 comes first as before
    if (input.account_id && references) {
      const accounts = await visibleAccountIds(tx, ctx, [input.account_id]);
      if (!accounts.has(input.account_id)) throw notFound('Conta não encontrada (account_id)');
    }
    const { subcategoryParent } = await assertReferences(tx, ctx, {
      categoryId: input.category_id,
      subcategoryId: input.subcategory_id,
      contactId: input.contact_id,
      costCenterId: input.cost_center_id,
      tagIds: input.tag_ids,
    });
    // a subcategory sent alone files the entry under its category
    if (subcategoryParent) for (const row of rows) row.category_id = subcategoryParent;
    // account check, rows and their event in one statement
    const event = transactionChangesEvent(ctx, 'created', rows);
    const view = await insertWithEvent(tx, ctx, rows, input.account_id ?? null, event);
    if (view === null) throw notFound('Conta não encontrada (account_id)');
    await insertTags(
      tx,
      rows.map((row) => row.id),
      input.tag_ids ?? [],
    );
    if (first.type === 'RECURRENT') {
      await insertRecurrenceSeries(tx, first.id, first.date, first.frequency, rows.length);
    }
    // the first member's record as PostgreSQL wrote it, sent as it came
    return keepAnswer(new JsonBytes(Buffer.from(view)));
  };
  // a create that is that one statement needs no transaction around it (one round trip instead of three);
  // a card's calendar versions are re-checked inside a transaction, and under an Idempotency-Key the key's
  // record commits with the write, which only a transaction carries (IdempotencySubscriber)
  const oneStatement = !references && first.type !== 'RECURRENT' && seen.size === 0 && !servingIdempotentRequest();
  return oneStatement ? write(em) : em.transactional(write);
}
