#!/usr/bin/env bash
# Every test: type check, lint, format, unit, API integration (PGlite, and PostgreSQL when
# TEST_DATABASE_URL is set), then the browser journeys in Chromium against the built app.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s\033[0m\n' "$1"; }

# The static checks are independent and each uses one core: type check and lint (the slowest
# two) run side by side, each with its output kept until it ends so the log stays readable.
step "type check, lint, format and unit tests (side by side)"
# Route types first: both the type check and the typed lint rules read them.
npx react-router typegen
logs=$(mktemp -d)
run_bg() {
  local name=$1
  shift
  ("$@" >"$logs/$name.log" 2>&1; echo $? >"$logs/$name.rc") &
}
run_bg typecheck npx tsc --noEmit
run_bg lint npx eslint . --max-warnings=0
npx prettier --check . --log-level warn
npx vitest run --project unit
wait
failed=0
for name in typecheck lint; do
  printf '\n\033[1m-- %s\033[0m\n' "$name"
  cat "$logs/$name.log"
  if [ "$(cat "$logs/$name.rc")" != 0 ]; then
    echo "$name failed"
    failed=1
  fi
done
rm -rf "$logs"
[ "$failed" = 0 ] || exit 1
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  step "API integration tests (PGlite + PostgreSQL at ${TEST_DATABASE_URL%%@*}@…)"
else
  step "API integration tests (PGlite; set TEST_DATABASE_URL to add PostgreSQL)"
fi
npx vitest run --project integration
step "browser tests (Chromium)"
node scripts/ensure-chromium.mjs
npm run --silent build
step "bundle budget (public pages)"
node scripts/bundle-budget.mjs
npx playwright test
