import { loadCommonConfig } from '@finance/shared/config/load-config';
import { ensureDatabase, initOrm, migrateSchema } from '@finance/shared/db/orm';
import { serviceSchemas } from './service-schemas.ts';

/** Applies every service's migrations (the Helm pre-install/upgrade Job and docker-compose `migrate`). */
// Only the keys every service shares: migrating needs no gateway secret such as KEY_PEPPER.
const config = loadCommonConfig();
await ensureDatabase(config.DATABASE_URL);
for (const service of serviceSchemas) {
  const orm = await initOrm({ ...service, clientUrl: config.DATABASE_URL });
  try {
    await migrateSchema(orm, config.DATABASE_URL, service.schema);
    console.log(JSON.stringify({ schema: service.schema, migrated: true }));
  } finally {
    await orm.close();
  }
}
