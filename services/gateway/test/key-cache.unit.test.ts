import type { VerifiedKeyRow } from '../src/domain/authenticate-key.ts';
import { KeyCache } from '../src/domain/key-cache.ts';

const row: VerifiedKeyRow = {
  id: 'k1',
  secret_hash: 'ab',
  scopes: ['read'],
  user_id: 'u1',
  profile_id: null,
  license: null,
};

describe('key cache: trusted only while revocations reach it', () => {
  it('when it is not listening for changes, then it stores nothing', () => {
    const cache = new KeyCache();
    cache.set('t', row, cache.begin());
    expect(cache.get('t')).toBeUndefined();
  });

  it('when a change arrives, then every key is forgotten', () => {
    const cache = new KeyCache();
    cache.enable();
    cache.set('t', row, cache.begin());
    expect(cache.get('t')).toBe(row);
    cache.invalidate();
    expect(cache.get('t')).toBeUndefined();
  });

  it('when a lookup started before a change, then its row is not stored', () => {
    const cache = new KeyCache();
    cache.enable();
    const startedAt = cache.begin();
    cache.invalidate();
    cache.set('t', row, startedAt);
    expect(cache.get('t')).toBeUndefined();
  });

  it('when the listener is lost, then the cache empties and stays bypassed until it listens again', () => {
    const cache = new KeyCache();
    cache.enable();
    cache.set('t', row, cache.begin());
    cache.disable();
    expect(cache.get('t')).toBeUndefined();
    cache.set('t', row, cache.begin());
    expect(cache.get('t')).toBeUndefined();
  });

  it('when an entry is older than its TTL or the cache is full, then it is dropped', () => {
    let now = 0;
    const cache = new KeyCache(1000, 2, () => now);
    cache.enable();
    cache.set('a', row, cache.begin());
    cache.set('b', row, cache.begin());
    cache.set('c', row, cache.begin());
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(2);
    now = 1000;
    expect(cache.get('b')).toBeUndefined();
  });

  it('when a secret was seen to match, then its digest is kept with the row and forgotten with it', () => {
    const cache = new KeyCache();
    cache.enable();
    const digest = Buffer.from('d1');
    cache.rememberVerified('t', digest);
    expect(cache.verifiedDigest('t')).toBeUndefined();
    cache.set('t', row, cache.begin());
    expect(cache.verifiedDigest('t')).toBeUndefined();
    cache.rememberVerified('t', digest);
    expect(cache.verifiedDigest('t')).toBe(digest);
    cache.set('t', row, cache.begin());
    expect(cache.verifiedDigest('t')).toBeUndefined();
    cache.rememberVerified('t', digest);
    cache.invalidate();
    expect(cache.verifiedDigest('t')).toBeUndefined();
  });
});
