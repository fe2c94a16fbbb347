import fc from 'fast-check';
import { decimalToCents } from '../../src/domain/open-banking/decimal-cents.ts';

describe('decimal amounts of the institutions in cents', () => {
  it.each([
    ['0.10', 10],
    ['1234567.89', 123456789],
    ['0.01', 1],
    ['100.00', 10000],
    ['90071992547409.91', 9007199254740991],
    ['-12.34', -1234],
    ['1.2', 120],
    ['1.005', 101],
    ['1.0049', 100],
    ['-0.005', -1],
    ['0.0000', 0],
  ])('when the amount is %s, then it is %i cents', (amount, cents) => {
    expect(decimalToCents(amount)).toBe(cents);
  });

  it.each([
    '999999999999999.99',
    '90071992547409.92',
    '',
    '1,00',
    '1.',
    '.5',
    'abc',
    '1e3',
    '12.3.4',
    ' 1.00',
    'NaN',
    '1234567890123456.00',
  ])('when the amount is %j, then it is refused', (amount) => {
    expect(decimalToCents(amount)).toBeNull();
  });

  it('when any whole number of cents is written with two places, then it comes back exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: BigInt(Number.MAX_SAFE_INTEGER) }), fc.boolean(), (cents, negative) => {
        const text = `${negative ? '-' : ''}${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
        const expected = Number(negative ? -cents : cents);
        expect(decimalToCents(text)).toBe(Object.is(expected, -0) ? 0 : expected);
      }),
    );
  });

  it('when places beyond the second are added, then the cents move by at most one, toward the nearer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 0, max: 99 }), (cents, extra) => {
        const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}${String(extra).padStart(2, '0')}`;
        expect(decimalToCents(text)).toBe(cents + (extra >= 50 ? 1 : 0));
      }),
    );
  });
});
