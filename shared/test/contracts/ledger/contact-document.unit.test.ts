import fc from 'fast-check';
import type Joi from 'joi';
import { businessRoutes, DOCUMENT_INPUT } from '../../../src/contracts/ledger/business.ts';
import { routeById } from '../../../src/contracts/route.ts';

describe('contact document: the documented pattern is what joi takes', () => {
  const body = routeById(businessRoutes, 'createContact').body as Joi.ObjectSchema;
  const document = body.extract('document');

  it('when any text of digits, punctuation and spaces is tried, then the pattern and joi agree', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.constantFrom('0', '1', '9', '.', '-', '/', ' ', '\t', 'a', '_'), { maxLength: 22 })
          .map((chars) => chars.join('')),
        (text) => {
          expect({ text, pattern: DOCUMENT_INPUT.test(text) }).toEqual({
            text,
            pattern: document.validate(text).error === undefined,
          });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('when a punctuated CNPJ is sent, then both take it', () => {
    expect(DOCUMENT_INPUT.test('12.345.678/0001-95')).toBe(true);
    expect(document.validate('12.345.678/0001-95').value).toBe('12345678000195');
  });
});
