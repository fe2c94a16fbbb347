import type { CallerContext } from '@finance/shared/context/signed-context';
import type {
  RemoveSplitsQuery,
  ReplaceSplitsBody,
  SplitPart,
  SplitPartFields,
} from '@finance/shared/contracts/ledger/transaction-splits';
import type { EditionType } from '@finance/shared/contracts/ledger/transactions';
import { newId } from '@finance/shared/db/base-entity';
import { badRequest, invalidField, notFound } from '@finance/shared/errors/app-error';
import { keepAnswer } from '@finance/shared/http/kept-answer';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type SplitWrite, writeSplits } from '../../data-access/split-repository.ts';
import {
  findLive,
  findOneLive,
  loadByIds,
  membersInScope,
  type TransactionRow,
} from '../../data-access/transaction-repository.ts';
import { assertEachReferences } from '../references/assert-references.ts';
import { TRANSACTION_NOT_FOUND } from '../transactions/read-transactions.ts';
import { recordTransactionChanges } from '../transactions/record-changes.ts';
import { assertBusinessAllowed, calendarDateOf, descriptionOf } from '../transactions/transaction-input.ts';
import { partsFor, sumOf } from './split-parts.ts';

const reais = (cents: number) =>
  `R$ ${(cents / 100).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The TransactionSplit record of a row. */
export const splitView = (row: TransactionRow) => ({
  transaction_id: row.id,
  amount: row.amount,
  is_expense: row.is_expense,
  parts: row.splits ?? [],
});

/** GET /v1/transactions/{id}/splits. */
export async function getTransactionSplit(em: EntityManager, ctx: CallerContext, id: string) {
  const row = await findOneLive(em, ctx, id);
  if (!row) throw notFound(TRANSACTION_NOT_FOUND);
  return splitView(row);
}

/**
 * The members of the target's series an edit of its split reaches (docs/decisions.md §6 scopes; a transfer's two
 * legs always together), locked in date order after the target.
 */
async function membersOf(
  tx: EntityManager,
  ctx: CallerContext,
  target: TransactionRow,
  scope: EditionType,
  editionDate: string | undefined,
): Promise<TransactionRow[]> {
  const seed = {
    id: target.id,
    scope: target.type === 'TRANSFER' ? ('ALL' as const) : scope,
    from: editionDate ? calendarDateOf('edition_date', editionDate) : target.date,
  };
  const ids = (await membersInScope(tx, [seed])).map((member) => member.id);
  return findLive(tx, ctx, ids, true);
}

/** The parts as sent, checked (each reference visible, business fields licensed), with ids and their categories. */
async function checkedParts(tx: EntityManager, ctx: CallerContext, fields: SplitPartFields[]): Promise<SplitPart[]> {
  fields.forEach((part) => {
    assertBusinessAllowed(ctx, part);
  });
  const parents = await assertEachReferences(
    tx,
    ctx,
    fields.map((part) => ({
      categoryId: part.category_id,
      subcategoryId: part.subcategory_id,
      contactId: part.contact_id,
      costCenterId: part.cost_center_id,
      tagIds: part.tag_ids,
    })),
    (index, field) => `parts[${index}].${field}`,
  );
  return fields.map((part, index) => ({
    id: newId(),
    amount: part.amount,
    // a subcategory sent alone files the part under its category, as on a transaction
    category_id: parents[index] ?? part.category_id ?? null,
    subcategory_id: part.subcategory_id ?? null,
    description: descriptionOf(part.description),
    tag_ids: part.tag_ids ?? [],
    contact_id: part.contact_id ?? null,
    cost_center_id: part.cost_center_id ?? null,
  }));
}

/**
 * PUT /v1/transactions/{id}/splits: the parts of the transaction (their sum its amount) and, with a wider scope, of
 * the members of its series in the same proportions; under the rows' locks, so concurrent edits apply one by one.
 */
export async function replaceTransactionSplit(
  em: EntityManager,
  ctx: CallerContext,
  id: string,
  input: ReplaceSplitsBody,
) {
  return em.transactional(async (tx) => {
    const target = await findOneLive(tx, ctx, id, true);
    if (!target) throw notFound(TRANSACTION_NOT_FOUND);
    const total = sumOf(input.parts);
    if (total !== target.amount) {
      throw invalidField(
        'parts',
        `a soma das partes (${reais(total)}) deve ser igual ao valor do lançamento (${reais(target.amount)})`,
      );
    }
    const parts = await checkedParts(tx, ctx, input.parts);
    const members = await membersOf(tx, ctx, target, input.edition_type ?? 'THIS', input.edition_date);
    const writes: SplitWrite[] = members.map((member) => {
      const own = member.id === target.id ? parts : partsFor(parts, member.amount);
      if (!own) {
        throw badRequest('Dados inválidos', [
          { field: 'parts', message: `o lançamento de ${member.date} não tem centavos para cada parte` },
        ]);
      }
      return { transaction_id: member.id, parts: own };
    });
    await writeSplits(tx, writes);
    const loaded = await loadByIds(
      tx,
      members.map((member) => member.id),
    );
    recordTransactionChanges(tx, ctx, 'updated', loaded);
    return keepAnswer(loaded.map(splitView));
  });
}

/** DELETE /v1/transactions/{id}/splits: the members in scope count again as whole entries. */
export async function removeTransactionSplit(
  em: EntityManager,
  ctx: CallerContext,
  id: string,
  query: RemoveSplitsQuery,
) {
  return em.transactional(async (tx) => {
    const target = await findOneLive(tx, ctx, id, true);
    if (!target) throw notFound(TRANSACTION_NOT_FOUND);
    const members = await membersOf(tx, ctx, target, query.edition_type || 'THIS', query.edition_date);
    const split = members.filter((member) => member.is_split);
    await writeSplits(
      tx,
      split.map((member) => ({ transaction_id: member.id, parts: [] })),
    );
    recordTransactionChanges(
      tx,
      ctx,
      'updated',
      await loadByIds(
        tx,
        split.map((member) => member.id),
      ),
    );
    return keepAnswer({ removed: split.length });
  });
}
