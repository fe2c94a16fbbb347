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

  it('when the sample letters are normalized, then each accented or upper-case letter becomes its plain lower-case one', () => {
    expect([...ACCENTED_AND_UPPER]).toHaveLength([...PLAIN_LOWER].length);
    expect([...ACCENTED_AND_UPPER].map((char) => normalizeMerchantName(char)).join('')).toBe(PLAIN_LOWER);
  });

  it('when a name is sent with combining accents (NFD), then it normalizes like the composed spelling', () => {
    expect(normalizeMerchantName('Sa\u0303o Joa\u0303o')).toBe('sao joao');
    expect(normalizeMerchantName('SÃO JOÃO')).toBe('sao joao');
    expect(normalizeMerchantName('CAFE\u0301 C\u0327')).toBe('cafe c');
  });

  it('when a name holds Unicode blanks (no-break, thin, ideographic), then each run is one space', () => {
    expect(normalizeMerchantName('POSTO\u00a0IPIRANGA\u2009\u3000CENTRO\u202f')).toBe('posto ipiranga centro');
    expect(normalizeMerchantName('\ufeff\u00a0')).toBeNull();
  });

  it('when any text is written composed or decomposed, with any blanks, then both normalize alike and keep no mark or odd blank', () => {
    const blank = fc.constantFrom(' ', '\u00a0', '\u2003', '\u3000', '\t', '\u202f', '\u2028');
    const part = fc.oneof(fc.string({ unit: 'grapheme' }), fc.constantFrom(...ACCENTED_AND_UPPER), blank);
    fc.assert(
      fc.property(fc.array(part, { maxLength: 20 }), (parts) => {
        const text = parts.join('');
        const composed = normalizeMerchantName(text.normalize('NFC'));
        expect(normalizeMerchantName(text.normalize('NFD'))).toBe(composed);
        if (composed === null) return;
        expect(composed).not.toMatch(/\p{M}/u);
        expect(composed).not.toMatch(/[\p{White_Space}\ufeff]{2}|[^\S ]/u);
      }),
    );
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
