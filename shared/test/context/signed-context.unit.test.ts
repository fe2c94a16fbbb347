import { type CallerContext, signContext, verifyContext } from '@finance/shared/context/signed-context';
import fc from 'fast-check';

const SECRET = 'unit-test-internal-secret-0123456789abcdef';
const ctxArb: fc.Arbitrary<CallerContext> = fc.record({
  userId: fc.uuid(),
  profileId: fc.option(fc.uuid(), { nil: null }),
  business: fc.boolean(),
  keyId: fc.option(fc.uuid(), { nil: null }),
});

describe('signed context: headers reused for a while, verified once, never trusted past their minute', () => {
  it('a context signed twice within 10 s gets the same header; later, a new one', () => {
    fc.assert(
      fc.property(ctxArb, fc.integer({ min: 1_800_000_000_000, max: 1_900_000_000_000 }), (ctx, now) => {
        const first = signContext(ctx, SECRET, now);
        expect(signContext(ctx, SECRET, now + 9_999)).toBe(first);
        const later = signContext(ctx, SECRET, now + 10_000);
        expect(later).not.toBe(first);
        expect(verifyContext(later, SECRET, now + 10_000)).toEqual(ctx);
      }),
    );
  });

  it('a header verified once is still refused after its minute, and a changed byte or another secret never passes', () => {
    fc.assert(
      fc.property(ctxArb, fc.integer({ min: 1_800_000_000_000, max: 1_900_000_000_000 }), (ctx, now) => {
        const header = signContext(ctx, SECRET, now);
        expect(verifyContext(header, SECRET, now)).toEqual(ctx);
        expect(verifyContext(header, SECRET, now + 60_000)).toEqual(ctx);
        expect(verifyContext(header, SECRET, now + 60_001)).toBeNull();
        expect(verifyContext(header, `${SECRET}-rotated`, now)).toBeNull();
        const [payload, signature] = header.split('.');
        const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
        expect(verifyContext(`${payload}.${flipped}`, SECRET, now)).toBeNull();
      }),
    );
  });

  it('a verified context handed out is a copy: changing it changes no later answer', () => {
    const ctx: CallerContext = { userId: crypto.randomUUID(), profileId: null, business: false, keyId: null };
    const header = signContext(ctx, SECRET);
    const first = verifyContext(header, SECRET) as CallerContext;
    first.business = true;
    expect(verifyContext(header, SECRET)).toEqual(ctx);
  });
});
