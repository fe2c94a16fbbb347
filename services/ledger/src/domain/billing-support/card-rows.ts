import type { BillingClient } from '@finance/shared/clients/billing-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { AppError, invalidField, notFound } from '@finance/shared/errors/app-error';
import type { EntityManager } from '@mikro-orm/postgresql';
import { execute, type NewTransaction, type TransactionRow } from '../../data-access/transaction-repository.ts';

/** The bill of each date from billing; a card outside the context is 404 as the client sent it. */
async function assignmentsFor(billing: BillingClient, ctx: CallerContext, creditCardId: string, dates: string[]) {
  try {
    return (await billing.assign(ctx, creditCardId, dates)).assignments;
  } catch (err) {
    if (err instanceof AppError && err.status === 404)
      throw notFound('Cartão de crédito não encontrado (credit_card_id)');
    throw err;
  }
}

/**
 * Card rows (PRODUCT.md §6, §8): no account, always paid with `paid_at` at their date, and the bill billing
 * assigns to each date, so the installments of a purchase fill successive bills. One billing call.
 */
export async function billCardRows<T extends Pick<NewTransaction, 'date'>>(
  billing: BillingClient,
  ctx: CallerContext,
  creditCardId: string,
  rows: T[],
): Promise<T[]> {
  if (rows.length === 0) return rows;
  const assignments = await assignmentsFor(
    billing,
    ctx,
    creditCardId,
    rows.map((row) => row.date),
  );
  return rows.map((row, index) => ({
    ...row,
    account_id: null,
    credit_card_id: creditCardId,
    paid: true,
    paid_at: `${row.date}T00:00:00.000Z`,
    bill_id: assignments[index].bill_id,
    billed_at: assignments[index].billed_at,
  }));
}

/** Exactly one of `account_id` / `credit_card_id` (PRODUCT.md §6). */
export function assertOneHolder(input: { account_id?: string; credit_card_id?: string }): void {
  if ((input.account_id === undefined) === (input.credit_card_id === undefined)) {
    throw invalidField(
      input.account_id ? 'credit_card_id' : 'account_id',
      'informe exatamente um entre account_id e credit_card_id',
    );
  }
}

/** 404 unless the card is the context's (billing's assign with no dates is its lookup). */
export async function requireCard(billing: BillingClient, ctx: CallerContext, creditCardId: string): Promise<void> {
  await assignmentsFor(billing, ctx, creditCardId, []);
}

/** An edit names at most one new holder (PRODUCT.md §6). */
export function assertAtMostOneHolder(input: { account_id?: string; credit_card_id?: string }): void {
  if (input.account_id !== undefined && input.credit_card_id !== undefined) {
    throw invalidField('credit_card_id', 'informe apenas um entre account_id e credit_card_id');
  }
}

/**
 * After an edit moved card entries in time: each goes to the bill its new date falls in (one billing call per
 * card, one statement). Returns the rows as they now are.
 */
export async function rebillCardRows(
  billing: BillingClient,
  em: EntityManager,
  ctx: CallerContext,
  rows: TransactionRow[],
): Promise<TransactionRow[]> {
  const byCard = new Map<string, TransactionRow[]>();
  for (const row of rows) {
    if (row.credit_card_id && !row.is_previous_balance) {
      byCard.set(row.credit_card_id, [...(byCard.get(row.credit_card_id) ?? []), row]);
    }
  }
  if (byCard.size === 0) return rows;
  const moved = new Map<string, { bill_id: string; billed_at: string }>();
  for (const [cardId, cardRows] of byCard) {
    const assignments = await assignmentsFor(
      billing,
      ctx,
      cardId,
      cardRows.map((row) => row.date),
    );
    cardRows.forEach((row, index) => {
      moved.set(row.id, { bill_id: assignments[index].bill_id, billed_at: assignments[index].billed_at });
    });
  }
  await execute(
    em,
    `update transactions t set bill_id = m.bill_id, billed_at = m.billed_at::date
     from jsonb_to_recordset(?::jsonb) as m(id uuid, bill_id uuid, billed_at text) where t.id = m.id`,
    [JSON.stringify([...moved].map(([id, bill]) => ({ id, ...bill })))],
  );
  return rows.map((row) => {
    const bill = moved.get(row.id);
    return bill ? { ...row, bill_id: bill.bill_id, billed_at: new Date(`${bill.billed_at}T00:00:00.000Z`) } : row;
  });
}

/** `billCardRows` for rows of many contexts and cards (jobs): one billing call per context and card, order kept. */
export async function billCardRowsOfAnyContext<T extends NewTransaction>(
  billing: BillingClient,
  rows: T[],
): Promise<T[]> {
  const groups = new Map<string, number[]>();
  rows.forEach((row, index) => {
    if (!row.credit_card_id) return;
    const key = `${row.user_id}:${row.profile_id ?? ''}:${row.credit_card_id}`;
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  const result = [...rows];
  for (const indexes of groups.values()) {
    const first = rows[indexes[0]];
    const ctx = { userId: first.user_id, profileId: first.profile_id, business: false, keyId: null };
    const billed = await billCardRows(
      billing,
      ctx,
      first.credit_card_id as string,
      indexes.map((index) => rows[index]),
    );
    indexes.forEach((index, k) => {
      result[index] = billed[k];
    });
  }
  return result;
}
