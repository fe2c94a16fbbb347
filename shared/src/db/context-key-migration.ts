import { Migration } from '@mikro-orm/migrations';
import { CONTEXT_ID_COLUMN } from './context-scope.ts';

/** An index by name and definition: `table (columns) [where ...]`, prefixed `unique ` for a unique one. */
export type IndexDefinition = [name: string, definition: string];

/**
 * A service's migration to the context key: `context_id` on each tenant table (PostgreSQL fills it for existing
 * rows), then each index a context's statements use rebuilt under its name to lead with it; `superseded` ones dropped.
 */
export function contextKeyMigration(
  tables: readonly string[],
  indexes: readonly IndexDefinition[],
  superseded: readonly string[] = [],
) {
  return class ContextKey extends Migration {
    override async up(): Promise<void> {
      for (const table of tables) this.addSql(`alter table ${table} add column ${CONTEXT_ID_COLUMN}`);
      for (const [name, definition] of indexes) {
        const unique = definition.startsWith('unique ');
        this.addSql(`drop index if exists ${name}`);
        this.addSql(`create ${unique ? 'unique ' : ''}index ${name} on ${definition.replace(/^unique /, '')}`);
      }
      for (const name of superseded) this.addSql(`drop index if exists ${name}`);
    }
  };
}
