import { addMonthsClamped, type CalendarDate } from '@finance/shared/calendar';
import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  lastLiveSeriesMember,
  lockTransactionRow,
  seriesNextIndex,
  setSeriesInstallments,
  tagIdsOf,
} from '../../data-access/series-repository.ts';
import { findOneLive, insertTags, insertTransactions } from '../../data-access/transaction-repository.ts';
import {
  applyPlannedBills,
  assertCalendarsCurrent,
  type CalendarVersions,
  type PlannedBills,
  planBills,
  withCurrentCalendars,
} from '../card-entries/card-rows.ts';
import { copyTemplateSplits, withParts } from '../splits/keep-splits.ts';
import { nextMember } from './new-transaction.ts';
import { TRANSACTION_NOT_FOUND } from './read-transactions.ts';
import { recordTransactionChanges } from './record-changes.ts';

/** POST /v1/transactions/{id}/installments: `quantity` more members after the last, monthly from it. */
export async function appendInstallments(
  em: EntityManager,
  billing: BillingLedgerClient,
  ctx: CallerContext,
  id: string,
  quantity: number,
) {
  return withCurrentCalendars(async () => {
    // the new installments' bills are asked of billing before the transaction (docs/architecture.md rule 9)
    const seen: CalendarVersions = new Map();
    let planned: PlannedBills = new Map();
    const preview = await findOneLive(em, ctx, id);
    if (preview?.type === 'PARCELLED' && preview.connected_transaction_id) {
      const { last, members } = await membersToAppend(em, preview.connected_transaction_id, quantity);
      if (last.credit_card_id) {
        const dates = new Map([[last.credit_card_id, new Set(members.map((member) => member.date))]]);
        planned = await planBills(billing, ctx, dates, seen);
      }
    }
    return em.transactional(async (tx) => {
      await assertCalendarsCurrent(tx, seen);
      const target = await findOneLive(tx, ctx, id);
      if (!target) throw notFound(TRANSACTION_NOT_FOUND);
      const seriesId = target.connected_transaction_id;
      if (target.type !== 'PARCELLED' || !seriesId) return keepAnswer({ created: 0 });
      // the first member's row lock serializes appends to one purchase
      await lockTransactionRow(tx, seriesId);
      const { last, members, total } = await membersToAppend(tx, seriesId, quantity);
      // card installments fill the bills after the last one
      const rows = last.credit_card_id ? applyPlannedBills(planned, last.credit_card_id, members) : members;
      await insertTransactions(tx, rows);
      await setSeriesInstallments(tx, seriesId, total);
      const tags = await tagIdsOf(tx, last.id);
      await insertTags(
        tx,
        rows.map((row) => row.id),
        tags.map((tag) => tag.tag_id),
      );
      // and the last installment's parts, when it is split
      const parts = await copyTemplateSplits(
        tx,
        rows.map((row) => ({ id: row.id, amount: row.amount, template_id: last.id })),
      );
      recordTransactionChanges(tx, ctx, 'created', withParts(rows, parts));
      return keepAnswer({ created: rows.length });
    });
  });
}

/** The members `quantity` more installments of a series would be, monthly after its last live one. */
async function membersToAppend(em: EntityManager, seriesId: string, quantity: number) {
  const last = await lastLiveSeriesMember(em, seriesId);
  const { next_index, anchor_day } = await seriesNextIndex(em, seriesId);
  // numbers follow the last live installment, so deleted trailing ones leave no gap in the count
  const lastNumber = last.installment_number ?? last.installments;
  const total = lastNumber + quantity;
  const members = Array.from({ length: quantity }, (_, k) =>
    nextMember(last, addMonthsClamped(last.date as CalendarDate, k + 1, anchor_day ?? undefined), next_index + k, {
      installments: total,
      installment_number: lastNumber + k + 1,
    }),
  );
  return { last, members, total };
}
