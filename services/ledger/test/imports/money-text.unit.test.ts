import fc from 'fast-check';
import { parseAmount } from '../../src/domain/statements/money-text.ts';

describe('parseAmount: money text to exact cents', () => {
  it.each([
    ['0.10', 'auto', 10, false],
    ['0,10', 'auto', 10, false],
    ['1234567.89', 'auto', 123_456_789, false],
    ['1234567,89', ',', 123_456_789, false],
    ['1.234,56', 'auto', 123_456, false],
    ['1.234,56', ',', 123_456, false],
    ['1,234.56', 'auto', 123_456, false],
    ['1,234.56', '.', 123_456, false],
    ['-1.234,56', ',', 123_456, true],
    ['R$ 1.234,56', ',', 123_456, false],
    ['(10,00)', ',', 1000, true],
    ['10,00-', ',', 1000, true],
    ['+5', 'auto', 500, false],
    ['10,5', 'auto', 1050, false],
    ['1.234', 'auto', 123_400, false],
    ['1.234', ',', 123_400, false],
    ['1.234.567,89', ',', 123_456_789, false],
    ['  -45.90 ', '.', 4590, true],
  ] as const)('when %s is read with separator %s, then %i cents', (text, separator, cents, negative) => {
    expect(parseAmount(text, separator)).toEqual({ cents, negative });
  });

  it.each([
    ['', 'auto'],
    ['dez reais', 'auto'],
    ['1,234.56', ','],
    ['1.234,56', '.'],
    ['1.5', ','],
    ['1.234.5', 'auto'],
    ['0.123', 'auto'],
    ['--5', 'auto'],
    ['-5-', 'auto'],
    ['1e3', 'auto'],
    ['NaN', 'auto'],
    ['100000000000000000', 'auto'],
  ] as const)('when %p is read with separator %s, then it is not an amount', (text, separator) => {
    expect(parseAmount(text, separator)).toBeNull();
  });

  it('when any cents value is written with either convention, then it reads back exactly', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000_000 }),
        fc.boolean(),
        fc.boolean(),
        (cents, comma, negative) => {
          const whole = String(Math.trunc(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, comma ? '.' : ',');
          const text = `${negative ? '-' : ''}${whole}${comma ? ',' : '.'}${String(cents % 100).padStart(2, '0')}`;
          expect(parseAmount(text, comma ? ',' : '.')).toEqual({ cents, negative });
          expect(parseAmount(text, 'auto')).toEqual({ cents, negative });
        },
      ),
    );
  });

  it('when given arbitrary text, then it answers an amount or null, never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.constantFrom(',', '.', 'auto'), (text, separator) => {
        const parsed = parseAmount(text, separator as ',' | '.' | 'auto');
        if (parsed) expect(Number.isSafeInteger(parsed.cents) && parsed.cents >= 0).toBe(true);
      }),
    );
  });
});
