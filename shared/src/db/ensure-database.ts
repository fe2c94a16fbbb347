import pg from 'pg';

/** Creates the database named in the URL when it is missing (the server's `postgres` database must be reachable). */
export async function ensureDatabase(clientUrl: string): Promise<void> {
  const url = new URL(clientUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const admin = new URL(clientUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`create database "${name.replaceAll('"', '""')}"`).catch((err: { code?: string }) => {
        // another process created it first
        if (err.code !== '42P04' && err.code !== '23505') throw err;
      });
    }
  } finally {
    await client.end();
  }
}
