import { type Tenant, TestStack } from '../../../test/support/stack.ts';
import { waitFor } from '../../../test/support/wait-for.ts';

const DEFAULTS = {
  auto_reconcile_enabled: false,
  include_bill_payments: false,
  include_current_bill_in_to_pay: true,
  include_investments: false,
  include_transfers: false,
  show_open_bill: true,
  time_zone: 'America/Sao_Paulo',
  cash_flow_threshold: 0,
};

describe('ledger: personal configuration through the gateway', () => {
  let stack: TestStack;
  let tenant: Tenant;

  beforeAll(async () => {
    stack = await TestStack.start();
    tenant = await stack.tenant();
  });
  afterAll(() => stack?.stop());

  const rows = (userId: string) => stack.sql('select * from ledger.personal_configs where user_id = $1', [userId]);

  it('when nothing was saved, then the defaults come with configured false and no row exists', async () => {
    const fresh = await stack.tenant();
    const response = await fresh.api.get('/v2/personal-config');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...DEFAULTS, configured: false });
    expect(await rows(fresh.userId)).toHaveLength(0);
    expect((await fresh.readOnly.get('/v2/personal-config')).status).toBe(200);
  });

  it('when some flags are saved, then only those change, configured turns true, and later PUTs keep the rest', async () => {
    const first = await tenant.api.put('/v2/personal-config', { include_transfers: true, show_open_bill: false });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ...DEFAULTS, include_transfers: true, show_open_bill: false, configured: true });
    const second = await tenant.api.put('/v2/personal-config', { auto_reconcile_enabled: true });
    expect(second.body).toEqual({
      ...DEFAULTS,
      include_transfers: true,
      show_open_bill: false,
      auto_reconcile_enabled: true,
      configured: true,
    });
    expect((await tenant.api.get('/v2/personal-config')).body).toEqual(second.body);
    const stored = await rows(tenant.userId);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      profile_id: null,
      auto_reconcile_enabled: true,
      include_bill_payments: false,
      include_current_bill_in_to_pay: true,
      include_investments: false,
      include_transfers: true,
      show_open_bill: false,
    });
  });

  it('when every flag is sent, then all six change', async () => {
    const fresh = await stack.tenant();
    const all = {
      auto_reconcile_enabled: true,
      include_bill_payments: true,
      include_current_bill_in_to_pay: false,
      include_investments: true,
      include_transfers: true,
      show_open_bill: false,
    };
    const response = await fresh.api.put('/v2/personal-config', all);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...all, time_zone: 'America/Sao_Paulo', cash_flow_threshold: 0, configured: true });
  });

  it('when concurrent first saves race, then one row per context holds both changes', async () => {
    const fresh = await stack.tenant();
    const results = await Promise.all([
      fresh.api.put('/v2/personal-config', { include_investments: true }),
      fresh.api.put('/v2/personal-config', { include_bill_payments: true }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(await rows(fresh.userId)).toHaveLength(1);
    expect((await fresh.api.get('/v2/personal-config')).body).toMatchObject({
      include_investments: true,
      include_bill_payments: true,
      configured: true,
    });
  });

  it('when the company context saves, then it is separate from the personal one', async () => {
    const fresh = await stack.tenant();
    const company = await stack.companyClient(fresh.userId);
    const response = await company.api.put('/v2/personal-config', { include_investments: true });
    expect(response.body).toEqual({ ...DEFAULTS, include_investments: true, configured: true });
    expect((await fresh.api.get('/v2/personal-config')).body).toEqual({ ...DEFAULTS, configured: false });
    const stored = await stack.sql('select profile_id from ledger.personal_configs where user_id = $1', [fresh.userId]);
    expect(stored).toEqual([{ profile_id: company.profileId }]);
    const inactive = await stack.companyClient(fresh.userId, 'inactive');
    expect((await inactive.api.get('/v2/personal-config')).body).toEqual({ ...DEFAULTS, configured: false });
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['no body at all', undefined, 'body'],
    ['configured (read-only)', { configured: true }, 'configured'],
    ['a flag as a string', { include_transfers: 'true' }, 'include_transfers'],
    ['an unknown flag', { include_everything: true }, 'include_everything'],
    ['a time zone Intl does not know', { time_zone: 'America/Atlantida' }, 'time_zone'],
    ['a UTC offset instead of a zone name', { time_zone: '-03:00' }, 'time_zone'],
    ['a time zone that is not a string', { time_zone: 3 }, 'time_zone'],
  ])('when the PUT has %s, then 400 with details and nothing is saved', async (_l, body, field) => {
    const fresh = await stack.tenant();
    const response = await fresh.api.put('/v2/personal-config', body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(response.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await rows(fresh.userId)).toHaveLength(0);
  });

  it('when a time zone is sent in another spelling, then its canonical IANA name is kept', async () => {
    const fresh = await stack.tenant();
    const response = await fresh.api.put('/v2/personal-config', { time_zone: 'america/manaus' });
    expect(response.status).toBe(200);
    expect(response.body.time_zone).toBe('America/Manaus');
  });

  it('when a time zone name is invalid, then the message is in Portuguese', async () => {
    const fresh = await stack.tenant();
    const response = await fresh.api.put('/v2/personal-config', { time_zone: 'Mars/Olympus' });
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([
      { field: 'time_zone', message: 'time_zone deve ser um fuso horário IANA válido, como America/Sao_Paulo' },
    ]);
  });

  it('when a context sets its time zone, then it is kept apart from the flags and from other contexts, and insights learns it', async () => {
    const fresh = await stack.tenant();
    const company = await stack.companyClient(fresh.userId);
    const saved = await fresh.api.put('/v2/personal-config', { time_zone: 'America/Manaus' });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ...DEFAULTS, time_zone: 'America/Manaus', configured: true });
    const flags = await fresh.api.put('/v2/personal-config', { include_transfers: true });
    expect(flags.body).toMatchObject({ include_transfers: true, time_zone: 'America/Manaus' });
    expect((await company.api.get('/v2/personal-config')).body.time_zone).toBe('America/Sao_Paulo');
    await company.api.put('/v2/personal-config', { time_zone: 'America/Rio_Branco' });
    expect((await company.api.get('/v2/personal-config')).body.time_zone).toBe('America/Rio_Branco');
    expect((await fresh.api.get('/v2/personal-config')).body.time_zone).toBe('America/Manaus');
    const stored = await stack.sql(
      'select profile_id, time_zone from ledger.personal_configs where user_id = $1 order by profile_id nulls first',
      [fresh.userId],
    );
    expect(stored).toEqual([
      { profile_id: null, time_zone: 'America/Manaus' },
      { profile_id: company.profileId, time_zone: 'America/Rio_Branco' },
    ]);
    // the daily jobs of insights run on each context's day: the zone reaches insights by event
    await waitFor(async () => {
      const zones = await stack.sql(
        'select context_id, time_zone from insights.context_time_zones where user_id = $1 order by profile_id nulls first',
        [fresh.userId],
      );
      return zones.length === 2 ? zones : undefined;
    }).then((zones) =>
      expect(zones).toEqual([
        { context_id: fresh.userId, time_zone: 'America/Manaus' },
        { context_id: company.profileId, time_zone: 'America/Rio_Branco' },
      ]),
    );
  });

  it('when many time zone changes race, then insights ends with the zone ledger kept', async () => {
    const fresh = await stack.tenant();
    const zones = ['America/Manaus', 'America/Belem', 'America/Cuiaba', 'America/Noronha', 'America/Rio_Branco'];
    const results = await Promise.all(
      [...zones, ...zones].map((zone) => fresh.api.put('/v2/personal-config', { time_zone: zone })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const [kept] = await stack.sql<{ time_zone: string }>(
      'select time_zone from ledger.personal_configs where user_id = $1',
      [fresh.userId],
    );
    const events = await stack.sql<{ id: string }>(
      "select id from ledger.outbox_events where type = 'context.time_zone_changed' and payload->'context'->>'user_id' = $1",
      [fresh.userId],
    );
    expect(events).toHaveLength(10);
    await waitFor(async () => {
      const done = await stack.sql('select 1 from insights.processed_events where event_id = any($1::uuid[])', [
        events.map((e) => e.id),
      ]);
      return done.length === 10;
    });
    const copy = await stack.sql('select time_zone from insights.context_time_zones where context_id = $1', [
      fresh.userId,
    ]);
    expect(copy).toEqual([{ time_zone: kept.time_zone }]);
  });

  it('when a read-only key saves, then 403 and nothing is saved', async () => {
    const fresh = await stack.tenant();
    const response = await fresh.readOnly.put('/v2/personal-config', { include_transfers: true });
    expect(response.status).toBe(403);
    expect(await rows(fresh.userId)).toHaveLength(0);
  });
});
