import { createHmac } from 'node:crypto';
import type { DomainEvent } from '@finance/shared/queue/catalogue';
import fc from 'fast-check';
import { assertAllowedTarget } from '../src/domain/webhooks/manage-webhooks.ts';
import { signatureHeader, verifySignature } from '../src/domain/webhooks/signature.ts';
import { isPublicAddress } from '../src/domain/webhooks/target-address.ts';
import { deliveryBody, retryDelayMs, webhookEventOf } from '../src/domain/webhooks/webhook-events.ts';

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = (first: fc.Arbitrary<number>, second: fc.Arbitrary<number> = octet) =>
  fc.tuple(first, second, octet, octet).map((parts) => parts.join('.'));

describe('webhook signature', () => {
  it('when a body is signed, then the header is t=<seconds>,v1=<hex HMAC-SHA256 of "t.body"> and verifies', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), fc.integer({ min: 0, max: 2 ** 31 }), (body, secret, t) => {
        const header = signatureHeader(secret, t, body);
        const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
        expect(header).toBe(`t=${t},v1=${expected}`);
        expect(verifySignature(secret, header, body, t)).toBe(true);
      }),
    );
  });

  it('when the body, the secret or the time differ, then verification fails', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string({ minLength: 1 }), (body, other, secret) => {
        fc.pre(body !== other);
        const header = signatureHeader(secret, 1_000_000, body);
        expect(verifySignature(secret, header, other, 1_000_000)).toBe(false);
        expect(verifySignature(`${secret}x`, header, body, 1_000_000)).toBe(false);
        expect(verifySignature(secret, header, body, 1_000_000 + 301)).toBe(false);
      }),
    );
    expect(verifySignature('s', 'lixo', '{}', 0)).toBe(false);
  });
});

describe('webhook targets', () => {
  it('when an address is loopback, private, link-local, CGNAT or unspecified, then it is not public', () => {
    for (const range of [
      ipv4(fc.constant(127)),
      ipv4(fc.constant(10)),
      ipv4(fc.constant(172), fc.integer({ min: 16, max: 31 })),
      ipv4(fc.constant(192), fc.constant(168)),
      ipv4(fc.constant(169), fc.constant(254)),
      ipv4(fc.constant(100), fc.integer({ min: 64, max: 127 })),
      ipv4(fc.constant(0)),
      ipv4(fc.integer({ min: 224, max: 255 })),
    ]) {
      fc.assert(
        fc.property(range, (address) => {
          expect(isPublicAddress(address)).toBe(false);
          expect(isPublicAddress(`::ffff:${address}`)).toBe(false);
        }),
      );
    }
    for (const address of ['::1', '::', 'fe80::1', 'fd12:3456::1', 'fc00::5', '::ffff:7f00:1', '64:ff9b::a00:1', 'x']) {
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
    }
  });

  it('when an address is public unicast, then it is allowed', () => {
    fc.assert(
      fc.property(ipv4(fc.integer({ min: 11, max: 99 })), (address) => {
        expect(isPublicAddress(address)).toBe(true);
      }),
    );
    for (const address of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8', '172.32.0.1']) {
      expect([address, isPublicAddress(address)]).toEqual([address, true]);
    }
  });
});

describe('webhook target policy at creation', () => {
  const resolvingTo =
    (...addresses: string[]) =>
    async () =>
      addresses;

  it('when a host resolves to any non-public address among public ones, then 400 on url', async () => {
    await expect(
      assertAllowedTarget('https://hooks.example.com/x', {
        allowPrivateTargets: false,
        resolve: resolvingTo('8.8.8.8', '10.0.0.7'),
      }),
    ).rejects.toMatchObject({ status: 400, details: [{ field: 'url' }] });
  });

  it('when a host does not resolve or the URL is plain http, then 400 on url; public https passes', async () => {
    const failing = async () => {
      throw new Error('ENOTFOUND');
    };
    await expect(
      assertAllowedTarget('https://nowhere.invalid/x', { allowPrivateTargets: false, resolve: failing }),
    ).rejects.toMatchObject({ status: 400, details: [{ field: 'url' }] });
    await expect(
      assertAllowedTarget('http://hooks.example.com/x', {
        allowPrivateTargets: false,
        resolve: resolvingTo('8.8.8.8'),
      }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      assertAllowedTarget('https://hooks.example.com/x', {
        allowPrivateTargets: false,
        resolve: resolvingTo('8.8.8.8'),
      }),
    ).resolves.toBeUndefined();
  });

  it('when the operator allows private targets, then nothing is resolved or refused', async () => {
    const resolve = jest.fn(resolvingTo('127.0.0.1'));
    await expect(
      assertAllowedTarget('http://127.0.0.1:9/x', { allowPrivateTargets: true, resolve }),
    ).resolves.toBeUndefined();
    expect(resolve).not.toHaveBeenCalled();
  });
});

describe('webhook events', () => {
  const event = (type: DomainEvent['type'], data: unknown): DomainEvent => ({
    event_id: '01900000-0000-7000-8000-000000000009',
    type,
    occurred_at: '2026-03-01T12:00:00.000Z',
    context: { user_id: 'u', profile_id: null },
    data,
  });

  it('when a transaction.changed event arrives, then its change names the webhook event', () => {
    for (const change of ['created', 'updated', 'deleted'] as const) {
      expect(webhookEventOf(event('transaction.changed', { change, transactions: [{ id: 't' }] }))).toEqual({
        type: `transaction.${change}`,
        data: { transactions: [{ id: 't' }] },
      });
    }
  });

  it('when an event has its own webhook type, then it is delivered as is; account.created is not a webhook event', () => {
    expect(webhookEventOf(event('bill.paid', { bill_id: 'b' }))).toEqual({ type: 'bill.paid', data: { bill_id: 'b' } });
    expect(webhookEventOf(event('account.created', {}))).toBeNull();
  });

  it('when a body is built, then it holds the event id, type, time and record', () => {
    const built = event('rule.applied', { rule_id: 'r' });
    expect(JSON.parse(deliveryBody(built, { type: 'rule.applied', data: built.data }))).toEqual({
      id: built.event_id,
      type: 'rule.applied',
      created_at: built.occurred_at,
      data: { rule_id: 'r' },
    });
  });

  it('when attempts fail one after another, then each retry waits twice the previous one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 29 }), (base, attempt) => {
        expect(retryDelayMs(base, 1)).toBe(base);
        expect(retryDelayMs(base, attempt + 1)).toBe(2 * retryDelayMs(base, attempt));
      }),
    );
  });
});
