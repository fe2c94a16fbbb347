import Joi from 'joi';
import { publicRoutes } from '../../src/contracts/index.ts';
import { joiMessagesPt } from '../../src/http/joi-messages.ts';
import { validateRequest } from '../../src/http/validate.ts';

const JOI_TYPES = new Set(Object.keys(Joi.types()));
const ENGLISH = /\b(must|is required|not allowed|failed|does not|should|invalid value|threw)\b/i;

/** Every joi type named anywhere in a schema description, and every message a schema sets itself. */
function walk(node: unknown, types: Set<string>, own: string[]): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, types, own);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (typeof record.type === 'string' && JOI_TYPES.has(record.type)) types.add(record.type);
  const prefs = record.preferences as { messages?: Record<string, unknown> } | undefined;
  for (const text of Object.values(prefs?.messages ?? {})) {
    own.push(typeof text === 'string' ? text : JSON.stringify(text));
  }
  for (const child of Object.values(record)) walk(child, types, own);
}

function contractSchemas() {
  const types = new Set<string>();
  const own: string[] = [];
  for (const route of publicRoutes) {
    for (const schema of [route.params, route.query, route.body]) {
      if (schema) walk(schema.describe(), types, own);
    }
  }
  return { types, own };
}

describe('joi messages in Portuguese', () => {
  it('when every contract schema is walked, then every error code of every joi type it uses has a Portuguese text', () => {
    const { types } = contractSchemas();
    expect(types.size).toBeGreaterThan(4);
    const missing: string[] = [];
    for (const type of types) {
      const definition = (Joi[type as 'any']() as unknown as { _definition: { messages: Record<string, unknown> } })
        ._definition;
      for (const code of Object.keys(definition.messages)) if (!joiMessagesPt[code]) missing.push(`${type}: ${code}`);
    }
    expect(missing).toEqual([]);
  });

  it('when a contract sets its own messages, then none of them is English', () => {
    const { own } = contractSchemas();
    expect(own.filter((text) => ENGLISH.test(text))).toEqual([]);
  });

  it('when the Portuguese table is read, then no text in it is English', () => {
    expect(Object.entries(joiMessagesPt).filter(([, text]) => ENGLISH.test(text))).toEqual([]);
  });

  it('when a URL field gets another scheme, then the message is Portuguese (was joi English "must be a valid uri")', () => {
    const schema = Joi.object({ logo: Joi.string().uri({ scheme: ['http', 'https'] }) });
    let details: Array<{ field: string; message: string }> = [];
    try {
      validateRequest({ body: schema }, { params: {}, query: {}, body: { logo: 'ftp://x' } } as never);
    } catch (error) {
      details = (error as { details: typeof details }).details;
    }
    expect(details).toEqual([{ field: 'logo', message: 'logo deve ser uma URL válida com esquema http|https' }]);
  });
});
