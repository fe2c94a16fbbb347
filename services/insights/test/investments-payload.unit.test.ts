import { parseInvestmentsImported } from '../src/domain/investments/investments-payload.ts';

const USER = '0190a000-0000-7000-8000-000000000001';
const position = (overrides: Record<string, unknown> = {}) => ({
  investment_id: 'inv-1',
  name: 'Tesouro Selic',
  bank_name: 'Banco A',
  type: 'FIXED_INCOME',
  subtype: 'TREASURY',
  snapshots: [{ date: '2026-04-01', balance_cents: 100 }],
  ...overrides,
});
const payload = (investments: unknown[], extra: Record<string, unknown> = {}) => ({
  background_job_id: 'job-1',
  context: { user_id: USER, profile_id: null },
  connection_id: 'conn-1',
  investments,
  ...extra,
});

describe('investments.imported payload', () => {
  it('when it is valid, then it gives the caller context and the positions', () => {
    expect(parseInvestmentsImported(payload([position()]))).toEqual({
      backgroundJobId: 'job-1',
      ctx: { userId: USER, profileId: null, business: false, keyId: null },
      connectionId: 'conn-1',
      positions: [position()],
    });
  });

  it('when an investment or a day repeats, then the last one wins', () => {
    const parsed = parseInvestmentsImported(
      payload([
        position({
          snapshots: [
            { date: '2026-04-01', balance_cents: 1 },
            { date: '2026-04-02', balance_cents: 2 },
          ],
        }),
        position({ name: 'Novo nome', subtype: '', snapshots: [{ date: '2026-04-02', balance_cents: 3 }] }),
      ]),
    );
    expect(parsed).toMatchObject({
      positions: [
        {
          name: 'Novo nome',
          subtype: null,
          snapshots: [
            { date: '2026-04-01', balance_cents: 1 },
            { date: '2026-04-02', balance_cents: 3 },
          ],
        },
      ],
    });
  });

  it.each([
    ['no context', { context: undefined }, 'context'],
    ['a user id that is not a uuid', { context: { user_id: 'x', profile_id: null } }, 'user_id'],
    ['no investments list', { investments: 'x' }, 'investments'],
    [
      'an impossible day',
      { investments: [position({ snapshots: [{ date: '2026-02-30', balance_cents: 1 }] })] },
      'date',
    ],
    [
      'fractional cents',
      { investments: [position({ snapshots: [{ date: '2026-02-03', balance_cents: 1.5 }] })] },
      'balance_cents',
    ],
    [
      'cents as a string',
      { investments: [position({ snapshots: [{ date: '2026-02-03', balance_cents: '1' }] })] },
      'balance_cents',
    ],
    [
      'an unsafe integer',
      { investments: [position({ snapshots: [{ date: '2026-02-03', balance_cents: 2 ** 60 }] })] },
      'balance_cents',
    ],
    ['an empty investment id', { investments: [position({ investment_id: ' ' })] }, 'investment_id'],
  ])('when it has %s, then it is poisoned with a clear reason', (_name, extra, field) => {
    const parsed = parseInvestmentsImported(payload([position()], extra));
    expect(parsed).toEqual({ error: expect.stringContaining('payload investments.imported inválido') });
    expect((parsed as { error: string }).error).toContain(field);
  });
});
