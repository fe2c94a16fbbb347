import { validate, version } from 'uuid';
import { newId } from '../../src/db/base-entity.ts';

/** The millisecond a UUIDv7 carries in its first 48 bits. */
const msOf = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

describe('newId (UUIDv7)', () => {
  it('when many ids are made at once, then each is a valid v7, unique, and their order is the order they were made in', () => {
    const before = Date.now();
    // thousands within the same milliseconds
    const ids = Array.from({ length: 20_000 }, () => newId());
    const after = Date.now();
    expect(ids.every((id) => validate(id) && version(id) === 7)).toBe(true);
    expect(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(
      true,
    );
    // strictly increasing: unique, and sorted as made (the index of the first id out of order, if any)
    expect(ids.findIndex((id, k) => k > 0 && id <= ids[k - 1])).toBe(-1);
    expect(msOf(ids[0])).toBeGreaterThanOrEqual(before);
    expect(msOf(ids[ids.length - 1])).toBeLessThanOrEqual(after + 1);
  });

  it('when the system clock steps back, then ids keep counting on the last millisecond and still sort as made', () => {
    const later = Date.now() + 60_000;
    const clock = jest.spyOn(Date, 'now');
    try {
      clock.mockReturnValue(later);
      const first = newId();
      // an NTP correction of a minute back
      clock.mockReturnValue(later - 60_000);
      const after = Array.from({ length: 300 }, () => newId());
      expect(msOf(after[after.length - 1])).toBe(later);
      expect([first, ...after].findIndex((id, k, all) => k > 0 && id <= all[k - 1])).toBe(-1);
    } finally {
      clock.mockRestore();
    }
  });

  it('when ids are made in different milliseconds, then their random parts differ', async () => {
    const seen = new Set<string>();
    for (let k = 0; k < 600; k++) {
      // the last 12 hex digits are random bytes only
      seen.add(newId().slice(-12));
      if (k % 100 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(seen.size).toBe(600);
  });
});
