import { readFileSync, writeFileSync } from 'node:fs';
import type Joi from 'joi';
import { billingConfigSchema } from '../services/billing/src/config.ts';
import { gatewayConfigSchema } from '../services/gateway/src/config.ts';
import { insightsConfigSchema } from '../services/insights/src/config.ts';
import { ledgerConfigSchema } from '../services/ledger/src/config.ts';

/** Prints the configuration table of docs/operations.md from the joi schemas that validate it at start. */
const schemas: Record<string, Joi.ObjectSchema> = {
  gateway: gatewayConfigSchema,
  ledger: ledgerConfigSchema,
  billing: billingConfigSchema,
  insights: insightsConfigSchema,
};

interface KeyInfo {
  description: string;
  defaults: Array<[service: string, value: unknown]>;
  services: string[];
}

type Described = { keys: Record<string, { flags?: { description?: string; default?: unknown }; whens?: unknown[] }> };

export function configKeys(): Map<string, KeyInfo> {
  const keys = new Map<string, KeyInfo>();
  for (const [service, schema] of Object.entries(schemas)) {
    for (const [name, info] of Object.entries((schema.describe() as Described).keys)) {
      const entry = keys.get(name) ?? { description: info.flags?.description ?? '', defaults: [], services: [] };
      const fallback = info.whens ? 'development value; required in production' : info.flags?.default;
      entry.defaults.push([service, fallback]);
      entry.services.push(service);
      keys.set(name, entry);
    }
  }
  return keys;
}

function formatDefault(defaults: KeyInfo['defaults']): string {
  const values = new Set(defaults.map(([, value]) => String(value)));
  if (values.size === 1) return defaults[0][1] === undefined ? '—' : `\`${String(defaults[0][1])}\``;
  // the same key defaults differently per service (PORT): show each
  return defaults.map(([service, value]) => `\`${String(value)}\` (${service})`).join(', ');
}

export function configTable(): string {
  const rows = [...configKeys()].map(([name, info]) => {
    const services = info.services.length === 4 ? 'all' : info.services.join(', ');
    return `| \`${name}\` | ${services} | ${formatDefault(info.defaults)} | ${info.description} |`;
  });
  return ['| variable | services | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** The document that holds the table, between its markers. */
export const CONFIG_TABLE_DOC = 'docs/operations.md';
export const CONFIG_TABLE_MARKERS = ['<!-- config-table:start -->', '<!-- config-table:end -->'] as const;

/** The document's text with the table between its markers replaced by the current one. */
export function withConfigTable(doc: string): string {
  const [start, end] = CONFIG_TABLE_MARKERS;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${CONFIG_TABLE_DOC} has no config-table markers`);
  return `${doc.slice(0, from + start.length)}\n${configTable()}\n${doc.slice(to)}`;
}

if (process.argv[1]?.endsWith('config-table.ts')) {
  if (process.argv.includes('--write')) {
    writeFileSync(CONFIG_TABLE_DOC, withConfigTable(readFileSync(CONFIG_TABLE_DOC, 'utf8')));
  } else {
    console.log(configTable());
  }
}
