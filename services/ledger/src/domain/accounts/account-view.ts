import { iso } from '@finance/shared/db/context-scope';
import type { Account } from '../../data-access/entities/account.ts';

/** The Account record of the spec; `balance` is computed by the caller (docs/decisions.md §7). */
export function accountView(account: Account, balance: number) {
  return {
    id: account.id,
    name: account.name,
    logo: account.logo,
    balance,
    include_total_balance: account.includeTotalBalance,
    is_default: account.isDefault,
    type: account.type ?? null,
    subtype: account.subtype ?? null,
    profile_id: account.profileId ?? null,
    user_id: account.userId,
    createdAt: iso(account.createdAt),
    updatedAt: iso(account.updatedAt),
  };
}

export type AccountView = ReturnType<typeof accountView>;
