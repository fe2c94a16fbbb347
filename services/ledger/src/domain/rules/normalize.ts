/**
 * Merchant normalization shared by rules and the SQL generated columns of migration 0008
 * (`normalize_merchant_name`, `normalize_cnpj`): both must give the same answer for every input.
 * A fixed character map instead of `lower()`/`unaccent`, so the result never depends on the
 * database locale or on an extension being installed.
 */
export const ACCENTED_AND_UPPER = 'ÀÁÂÃÄÅàáâãäåÈÉÊËèéêëÌÍÎÏìíîïÒÓÔÕÖòóôõöÙÚÛÜùúûüÇçÑñÝýÿŸABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const PLAIN_LOWER = 'aaaaaaaaaaaaeeeeeeeeiiiiiiiioooooooooouuuuuuuuccnnyyyyabcdefghijklmnopqrstuvwxyz';

const MAP = new Map([...ACCENTED_AND_UPPER].map((char, index) => [char, PLAIN_LOWER[index]]));

/** Lower case, accents removed, runs of blanks as one space, trimmed; null when nothing is left. */
export function normalizeMerchantName(value: string | null | undefined): string | null {
  if (value == null) return null;
  const mapped = Array.from(value, (char) => MAP.get(char) ?? char).join('');
  const result = mapped.replace(/[ \t\n\r\f\v]+/g, ' ').replace(/^ +| +$/g, '');
  return result === '' ? null : result;
}

/** The CNPJ's digits only; null when it has none. */
export function normalizeCnpj(value: string | null | undefined): string | null {
  if (value == null) return null;
  const digits = value.replace(/[^0-9]/g, '');
  return digits === '' ? null : digits;
}
