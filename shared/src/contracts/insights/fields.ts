import { parseCalendarDate } from '../../calendar.ts';
import { calendarDate } from '../common.ts';

/** A real calendar day written `YYYY-MM-DD` (2026-02-30 is 400). */
export const validDay = () =>
  calendarDate().custom((value: string, helpers) =>
    parseCalendarDate(value) === value ? value : helpers.error('any.invalid'),
  );
