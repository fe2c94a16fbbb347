# syntax=docker/dockerfile:1
#
# One image for every service of finance-api. Node 24 runs the TypeScript
# sources directly (type stripping), so there is no compile step: the image
# holds the sources plus production node_modules, and Node's compile cache of
# them (filled at build time, so no service strips types as it starts). Every
# process runs through scripts/runtime.sh, as under `npm start`: the runtime
# settings live there only.
#
#   docker build -t finance-api .
#   docker run finance-api                                   # gateway (default)
#   docker run finance-api node services/ledger/src/main.ts  # any other service
#   docker run finance-api node scripts/migrate.ts           # migrations

ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------------------
# deps: full install (dev dependencies included) from the lockfile. Only the
# manifests are copied first so this layer is cached until they change.
# ---------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .nvmrc ./
COPY shared/package.json shared/package.json
COPY clients/typescript/package.json clients/typescript/package.json
COPY services/gateway/package.json services/gateway/package.json
COPY services/ledger/package.json services/ledger/package.json
COPY services/billing/package.json services/billing/package.json
COPY services/insights/package.json services/insights/package.json
COPY sandbox/package.json sandbox/package.json
RUN npm ci --no-audit --no-fund

# ---------------------------------------------------------------------------
# build: sources on top of the full install; type-check here so a broken tree
# never becomes an image (there is nothing to emit: Node runs .ts directly).
# ---------------------------------------------------------------------------
FROM deps AS build
COPY . .
RUN npm run typecheck

# ---------------------------------------------------------------------------
# prod-deps: production dependencies only. `node@24` is a devDependency (it
# pins npm scripts to Node 24 on hosts with an older Node) and is not needed
# here, because the base image already is Node 24. --ignore-scripts: runtime
# native modules ship prebuilt binaries.
# ---------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY --from=deps /app/package.json /app/package-lock.json ./
COPY --from=deps /app/shared/package.json shared/package.json
COPY --from=deps /app/clients/typescript/package.json clients/typescript/package.json
COPY --from=deps /app/services/gateway/package.json services/gateway/package.json
COPY --from=deps /app/services/ledger/package.json services/ledger/package.json
COPY --from=deps /app/services/billing/package.json services/billing/package.json
COPY --from=deps /app/services/insights/package.json services/insights/package.json
COPY --from=deps /app/sandbox/package.json sandbox/package.json
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# ---------------------------------------------------------------------------
# runtime
# ---------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=8080
WORKDIR /app
# tini reaps zombies and forwards SIGTERM so graceful shutdown works as PID 1; jemalloc is the allocator
# scripts/runtime.sh preloads (an empty LD_PRELOAD in the pod's env keeps glibc's malloc).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini libjemalloc2 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=prod-deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/package.json /app/package-lock.json ./
COPY --from=build --chown=root:root /app/shared ./shared
COPY --from=build --chown=root:root /app/services ./services
COPY --from=build --chown=root:root /app/scripts ./scripts
# Banco Sandbox, for a development cluster that sets SANDBOX_BANK=on (production never starts it)
COPY --from=build --chown=root:root /app/sandbox ./sandbox
# Sources are owned by root and read-only for the app user; the process
# writes nothing to disk (logs go to stdout), so the root filesystem can be
# mounted read-only in Kubernetes.
# Node's compile cache (node_modules/.cache, scripts/runtime.sh's default), filled
# here as the app user (the cache is per user) with the same settings: every
# service finds its type-stripped sources and V8's code in it, so none loads the
# TypeScript stripper and each starts faster. At run time it is only read; a
# source it lacks is compiled as before.
RUN mkdir -p node_modules/.cache && chown node:node node_modules/.cache
USER node
RUN sh scripts/runtime.sh node scripts/warm-compile-cache.ts
EXPOSE 8080
# Liveness of whichever service runs (PORT): /healthz answers while the process serves, whatever the
# state of PostgreSQL or Redis (readiness is /readyz, which compose and Kubernetes probe themselves).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "sh", "scripts/runtime.sh"]
CMD ["node", "services/gateway/src/main.ts"]
