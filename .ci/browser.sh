#!/usr/bin/env bash
# CI for `dotc replay --html` in a real browser (tests/browser): Debian's chromium driven by
# puppeteer-core from the lockfile; nothing downloads a browser. Needs Node 20+, npm, chromium
# and the dotc binary the cargo build made (target/debug/dotc, or $CARGO_TARGET_DIR's, or $DOTC).
set -euo pipefail
cd "$(dirname "$0")/../tests/browser"

echo "== browser: chromium"
"${CHROMIUM:-/usr/bin/chromium}" --version

echo "== browser: install (npm ci)"
npm ci --no-audit --no-fund

echo "== browser: the HTML replay stepped through in chromium (npm test)"
npm test
