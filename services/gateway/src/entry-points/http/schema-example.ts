type JsonSchema = Record<string, unknown>;

const STRING_SAMPLES: Record<string, string> = {
  date: '2026-01-15',
  'date-time': '2026-01-15T12:00:00.000Z',
  uuid: '0194b1c2-7d3e-7a01-8f00-0000000000a1',
  email: 'pessoa@example.com',
  uri: 'https://example.com',
};

/** Values tried, in order, against a string's `pattern`: the first that matches is the sample. */
const PATTERNED_SAMPLES = [
  '2026-01-15',
  '2026-01-15T12:00:00.000Z',
  '#64748B',
  '341',
  '15',
  '12.50',
  'BRL',
  '12345678000195',
  '+55 11 99999-0000',
  `sha256:${'0123456789abcdef'.repeat(4)}`,
  'MONTHLY',
  'chave-1',
];

function stringSample(schema: JsonSchema): string {
  const formatted = STRING_SAMPLES[String(schema.format)];
  if (formatted) return formatted;
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    const found = PATTERNED_SAMPLES.find((sample) => pattern.test(sample));
    if (found) return found;
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : 1;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  const text = 'texto';
  return text.length > max ? text.slice(0, max) : text.padEnd(min, 'x');
}

/**
 * A sample value for a JSON schema (the response example when a contract gives none): the schema's own
 * example or default first, then the first enum value, then a typed placeholder that satisfies the
 * schema's format, pattern, length and minimum. `resolve` follows `$ref`s into the named component schemas.
 */
export function exampleFor(
  schema: JsonSchema | undefined,
  resolve: (schema: JsonSchema) => JsonSchema | undefined = () => undefined,
  depth = 0,
): unknown {
  if (!schema || depth > 12) return null;
  if (schema.$ref) return exampleFor(resolve(schema), resolve, depth + 1);
  const next = (inner: unknown) => exampleFor(inner as JsonSchema, resolve, depth + 1);
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum.find((value) => value !== null) ?? null;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key] as JsonSchema[] | undefined;
    if (options?.length) return next(options.find((option) => option.type !== 'null') ?? options[0]);
  }
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...(schema.allOf as JsonSchema[]).map(next));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((candidate) => candidate !== 'null') ?? types[0];
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, next(property)]));
    }
    case 'array': {
      // an array whose items cannot be shown (no schema) is shown empty, never as [null]
      const item = schema.items ? next(schema.items) : undefined;
      return item === undefined || item === null ? [] : [item];
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'string':
      return stringSample(schema);
    case 'null':
      return null;
    default:
      return schema.properties ? next({ ...schema, type: 'object' }) : null;
  }
}
