import { addDays, addMonthsClamped, type CalendarDate, todayUtc } from '@finance/shared/calendar';
import type { LedgerBillingClient, PreviousBalanceEntry } from '@finance/shared/clients/ledger-billing-client';
import { todayIn } from '@finance/shared/clock';
import type { CallerContext } from '@finance/shared/context/signed-context';
import { isPastDue, latestPastDueDate } from '@finance/shared/holidays';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type BillRow, billsDueForRollover, markRolledOver } from '../../data-access/bill-repository.ts';
import { CreditCardSchema } from '../../data-access/entities/credit-card.ts';
import { ensureBills } from './ensure-bills.ts';

const BATCH = 500;

function byContext(bills: BillRow[]): Map<string, BillRow[]> {
  const groups = new Map<string, BillRow[]>();
  for (const bill of bills) {
    const key = `${bill.userId}:${bill.profileId ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), bill]);
  }
  return groups;
}

/**
 * Carries the unpaid remainder of every bill past its due date (moved to the next business day when it
 * falls on a weekend or holiday) into the next bill as an
 * `is_previous_balance` entry. "Past due" is by the context's day: `at` read in the context's time zone (a
 * calendar date acts as today for every context). The ledger keys entries by source bill, so a rerun (or a
 * crash before the bill is marked) never creates a second one. Returns the number of entries asked for.
 */
export async function rollOverBills(em: EntityManager, ledger: LedgerBillingClient, at: CalendarDate | Date) {
  let carried = 0;
  const fixed = typeof at === 'string' ? at : null;
  // no time zone is a day ahead of UTC: bills past due nowhere yet are not even read
  const dueBefore = addDays(latestPastDueDate(fixed ?? addDays(todayUtc(at as Date), 1)), 1);
  // bills not yet past due in their context's day (a zone behind UTC) wait for a later run
  const skipped: string[] = [];
  for (;;) {
    const due = await billsDueForRollover(em, dueBefore, BATCH, skipped);
    if (due.length === 0) return { carried };
    for (const group of byContext(due).values()) {
      const ctx: CallerContext = {
        userId: group[0].userId,
        profileId: group[0].profileId,
        business: false,
        keyId: null,
      };
      const today = fixed ?? todayIn(await ledger.timeZone(ctx), at as Date);
      const bills = group.filter((bill) => isPastDue(bill.dueDate, today));
      skipped.push(...group.filter((bill) => !bills.includes(bill)).map((bill) => bill.id));
      if (bills.length === 0) continue;
      const totals = new Map(
        (
          await ledger.totals(
            ctx,
            bills.map((bill) => bill.id),
          )
        ).map((t) => [t.bill_id, t]),
      );
      const owing = bills.filter((bill) => {
        const t = totals.get(bill.id);
        return t && t.purchases - t.credits - t.payments > 0;
      });
      const entries: PreviousBalanceEntry[] = [];
      const cards = await em.find(CreditCardSchema, { id: { $in: [...new Set(owing.map((b) => b.creditCardId))] } });
      for (const card of cards) {
        const sources = owing.filter((bill) => bill.creditCardId === card.id);
        const next = await em.transactional((tx) =>
          ensureBills(
            tx,
            card,
            sources.map((bill) => addMonthsClamped(bill.referenceMonth, 1)),
          ),
        );
        for (const source of sources) {
          const t = totals.get(source.id)!;
          const target = next.rows.get(addMonthsClamped(source.referenceMonth, 1))!;
          entries.push({
            source_bill_id: source.id,
            bill_id: target.id,
            credit_card_id: card.id,
            amount: t.purchases - t.credits - t.payments,
            date: source.closingDate,
            billed_at: target.closingDate,
            title: 'Saldo anterior da fatura',
          });
        }
      }
      await ledger.addPreviousBalances(ctx, entries);
      carried += entries.length;
      await markRolledOver(
        em,
        bills.map((bill) => bill.id),
        entries.map((entry) => ({ id: entry.source_bill_id, carried_to: entry.bill_id })),
      );
    }
  }
}
