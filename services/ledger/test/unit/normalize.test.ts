import fc from 'fast-check';
import {
  ACCENTED_AND_UPPER,
  normalizeCnpj,
  normalizeMerchantName,
  PLAIN_LOWER,
} from '../../src/domain/rules/normalize.ts';

describe('merchant normalization', () => {
  it('when a name has upper case, accents and extra blanks, then it is lower case, plain and single-spaced', () => {
    expect(normalizeMerchantName('  PADARIA  São   JOÃO\tLtda ')).toBe('padaria sao joao ltda');
    expect(normalizeMerchantName('Açaí Ñandú ÿ Ÿ')).toBe('acai nandu y y');
    expect(normalizeMerchantName('Café-Bar Nº 1')).toBe('cafe-bar nº 1');
  });

  it('when a name or CNPJ is blank or missing, then it normalizes to null', () => {
    expect(normalizeMerchantName(' \t ')).toBeNull();
    expect(normalizeMerchantName(null)).toBeNull();
    expect(normalizeMerchantName(undefined)).toBeNull();
    expect(normalizeCnpj('--./')).toBeNull();
    expect(normalizeCnpj(null)).toBeNull();
  });

  it('when a CNPJ is formatted, then only its digits remain', () => {
    expect(normalizeCnpj('12.345.678/0001-90')).toBe('12345678000190');
    expect(normalizeCnpj(' 12345678000190 ')).toBe('12345678000190');
  });

  it('when the map is read, then each accented or upper-case letter has exactly one plain lower-case letter', () => {
    expect([...ACCENTED_AND_UPPER]).toHaveLength([...PLAIN_LOWER].length);
    expect(PLAIN_LOWER).toMatch(/^[a-z]+$/);
  });

  it('when any text is normalized, then the result is idempotent, trimmed and free of mapped letters', () => {
    const mapped = fc.constantFrom(...ACCENTED_AND_UPPER, ...'abc xyz  \t-.');
    const text = fc.oneof(
      fc.string(),
      fc.array(mapped).map((chars) => chars.join('')),
    );
    fc.assert(
      fc.property(text, (value) => {
        const once = normalizeMerchantName(value);
        if (once === null) return;
        expect(normalizeMerchantName(once)).toBe(once);
        expect(once).toBe(once.trim());
        expect(once).not.toMatch(/ {2}/);
        for (const char of ACCENTED_AND_UPPER) expect(once.includes(char)).toBe(false);
      }),
    );
  });

  it('when any text is reduced to CNPJ digits, then only digits in their order remain', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const digits = normalizeCnpj(value);
        expect(digits ?? '').toBe([...value].filter((c) => c >= '0' && c <= '9').join(''));
      }),
    );
  });
});
