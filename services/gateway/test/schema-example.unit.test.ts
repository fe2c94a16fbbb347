import { exampleFor } from '../src/entry-points/http/schema-example.ts';

describe('exampleFor: a sample value for a JSON schema', () => {
  it('when the schema gives examples, a default or an enum, then those come first', () => {
    expect(exampleFor({ type: 'string', examples: ['Conta'] })).toBe('Conta');
    expect(exampleFor({ type: 'integer', default: 7 })).toBe(7);
    expect(exampleFor({ type: ['string', 'null'], enum: [null, 'PF', 'PJ'] })).toBe('PF');
  });

  it('when the schema is an object, then every property gets a typed sample, nullable types included', () => {
    expect(
      exampleFor({
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          date: { type: 'string', format: 'date' },
          at: { type: ['string', 'null'], format: 'date-time' },
          amount: { type: 'integer', minimum: 1 },
          paid: { type: 'boolean' },
          tags: { type: 'array', items: { type: 'string' } },
          either: { anyOf: [{ type: 'null' }, { type: 'number' }] },
        },
      }),
    ).toEqual({
      id: '0194b1c2-7d3e-7a01-8f00-0000000000a1',
      date: '2026-01-15',
      at: '2026-01-15T12:00:00.000Z',
      amount: 1,
      paid: false,
      tags: ['texto'],
      either: 0,
    });
  });

  it('when the schema nests itself deeply, then the sample stops instead of recursing forever', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} };
    (node.properties as Record<string, unknown>).child = node;
    expect(() => exampleFor(node)).not.toThrow();
  });
});
