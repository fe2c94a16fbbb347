/**
 * The one remainder-cent rule of the ledger (docs/decisions.md §5): `total` cents shared by `weights` (positive
 * integers), each share floor(total × weight ÷ Σ weights), the leftover cents one each to the first shares, so the
 * shares always sum to the total. Installments share by equal weights, a split's parts by their amounts (a series
 * member) or a rule's basis points. A share may be 0 when the total has fewer cents than it needs.
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(total) || total < 0)
    throw new RangeError(`total must be a whole number of cents: ${total}`);
  if (weights.length === 0 || weights.some((weight) => !Number.isSafeInteger(weight) || weight < 1)) {
    throw new RangeError(`weights must be positive whole numbers: ${weights.join(', ')}`);
  }
  // exact integer arithmetic: amounts up to 10^13 times weights up to 10^13 exceed a double's precision
  const sum = weights.reduce((acc, weight) => acc + BigInt(weight), 0n);
  const shares = weights.map((weight) => Number((BigInt(total) * BigInt(weight)) / sum));
  const leftover = total - shares.reduce((acc, share) => acc + share, 0);
  return shares.map((share, index) => (index < leftover ? share + 1 : share));
}
