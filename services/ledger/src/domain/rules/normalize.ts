/**
 * Merchant normalization: the one home of the rule. Rules compare this value, and the SQL function
 * `normalize_merchant_name` behind the generated column `merchant_name_normalized` is built from the
 * character classes exported here (`data-access/merchant-name-sql.ts`); a component test checks both
 * agree on random text; changing this rule needs a new migration that re-creates the function and rewrites
 * the stored values, as 0013 does. Decomposition follows each side's Unicode tables: the ~20 letters that
 * Unicode 16 added with a decomposition (newer than PostgreSQL 15's tables) decompose in Node only. No `lower()`/`unaccent`, so the result never depends on the database locale or
 * on an extension being installed.
 *
 * Steps: Unicode canonical decomposition (NFD, so `São` and `Sa\u0303o` are the same letters), every
 * combining mark removed, A–Z lower-cased, every run of Unicode blanks (U+00A0, U+2000–U+200A, U+3000,
 * tabs, line breaks, …) one space, trimmed.
 */
/** Combining marks (general category M): what accents become after decomposition. */
export const MARK_CLASS = /\p{M}/u;
/** Every Unicode blank (White_Space) plus the zero-width no-break space U+FEFF. */
export const BLANK_CLASS = /[\p{White_Space}\uFEFF]/u;

const MARKS = new RegExp(MARK_CLASS.source, 'gu');
const BLANKS = new RegExp(`${BLANK_CLASS.source}+`, 'gu');

/** Sample letters and what each normalizes to (tests use them as an alphabet). */
export const ACCENTED_AND_UPPER = 'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖòóôõöÙÚÛÜùúûüÇçÑñÝýÿŸABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const PLAIN_LOWER = 'aaaaaaaaaaaaeeeeeeeeiiiiiiiioooooooooouuuuuuuuccnnyyyyabcdefghijklmnopqrstuvwxyz';

/** Lower case, accents removed, runs of blanks as one space, trimmed; null when nothing is left. */
export function normalizeMerchantName(value: string | null | undefined): string | null {
  if (value == null) return null;
  const plain = value
    .normalize('NFD')
    .replace(MARKS, '')
    .replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  const result = plain.replace(BLANKS, ' ').replace(/^ +| +$/g, '');
  return result === '' ? null : result;
}

/** The code points of a one-character class as inclusive ranges (for the SQL twin of the rule). */
export function codePointRanges(oneChar: RegExp): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (!oneChar.test(String.fromCodePoint(cp))) continue;
    const last = ranges.at(-1);
    if (last && last[1] === cp - 1) last[1] = cp;
    else ranges.push([cp, cp]);
  }
  return ranges;
}

/** The CNPJ's digits only; null when it has none. */
export function normalizeCnpj(value: string | null | undefined): string | null {
  if (value == null) return null;
  const digits = value.replace(/[^0-9]/g, '');
  return digits === '' ? null : digits;
}
