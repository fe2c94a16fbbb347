import { addDays, type CalendarDate, daysBetween } from '@finance/shared/calendar';
import type { BillingLedgerClient } from '@finance/shared/clients/billing-ledger-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { TransactionFields } from '@finance/shared/contracts/ledger/transactions';
import { badRequest, type FieldError, notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { shiftRecurrenceSeries } from '../../data-access/recurrence-series-repository.ts';
import {
  findLive,
  loadByIds,
  membersInScope,
  replaceTags,
  type TransactionRow,
  visibleAccountIds,
} from '../../data-access/transaction-repository.ts';
import { editAssignments, updateMembers } from '../../data-access/transaction-updates.ts';
import {
  assertAtMostOneHolder,
  assertCalendarsCurrent,
  type CalendarVersions,
  planBills,
  rebillCardRows,
  requireCard,
  withCurrentCalendars,
} from '../card-entries/card-rows.ts';
import { assertReferences } from '../references/assert-references.ts';
import { keepSplitsWhole } from '../splits/keep-splits.ts';
import { recordTransactionChanges } from './record-changes.ts';
import { assertBusinessAllowed, calendarDateOf, entryDateOf } from './transaction-input.ts';
import { transactionView } from './transaction-view.ts';

const IMMUTABLE = ['type', 'installments', 'frequency', 'is_full_amount'] as const;

/** What makes a series a series cannot change through an edit. */
function assertImmutable(targets: TransactionRow[], input: TransactionFields): void {
  const details: FieldError[] = [];
  for (const field of IMMUTABLE) {
    if (input[field] === undefined) continue;
    if (targets.some((row) => row[field] !== input[field])) {
      details.push({ field, message: `${field} não pode ser alterado` });
    }
  }
  if (details.length) throw badRequest('Dados inválidos', details);
}

/** A transfer's legs differ only in account and direction, which an edit of both legs cannot set. */
function assertTransferEdit(targets: TransactionRow[], input: TransactionFields): void {
  if (!targets.some((row) => row.type === 'TRANSFER')) return;
  const details: FieldError[] = (['account_id', 'credit_card_id', 'is_expense'] as const)
    .filter((field) => input[field] !== undefined)
    .map((field) => ({ field, message: `${field} de uma transferência não muda; exclua e crie outra` }));
  if (details.length) throw badRequest('Dados inválidos', details);
}

/** A bill's previous-balance entry belongs to the bill it carries into; another holder would orphan it. */
function assertPreviousBalanceEdit(targets: TransactionRow[], input: TransactionFields): void {
  if (!targets.some((row) => row.is_previous_balance)) return;
  const details: FieldError[] = (['account_id', 'credit_card_id'] as const)
    .filter((field) => input[field] !== undefined)
    .map((field) => ({ field, message: `${field} do saldo anterior de uma fatura não muda` }));
  if (details.length) throw badRequest('Dados inválidos', details);
}

/** The members an edit reaches: both legs of a transfer always change together, so the pair keeps netting to zero. */
const seedsOf = (targets: TransactionRow[], scope: string, editionDate: string | undefined) =>
  targets.map((row) => ({
    id: row.id,
    scope: row.type === 'TRANSFER' ? 'ALL' : scope,
    from: editionDate ?? row.date,
  })) as Parameters<typeof membersInScope>[1];

/**
 * Read without locks before the transaction: the card and date each card entry will have after the edit,
 * so billing can be asked for their bills first (docs/architecture.md rule 9). The transaction re-checks.
 */
async function cardDatesAfterEdit(
  em: EntityManager,
  ctx: CallerContext,
  ids: string[],
  input: TransactionFields,
  newDate: CalendarDate | undefined,
  seeds: (targets: TransactionRow[]) => Parameters<typeof membersInScope>[1],
): Promise<Map<string, Set<string>>> {
  const datesByCard = new Map<string, Set<string>>();
  if (input.account_id !== undefined) return datesByCard;
  const targets = await findLive(em, ctx, ids, false);
  if (targets.length !== ids.length) throw notFound('Lançamento não encontrado');
  const byId = new Map(targets.map((row) => [row.id, row]));
  const members = await membersInScope(em, seeds(targets));
  const rows = new Map(
    (
      await loadByIds(
        em,
        members.map((member) => member.id),
      )
    ).map((row) => [row.id, row]),
  );
  for (const member of members) {
    const row = rows.get(member.id);
    const cardId = input.credit_card_id ?? row?.credit_card_id;
    if (!row || !cardId || row.is_previous_balance) continue;
    const delta = newDate ? daysBetween((byId.get(member.seed_id) as TransactionRow).date, newDate) : 0;
    datesByCard.set(cardId, (datesByCard.get(cardId) ?? new Set()).add(addDays(row.date as CalendarDate, delta)));
  }
  return datesByCard;
}

/** PUT /v2/transactions/duplicate/update-many: set-based, all or nothing. */
export async function updateManyTransactions(
  em: EntityManager,
  billing: BillingLedgerClient,
  ctx: CallerContext,
  ids: string[],
  input: TransactionFields,
) {
  assertAtMostOneHolder(input);
  assertBusinessAllowed(ctx, input);
  const newDate = input.date !== undefined ? entryDateOf('date', input.date) : undefined;
  const editionDate = input.edition_date && calendarDateOf('edition_date', input.edition_date);
  const scope = input.edition_type ?? 'THIS';
  const seeds = (targets: TransactionRow[]) => seedsOf(targets, scope, editionDate);
  const rebill = Boolean(newDate) || input.credit_card_id !== undefined;
  return withCurrentCalendars(async () => {
    // billing answers before the transaction opens: the card sent, and the bills of the entries' new dates
    const seen: CalendarVersions = new Map();
    const planned = rebill
      ? await planBills(billing, ctx, await cardDatesAfterEdit(em, ctx, ids, input, newDate, seeds), seen)
      : new Map();
    if (input.credit_card_id !== undefined) await requireCard(billing, ctx, input.credit_card_id, seen);
    return em.transactional(async (tx) => {
      // calendar rows before transaction rows: the order a re-billing takes them in
      await assertCalendarsCurrent(tx, seen);
      const targets = await findLive(tx, ctx, ids, true);
      if (targets.length !== ids.length) throw notFound('Lançamento não encontrado');
      assertImmutable(targets, input);
      assertTransferEdit(targets, input);
      assertPreviousBalanceEdit(targets, input);
      if (input.account_id !== undefined) {
        const visible = await visibleAccountIds(tx, ctx, [input.account_id]);
        if (!visible.size) throw notFound('Conta não encontrada (account_id)');
      }
      const { subcategoryParent } = await assertReferences(tx, ctx, {
        categoryId: input.category_id,
        subcategoryId: input.subcategory_id,
        contactId: input.contact_id,
        costCenterId: input.cost_center_id,
        tagIds: input.tag_ids,
      });
      const byId = new Map(targets.map((row) => [row.id, row]));
      const members = await membersInScope(tx, seeds(targets));
      // every member moves by the days its own seed moved
      const shifts = members.map((member) => ({
        id: member.id,
        delta: newDate ? daysBetween((byId.get(member.seed_id) as TransactionRow).date, newDate) : 0,
      }));
      const set = editAssignments(input, subcategoryParent);
      if (newDate) set.sql.push('date = t.date + s.delta');
      await updateMembers(tx, set, shifts);
      const memberIds = members.map((member) => member.id);
      if (newDate && scope !== 'THIS') {
        // later occurrences of a moved recurrence follow the move
        const moved = targets
          .filter((row) => row.type === 'RECURRENT' && row.connected_transaction_id)
          .map((row) => ({ id: row.connected_transaction_id, delta: daysBetween(row.date, newDate) }));
        await shiftRecurrenceSeries(tx, moved);
      }
      if (input.tag_ids !== undefined) await replaceTags(tx, memberIds, input.tag_ids);
      // a split entry's parts follow its new amount
      if (input.amount !== undefined) await keepSplitsWhole(tx, memberIds);
      const loaded = await loadByIds(tx, memberIds);
      // card entries that moved in time or to another card go to the bill their date falls in (404 for a foreign card)
      const updated = rebill ? await rebillCardRows(planned, tx, loaded) : loaded;
      recordTransactionChanges(tx, ctx, 'updated', updated);
      return keepAnswer(updated.map(transactionView));
    });
  });
}
