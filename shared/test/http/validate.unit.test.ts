import type { Request } from 'express';
import fc from 'fast-check';
import Joi from 'joi';
import { dayInput } from '../../src/contracts/common.ts';
import type { AppError } from '../../src/errors/app-error.ts';
import { MAX_DETAILS, MAX_QUOTED, validateRequest } from '../../src/http/validate.ts';

const schema = Joi.object({ date: dayInput().required(), name: Joi.string().max(10) });

/** The 400 a body gets, as the client reads it. */
function refused(body: unknown): string {
  try {
    validateRequest({ body: schema }, { params: {}, query: {}, body } as unknown as Request);
  } catch (err) {
    return JSON.stringify((err as AppError).toBody());
  }
  throw new Error('accepted');
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('validation errors quote what they refuse once, cut short', () => {
  it('when a field name is 1 MiB long, then the 400 names it once, cut to MAX_QUOTED characters', () => {
    const name = `data${'x'.repeat(1_048_576)}`;
    const answer = refused({ date: '2026-01-01', [name]: 1 });
    expect(answer.length).toBeLessThan(1_000);
    expect(occurrences(answer, name.slice(0, MAX_QUOTED))).toBe(1);
    expect(JSON.parse(answer).details).toEqual([
      { field: `${name.slice(0, MAX_QUOTED)}…`, message: 'campo não é permitido' },
    ]);
  });

  it('when any key or value is sent, then every detail stays within its bound and short names keep their text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), fc.string({ maxLength: 600 }), (key, value) => {
        const body = JSON.parse(refused({ date: value, name: value, [key]: value }));
        for (const detail of body.details) {
          expect(detail.field.length).toBeLessThanOrEqual(MAX_QUOTED + 1);
          expect(detail.message.length).toBeLessThanOrEqual(2 * MAX_QUOTED + 1);
        }
      }),
      { numRuns: 200 },
    );
    expect(JSON.parse(refused({ date: '2026-01-01', name: 'um nome longo' })).details).toEqual([
      { field: 'name', message: 'name deve ter no máximo 10 caracteres' },
    ]);
  });

  it('when a body holds thousands of bad fields, then the 400 lists the first MAX_DETAILS', () => {
    const body = Object.fromEntries(Array.from({ length: 5_000 }, (_, n) => [`campo${n}`, n]));
    const answer = JSON.parse(refused({ date: '2026-01-01', ...body }));
    expect(answer.details).toHaveLength(MAX_DETAILS);
    expect(answer.details[0]).toEqual({ field: 'campo0', message: 'campo0 não é permitido' });
  });
});
