#!/usr/bin/env bash
# CI for the VS Code extension (lsp/editors/vscode): a clean install from the lockfile, the
# manifest and grammar tests, and the .vsix package. Needs Node 20+ and npm; fails on any error.
set -euo pipefail
cd "$(dirname "$0")/../lsp/editors/vscode"

echo "== node"
node --version
npm --version

echo "== vscode extension: install (npm ci)"
npm ci --no-audit --no-fund

echo "== vscode extension: tests (npm test)"
npm test

echo "== vscode extension: package (npm run package)"
npm run package
ls -l ./*.vsix
