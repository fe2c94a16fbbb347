import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';

const swaggerDist = path.dirname(
  createRequire(path.join(process.cwd(), 'package.json')).resolve('swagger-ui-dist/package.json'),
);

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Finance API docs</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, docExpansion: 'list' });`;

/** `GET /docs`: Swagger UI served from the installed package (no CDN), rendering `/openapi.json`. */
export function docsRouter(): Router {
  const router = express.Router();
  router.get('/docs', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.use('/docs/assets', express.static(swaggerDist, { index: false, maxAge: '1h' }));
  return router;
}
