import { createRequire } from 'node:module';
import type Joi from 'joi';

export type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  required?: string[];
  $ref?: string;
};

/** A joi description node, as `schema.describe()` gives it. */
interface JoiSpec {
  type?: string;
  flags?: Record<string, unknown>;
  keys?: Record<string, JoiSpec>;
  rules?: Array<{ name: string; args?: Record<string, unknown> }>;
  allow?: unknown[];
  metas?: Array<Record<string, unknown>>;
  replacements?: unknown[];
  [key: string]: unknown;
}

interface ParserInstance {
  parse(spec: JoiSpec, definitions: Record<string, JsonSchema>, level: number): JsonSchema;
}
type ParserClass = new (
  options?: object,
) => ParserInstance & { _copyMetasToSchema(spec: JoiSpec, schema: JsonSchema): void };

// joi-to-json is CommonJS and exposes its parser classes only by file
const OpenApi31Parser = createRequire(import.meta.url)('joi-to-json/lib/parsers/open-api-3.1') as ParserClass;

export const SCHEMA_REF = '#/components/schemas/';
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

/** A case-insensitive regular expression for one word, in the ECMA-262 subset JSON Schema patterns share. */
const anyCase = (word: string) =>
  [...word]
    .map((char) => (char.toLowerCase() === char.toUpperCase() ? char : `[${char.toUpperCase()}${char.toLowerCase()}]`))
    .join('');

type Dependency = { peers: string[] };
const constrain = (schema: JsonSchema, rule: JsonSchema) => {
  schema.allOf = [...((schema.allOf as JsonSchema[] | undefined) ?? []), rule];
};
const pairsOf = (peers: string[]) => peers.flatMap((a, i) => peers.slice(i + 1).map((b) => [a, b]));

/** joi's `.xor()` and `.oxor()` in the plainest JSON Schema (joi-to-json's own forms read as illogical to linters). */
const LOGICAL_OPERATORS = {
  // exactly one of the peers
  xor: (schema: JsonSchema, { peers }: Dependency) =>
    constrain(schema, { oneOf: peers.map((peer) => ({ required: [peer] })) }),
  // at most one of the peers
  oxor: (schema: JsonSchema, { peers }: Dependency) => {
    const pairs = pairsOf(peers).map((pair) => ({ required: pair }));
    constrain(schema, { not: pairs.length === 1 ? pairs[0] : { anyOf: pairs } });
  },
};

/**
 * joi → OpenAPI 3.1 JSON Schema, saying what the joi schema accepts:
 * - every labelled joi schema (`.label('Account')`) becomes a named component schema, referenced with `$ref`;
 * - `Joi.object()` without keys accepts any keys (joi's own rule), so it is an open object;
 * - `.allow(null)` on alternatives adds `{type: 'null'}` to the `anyOf` (joi-to-json would set a bare `type: 'null'`);
 * - a string joi upper- or lower-cases before `.valid(...)` also takes the values in any letter case;
 * - `.meta({ openapi: {...} })` replaces keys where joi converts input before checking it (`.replace(...)`),
 *   so the document states the raw text joi takes.
 */
class ContractSchemaParser extends OpenApi31Parser {
  private readonly names = new Map<string, string>();

  constructor() {
    super({ logicalOpParser: LOGICAL_OPERATORS });
  }

  override parse(spec: JoiSpec, definitions: Record<string, JsonSchema>, level: number): JsonSchema {
    const label = spec.flags?.label;
    if (typeof label !== 'string' || !COMPONENT_NAME.test(label) || spec.flags?.id) {
      return super.parse(spec, definitions, level);
    }
    // the component is the record itself: whether a field requires it or allows null is the field's business
    const { presence: _presence, description, ...flags } = spec.flags ?? {};
    const nullable = spec.allow?.includes(null) === true && !flags.only;
    const allow = spec.allow?.filter((value) => value !== null);
    const record: JoiSpec = { ...spec, flags, ...(allow?.length ? { allow } : { allow: undefined }) };
    const name = this.componentName(label, record);
    const ref = super.parse({ ...record, flags: { ...flags, id: name } }, definitions, level);
    const described = typeof description === 'string' ? { description } : {};
    return nullable ? { anyOf: [ref, { type: 'null' }], ...described } : { ...ref, ...described };
  }

  /** Two different schemas with one label get `Label`, `Label2`…: a name never means two shapes. */
  private componentName(label: string, spec: JoiSpec): string {
    const fingerprint = JSON.stringify(spec);
    for (let n = 1; ; n++) {
      const name = n === 1 ? label : `${label}${n}`;
      const known = this.names.get(name);
      if (known === undefined) this.names.set(name, fingerprint);
      if (known === undefined || known === fingerprint) return name;
    }
  }

  override _copyMetasToSchema(spec: JoiSpec, schema: JsonSchema): void {
    super._copyMetasToSchema(spec, schema);
    if (spec.type === 'object' && spec.keys === undefined && spec.flags?.unknown !== false) {
      delete schema.properties;
      delete schema.required;
      delete schema.additionalProperties;
    }
    // Joi.any() takes any JSON value: no type at all (joi-to-json lists every type, an array without items)
    if (spec.type === 'any' && Array.isArray(schema.type) && schema.type.length >= 6) delete schema.type;
    if (Array.isArray(schema.anyOf) && schema.type === 'null') {
      delete schema.type;
      schema.anyOf = [...schema.anyOf, { type: 'null' }];
    }
    const converts = spec.rules?.some((rule) => rule.name === 'case');
    // one valid value is a `const`: the same case rule applies
    if (converts && typeof schema.const === 'string') {
      schema.enum = [schema.const];
      delete schema.const;
    }
    if (converts && Array.isArray(schema.enum)) {
      const words = schema.enum.filter((value): value is string => typeof value === 'string');
      const rest = schema.enum.filter((value) => typeof value !== 'string');
      const type = schema.type;
      delete schema.enum;
      delete schema.type;
      schema.anyOf = [
        { type: 'string', enum: words },
        {
          type: 'string',
          pattern: `^(?:${words.map(anyCase).join('|')})$`,
          description: 'The same values in any letter case',
        },
        ...rest.map((value) => ({ const: value })),
      ];
      if (Array.isArray(type) && type.includes('null') && !rest.includes(null))
        (schema.anyOf as JsonSchema[]).push({ type: 'null' });
    }
    for (const meta of spec.metas ?? []) {
      if (meta.openapi && typeof meta.openapi === 'object') Object.assign(schema, meta.openapi);
    }
  }
}

/** Converts contract schemas, collecting every named component schema they use on the way. */
export class SchemaRegistry {
  readonly components: Record<string, JsonSchema> = {};
  private readonly parser = new ContractSchemaParser();

  toSchema(schema: Joi.Schema): JsonSchema {
    // level 1: joi-to-json attaches the definitions to a level-0 schema; here they go to `components`
    return tidySchema(this.parser.parse(schema.describe() as JoiSpec, this.components, 1));
  }

  /** Follows `$ref`s into the components. */
  resolve(schema: JsonSchema | undefined): JsonSchema | undefined {
    let current = schema;
    for (let hops = 0; current?.$ref && hops < 16; hops++) {
      current = this.components[current.$ref.slice(SCHEMA_REF.length)];
    }
    return current;
  }
}

const SUBSCHEMA_LISTS = ['oneOf', 'anyOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMA_KEYS = ['not', 'if', 'then', 'else', 'items', 'contains', 'additionalProperties'] as const;
const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Rewrites, without changing what a schema accepts, what OpenAPI linters read wrongly: a boolean subschema
 * becomes `{}` / `{not: {}}`; a subschema that only names `required` properties (joi's `.xor()`, `.oxor()`)
 * also carries their schemas, copied from the object it constrains (the object checks them anyway).
 */
export function tidySchema(schema: JsonSchema, inherited: Record<string, JsonSchema> = {}): JsonSchema {
  const properties = isObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : undefined;
  const known = { ...inherited, ...properties };
  if (Array.isArray(schema.required) && schema.required.length) {
    const missing = schema.required.filter((name) => !properties?.[name] && known[name]);
    if (missing.length) {
      schema.properties = { ...properties, ...Object.fromEntries(missing.map((name) => [name, known[name]])) };
    }
  }
  for (const key of SUBSCHEMA_KEYS) {
    const value = schema[key];
    if (typeof value === 'boolean' && key !== 'additionalProperties') schema[key] = value ? {} : { not: {} };
    else if (isObject(value)) tidySchema(value, key === 'items' || key === 'contains' ? {} : known);
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) {
      schema[key] = list.map((item) =>
        typeof item === 'boolean'
          ? item
            ? {}
            : { not: {} }
          : isObject(item)
            ? tidySchema(item, key === 'prefixItems' ? {} : known)
            : item,
      );
    }
  }
  if (properties) for (const property of Object.values(properties)) if (isObject(property)) tidySchema(property);
  return schema;
}
