import { type TenantRead, tenantsTable } from '../many-tenants.ts';

const read = (alone: number, crowded: number): TenantRead => ({
  context: 'company',
  route: 'GET /v1/reports/summary',
  path: '/v1/reports/summary',
  alone: { p50: alone, rps: 5, non2xx: 0 },
  crowded: { p50: crowded, rps: 5, non2xx: 0 },
  ratio: crowded / Math.max(alone, 0.1),
});

describe('bench: the many-tenants table', () => {
  it('when a read answered in both windows, then its row has both p50s and their ratio', () => {
    const [, , row] = tenantsTable({
      contexts: 2000,
      otherRows: {},
      seedSeconds: 1,
      reads: [read(100, 120)],
      wholeScans: [],
    }).split('\n');
    expect(row).toBe('| company | `GET /v1/reports/summary` | 100 | 120 | 1.20× |');
  });

  it('when no answer arrived in a window, then the row says so and has no ratio (not 0.00×)', () => {
    const [, , row] = tenantsTable({
      contexts: 2000,
      otherRows: {},
      seedSeconds: 1,
      reads: [read(100, 0)],
      wholeScans: [],
    }).split('\n');
    expect(row).toBe('| company | `GET /v1/reports/summary` | 100 | no answer in the window | — |');
  });
});
