import type { Router } from 'express';
import type { LedgerRuntime } from '../../config.ts';
import { mountBusinessRoutes } from './business-routes.ts';
import { mountCategoryRoutes } from './category-routes.ts';
import { mountPersonalConfigRoutes } from './personal-config-routes.ts';
import { mountTagRoutes } from './tag-routes.ts';

/** Categories, subcategories, tags, preferences and business records. */
export function mountReferenceRoutes(router: Router, runtime: LedgerRuntime): void {
  mountCategoryRoutes(router, runtime);
  mountTagRoutes(router, runtime);
  mountPersonalConfigRoutes(router, runtime);
  mountBusinessRoutes(router, runtime);
}
