import { iso } from '@finance/shared/db/context-scope';
import type { CreditCard } from '../../data-access/entities/credit-card.ts';

/** The Credit card record; days are returned as strings. `owed` is what the card holds (`owedByCard`). */
export function cardView(card: CreditCard, owed: number) {
  return {
    id: card.id,
    name: card.name,
    logo: card.logo ?? null,
    account_id: card.accountId ?? null,
    closing_date: String(card.closingDay),
    expiring_date: String(card.dueDay),
    limit: card.limit,
    // an unlimited card has no limit to run out of; an imported one shows what its bank says
    available_limit: card.isUnlimited ? null : (card.bankAvailableLimit ?? card.limit - owed),
    is_unlimited: card.isUnlimited,
    needs_closing_date_review: card.needsClosingDateReview,
    profile_id: card.profileId ?? null,
    user_id: card.userId,
    createdAt: iso(card.createdAt),
    updatedAt: iso(card.updatedAt),
  };
}

export type CardView = ReturnType<typeof cardView>;
