import fc from 'fast-check';
import { aroundItems } from '../../src/data-access/changed-rows-sql.ts';

const item = fc.record({
  id: fc.uuid(),
  date: fc.constant('2026-11-24'),
  amount: fc.integer({ min: 1, max: 1_000_000_000 }),
  is_expense: fc.boolean(),
  category_id: fc.option(fc.uuid(), { nil: null }),
  subcategory_id: fc.option(fc.uuid(), { nil: null }),
  type: fc.constantFrom('EXPENSE', 'INCOME', 'TRANSFER'),
});
// strings that look like the cut, so only escaping keeps them apart from the event's own key
const tricky = fc.oneof(fc.string(), fc.constant('"transactions":[]'), fc.constant('{"data":{"transactions":[]}}'));

describe('a transaction.changed payload cut around its items', () => {
  it('when items are put between its head and tail, then the text is the payload with those items', () => {
    fc.assert(
      fc.property(tricky, tricky, fc.array(item, { maxLength: 20 }), (userId, traceparent, items) => {
        const payload = {
          event_id: 'e',
          type: 'transaction.changed',
          context: { user_id: userId, profile_id: null },
          data: { change: 'updated', transactions: [] },
          traceparent,
        };
        const { head, tail } = aroundItems(payload);
        expect(JSON.parse(head + JSON.stringify(items) + tail)).toEqual({
          ...payload,
          data: { change: 'updated', transactions: items },
        });
      }),
    );
  });

  it('when the payload already has items, then it is refused rather than cut in the wrong place', () => {
    const payload = { data: { change: 'updated', transactions: [{ id: 'x' }] } };
    expect(() => aroundItems(payload)).toThrow('a transaction.changed payload with no items was expected');
  });
});
