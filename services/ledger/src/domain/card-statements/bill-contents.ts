import { type CalendarDate, toIsoMidnight } from '@finance/shared/calendar';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { BillTotals } from '@finance/shared/contracts/internal/ledger-for-billing';
import type { EntityManager } from '@mikro-orm/postgresql';
import { balancesOf } from '../../data-access/account-repository.ts';
import { billTotalRows, billTransactionRows, tagLinksOf } from '../../data-access/bill-contents-reads.ts';
import { AccountSchema } from '../../data-access/entities/account.ts';
import { SubcategorySchema } from '../../data-access/entities/subcategory.ts';
import { TagSchema } from '../../data-access/entities/tag.ts';
import { visibleWhere } from '../../data-access/reference-repository.ts';
import { accountView } from '../accounts/account-view.ts';
import { findCategoriesByIds } from '../references/category-lookup.ts';
import { subcategoryView } from '../references/category-view.ts';
import { tagView } from '../tags/manage-tags.ts';

/**
 * Per-bill sums of live entries of the context, bill payments apart, and `recurring` (the signed net of
 * recurrence occurrences, which a card holds only once their bill is open); one grouped query.
 */
export async function billTotals(em: EntityManager, ctx: CallerContext, billIds: string[]): Promise<BillTotals[]> {
  if (billIds.length === 0) return [];
  const rows = await billTotalRows(em, ctx, billIds);
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

const COMMA = Buffer.from(',');
const NO_TAGS = Buffer.from(',"tags":[]');

/**
 * The card entries of some bills as UTF-8 JSON, the records joined by commas (no brackets), each with its
 * account, category, subcategory and tags, `total` (the purchase total of an installment series) and the bill
 * extras of docs/decisions.md §8 but `credit_card` (billing adds it): a fixed number of queries whatever the
 * number of rows. PostgreSQL writes each record (`VIEW_JSON`); each reference's record is serialized and encoded
 * once and copied into every row that names it, and the rows are encoded one by one into their place: no
 * megabyte string is built, flattened and encoded again.
 */
export async function billTransactions(
  em: EntityManager,
  ctx: CallerContext,
  cardId: string,
  billIds: string[],
  closingDate: CalendarDate,
): Promise<Buffer> {
  if (billIds.length === 0) return Buffer.alloc(0);
  const rows = await billTransactionRows(em, ctx, cardId, billIds);
  if (rows.length === 0) return Buffer.alloc(0);
  const ids = rows.map((row) => row.id);
  const only = <T>(values: Array<T | null>) => [...new Set(values.filter((v): v is T => v !== null))];
  const subcategoryIds = only(rows.map((row) => row.subcategory_id));
  const accountIds = only(rows.map((row) => row.account_id));
  const [categories, subcategories, accounts, tagLinks] = await Promise.all([
    findCategoriesByIds(em, ctx, only(rows.map((row) => row.category_id))),
    subcategoryIds.length ? em.find(SubcategorySchema, { id: { $in: subcategoryIds }, ...visibleWhere(ctx) }) : [],
    accountIds.length ? em.find(AccountSchema, { id: { $in: accountIds } }) : [],
    tagLinksOf(em, ids),
  ]);
  const tagIds = only(tagLinks.map((link) => link.tag_id));
  const tags = new Map(
    (tagIds.length ? await em.find(TagSchema, { id: { $in: tagIds }, deletedAt: null }) : []).map((tag) => [
      tag.id,
      JSON.stringify(tagView(tag)),
    ]),
  );
  const balances = accounts.length ? await balancesOf(em, accounts) : new Map<string, number>();
  // `,"key":record` of each reference, encoded once, looked up by id (`null` for none or an unknown one)
  const field = (key: string, records: Iterable<[string, unknown]>) => {
    const encoded = new Map(
      [...records].map(([id, record]) => [id, Buffer.from(`,"${key}":${JSON.stringify(record)}`)]),
    );
    const absent = Buffer.from(`,"${key}":null`);
    return (id: string | null) => (id ? (encoded.get(id) ?? absent) : absent);
  };
  const accountOf = field(
    'account',
    accounts.map((a) => [a.id, accountView(a, balances.get(a.id) ?? 0)]),
  );
  const categoryOf = field('category', categories);
  const subcategoryOf = field(
    'subcategory',
    subcategories.map((s) => [s.id, subcategoryView(s)]),
  );
  const tagsOf = new Map<string, string[]>();
  for (const link of tagLinks) {
    const tag = tags.get(link.tag_id);
    if (tag) tagsOf.set(link.transaction_id, [...(tagsOf.get(link.transaction_id) ?? []), tag]);
  }
  const closing = toIsoMidnight(closingDate);
  const pieces: Buffer[] = [];
  // the record's fields, then the bill's, in the order the spec's bill transaction lists them
  for (const row of rows) {
    if (pieces.length) pieces.push(COMMA);
    const rowTags = tagsOf.get(row.id);
    pieces.push(
      Buffer.from(row.view).subarray(0, -1),
      accountOf(row.account_id),
      categoryOf(row.category_id),
      subcategoryOf(row.subcategory_id),
      rowTags ? Buffer.from(`,"tags":[${rowTags.join(',')}]`) : NO_TAGS,
      Buffer.from(
        `,"total":${row.total},"projected_date":${JSON.stringify(row.billed_at ?? closing)}` +
          `,"projected_installment":${row.installment_number ?? null},"reconciled_with":null,"reconciles":[]}`,
      ),
    );
  }
  return Buffer.concat(pieces);
}
