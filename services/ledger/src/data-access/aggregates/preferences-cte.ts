/** The context's preferences with docs/decisions.md §10 defaults until saved, as one always-present row. */
export const preferencesCte = (scopeSql: string) => `cfg as (
  select coalesce(bool_or(include_bill_payments), false) as include_bill_payments,
         coalesce(bool_or(include_current_bill_in_to_pay), true) as include_current_bill_in_to_pay,
         coalesce(bool_or(include_investments), false) as include_investments,
         coalesce(bool_or(include_transfers), false) as include_transfers,
         coalesce(bool_or(show_open_bill), true) as show_open_bill
  from personal_configs where ${scopeSql}
)`;

/** An account (`alias`) counts in the total balance: it asks to, and an investment one only with `include_investments`. */
export const countsInTotalBalance = (alias: string) =>
  `${alias}.include_total_balance and (cfg.include_investments or ${alias}.type is distinct from 'INVESTMENT')`;
