import { loadLedgerConfig } from '../src/config.ts';

const PRODUCTION = {
  NODE_ENV: 'production',
  INTERNAL_SECRET: 'a-production-secret-of-at-least-32-characters',
  DATABASE_URL: 'postgresql://finance@db.internal:5432/finance',
  REDIS_URL: 'redis://redis.internal:6379',
};

describe('the ledger configuration in production', () => {
  it('when no institution of its own is configured, then it starts without the keyring (a deployment without Open Finance)', () => {
    expect(loadLedgerConfig(PRODUCTION).OPEN_BANKING_ENCRYPTION_KEYS).toBeUndefined();
  });

  it('when OPEN_BANKING_CLIENTS is set, then OPEN_BANKING_ENCRYPTION_KEYS is required', () => {
    expect(() => loadLedgerConfig({ ...PRODUCTION, OPEN_BANKING_CLIENTS: '[]' })).toThrow(
      /OPEN_BANKING_ENCRYPTION_KEYS/,
    );
    const keys = `k1:${Buffer.alloc(32, 1).toString('base64')}`;
    expect(
      loadLedgerConfig({ ...PRODUCTION, OPEN_BANKING_CLIENTS: '[]', OPEN_BANKING_ENCRYPTION_KEYS: keys })
        .OPEN_BANKING_ENCRYPTION_KEYS,
    ).toBe(keys);
  });
});
