type JsonSchema = Record<string, unknown>;

const STRING_SAMPLES: Record<string, string> = {
  date: '2026-01-15',
  'date-time': '2026-01-15T12:00:00.000Z',
  uuid: '0194b1c2-7d3e-7a01-8f00-0000000000a1',
  email: 'pessoa@example.com',
  uri: 'https://example.com',
};

/**
 * A sample value for a JSON schema (the response example when a contract gives none): the schema's own
 * example or default first, then the first enum value, then a typed placeholder.
 */
export function exampleFor(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 8) return null;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum.find((value) => value !== null) ?? null;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key] as JsonSchema[] | undefined;
    if (options?.length) return exampleFor(options.find((option) => option.type !== 'null') ?? options[0], depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...(schema.allOf as JsonSchema[]).map((part) => exampleFor(part, depth + 1)));
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((candidate) => candidate !== 'null') ?? types[0];
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, exampleFor(property, depth + 1)]),
      );
    }
    case 'array':
      return schema.items ? [exampleFor(schema.items as JsonSchema, depth + 1)] : [];
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'string':
      return STRING_SAMPLES[String(schema.format)] ?? 'string';
    case 'null':
      return null;
    default:
      return schema.properties ? exampleFor({ ...schema, type: 'object' }, depth) : null;
  }
}
