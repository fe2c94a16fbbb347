import { createHash } from 'node:crypto';
import { AppError } from '@finance/shared/errors/app-error';
import fc from 'fast-check';
import { chooseMatchFields, criteriaOf, fingerprintOf, matchValues } from '../../src/domain/rules/rule-criteria.ts';

const personal = { userId: '0190a1b2-0000-7000-8000-000000000001', profileId: null, business: false, keyId: null };
const company = { ...personal, profileId: '0190a1b2-0000-7000-8000-0000000000cc' };

describe('rule criteria and fingerprint', () => {
  const criteria = criteriaOf({ merchant_name: ' Açougue  BOM ', merchant_cnpj: '12.345.678/0001-90' });

  it('when a transaction has merchant data, then its criteria carry the value and the normalized value', () => {
    expect(criteria).toEqual([
      { field: 'merchant_name', normalized: 'acougue bom', value: ' Açougue  BOM ' },
      { field: 'merchant_cnpj', normalized: '12345678000190', value: '12.345.678/0001-90' },
    ]);
    expect(criteriaOf({ merchant_name: '  ', merchant_cnpj: null })).toEqual([]);
  });

  it('when match_fields are chosen, then they default to the available ones in a fixed order; unavailable is 400', () => {
    expect(chooseMatchFields(criteria, undefined)).toEqual(['merchant_name', 'merchant_cnpj']);
    expect(chooseMatchFields(criteria, ['merchant_cnpj', 'merchant_name'])).toEqual(['merchant_name', 'merchant_cnpj']);
    const nameOnly = criteriaOf({ merchant_name: 'Loja', merchant_cnpj: null });
    expect(() => chooseMatchFields(nameOnly, ['merchant_cnpj'])).toThrow(AppError);
    expect(matchValues(criteria, ['merchant_cnpj'])).toEqual({
      match_merchant_name: null,
      match_merchant_cnpj: '12345678000190',
    });
  });

  it('when a fingerprint is made, then it is sha256 hex of context, direction and matched normalized values', () => {
    const fingerprint = fingerprintOf(personal, true, criteria, ['merchant_name']);
    const expected = createHash('sha256')
      .update(JSON.stringify([`user:${personal.userId}`, 'expense', [['merchant_name', 'acougue bom']]]))
      .digest('hex');
    expect(fingerprint).toBe(`sha256:${expected}`);
    expect(fingerprintOf(personal, false, criteria, ['merchant_name'])).not.toBe(fingerprint);
    expect(fingerprintOf(company, true, criteria, ['merchant_name'])).not.toBe(fingerprint);
    expect(fingerprintOf(personal, true, criteria, ['merchant_name', 'merchant_cnpj'])).not.toBe(fingerprint);
  });

  it('when two names normalize alike, then their fingerprints are equal; when not, they differ', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (a, b) => {
        const ca = criteriaOf({ merchant_name: a, merchant_cnpj: null });
        const cb = criteriaOf({ merchant_name: b, merchant_cnpj: null });
        fc.pre(ca.length === 1 && cb.length === 1);
        const same = ca[0].normalized === cb[0].normalized;
        const fa = fingerprintOf(personal, true, ca, ['merchant_name']);
        const fb = fingerprintOf(personal, true, cb, ['merchant_name']);
        expect(fa === fb).toBe(same);
        expect(fa).toMatch(/^sha256:[0-9a-f]{64}$/);
      }),
    );
  });
});
