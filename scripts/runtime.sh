#!/bin/sh
# The runtime settings of every finance-api process, in one place: `npm start` runs its group through this
# script, and so does the image's entrypoint (the Helm chart runs the image's entrypoint). Each setting is kept
# for a figure the bench measured on a goal (docs/performance.md, "Runtime settings"); the operator's own values
# win. Usage: sh scripts/runtime.sh <command> [args…]
set -eu

# A 4 MB young generation (V8's default grows to 32 MB): less memory at rest and under load, creates unchanged.
# The operator's NODE_OPTIONS come after, so theirs win.
export NODE_OPTIONS="--max-semi-space-size=4${NODE_OPTIONS:+ $NODE_OPTIONS}"

# Node's compile cache: a process whose sources it holds never loads the TypeScript stripper, and starts faster.
# NODE_DISABLE_COMPILE_CACHE=1 turns it off.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$PWD/node_modules/.cache/node-compile-cache}"

# jemalloc where the system's linker knows it (Debian: libjemalloc2), giving freed pages back within 250 ms.
# An LD_PRELOAD already set, even empty, is the operator's choice (empty: glibc's malloc).
if [ -z "${LD_PRELOAD+set}" ] && /sbin/ldconfig -p 2>/dev/null | grep -q 'libjemalloc\.so\.2 '; then
  export LD_PRELOAD=libjemalloc.so.2
fi
export MALLOC_CONF="${MALLOC_CONF:-background_thread:true,dirty_decay_ms:250,muzzy_decay_ms:0,narenas:1}"

exec "$@"
