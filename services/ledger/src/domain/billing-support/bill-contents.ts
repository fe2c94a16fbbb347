import type { BillTotals } from '@finance/shared/clients/ledger-billing-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { contextSql } from '@finance/shared/db/context-scope';
import type { EntityManager } from '@mikro-orm/postgresql';
import { balancesOf } from '../../data-access/account-repository.ts';
import { AccountSchema } from '../../data-access/entities/account.ts';
import { SubcategorySchema } from '../../data-access/entities/subcategory.ts';
import { TagSchema } from '../../data-access/entities/tag.ts';
import { visibleWhere } from '../../data-access/reference-repository.ts';
import { execute, SELECT_COLUMNS, selectTransactions } from '../../data-access/transaction-repository.ts';
import { accountView } from '../accounts/account-view.ts';
import { findCategoriesByIds } from '../references/category-lookup.ts';
import { subcategoryView } from '../references/category-view.ts';
import { tagView } from '../tags/manage-tags.ts';
import { transactionView } from '../transactions/transaction-view.ts';

// Imported operation types that mean a fee, interest or IOF (PRODUCT.md §8 `costs`).
const COST_PATTERN = '(tarifa|juros|iof|encargo|multa|anuidade|fee|interest)';

/**
 * Per-bill sums of live entries of the context, bill payments apart, and `recurring` (the signed net of
 * recurrence occurrences, which a card holds only once their bill is open); one grouped query.
 */
export async function billTotals(em: EntityManager, ctx: CallerContext, billIds: string[]): Promise<BillTotals[]> {
  if (billIds.length === 0) return [];
  const scope = contextSql(ctx, 't');
  const rows = await execute<Record<string, string>>(
    em,
    `select t.bill_id,
       coalesce(sum(t.amount) filter (where not t.is_bill_payment and t.is_expense), 0)::text as purchases,
       coalesce(sum(t.amount) filter (where not t.is_bill_payment and not t.is_expense), 0)::text as credits,
       coalesce(sum(case when t.is_expense then t.amount else -t.amount end) filter (where t.is_bill_payment), 0)::text as payments,
       coalesce(sum(t.amount) filter (where not t.is_bill_payment and t.is_expense and t.operation_type ~* ?), 0)::text as costs,
       count(*) filter (where not t.is_bill_payment)::text as count,
       coalesce(sum(case when t.is_expense then t.amount else -t.amount end)
         filter (where not t.is_bill_payment and t.type = 'RECURRENT'), 0)::text as recurring
     from transactions t
     where t.bill_id in (?) and t.deleted_at is null and ${scope.sql}
     group by t.bill_id`,
    [COST_PATTERN, billIds, ...scope.params],
  );
  return rows.map((row) => ({
    bill_id: row.bill_id,
    purchases: Number(row.purchases),
    credits: Number(row.credits),
    payments: Number(row.payments),
    costs: Number(row.costs),
    count: Number(row.count),
    recurring: Number(row.recurring),
  }));
}

/**
 * The card entries of some bills with their account, category, subcategory and tags, and `total` (the
 * purchase total of an installment series): a fixed number of queries whatever the number of rows.
 */
export async function billTransactions(em: EntityManager, ctx: CallerContext, cardId: string, billIds: string[]) {
  if (billIds.length === 0) return [];
  const scope = contextSql(ctx, 't');
  const rows = await selectTransactions(
    em,
    `select ${SELECT_COLUMNS},
       case when t.type = 'PARCELLED' and t.connected_transaction_id is not null then
         (select sum(s.amount) from transactions s
          where s.connected_transaction_id = t.connected_transaction_id and s.deleted_at is null)::text
       end as series_total
     from transactions t
     where t.credit_card_id = ? and t.bill_id in (?) and not t.is_bill_payment and t.deleted_at is null and ${scope.sql}
     order by t.date, t.id`,
    [cardId, billIds, ...scope.params],
  );
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const only = <T>(values: Array<T | null>) => [...new Set(values.filter((v): v is T => v !== null))];
  const subcategoryIds = only(rows.map((row) => row.subcategory_id));
  const accountIds = only(rows.map((row) => row.account_id));
  const [categories, subcategories, accounts, tagLinks] = await Promise.all([
    findCategoriesByIds(em, ctx, only(rows.map((row) => row.category_id))),
    subcategoryIds.length ? em.find(SubcategorySchema, { id: { $in: subcategoryIds }, ...visibleWhere(ctx) }) : [],
    accountIds.length ? em.find(AccountSchema, { id: { $in: accountIds } }) : [],
    execute<{ transaction_id: string; tag_id: string }>(
      em,
      'select transaction_id, tag_id from transaction_tags where transaction_id in (?)',
      [ids],
    ),
  ]);
  const tagIds = only(tagLinks.map((link) => link.tag_id));
  const tags = new Map(
    (tagIds.length ? await em.find(TagSchema, { id: { $in: tagIds }, deletedAt: null }) : []).map((tag) => [
      tag.id,
      tagView(tag),
    ]),
  );
  const balances = accounts.length ? await balancesOf(em, accounts) : new Map<string, number>();
  const accountById = new Map(accounts.map((a) => [a.id, accountView(a, balances.get(a.id) ?? 0)]));
  const subById = new Map(subcategories.map((s) => [s.id, subcategoryView(s)]));
  const tagsOf = new Map<string, ReturnType<typeof tagView>[]>();
  for (const link of tagLinks) {
    const tag = tags.get(link.tag_id);
    if (tag) tagsOf.set(link.transaction_id, [...(tagsOf.get(link.transaction_id) ?? []), tag]);
  }
  return rows.map((row) => {
    const seriesTotal = (row as unknown as { series_total: string | null }).series_total;
    return {
      ...transactionView(row),
      account: row.account_id ? (accountById.get(row.account_id) ?? null) : null,
      category: row.category_id ? (categories.get(row.category_id) ?? null) : null,
      subcategory: row.subcategory_id ? (subById.get(row.subcategory_id) ?? null) : null,
      tags: tagsOf.get(row.id) ?? [],
      total: seriesTotal ? Number(seriesTotal) : row.amount,
    };
  });
}
