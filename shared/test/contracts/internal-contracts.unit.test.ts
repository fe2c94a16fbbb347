import { publicRoutes } from '@finance/shared/contracts/index';
import { internalRoutes } from '@finance/shared/contracts/internal/index';
import { openApiDocument } from '../../../scripts/openapi-document.ts';

const named = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;

describe('internal contracts: service to service only', () => {
  it('when the internal table is read, then every contract is internal, under /internal/ and owned by a service', () => {
    expect(internalRoutes.length).toBeGreaterThanOrEqual(18);
    for (const route of internalRoutes) {
      expect({ route: named(route), internal: route.internal }).toEqual({ route: named(route), internal: true });
      expect(route.path).toMatch(/^\/internal\/v1\//);
      expect(['ledger', 'billing']).toContain(route.service);
    }
  });

  it('when the public table is read, then it holds no internal contract (the gateway routes only these)', () => {
    expect(publicRoutes.filter((route) => route.internal).map(named)).toEqual([]);
    const internal = new Set(internalRoutes);
    expect(publicRoutes.filter((route) => internal.has(route)).map(named)).toEqual([]);
    expect(publicRoutes.filter((route) => route.path.startsWith('/internal/')).map(named)).toEqual([]);
  });

  it('when the OpenAPI document is built, then no internal path or operation is in it', () => {
    const document = openApiDocument() as unknown as { paths: Record<string, Record<string, { operationId: string }>> };
    const paths = Object.keys(document.paths);
    expect(paths.filter((path) => path.startsWith('/internal'))).toEqual([]);
    const operations = new Set(
      Object.values(document.paths).flatMap((operations) => Object.values(operations).map((op) => op.operationId)),
    );
    expect(internalRoutes.filter((route) => operations.has(route.operationId)).map(named)).toEqual([]);
  });

  it('when both tables are read, then operationIds and method + path pairs are unique across them', () => {
    const all = [...publicRoutes, ...internalRoutes];
    expect(new Set(all.map((route) => route.operationId)).size).toBe(all.length);
    expect(new Set(all.map(named)).size).toBe(all.length);
  });
});
