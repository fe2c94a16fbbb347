import { combined, type TenantRead, tenantsTable } from '../many-tenants.ts';

const read = (alone: number, crowded: number): TenantRead => ({
  context: 'company',
  route: 'GET /v1/reports/summary',
  path: '/v1/reports/summary',
  alone: { p50: alone, rps: 5, non2xx: 0 },
  crowded: { p50: crowded, rps: 5, non2xx: 0 },
  ratio: crowded / Math.max(alone, 0.1),
  windows: { alone: [alone], crowded: [crowded] },
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

describe('bench: the many-tenants windows combined', () => {
  const window = (p50: number, rps = 10, non2xx = 0) => ({ p50, rps, non2xx });

  it('when one window of three is far off, then the figure is the median, not moved by it', () => {
    expect(combined([window(100), window(2400), window(110)])).toEqual({ p50: 110, rps: 10, non2xx: 0 });
  });

  it('when the windows are even in number, then the p50 is the middle two averaged and failures are summed', () => {
    expect(combined([window(100, 8, 1), window(130, 12, 2)])).toEqual({ p50: 115, rps: 10, non2xx: 3 });
  });

  it('when a window had no answer, then it gives no p50 (only its rate counts) and no answers at all give 0', () => {
    expect(combined([window(0, 0), window(90, 4)]).p50).toBe(90);
    expect(combined([window(0, 0)]).p50).toBe(0);
  });
});
