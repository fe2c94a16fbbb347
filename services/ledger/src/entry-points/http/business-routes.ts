import { businessRoutes } from '@finance/shared/contracts/ledger/business';
import { lookupIn } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import { getDreMapping, updateDreMapping } from '../../domain/business/dre-mapping.ts';
import {
  createContact,
  deleteContact,
  getContact,
  listContacts,
  updateContact,
} from '../../domain/business/manage-contacts.ts';
import {
  createCostCenter,
  deleteCostCenter,
  getCostCenter,
  listCostCenters,
  updateCostCenter,
} from '../../domain/business/manage-cost-centers.ts';

const route = lookupIn(businessRoutes);

export function mountBusinessRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  mountRoute(router, route('createContact'), ({ body }, ctx) => createContact(orm.em.fork(), ctx, body));
  mountRoute(router, route('listContacts'), ({ query }, ctx) => listContacts(orm.em.fork(), ctx, query));
  mountRoute(router, route('getContact'), ({ params }, ctx) => getContact(orm.em.fork(), ctx, params.id));
  mountRoute(router, route('updateContact'), ({ params, body }, ctx) =>
    updateContact(orm.em.fork(), ctx, params.id, body),
  );
  mountRoute(router, route('deleteContact'), ({ params }, ctx) => deleteContact(orm.em.fork(), ctx, params.id));
  mountRoute(router, route('createCostCenter'), ({ body }, ctx) => createCostCenter(orm.em.fork(), ctx, body));
  mountRoute(router, route('listCostCenters'), ({ query }, ctx) => listCostCenters(orm.em.fork(), ctx, query));
  mountRoute(router, route('getCostCenter'), ({ params }, ctx) => getCostCenter(orm.em.fork(), ctx, params.id));
  mountRoute(router, route('updateCostCenter'), ({ params, body }, ctx) =>
    updateCostCenter(orm.em.fork(), ctx, params.id, body),
  );
  mountRoute(router, route('deleteCostCenter'), ({ params }, ctx) => deleteCostCenter(orm.em.fork(), ctx, params.id));
  mountRoute(router, route('getDreMapping'), (_input, ctx) => getDreMapping(orm.em.fork(), ctx));
  mountRoute(router, route('updateDreMapping'), ({ body }, ctx) => updateDreMapping(orm.em.fork(), ctx, body));
}
