import { addDays } from '@finance/shared/calendar';
import { buildCustomers } from '../../sandbox/src/customers.ts';

const DUMMY_DAY = '0001-01-01';
const FIRST = '2027-01-01';

/**
 * Banco Sandbox's card on every day of a year and a leap day: twelve closed bills, and the purchases since the last
 * closing (none on the closing day itself, the 3rd) carry the documents' dummy `billPostDate`, never a bill's.
 */
describe('Banco Sandbox’s card, whatever day it is', () => {
  const days = [...Array.from({ length: 366 }, (_, i) => addDays(FIRST, i)), '2028-02-29'];

  it.each(days)('on %s, then the open purchases are the ones since the last closing, on the dummy day', (today) => {
    const [card] = buildCustomers(today, 0)[0].cards;
    expect(card.bills).toHaveLength(12);
    const lastClosing = card.bills.at(-1)!.closingDate;
    expect(lastClosing <= today).toBe(true);
    expect(addDays(lastClosing, 31) > today).toBe(true);
    for (const bill of card.bills)
      for (const tx of bill.transactions) expect([tx.billId, tx.billPostDate]).toEqual([bill.billId, bill.closingDate]);
    for (const tx of card.open) {
      expect(tx.billId).toBeUndefined();
      expect(tx.billPostDate).toBe(DUMMY_DAY);
      expect(tx.transactionDateTime.slice(0, 10) >= lastClosing).toBe(true);
      expect(tx.transactionDateTime.slice(0, 10) < today).toBe(true);
    }
    // a purchase every sixth day from the closing: some are open unless the bill closed today
    expect(card.open.length > 0).toBe(lastClosing < today);
  });
});
