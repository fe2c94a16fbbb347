import { type CalendarDate, toIsoMidnight } from '@finance/shared/calendar';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { BillTotals } from '@finance/shared/contracts/internal/ledger-for-billing';
import type { EntityManager } from '@mikro-orm/postgresql';
import { balancesOf } from '../../data-access/account-repository.ts';
import {
  billReferenceIds,
  billTagLinks,
  billTotalRows,
  forEachBillRow,
} from '../../data-access/bill-contents-reads.ts';
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

/** How much JSON text the rows of a bill gather before it is encoded as one piece of the answer. */
const PIECE_CHARS = 64 * 1024;

/**
 * The card entries of some bills as UTF-8 JSON, given to `write` in pieces as they are made, the records joined
 * by commas (no brackets), each the whole record a bill shows: its account, category, subcategory and tags,
 * `total` (the purchase total of an installment series), the card's record (`card`, as billing sent it) and the
 * bill extras of docs/decisions.md §8. A fixed number of queries whatever the number of rows. The references are read first and serialized once each; then
 * PostgreSQL writes each record (`VIEW_JSON`) and every row, as it arrives, is completed with them and gathered
 * into the piece being built: the rows' text and each piece die young, and the bytes are encoded once, never
 * copied again.
 */
export async function billTransactions(
  em: EntityManager,
  ctx: CallerContext,
  cardId: string,
  billIds: string[],
  closingDate: CalendarDate,
  card: Record<string, unknown>,
  write: (piece: Buffer) => void,
): Promise<void> {
  if (billIds.length === 0) return;
  const [ids, tagLinks] = await Promise.all([
    billReferenceIds(em, ctx, cardId, billIds),
    billTagLinks(em, ctx, cardId, billIds),
  ]);
  const tagIds = [...new Set(tagLinks.map((link) => link.tag_id))];
  const [categories, subcategories, accounts, tagRecords] = await Promise.all([
    findCategoriesByIds(em, ctx, ids.category_ids),
    ids.subcategory_ids.length
      ? em.find(SubcategorySchema, { id: { $in: ids.subcategory_ids }, ...visibleWhere(ctx) })
      : [],
    ids.account_ids.length ? em.find(AccountSchema, { id: { $in: ids.account_ids } }) : [],
    tagIds.length ? em.find(TagSchema, { id: { $in: tagIds }, deletedAt: null }) : [],
  ]);
  const balances = accounts.length ? await balancesOf(em, accounts) : new Map<string, number>();
  // `,"key":record` of each reference, serialized once, looked up by id (`null` for none or an unknown one)
  const field = (key: string, records: Iterable<[string, unknown]>) => {
    const serialized = new Map([...records].map(([id, record]) => [id, `,"${key}":${JSON.stringify(record)}`]));
    const absent = `,"${key}":null`;
    return (id: string | null) => (id ? (serialized.get(id) ?? absent) : absent);
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
  const tags = new Map(tagRecords.map((tag) => [tag.id, JSON.stringify(tagView(tag))]));
  const tagsOf = new Map<string, string[]>();
  for (const link of tagLinks) {
    const tag = tags.get(link.tag_id);
    if (tag) tagsOf.set(link.transaction_id, [...(tagsOf.get(link.transaction_id) ?? []), tag]);
  }
  const cardField = `,"credit_card":${JSON.stringify(card)}`;
  const closing = toIsoMidnight(closingDate);
  let first = true;
  let gathered: string[] = [];
  let gatheredChars = 0;
  const encodeGathered = () => {
    write(Buffer.from(gathered.join('')));
    gathered = [];
    gatheredChars = 0;
  };
  await forEachBillRow(em, ctx, cardId, billIds, (row) => {
    // the record's fields (PostgreSQL's object, its closing brace left out), then the bill's, in the order the
    // spec's bill transaction lists them
    const text =
      `${first ? '' : ','}${row.view.slice(0, -1)}` +
      `${accountOf(row.account_id)}${categoryOf(row.category_id)}${subcategoryOf(row.subcategory_id)}` +
      `,"tags":[${tagsOf.get(row.id)?.join(',') ?? ''}]` +
      `,"total":${row.total}${cardField},"projected_date":${JSON.stringify(row.billed_at ?? closing)}` +
      `,"projected_installment":${row.installment_number ?? null},"reconciled_with":null,"reconciles":[]}`;
    first = false;
    gathered.push(text);
    gatheredChars += text.length;
    if (gatheredChars >= PIECE_CHARS) encodeGathered();
  });
  if (gatheredChars) encodeGathered();
}
