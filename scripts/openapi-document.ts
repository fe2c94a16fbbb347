import { publicRoutes } from '@finance/shared/contracts/index';
import { API_VERSION, buildOpenApi } from '../services/gateway/src/entry-points/http/openapi.ts';

/** The document the gateway serves at `/openapi.json`, built the same way without starting it. */
export const openApiDocument = () => buildOpenApi(publicRoutes, API_VERSION);
