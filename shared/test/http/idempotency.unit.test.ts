import type { CallerContext } from '@finance/shared/context/signed-context';
import { type IdempotencyScope, idempotencyScope } from '@finance/shared/db/idempotency-records';
import { derivedIdempotencyKey, fingerprintOf } from '@finance/shared/http/idempotency';
import type { Request } from 'express';
import fc from 'fast-check';

const scope = (key: string): IdempotencyScope => ({
  keyId: 'api-key',
  key,
  fingerprint: 'f',
  claim: 'c',
  written: false,
  pending: null,
  calls: 0,
  replayed: 0,
  committedElsewhere: 0,
  closed: false,
  successStatus: 200,
  answer: null,
  kept: null,
});
const personal: CallerContext = { userId: 'u1', profileId: null, business: false, keyId: 'k' };
const request = (method: string, originalUrl: string, body?: unknown) => ({ method, originalUrl, body }) as Request;

describe('idempotency: derived keys and fingerprints', () => {
  it('when a request with a key calls other services, then each write gets the next derived key and reads none', () => {
    const keys = idempotencyScope.run(scope('abc'), () => [
      derivedIdempotencyKey('POST'),
      derivedIdempotencyKey('GET'),
      derivedIdempotencyKey('delete'),
      derivedIdempotencyKey('PUT'),
    ]);
    expect(keys).toEqual(['abc #1', null, 'abc #2', 'abc #3']);
  });

  it('when no request with a key is being served, or its answer is on its way, then calls carry no key', () => {
    expect(derivedIdempotencyKey('POST')).toBeNull();
    expect(idempotencyScope.run(null, () => derivedIdempotencyKey('POST'))).toBeNull();
    const closed = { ...scope('abc'), closed: true };
    expect(idempotencyScope.run(closed, () => derivedIdempotencyKey('POST'))).toBeNull();
  });

  it('when any client key is given, then a derived key never equals a key a client could send', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\x21-\x7e]{1,255}$/), fc.integer({ min: 1, max: 50 }), (key, n) => {
        const derived = idempotencyScope.run({ ...scope(key), calls: n - 1 }, () => derivedIdempotencyKey('POST'));
        expect(derived).toBe(`${key} #${n}`);
        expect(/^[\x21-\x7e]{1,255}$/.test(derived as string)).toBe(false);
      }),
    );
  });

  it('when method, path, context or body differ, then the fingerprint differs; the same request gives the same one', () => {
    const base = fingerprintOf(request('POST', '/v1/x?a=1', { amount: 1 }), personal);
    expect(fingerprintOf(request('POST', '/v1/x?a=1', { amount: 1 }), personal)).toBe(base);
    expect(fingerprintOf(request('PUT', '/v1/x?a=1', { amount: 1 }), personal)).not.toBe(base);
    expect(fingerprintOf(request('POST', '/v1/x?a=2', { amount: 1 }), personal)).not.toBe(base);
    expect(fingerprintOf(request('POST', '/v1/x?a=1', { amount: 2 }), personal)).not.toBe(base);
    expect(fingerprintOf(request('POST', '/v1/x?a=1', { amount: 1 }), { ...personal, profileId: 'p1' })).not.toBe(base);
    expect(fingerprintOf(request('POST', '/v1/x?a=1'), personal)).not.toBe(base);
  });
});
