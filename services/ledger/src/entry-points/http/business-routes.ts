import type { PageQuery as PageInput } from '@finance/shared/contracts/common';
import { businessRoutes } from '@finance/shared/contracts/ledger/business';
import { routeById } from '@finance/shared/contracts/route';
import { mountRoute } from '@finance/shared/http/service-routes';
import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import { type DreChange, getDreMapping, updateDreMapping } from '../../domain/business/dre-mapping.ts';
import {
  type ContactInput,
  createContact,
  deleteContact,
  getContact,
  listContacts,
  updateContact,
} from '../../domain/business/manage-contacts.ts';
import {
  type CostCenterInput,
  createCostCenter,
  deleteCostCenter,
  getCostCenter,
  listCostCenters,
  updateCostCenter,
} from '../../domain/business/manage-cost-centers.ts';

const route = (operationId: string) => routeById(businessRoutes, operationId);

export function mountBusinessRoutes(router: Router, runtime: LedgerRuntime): void {
  const { orm } = runtime;
  const id = (params: Record<string, unknown>) => String(params.id);
  mountRoute(router, route('createContact'), (input, ctx) =>
    createContact(orm.em.fork(), ctx, input.body as ContactInput),
  );
  mountRoute(router, route('listContacts'), (input, ctx) => listContacts(orm.em.fork(), ctx, input.query as PageInput));
  mountRoute(router, route('getContact'), (input, ctx) => getContact(orm.em.fork(), ctx, id(input.params)));
  mountRoute(router, route('updateContact'), (input, ctx) =>
    updateContact(orm.em.fork(), ctx, id(input.params), input.body as ContactInput),
  );
  mountRoute(router, route('deleteContact'), (input, ctx) => deleteContact(orm.em.fork(), ctx, id(input.params)));
  mountRoute(router, route('createCostCenter'), (input, ctx) =>
    createCostCenter(orm.em.fork(), ctx, input.body as CostCenterInput),
  );
  mountRoute(router, route('listCostCenters'), (input, ctx) =>
    listCostCenters(orm.em.fork(), ctx, input.query as PageInput),
  );
  mountRoute(router, route('getCostCenter'), (input, ctx) => getCostCenter(orm.em.fork(), ctx, id(input.params)));
  mountRoute(router, route('updateCostCenter'), (input, ctx) =>
    updateCostCenter(orm.em.fork(), ctx, id(input.params), input.body as CostCenterInput),
  );
  mountRoute(router, route('deleteCostCenter'), (input, ctx) => deleteCostCenter(orm.em.fork(), ctx, id(input.params)));
  mountRoute(router, route('getDreMapping'), (_input, ctx) => getDreMapping(orm.em.fork(), ctx));
  mountRoute(router, route('updateDreMapping'), (input, ctx) =>
    updateDreMapping(orm.em.fork(), ctx, input.body as DreChange[]),
  );
}
