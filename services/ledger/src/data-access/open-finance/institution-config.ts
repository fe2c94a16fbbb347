import { readFileSync } from 'node:fs';

/** A configuration value that is either JSON itself or the path of a JSON file; unset is an empty list. */
export function jsonOrFile(value: string | undefined): unknown {
  if (!value) return [];
  const text = value.trim().startsWith('[') ? value : readFileSync(value, 'utf8');
  return JSON.parse(text);
}
