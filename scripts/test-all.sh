#!/usr/bin/env bash
# Every test: type check, lint, format, unit, API integration (PGlite, and PostgreSQL when
# TEST_DATABASE_URL is set), then the browser journeys in Chromium against the built app.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s\033[0m\n' "$1"; }

step "type check"
npm run --silent typecheck
step "lint"
npx eslint . --max-warnings=0
step "format"
npx prettier --check . --log-level warn
step "unit tests"
npx vitest run --project unit
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
