import { createHash } from 'node:crypto';

/**
 * The longest source key stored as written (characters). A key is a column of two btree indexes
 * (`import_keys`, `transactions.external_id`), whose entries PostgreSQL refuses beyond about 2.7 kB: a longer key
 * would fail its import after it was accepted. 200 is the JSON import's `external_id` limit, so a connection's ids
 * are never hashed.
 */
export const SOURCE_KEY_MAX = 200;

/**
 * A source's key for an entry or a series (`import_keys.key`, the entry's `external_id`): as written up to
 * `SOURCE_KEY_MAX` characters, else `sha256:` and the hex SHA-256 of its UTF-8 text, so the same long id (a bank's
 * FITID, a CSV id, a CSV description without an id) always yields the same key and a key always fits its indexes.
 */
export function boundedSourceKey(key: string): string {
  if (key.length <= SOURCE_KEY_MAX) return key;
  return `sha256:${createHash('sha256').update(key, 'utf8').digest('hex')}`;
}
