import fc from 'fast-check';
import { isValidCpf } from '../src/cpf.ts';

const digit = fc.integer({ min: 0, max: 9 });

describe('CPF check digits', () => {
  it('when CPFs issued to people are checked, then they pass; the test customers of Banco Sandbox too', () => {
    for (const cpf of ['76109277673', '52998224725', '12345678909', '11144477735'])
      expect([cpf, isValidCpf(cpf)]).toEqual([cpf, true]);
  });

  it('when the check digits are wrong, the digits all equal or the length or characters off, then it fails', () => {
    for (const cpf of ['12345678900', '00000000000', '99999999999', '7610927767', '761092776730', '7610927767a', ''])
      expect([cpf, isValidCpf(cpf)]).toEqual([cpf, false]);
  });

  it('when any nine digits are given, then exactly one pair of check digits completes them (none for equal digits)', () => {
    fc.assert(
      fc.property(fc.array(digit, { minLength: 9, maxLength: 9 }), (nine) => {
        const prefix = nine.join('');
        const valid = Array.from({ length: 100 }, (_, n) => `${prefix}${String(n).padStart(2, '0')}`).filter(
          isValidCpf,
        );
        expect(valid).toHaveLength(/^(\d)\1{8}$/.test(prefix) ? 0 : 1);
      }),
      { numRuns: 300 },
    );
  });
});
