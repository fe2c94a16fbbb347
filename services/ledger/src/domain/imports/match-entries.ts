import { type CalendarDate, daysBetween } from '@finance/shared/calendar';
import type { ImportStatus } from '@finance/shared/contracts/ledger/open-banking';
import { closestPairs, type Edge, groupBy } from './closest-pairs.ts';

/**
 * The matching rule of every import (docs/decisions.md §9): two entries are the same money movement when they
 * are on the same account or card, with the same amount and direction, dated at most this many days apart. It
 * joins an entry of one source to the entry another source already brought, a pending or forecast entry to the
 * effected one that arrives under another id, and (auto-reconciliation and its suggestions) an imported entry to
 * the unpaid manual forecast it settles.
 */
export const MATCH_WINDOW_DAYS = 5;

/** What the rule compares. */
export interface Matchable {
  holder: string;
  amount: number;
  is_expense: boolean;
  date: CalendarDate;
  /** The installment's number when it is one: two installments of one purchase are different movements. */
  installment?: number | null;
}

/** An arriving entry of source S that no id of S names yet. */
export interface IncomingEntry extends Matchable {
  status: ImportStatus;
}

/**
 * A live imported entry that may already be the arriving one: `sourceKeys` says what source S knows of it —
 * nothing (`none`: another source brought it), only ids of a pending or forecast state (`unbooked`), or an id
 * of its effected state (`booked`: S itself brought it as effected, so it is another movement).
 */
export interface StoredCandidate extends Matchable {
  id: string;
  sourceKeys: 'none' | 'unbooked' | 'booked';
}

/** Whether `stored` may be the arriving entry under the rule and what source S already knows of it. */
export function mayBeSame(incoming: IncomingEntry, stored: StoredCandidate, windowDays = MATCH_WINDOW_DAYS): boolean {
  if (stored.holder !== incoming.holder || stored.amount !== incoming.amount) return false;
  if (stored.is_expense !== incoming.is_expense) return false;
  if (Math.abs(daysBetween(stored.date, incoming.date)) > windowDays) return false;
  if (incoming.installment && stored.installment && incoming.installment !== stored.installment) return false;
  // an entry S brought as effected is another movement of S; one S knows only as pending waits for its effected id
  return stored.sourceKeys === 'none' || (stored.sourceKeys === 'unbooked' && incoming.status === 'BOOKED');
}

const groupKey = (entry: Matchable) => `${entry.holder}|${entry.amount}|${entry.is_expense}`;

/**
 * Pairs arriving entries with stored ones, each at most once (`closestPairs`): so two coffees of the same price on
 * the same day pair with two stored ones, and a third stays new. Returns arriving index → stored id.
 */
export function matchEntries(
  incoming: readonly IncomingEntry[],
  stored: readonly StoredCandidate[],
  windowDays = MATCH_WINDOW_DAYS,
): Map<number, string> {
  const byGroup = groupBy(stored, groupKey);
  const edges: Edge[] = [];
  incoming.forEach((entry, index) => {
    for (const candidate of byGroup.get(groupKey(entry)) ?? []) {
      if (mayBeSame(entry, candidate, windowDays)) {
        edges.push({ gap: Math.abs(daysBetween(candidate.date, entry.date)), index, id: candidate.id });
      }
    }
  });
  return closestPairs(edges);
}
