/** Money a goal holds and how far it is from its amount: the one home of these figures. */
export interface GoalProgress {
  /** Deposits − withdrawals, integer cents. */
  saved: number;
  /** saved ÷ amount × 100, rounded down to two decimals; above 100 when more than the amount was saved. */
  progress_percent: number;
}

export function goalProgress(
  amount: number,
  values: ReadonlyArray<{ value: number; isExpense: boolean }>,
): GoalProgress {
  let saved = 0n;
  for (const entry of values) saved += entry.isExpense ? -BigInt(entry.value) : BigInt(entry.value);
  const basisPoints = amount > 0 && saved > 0n ? (saved * 10_000n) / BigInt(amount) : 0n;
  return { saved: Number(saved), progress_percent: Number(basisPoints) / 100 };
}
