import Joi from 'joi';
import { parseCalendarDate } from '../calendar.ts';

/** Building blocks shared by every contract, so a field means the same everywhere. */
export const uuid = () => Joi.string().guid({ version: ['uuidv4', 'uuidv7'] });
export const anyUuid = () => Joi.string().guid();
export const MAX_AMOUNT = 10_000_000_000_000;
export const cents = () => Joi.number().integer().strict();
export const positiveCents = () => cents().min(1).max(MAX_AMOUNT);
export const calendarDate = () => Joi.string().pattern(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');
/** `YYYY-MM-DD` or ISO 8601 date-time; the calendar date as written is kept. */
export const dateInput = () =>
  Joi.string().pattern(
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/,
    'YYYY-MM-DD or ISO 8601',
  );
/** Days a bank feed or the yield report may name: date arithmetic around them (bills, periods) stays in range. */
export const BANK_DAY_RANGE = { from: '1900-01-01', to: '2999-12-31' } as const;
/** A real calendar day (2026-02-30 is 400) within BANK_DAY_RANGE; `withTime` also takes ISO 8601, keeping the day as written. */
export const bankDay = (withTime = false) =>
  (withTime ? dateInput() : calendarDate()).custom((value: string, helpers) => {
    const day = parseCalendarDate(value);
    if (day === null || (!withTime && day !== value)) return helpers.error('any.invalid');
    if (day < BANK_DAY_RANGE.from || day > BANK_DAY_RANGE.to) {
      return helpers.message({ custom: `{{#label}} deve estar entre ${BANK_DAY_RANGE.from} e ${BANK_DAY_RANGE.to}` });
    }
    return value;
  });
export const timestamp = () => Joi.string().isoDate().description('ISO 8601 UTC with milliseconds');
export const nullableTimestamp = () => timestamp().allow(null);
export const colorString = () => Joi.string().pattern(/^#[0-9a-fA-F]{6}$/, 'hex colour');

export const idParams = Joi.object({ id: anyUuid().required() });

export const listQuery = {
  limit: Joi.number().integer().min(1).max(500).default(50),
  cursor: Joi.string().max(512),
};

export const errorSchema = Joi.object({
  message: Joi.string().required(),
  statusCode: Joi.number().integer().required(),
  error: Joi.string().required(),
  details: Joi.array().items(Joi.object({ field: Joi.string(), message: Joi.string() })),
}).label('Error');

export const page = (item: Joi.Schema, label: string) =>
  Joi.object({ data: Joi.array().items(item).required(), next_cursor: Joi.string().allow(null).required() }).label(
    label,
  );

export const ownership = {
  profile_id: anyUuid().allow(null).required(),
  user_id: anyUuid().required(),
  createdAt: timestamp().required(),
  updatedAt: timestamp().required(),
};
