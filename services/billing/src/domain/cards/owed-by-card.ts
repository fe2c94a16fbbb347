import type { LedgerBillingClient } from '@finance/shared/clients/ledger-billing-client';
import type { CallerContext } from '@finance/shared/context/signed-context';
import type { EntityManager } from '@mikro-orm/postgresql';
import { billsOfCards } from '../../data-access/bill-repository.ts';

/**
 * What each card owes: the positive balance of every bill not carried into a later one (future
 * installments included), from one bills query and one ledger call whatever the number of cards.
 */
export async function owedByCard(
  em: EntityManager,
  ledger: LedgerBillingClient,
  ctx: CallerContext,
  cardIds: string[],
): Promise<Map<string, number>> {
  const owed = new Map(cardIds.map((id) => [id, 0]));
  const bills = (await billsOfCards(em, cardIds)).filter((bill) => !bill.rolledOverAt);
  const totals = await ledger.totals(
    ctx,
    bills.map((bill) => bill.id),
  );
  const cardOf = new Map(bills.map((bill) => [bill.id, bill.creditCardId]));
  for (const total of totals) {
    const balance = total.purchases - total.credits - total.payments;
    const cardId = cardOf.get(total.bill_id);
    if (cardId && balance > 0) owed.set(cardId, (owed.get(cardId) ?? 0) + balance);
  }
  return owed;
}
