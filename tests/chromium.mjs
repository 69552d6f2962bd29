// What every browser test shares (tests/browser, tests/code-server): where Debian's chromium
// is, the flags that keep it headless and off the network with a fresh profile, and the dotc
// binary the cargo build made. Node's own modules only, so each test's folder imports it with
// its own puppeteer-core.

import { existsSync } from "node:fs";
import path from "node:path";

/// Debian's chromium: $CHROMIUM, else /usr/bin/chromium.
export function chromiumPath() {
  const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
  if (!existsSync(executablePath)) {
    throw new Error(`no chromium at ${executablePath}: apt-get install chromium, or set CHROMIUM`);
  }
  return executablePath;
}

/// Headless, and nothing that reaches the network: without the networking flags chromium keeps
/// calling out, which a closed network answers slowly.
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/// The dotc binary: $DOTC, else debug/dotc under $CARGO_TARGET_DIR or the repository's target/.
export function dotcBinary(root) {
  if (process.env.DOTC) return process.env.DOTC;
  const target = process.env.CARGO_TARGET_DIR || path.join(root, "target");
  const binary = path.join(target, "debug", "dotc");
  if (!existsSync(binary)) throw new Error(`no dotc at ${binary}: run \`cargo build --bin dotc\` or set DOTC`);
  return binary;
}
