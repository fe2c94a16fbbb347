const DECIMAL = /^(-?)(\d{1,15})(?:\.(\d{1,10}))?$/;

/**
 * An Open Finance amount (`"1234567.89"`, up to 15 integer digits and up to 4 decimals, some families 10) in
 * integer cents, on the digits alone: no floating point ever touches it. Places past the second round half
 * away from zero (`"0.005"` → 1, `"-0.005"` → -1). Anything else, or a number of cents past 2^53, is null.
 */
export function decimalToCents(amount: string): number | null {
  const match = DECIMAL.exec(amount);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const digits = BigInt(whole) * 100n + BigInt(fraction.slice(0, 2).padEnd(2, '0'));
  const roundsUp = fraction.length > 2 && fraction[2] >= '5';
  const cents = digits + (roundsUp ? 1n : 0n);
  // past 2^53 a number of cents is no longer exact (R$ 90 trillion): refused rather than rounded
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const value = Number(sign === '-' ? -cents : cents);
  return Object.is(value, -0) ? 0 : value;
}
