import type { NextFunction, Request, Response } from 'express';
import Joi from 'joi';
import { AppError, type FieldError } from '../errors/app-error.ts';
import { joiMessagesPt } from './joi-messages.ts';
import { ReceivedFile } from './received-file.ts';

/** Fields a client may send but never sets (docs/decisions.md §2): dropped before validation. */
const SERVER_OWNED = ['id', 'user_id', 'profile_id', 'createdAt', 'updatedAt'];

export interface Validated {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

export interface RequestSchemas {
  params?: Joi.ObjectSchema;
  query?: Joi.ObjectSchema;
  body?: Joi.Schema;
}

// joi parses string messages into templates on every validate call (~0.5 ms): parse them once
const MESSAGES = Object.fromEntries(Object.entries(joiMessagesPt).map(([code, text]) => [code, Joi.expression(text)]));

const OPTIONS: Joi.ValidationOptions = {
  abortEarly: false,
  convert: true,
  errors: { wrap: { label: false } },
  messages: MESSAGES,
};

/**
 * Each schema with OPTIONS baked in, built once: joi merges and clones the messages of options passed to
 * `validate()` on every call (≈7 % of the ledger's CPU under creates), but caches a schema's own preferences.
 * The schema's own preferences (a root `.messages()`) are applied again on top, so they still win as before.
 */
const prepared = new WeakMap<Joi.Schema, Joi.Schema>();

function withOptions(schema: Joi.Schema): Joi.Schema {
  let found = prepared.get(schema);
  if (!found) {
    const own = schema.describe().preferences as Joi.ValidationOptions | undefined;
    found = own ? schema.prefs(OPTIONS).prefs(own) : schema.prefs(OPTIONS);
    prepared.set(schema, found);
  }
  return found;
}

/** What an error body quotes of the request (a field's name or path), in characters. */
export const MAX_QUOTED = 200;
/** Problems listed in one 400's `details`: a body of thousands of bad fields still answers a few kilobytes. */
export const MAX_DETAILS = 100;

const cut = (text: string) => (text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text);

/**
 * A problem as `details` shows it (docs/decisions.md §3): the field named once, cut to MAX_QUOTED characters; a
 * message that would repeat a longer name (joi's label) says "campo" instead, and no message outgrows the bound.
 */
function detail(field: string, message: string, label: string | undefined): FieldError {
  const long = label !== undefined && label.length > MAX_QUOTED;
  const text = long ? message.split(label).join('campo') : message;
  return { field: cut(field), message: text.length > 2 * MAX_QUOTED ? `${text.slice(0, 2 * MAX_QUOTED)}…` : text };
}

function toDetails(part: string, error: Joi.ValidationError): FieldError[] {
  return error.details.map((d) =>
    detail(d.path.length ? d.path.join('.') : part, d.message, d.context?.label as string | undefined),
  );
}

/** Postgres text and jsonb cannot hold U+0000: a string carrying it is bad input, not a failed write. */
function nulDetails(part: string, value: unknown): FieldError[] {
  const found: FieldError[] = [];
  const path: string[] = [];
  const add = () => {
    const field = path.length ? path.join('.') : part;
    found.push(detail(field, `${field} não pode conter o caractere nulo (U+0000)`, field));
  };
  const walk = (item: unknown) => {
    // a file body (statements) is bytes, not text fields
    if (item instanceof ReceivedFile) return;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) add();
      return;
    }
    if (!item || typeof item !== 'object') return;
    for (const [key, child] of Object.entries(item)) {
      path.push(key);
      if (key.includes('\u0000')) add();
      else walk(child);
      path.pop();
    }
  };
  walk(value);
  return found;
}

/** The body object, or each object of a body array (the DRE mapping), without the server-owned fields. */
export function stripServerOwned(body: unknown): unknown {
  if (Array.isArray(body)) return body.map((item) => (Array.isArray(item) ? item : stripServerOwned(item)));
  if (!body || typeof body !== 'object' || body instanceof ReceivedFile) return body;
  const copy = { ...(body as Record<string, unknown>) };
  for (const key of SERVER_OWNED) delete copy[key];
  return copy;
}

export function validateRequest(schemas: RequestSchemas, req: Request): Validated {
  const details: FieldError[] = [];
  const out: Validated = { params: {}, query: {}, body: undefined };
  const parts: Array<[keyof RequestSchemas, unknown]> = [
    ['params', req.params],
    ['query', req.query],
    ['body', stripServerOwned(req.body)],
  ];
  for (const [part, input] of parts) {
    const schema = schemas[part];
    if (!schema) {
      if (part === 'body') out.body = input;
      continue;
    }
    // a route with a body schema sent no body: validate an empty one, so required fields answer 400
    const { value, error } = withOptions(schema).validate(input ?? {});
    if (error) details.push(...toDetails(part, error));
    else {
      details.push(...nulDetails(part, value));
      (out as unknown as Record<string, unknown>)[part] = value;
    }
  }
  if (details.length) throw new AppError(400, 'Dados inválidos', { details: details.slice(0, MAX_DETAILS) });
  return out;
}

/** Express middleware form: the converted values land in `res.locals.input`. */
export function validate(schemas: RequestSchemas) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.locals.input = validateRequest(schemas, req);
    next();
  };
}
