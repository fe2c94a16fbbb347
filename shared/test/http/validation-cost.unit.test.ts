import Joi from 'joi';
import { currencyCode, dayInput } from '../../src/contracts/common.ts';
import { publicRoutes } from '../../src/contracts/index.ts';
import { internalRoutes } from '../../src/contracts/internal/index.ts';
import { validateRequest } from '../../src/http/validate.ts';

/**
 * A nested schema with messages of its own (`.messages()`) makes joi merge them into the request's whole
 * Portuguese message table, cloning it, each time that field is validated (measured: 8 % of
 * the ledger's CPU under creates, from two date/currency fields). Field texts go in the rule instead
 * (`helpers.message` in a custom rule, `.rule({ message })`), compiled once and read only on error.
 */
function nestedPreferences(node: unknown, path: string, found: string[], root: boolean): void {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) nestedPreferences(item, `${path}[${index}]`, found, false);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (!root && (record.preferences as { messages?: unknown } | undefined)?.messages) found.push(path);
  for (const [key, child] of Object.entries(record)) {
    if (key !== 'preferences') nestedPreferences(child, `${path}.${key}`, found, false);
  }
}

/** Alternatives have no rule to carry a text; both fields are written rarely (an account's logo, a card's days). */
const ALLOWED = [/\.keys\.logo$/, /\.keys\.(closing_date|expiring_date)$/];

describe('validation cost', () => {
  it('when every contract schema is walked, then no nested field carries its own messages (but the rare alternatives)', () => {
    const found: string[] = [];
    for (const route of [...publicRoutes, ...internalRoutes]) {
      for (const [part, schema] of Object.entries({ params: route.params, query: route.query, body: route.body })) {
        if (schema) nestedPreferences(schema.describe(), `${route.method} ${route.path} ${part}`, found, true);
      }
    }
    expect(found.filter((path) => !ALLOWED.some((allowed) => allowed.test(path)))).toEqual([]);
  });

  it.each([
    ['2026-02-30', dayInput(), 'date não é uma data válida'],
    ['1899-12-31', dayInput({ from: '1900-01-01', to: '2999-12-31' }), 'date deve estar entre 1900-01-01 e 2999-12-31'],
    ['ABC', currencyCode(), 'date deve ser um código de moeda ISO 4217 (ex.: BRL, USD, EUR)'],
  ])('when %s is refused, then the field keeps its own Portuguese text', (value, field, message) => {
    const body = Joi.object({ date: field });
    expect(() => validateRequest({ body }, { params: {}, query: {}, body: { date: value } } as never)).toThrow(
      expect.objectContaining({ details: [{ field: 'date', message }] }),
    );
  });
});
