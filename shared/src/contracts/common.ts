import Joi from 'joi';
import { parseCalendarDate } from '../calendar.ts';
import { ISO_4217_CURRENCIES } from '../currencies.ts';

/** Building blocks shared by every contract, so a field means the same everywhere. */
export const uuid = () => Joi.string().guid({ version: ['uuidv4', 'uuidv7'] });
export const anyUuid = () => Joi.string().guid();
export const MAX_AMOUNT = 10_000_000_000_000;
export const cents = () => Joi.number().integer().strict();
export const positiveCents = () => cents().min(1).max(MAX_AMOUNT);
export const calendarDate = () => Joi.string().pattern(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');
/** `YYYY-MM-DD` or ISO 8601 date-time, as written (the building block of `dayInput`). */
export const dateInput = () =>
  Joi.string().pattern(
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/,
    'YYYY-MM-DD or ISO 8601',
  );
/**
 * The one type of every date input: `YYYY-MM-DD` or ISO 8601 date-time, handed on as the calendar day as
 * written (`2026-03-10T23:30:00-03:00` is 2026-03-10: neither the offset nor the server's zone moves it);
 * a day that does not exist (2026-02-30) is 400.
 */
export const dayInput = (range?: { from: string; to: string }) =>
  dateInput()
    .custom((value: string, helpers) => {
      const day = parseCalendarDate(value);
      if (day === null) return helpers.message({ custom: '{{#label}} não é uma data válida' });
      if (range && (day < range.from || day > range.to)) {
        return helpers.message({ custom: `{{#label}} deve estar entre ${range.from} e ${range.to}` });
      }
      return day;
    })
    .description('`YYYY-MM-DD` or ISO 8601 date-time; the calendar day as written is kept');
/** Days a bank feed or the yield report may name: date arithmetic around them (bills, periods) stays in range. */
export const BANK_DAY_RANGE = { from: '1900-01-01', to: '2999-12-31' } as const;
/** A date input (`dayInput`: ISO 8601 too, the day as written kept) within BANK_DAY_RANGE. */
export const bankDay = () => dayInput(BANK_DAY_RANGE);
export const timestamp = () => Joi.string().isoDate().description('ISO 8601 UTC with milliseconds');
export const nullableTimestamp = () => timestamp().allow(null);
/** An ISO 4217 code of a currency in circulation (`brl` is taken as BRL; `ABC`, `NAN` are 400). */
export const currencyCode = () =>
  Joi.string()
    .uppercase()
    .custom((value: string, helpers) =>
      ISO_4217_CURRENCIES.has(value)
        ? value
        : helpers.message({ custom: '{{#label}} deve ser um código de moeda ISO 4217 (ex.: BRL, USD, EUR)' }),
    );
export const colorString = () => Joi.string().pattern(/^#[0-9a-fA-F]{6}$/, 'hex colour');

export const idParams = Joi.object<{ id: string }>({ id: anyUuid().required() });

/** A listing's page request: `limit` (default 50) rows after the row the opaque `cursor` names. */
export interface PageQuery {
  limit: number;
  cursor?: string;
}

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

/** A report's period: both days required and inclusive, as validated calendar days (`YYYY-MM-DD`). */
export interface PeriodQuery {
  start_date: string;
  end_date: string;
}
