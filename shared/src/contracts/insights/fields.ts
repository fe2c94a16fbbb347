import { dayInput } from '../common.ts';

/** A real calendar day, `YYYY-MM-DD` or ISO 8601 keeping the day as written (2026-02-30 is 400). */
export const validDay = () => dayInput();
