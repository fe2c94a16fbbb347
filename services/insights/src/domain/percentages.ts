/**
 * Shares of a total as two-decimal strings that sum to exactly `100.00` (largest remainder method);
 * BigInt keeps it exact for any sum of cents. An empty or all-zero list gives `0.00` for each item.
 */
export function percentagesLargestRemainder(values: number[]): string[] {
  const total = values.reduce((sum, value) => sum + BigInt(value), 0n);
  if (total <= 0n) return values.map(() => '0.00');
  const shares = values.map((value, index) => {
    const scaled = BigInt(value) * 10_000n;
    return { index, floor: scaled / total, remainder: scaled % total };
  });
  let left = 10_000n - shares.reduce((sum, share) => sum + share.floor, 0n);
  // ties go to the earlier item, so the result is deterministic for the sorted report
  const order = [...shares].sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
  );
  for (const share of order) {
    if (left <= 0n) break;
    share.floor += 1n;
    left -= 1n;
  }
  return shares.map(({ floor }) => `${floor / 100n}.${String(floor % 100n).padStart(2, '0')}`);
}
