#!/usr/bin/env bash
# Replays the Dockerfile without a Docker engine, with files:
#   1. the build context as `docker build` sends it (.dockerignore applied: .ci/docker-context.ts),
#   2. the deps stage's manifests (every COPY source must be in the context) and the build stage's
#      `npm run typecheck` on the context (node_modules of the checkout stand in for the deps stage's
#      `npm ci`: same lock file),
#   3. the prod-deps stage's `npm ci --omit=dev --ignore-scripts`, offline from the npm cache,
#   4. the runtime stage's tree (production node_modules + shared, services, scripts, sandbox) started with
#      NODE_ENV=production through scripts/runtime.sh, as the image's entrypoint runs it: migrations, the
#      compile cache filled, then the four services, each must answer /healthz without loading the TypeScript
#      stripper; SIGTERM must stop each with exit code 0.
# Prints the size of the production dependencies. Needs `npm ci` to have run, PostgreSQL and Redis.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
NODE="$ROOT/node_modules/.bin/node"
die() { printf 'replay-docker-build: %s\n' "$*" >&2; exit 1; }
step() { printf '\n--- %s\n' "$*"; }
[[ -x "$NODE" ]] || die "node_modules/.bin/node missing: run npm ci first"
export PATH="$ROOT/node_modules/node/bin:$PATH"

TMP="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT

step "build context through .dockerignore"
CTX="$TMP/context"
"$NODE" .ci/docker-context.ts . "$CTX"

step "deps stage: the manifests it copies"
# every `COPY <src> <dest>` of a stage reading the context (not --from) must find its source
grep -E '^COPY ' Dockerfile | grep -v -- '--from' | while read -r _ args; do
  read -r -a words <<<"$args"
  for src in "${words[@]:0:${#words[@]}-1}"; do
    [[ "$src" == --* ]] && continue
    [[ -e "$CTX/$src" ]] || die "Dockerfile copies $src, absent from the build context"
  done
done
# npm ci needs the manifest of every workspace the lock file lists
for ws in $("$NODE" -p "require('./package.json').workspaces.join(' ')"); do
  grep -q "$ws/package.json" Dockerfile || die "Dockerfile's deps stage does not copy $ws/package.json (a workspace)"
done
echo "manifests OK"

step "build stage: npm run typecheck on the context"
ln -s "$ROOT/node_modules" "$CTX/node_modules"
# npm ci also nests a workspace's own node_modules where the root cannot hold its versions (the client's generator)
for ws in $("$NODE" -p "require('./package.json').workspaces.join(' ')"); do
  [[ ! -d "$ROOT/$ws/node_modules" ]] || ln -s "$ROOT/$ws/node_modules" "$CTX/$ws/node_modules"
done
(cd "$CTX" && npm run --silent typecheck)
echo "typecheck OK"

step "prod-deps stage: npm ci --omit=dev --ignore-scripts (offline, npm cache)"
PROD="$TMP/runtime"
mkdir -p "$PROD"
cp "$CTX/package.json" "$CTX/package-lock.json" "$PROD/"
for ws in $("$NODE" -p "require('./package.json').workspaces.join(' ')"); do
  mkdir -p "$PROD/$ws"
  cp "$CTX/$ws/package.json" "$PROD/$ws/package.json"
done
(cd "$PROD" && npm ci --omit=dev --ignore-scripts --offline --no-audit --no-fund --loglevel=error)
echo "production node_modules: $(du -sh "$PROD/node_modules" | cut -f1)"

step "runtime stage: start the production tree"
for dir in shared services scripts sandbox; do rm -rf "${PROD:?}/$dir"; cp -r "$CTX/$dir" "$PROD/$dir"; done
# the workspace manifests copied above stay (npm links the workspaces to them)
for ws in $("$NODE" -p "require('./package.json').workspaces.join(' ')"); do
  cp "$CTX/$ws/package.json" "$PROD/$ws/package.json"
done
[[ ! -e "$PROD/node_modules/typescript" ]] || echo "note: typescript is among the production dependencies"

free_port() { "$NODE" -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
DB="finance_docker_replay_$$"
BASE_DB_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/finance}"
DB_URL="${BASE_DB_URL%/*}/$DB"
export NODE_ENV=production LOG_LEVEL=warn DATABASE_URL="$DB_URL" REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}" \
  QUEUE_PREFIX="replay$$" INTERNAL_SECRET="replay-internal-secret-0123456789abcdef" \
  KEY_PEPPER="replay-key-pepper-0123456789abcdef0123" MIGRATE_ON_START=false
drop_db() {
  "$NODE" -e "
    const pg = require('$ROOT/node_modules/pg');
    const c = new pg.Client({ connectionString: process.argv[1] });
    c.connect().then(() => c.query('drop database if exists $DB with (force)')).finally(() => c.end());
  " "${BASE_DB_URL%/*}/postgres" || true
}
# the services' queues and schedulers under the run's prefix go with the database
drop_keys() {
  "$NODE" -e "
    const { Redis } = require('$ROOT/node_modules/ioredis');
    const r = new Redis(process.argv[1], { maxRetriesPerRequest: 1 });
    (async () => {
      for await (const keys of r.scanStream({ match: 'replay$$:*', count: 500 })) if (keys.length) await r.unlink(...keys);
    })().finally(() => r.disconnect());
  " "$REDIS_URL" || true
}
trap 'drop_db; cleanup; drop_keys' EXIT
(cd "$PROD" && sh scripts/runtime.sh "$NODE" scripts/migrate.ts >/dev/null)
echo "migrations OK"
# the runtime stage fills Node's compile cache; every service must then start without the TypeScript stripper
(cd "$PROD" && sh scripts/runtime.sh "$NODE" scripts/warm-compile-cache.ts)
# prints which of Node's bundled dependencies a process loaded, as it exits (amaro is the stripper)
PROBE="$ROOT/test/support/report-internal-deps.mjs"
declare -A PORTS
for svc in ledger billing insights gateway; do PORTS[$svc]="$(free_port)"; done
export LEDGER_URL="http://127.0.0.1:${PORTS[ledger]}" BILLING_URL="http://127.0.0.1:${PORTS[billing]}" \
  INSIGHTS_URL="http://127.0.0.1:${PORTS[insights]}"
declare -A PID_OF
for svc in ledger billing insights gateway; do
  (cd "$PROD" && PORT="${PORTS[$svc]}" NODE_OPTIONS="--import $PROBE" \
    exec sh scripts/runtime.sh "$NODE" "services/$svc/src/main.ts" 2>"$TMP/$svc.deps") &
  PID_OF[$svc]=$!
  PIDS+=("$!")
done
for svc in ledger billing insights gateway; do
  ok=""
  for _ in $(seq 1 150); do
    if "$NODE" -e "fetch('http://127.0.0.1:${PORTS[$svc]}/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; then ok=1; break; fi
    kill -0 "${PID_OF[$svc]}" 2>/dev/null || die "$svc exited during start (a production dependency missing?)"
    sleep 0.2
  done
  [[ -n "$ok" ]] || die "$svc did not answer /healthz"
  echo "$svc answers /healthz"
done
for svc in gateway ledger billing insights; do
  kill -TERM "${PID_OF[$svc]}"
  code=0
  wait "${PID_OF[$svc]}" || code=$?
  [[ "$code" -eq 0 ]] || die "$svc exited $code after SIGTERM"
  grep -q '^\[internal-deps\]' "$TMP/$svc.deps" || die "$svc printed no list of Node's bundled dependencies"
  if grep '^\[internal-deps\]' "$TMP/$svc.deps" | grep -q amaro; then
    die "$svc loaded the TypeScript stripper: the image's compile cache should hold its sources (scripts/compile-cache.ts)"
  fi
done
echo "every service started from the compile cache and stopped with exit code 0"
printf '\nreplay-docker-build: all checks passed\n'
