import { type CalendarDate, daysBetween } from '@finance/shared/calendar';
import type { ImportStatus } from '@finance/shared/contracts/ledger/open-banking';
import { closestPairs, type Edge, groupBy } from './closest-pairs.ts';
import { MATCH_WINDOW_DAYS } from './match-entries.ts';

/**
 * The source-id rule (docs/decisions.md §9): a source's ids are per account or card (two accounts may share one),
 * and a bank may give one id to several entries (two fees under one id). So an id names the entries of its holder
 * that carry it, and an arriving entry is the one among them with its content: the same amount, direction and day
 * first, then the same amount and direction a few days apart (or any content, for a pending or scheduled entry);
 * where one entry arrives under an id and one stored entry is left under it, that is the entry, changed by the bank.
 */

/** What the rule reads of an arriving entry. */
export interface ArrivingEntry {
  holder: string;
  key: string;
  amount: number;
  is_expense: boolean;
  date: CalendarDate;
}

/** What else tells two arriving entries under one id apart: the bill the bank put each in, the installment. */
interface Placed {
  bill_due_date?: CalendarDate | null;
  installment?: { number: number } | null;
}

/** A stored entry that carries one of the arriving ids (one per id it carries). */
export interface KnownEntry extends ArrivingEntry {
  /** The entry's id. */
  id: string;
  status: ImportStatus;
  deleted: boolean;
}

const idOf = (entry: Pick<ArrivingEntry, 'holder' | 'key'>) => `${entry.holder}\u0000${entry.key}`;
const sameContent = (a: ArrivingEntry, b: ArrivingEntry) =>
  a.amount === b.amount && a.is_expense === b.is_expense && a.date === b.date;

/**
 * The arriving entries without the repeats of an identical one (same holder, id, content, bill and installment: a
 * list that showed an entry twice), and how many were dropped.
 */
export function distinctEntries<T extends ArrivingEntry & Placed>(
  entries: readonly T[],
): { entries: T[]; repeated: number } {
  const seen = new Set<string>();
  const distinct = entries.filter((entry) => {
    const content = JSON.stringify([
      idOf(entry),
      entry.amount,
      entry.is_expense,
      entry.date,
      entry.bill_due_date ?? null,
      entry.installment?.number ?? null,
    ]);
    if (seen.has(content)) return false;
    seen.add(content);
    return true;
  });
  return { entries: distinct, repeated: entries.length - distinct.length };
}

/** Arriving index → the stored entry it is, by the rule above; each stored entry used once. */
export function pairKnownEntries(arriving: readonly ArrivingEntry[], stored: readonly KnownEntry[]) {
  const refOf = (entry: KnownEntry) => `${entry.id}\u0000${idOf(entry)}`;
  const byId = groupBy(stored, idOf);
  const known = new Map(stored.map((entry) => [refOf(entry), entry]));
  const edges: Edge[] = [];
  arriving.forEach((entry, index) => {
    for (const candidate of byId.get(idOf(entry)) ?? []) {
      const id = refOf(candidate);
      const days = Math.abs(daysBetween(candidate.date, entry.date));
      if (sameContent(entry, candidate)) edges.push({ index, id, gap: 0 });
      else if (candidate.amount === entry.amount && candidate.is_expense === entry.is_expense) {
        if (days <= MATCH_WINDOW_DAYS || candidate.status !== 'BOOKED') edges.push({ index, id, gap: 1 + days });
      } else if (candidate.status !== 'BOOKED') edges.push({ index, id, gap: 100_000 + days });
    }
  });
  const pairs = new Map<number, KnownEntry>();
  for (const [index, id] of closestPairs(edges)) pairs.set(index, known.get(id) as KnownEntry);
  // one left on each side of an id: the bank changed that entry
  const taken = new Set([...pairs.values()].map(refOf));
  const left = groupBy(
    arriving.map((entry, index) => ({ entry, index })).filter(({ index }) => !pairs.has(index)),
    ({ entry }) => idOf(entry),
  );
  for (const [id, [only, ...more]] of left) {
    const storedLeft = (byId.get(id) ?? []).filter((entry) => !taken.has(refOf(entry)));
    if (more.length === 0 && storedLeft.length === 1) pairs.set(only.index, storedLeft[0]);
  }
  return pairs;
}
