import { MAX_AMOUNT } from '@finance/shared/contracts/common';

/** How a file writes the decimal point: a comma (`1.234,56`), a dot (`1,234.56`) or either, told by the text. */
export type DecimalSeparator = ',' | '.' | 'auto';

/** A signed amount in cents read from text without floating point, or null when the text is not an amount. */
export interface ParsedAmount {
  cents: number;
  negative: boolean;
}

const AMOUNT = /^([+-])?(\d{1,3}(?:([.,' ])\d{3})*|\d+)(?:([.,])(\d{1,2}))?([+-])?$/;

/**
 * Reads a money amount as Brazilian and international files write it, exactly, in cents: `1.234,56`, `1234,56`,
 * `-10,00`, `1,234.56`, `0.10`, `R$ 1.234,56`, `(10,00)` and `10,00-` (negative), `10,5` (50 cents). With
 * `separator` `auto`, a lone separator followed by one or two digits is the decimal point and one followed by
 * three is a thousands separator (`1.234` is 1234 reais). Null for anything else, beyond R$ 100 billion or with
 * more than two decimals (a value in cents cannot hold them).
 */
export function parseAmount(text: string, separator: DecimalSeparator = 'auto'): ParsedAmount | null {
  let value = text
    .trim()
    .replace(/^R\$\s*/i, '')
    .replace(/\s+/g, '');
  let negative = false;
  if (/^\(.*\)$/.test(value)) {
    negative = true;
    value = value.slice(1, -1).replace(/^R\$/i, '');
  }
  const match = AMOUNT.exec(value);
  if (!match) return null;
  const [, lead, integerPart, thousands, decimalMark, decimals, trail] = match;
  if (lead && trail) return null;
  if (separator !== 'auto') {
    if (decimalMark && decimalMark !== separator) {
      // `1.234` with a comma decimal: a thousands group, not a fraction
      if (decimals?.length !== 3) return null;
    }
    if (thousands && thousands === separator) return null;
  }
  if (thousands && decimalMark && thousands === decimalMark) return null;
  // `0.123` is no thousands group: a fraction of three digits, which cents cannot hold
  if (thousands && integerPart.startsWith('0')) return null;
  const whole = integerPart.replace(/[.,' ]/g, '');
  const fraction = (decimals ?? '').padEnd(2, '0');
  const cents = Number(whole) * 100 + Number(fraction);
  if (!Number.isSafeInteger(cents) || cents > MAX_AMOUNT) return null;
  return { cents, negative: negative || lead === '-' || trail === '-' };
}
