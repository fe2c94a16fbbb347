import { stripServerOwned } from '@finance/shared/http/validate';
import { openApiDocument } from '../../scripts/openapi-document.ts';
import { documentValidator } from './json-schema.ts';

type Json = Record<string, any>;

/** One request and its answer, as the test client saw them. */
export interface Exchange {
  method: string;
  /** Path with query string. */
  url: string;
  /** The JSON body sent; `undefined` when none; `rawBody` when the text was not JSON. */
  body?: unknown;
  rawBody?: string;
  status: number;
  responseBody: unknown;
  headers: Headers;
}

interface Operation {
  method: string;
  path: string;
  pattern: RegExp;
  names: string[];
  operation: Json;
}

/** Headers the gateway adds that the document states per response. */
const GATEWAY_HEADERS = ['x-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after', 'idempotent-replayed'];

let loaded: { operations: Operation[]; check: ReturnType<typeof documentValidator> } | undefined;

function load() {
  if (loaded) return loaded;
  const document = JSON.parse(JSON.stringify(openApiDocument())) as Json;
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(methods as Json)) {
      const names: string[] = [];
      const source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{(\w+)\\\}/g, (_all, name) => {
        names.push(name);
        return '([^/]+)';
      });
      operations.push({ method: method.toUpperCase(), path, pattern: new RegExp(`^${source}$`), names, operation });
    }
  }
  // literal segments win over parameters, as in the gateway's router
  operations.sort((a, b) => a.names.length - b.names.length);
  loaded = { operations, check: documentValidator(document.components) };
  return loaded;
}

/** A query or path value as the server's joi sees it: numbers and booleans from their text. */
function coerced(text: string, schema: Json): unknown {
  const types = [schema?.type ?? []].flat() as string[];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('array')) return [text];
  return text;
}

/**
 * Checks one request/response pair against the OpenAPI document the gateway serves:
 * - the answer's status is documented for the operation, and its JSON body validates against that schema;
 * - a request the server accepted (2xx) validates against the document: path and query parameters and the
 *   body (a server that takes what the document refuses is a mismatch too).
 * Requests to paths or methods the document does not have (probes, docs, unknown routes) are not checked.
 */
export function openApiMismatches(exchange: Exchange): string[] {
  const { operations, check } = load();
  const [pathname, search = ''] = exchange.url.split('?', 2);
  const method = exchange.method.toUpperCase();
  const found = operations.find((op) => op.method === method && op.pattern.test(pathname));
  if (!found) return [];
  const where = `${method} ${found.path} → ${exchange.status}`;
  const problems: string[] = [];
  const response = found.operation.responses[String(exchange.status)];
  if (!response) problems.push(`${where}: status not documented`);
  if (response) {
    const documented = new Set(Object.keys(response.headers ?? {}).map((name) => name.toLowerCase()));
    for (const name of GATEWAY_HEADERS) {
      if (exchange.headers.has(name) && !documented.has(name)) problems.push(`${where}: header ${name} not documented`);
    }
    if (documented.has('x-request-id') && !exchange.headers.has('x-request-id'))
      problems.push(`${where}: documented header x-request-id missing`);
  }
  const schema = response?.content?.['application/json']?.schema;
  if (schema && exchange.responseBody !== undefined) {
    for (const error of check(schema, exchange.responseBody)) problems.push(`${where}: response body ${error}`);
  }
  if (exchange.status >= 200 && exchange.status < 300) {
    const parameters = (found.operation.parameters ?? []) as Json[];
    const values = found.pattern.exec(pathname)?.slice(1) ?? [];
    found.names.forEach((name, i) => {
      const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
      const value = decodeURIComponent(values[i]);
      for (const error of check(parameter?.schema ?? {}, coerced(value, parameter?.schema)))
        problems.push(`${where}: path parameter ${name} ${error}`);
    });
    const query = new URLSearchParams(search);
    for (const name of new Set(query.keys())) {
      const parameter = parameters.find((p) => p.in === 'query' && p.name === name);
      if (!parameter) {
        problems.push(`${where}: query parameter ${name} not documented`);
        continue;
      }
      const all = query.getAll(name);
      const value = [parameter.schema?.type].flat().includes('array')
        ? all
        : coerced(all[all.length - 1], parameter.schema);
      for (const error of check(parameter.schema ?? {}, value))
        problems.push(`${where}: query parameter ${name} ${error}`);
    }
    const requestSchema = found.operation.requestBody?.content?.['application/json']?.schema;
    if (requestSchema && exchange.rawBody === undefined) {
      // the services drop server-owned fields (id, user_id, …) before validation, so a client may send them
      const sent = stripServerOwned(exchange.body);
      for (const error of check(requestSchema, sent)) problems.push(`${where}: request body ${error}`);
    }
  }
  return problems;
}
