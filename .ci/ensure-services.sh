#!/usr/bin/env bash
# Makes sure PostgreSQL answers on 127.0.0.1:5432 and Redis on 127.0.0.1:6379 (and Chromium and jemalloc are
# installed), for CI on a Debian machine without systemd. Starts them when stopped; installs them from Debian
# (with trust auth for local and loopback connections) when missing. Waits up to 60 s for each.
# Safe to run again: does nothing when both already answer.
set -euo pipefail

PG_HOST=127.0.0.1
PG_PORT=5432
REDIS_HOST=127.0.0.1
REDIS_PORT=6379
TIMEOUT=60

log() { printf '[ensure-services] %s\n' "$*"; }
die() { printf '[ensure-services] ERROR: %s\n' "$*" >&2; exit 1; }

SUDO=""
[[ "$(id -u)" -eq 0 ]] || SUDO="sudo"
APT_UPDATED=0
apt_install() {
  if [[ "$APT_UPDATED" -eq 0 ]]; then
    $SUDO apt-get update -qq
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

# wait_for <what> <command...>: retries the command once a second until it succeeds or TIMEOUT.
wait_for() {
  local what="$1"; shift
  local i
  for ((i = 0; i < TIMEOUT; i++)); do
    if "$@" >/dev/null 2>&1; then
      log "$what is ready"
      return 0
    fi
    sleep 1
  done
  die "$what not ready after ${TIMEOUT}s"
}

# ---------------------------------------------------------------- PostgreSQL
pg_ready() { command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h "$PG_HOST" -p "$PG_PORT"; }

pg_version() { ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1; }

pg_trust_auth() {
  # local (unix socket) and host 127.0.0.1/32, ::1/128 lines -> trust.
  local hba="/etc/postgresql/$1/main/pg_hba.conf"
  [[ -f "$hba" ]] || die "$hba not found"
  $SUDO sed -ri \
    -e 's/^(local[[:space:]]+all[[:space:]]+all[[:space:]]+).*/\1trust/' \
    -e 's/^(local[[:space:]]+all[[:space:]]+postgres[[:space:]]+).*/\1trust/' \
    -e 's#^(host[[:space:]]+all[[:space:]]+all[[:space:]]+127\.0\.0\.1/32[[:space:]]+).*#\1trust#' \
    -e 's#^(host[[:space:]]+all[[:space:]]+all[[:space:]]+::1/128[[:space:]]+).*#\1trust#' \
    "$hba"
  log "trust auth configured in $hba"
}

ensure_postgres() {
  if pg_ready; then
    log "PostgreSQL already answers on $PG_HOST:$PG_PORT"
    return 0
  fi
  local version
  version="$(pg_version)"
  if [[ -z "$version" ]] || ! command -v pg_ctlcluster >/dev/null 2>&1; then
    log "PostgreSQL not installed: installing postgresql from Debian"
    apt_install postgresql
    version="$(pg_version)"
    [[ -n "$version" ]] || die "postgresql installed but /etc/postgresql is empty"
    if [[ ! -d "/etc/postgresql/$version/main" ]]; then
      $SUDO pg_createcluster "$version" main
    fi
    pg_trust_auth "$version"
    # The package may have started the cluster before trust auth: restart to load pg_hba.conf.
    $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main stop >/dev/null 2>&1 || true
  fi
  log "starting PostgreSQL $version (cluster main)"
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main start ||
    pg_ready || die "pg_ctlcluster failed to start PostgreSQL $version"
  wait_for "PostgreSQL on $PG_HOST:$PG_PORT" pg_ready
}

# --------------------------------------------------------------------- Redis
redis_ready() {
  command -v redis-cli >/dev/null 2>&1 && [[ "$(redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping 2>/dev/null)" == PONG ]]
}

ensure_redis() {
  if redis_ready; then
    log "Redis already answers on $REDIS_HOST:$REDIS_PORT"
    return 0
  fi
  if ! command -v redis-server >/dev/null 2>&1; then
    log "Redis not installed: installing redis-server from Debian"
    apt_install redis-server
    # The package may have started its own instance; it is fine if it answers now.
    if redis_ready; then
      log "Redis already answers on $REDIS_HOST:$REDIS_PORT"
      return 0
    fi
  fi
  log "starting Redis on $REDIS_HOST:$REDIS_PORT"
  $SUDO mkdir -p /var/lib/redis /var/log/redis
  $SUDO redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$REDIS_PORT" --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for "Redis on $REDIS_HOST:$REDIS_PORT" redis_ready
}

# The /docs browser test drives Debian's Chromium (playwright-core never downloads a browser).
ensure_chromium() {
  if [[ -x /usr/bin/chromium ]]; then
    log "Chromium already installed"
    return 0
  fi
  log "Chromium not installed: installing chromium from Debian"
  apt_install chromium
}

# npm start preloads jemalloc into each service where the system's linker knows it (scripts/runtime.sh); the
# tests check that it does, so CI has it (Debian's redis-server brings it along).
ensure_jemalloc() {
  if /sbin/ldconfig -p | grep -q 'libjemalloc\.so\.2 '; then
    log "jemalloc already installed"
    return 0
  fi
  log "jemalloc not installed: installing libjemalloc2 from Debian"
  apt_install libjemalloc2
}

ensure_postgres
ensure_redis
ensure_chromium
ensure_jemalloc
