#!/usr/bin/env bash
# CI for the VS Code extension in a real VS Code build (tests/code-server, issue 21): code-server
# from the npm registry, installed without its download scripts, driven by Debian's chromium.
# Run from anywhere after `cargo build --bin dotc` (the test finds the binary as tests/browser
# does: $DOTC, else $CARGO_TARGET_DIR/debug/dotc, else target/debug/dotc). Fails on any error.
#
# What code-server's own postinstall would do, done here by hand so that nothing downloads:
# its VS Code's modules from a pinned lockfile with scripts off, the native modules that the
# server loads built with node-gyp against the local Node headers (never downloaded ones), and
# Debian's ripgrep where @vscode/ripgrep's download would have put its own.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# The test runs in tests/code-server: paths given relative to here are made absolute.
if [ -n "${DOTC:-}" ]; then DOTC="$(realpath "$DOTC")"; export DOTC; fi
if [ -n "${DOTC_VSIX:-}" ]; then DOTC_VSIX="$(realpath "$DOTC_VSIX")"; export DOTC_VSIX; fi

echo "== code-server: system packages (chromium, ripgrep, a C++ toolchain for node-gyp)"
sudo_if_needed() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
command -v rg >/dev/null || missing+=(ripgrep)
command -v g++ >/dev/null || missing+=(g++)
command -v make >/dev/null || missing+=(make)
command -v python3 >/dev/null || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
    sudo_if_needed apt-get update -qq
    sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
"${CHROMIUM:-/usr/bin/chromium}" --version
rg --version | sed -n 1p  # sed reads it all: head would close the pipe early (EPIPE under pipefail)

echo "== code-server: node (code-server 4.100.3 is VS Code 1.100, which runs on Node 20)"
node --version
major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$major" != 20 ]; then
    echo "code-server 4.100.3 needs Node 20 (its engines field, and its native modules are built for the running Node); this is Node $major" >&2
    exit 1
fi
# The headers node-gyp compiles against: those of the running node's install prefix (NodeSource
# and nodejs.org installs ship include/node), else Debian's (libnode-dev). node-gyp is never let
# download them.
nodedir="$(node -p 'require("path").resolve(process.execPath, "../..")')"
[ -f "$nodedir/include/node/node.h" ] || nodedir=/usr
if [ ! -f "$nodedir/include/node/node.h" ]; then
    echo "no Node headers (include/node/node.h) beside $(command -v node) nor in /usr: install the nodejs package that ships them" >&2
    exit 1
fi
export npm_config_nodedir="$nodedir"
# npm's own node-gyp, so that nothing is fetched by npx.
node_gyp="$(node -p 'require("path").resolve(require("fs").realpathSync(process.argv[1]), "../../node_modules/node-gyp/bin/node-gyp.js")' "$(command -v npm)")"
[ -f "$node_gyp" ] || { echo "no node-gyp in npm's install ($node_gyp)" >&2; exit 1; }
export npm_config_node_gyp="$node_gyp"
echo "node headers: $nodedir/include/node; node-gyp $(node "$node_gyp" --version)"

echo "== code-server: the extension package (npm run package in lsp/editors/vscode, unless DOTC_VSIX names one)"
if [ -z "${DOTC_VSIX:-}" ]; then
    (cd "$root/lsp/editors/vscode" && npm ci --no-audit --no-fund && npm run package)
fi

cd "$root/tests/code-server"
echo "== code-server: install (npm ci --ignore-scripts)"
start=$SECONDS
npm ci --ignore-scripts --no-audit --no-fund

# code-server's postinstall installs lib/vscode's modules with `npm install`; its shrinkwrap is
# out of step with its package.json, so the resolved tree is pinned here instead
# (vscode-shrinkwrap.json, made by that `npm install` with scripts off; to remake it after a
# change of code-server version, run `npm install --omit=dev --ignore-scripts` in $vscode after
# the `npm ci` above and copy its npm-shrinkwrap.json here).
vscode=node_modules/code-server/lib/vscode
cp vscode-shrinkwrap.json "$vscode/npm-shrinkwrap.json"
(cd "$vscode" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund)

echo "== code-server: native modules, built against $nodedir/include/node"
# argon2 (code-server loads it at start, for passwords): node-pre-gyp, from source only.
(cd node_modules/argon2 && node ../@mapbox/node-pre-gyp/bin/node-pre-gyp rebuild --build-from-source --nodedir="$nodedir")
# The server's logger (@vscode/spdlog), which the server loads at start. @parcel/watcher comes
# prebuilt in its linux package. Not built, as the test loads none of them: node-pty (only a
# terminal loads it), native-watchdog, kerberos (proxy authentication) and the Windows-only ones.
(cd "$vscode/node_modules/@vscode/spdlog" && node "$node_gyp" rebuild --nodedir="$nodedir" --jobs="$(nproc)")

echo "== code-server: the rest of its postinstall (links), with Debian's ripgrep"
ln -sfn node_modules "$vscode/node_modules.asar"
mkdir -p "$vscode/node_modules/@vscode/ripgrep/bin"
ln -sf "$(command -v rg)" "$vscode/node_modules/@vscode/ripgrep/bin/rg"
ln -sf code-linux.sh "$vscode/bin/remote-cli/code-server"
ln -sf browser-linux.sh "$vscode/bin/helpers/browser.sh"
echo "code-server $(node -p 'require("./node_modules/code-server/package.json").version')"
echo "install took $((SECONDS - start)) s"

echo "== code-server: a typo's diagnostic and its quick fix in VS Code (npm test)"
start=$SECONDS
npm test
echo "test took $((SECONDS - start)) s"
