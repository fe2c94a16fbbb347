import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * The checks of the layers that dependency-cruiser (.dependency-cruiser.cjs) cannot make: SQL text in
 * `domain/` or `entry-points/`, `@mikro-orm/*` imports of `domain/` other than `import type`, a service
 * running SQL on `em.getConnection()` instead of the one helper `runSql` (shared/src/db/sql.ts), an entry
 * point casting a handler's input instead of taking the type its contract gives, and `domain/` reading the time
 * around the one clock.
 * scripts/check-layers.ts runs them in `npm run lint`; test/tooling/layers.unit.test.ts proves they fail.
 */

/** A statement's opening words; in a string or template literal of `domain/` or `entry-points/` it is SQL. */
export const SQL_TEXT = /\b(select|insert into|update \w+(?: (?:as )?\w+)? set|delete from)\b/i;

/**
 * A type assertion an entry point would need if a handler's input did not come typed from its contract
 * (`input.body as XInput`, `x as unknown as Y`): handlers take the contract's types as they are.
 */
export const INPUT_CAST =
  /\sas unknown as\s|\sas [A-Z][A-Za-z]*Input\b|\b(?:input|params|query|body)(?:\.\w+)*\s+as\s+[A-Z{]/;

/**
 * The time read around the one clock (`now()` of shared/src/clock.ts, which a test can start or fix): a domain rule
 * reading it this way would not follow a test's clock. Elapsed time is `performance.now()`.
 */
export const CLOCK_BYPASS = /\bnew Date\(\s*\)|\bDate\.now\(\s*\)/;

/**
 * Domain files of the ledger whose SQL has not yet moved to `data-access/` (a debt, listed so it only shrinks:
 * a listed file without SQL fails the check too, so the entry is removed with the move).
 */
export const PENDING_SQL_IN_DOMAIN: readonly string[] = [];

const LITERAL_OR_COMMENT =
  /\/\/[^\n]*|\/\*[\s\S]*?\*\/|`(?:\\[\s\S]|[^`\\])*`|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g;
const IMPORT = /^import\s+(type\s+)?(?:\{([^}]*)\}|[\w*\s,]+?)\s*from\s+'([^']+)'/gm;

const walk = (dir: string): string[] => {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
};

/** The source with its comments and string literals blanked out (code only). */
const stripLiterals = (source: string): string => source.replace(LITERAL_OR_COMMENT, '""');

/** The first string or template literal of a source holding SQL text, or null. */
export function sqlLiteral(source: string): string | null {
  for (const [token] of source.matchAll(LITERAL_OR_COMMENT)) {
    if (token.startsWith('//') || token.startsWith('/*')) continue;
    if (SQL_TEXT.test(token)) return token.length > 80 ? `${token.slice(0, 77)}...` : token;
  }
  return null;
}

/** The `@mikro-orm/*` imports of a source that bring a runtime value (not `import type`, not only `type X`). */
export function ormValueImports(source: string): string[] {
  const found: string[] = [];
  for (const [, typeOnly, names, from] of source.matchAll(IMPORT)) {
    if (!from.startsWith('@mikro-orm/') || typeOnly) continue;
    const values = names === undefined ? ['*'] : names.split(',').map((name) => name.trim());
    if (values.some((name) => name !== '' && !name.startsWith('type '))) found.push(from);
  }
  return found;
}

/** Every violation under `root` (a repository checkout), as `path: reason` lines; empty when the layers hold. */
export function checkLayers(root: string, pending: readonly string[] = PENDING_SQL_IN_DOMAIN): string[] {
  const problems: string[] = [];
  const services = join(root, 'services');
  let names: string[] = [];
  try {
    names = readdirSync(services);
  } catch {
    return [`${services}: no services directory`];
  }
  for (const service of names) {
    for (const file of walk(join(services, service, 'src'))) {
      if (/\.getConnection\(\)/.test(readFileSync(file, 'utf8'))) {
        const path = relative(root, file).split(sep).join('/');
        problems.push(
          `${path}: runs SQL on the connection itself (use runSql of @finance/shared/db/sql in data-access/)`,
        );
      }
    }
    for (const layer of ['domain', 'entry-points']) {
      for (const file of walk(join(services, service, 'src', layer))) {
        const path = relative(root, file).split(sep).join('/');
        const source = readFileSync(file, 'utf8');
        const sql = sqlLiteral(source);
        const listed = layer === 'domain' && pending.includes(path);
        if (sql && !listed) problems.push(`${path}: SQL outside data-access/ (${sql.replace(/\s+/g, ' ')})`);
        if (!sql && listed) problems.push(`${path}: holds no SQL any more; remove it from PENDING_SQL_IN_DOMAIN`);
        const cast = layer === 'entry-points' ? stripLiterals(source).match(INPUT_CAST) : null;
        if (cast) problems.push(`${path}: casts a handler's input (${cast[0].trim()}); type it in its contract`);
        if (layer === 'domain') {
          const clock = stripLiterals(source).match(CLOCK_BYPASS);
          if (clock) problems.push(`${path}: reads the time with ${clock[0]} (use now() of @finance/shared/clock)`);
          for (const from of ormValueImports(source)) {
            problems.push(`${path}: imports a runtime value of ${from} (domain/ may use \`import type\` only)`);
          }
        }
      }
    }
  }
  return problems;
}
