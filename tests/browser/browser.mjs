// What the browser tests and the screenshot share: the dotc binary and Debian's chromium,
// launched headless with nothing that reaches the network and a fresh profile.

import { existsSync, mkdtempSync } from "node:fs";
import path from "node:path";
import puppeteer from "puppeteer-core";

/// The dotc binary: $DOTC, else debug/dotc under $CARGO_TARGET_DIR or the repository's target/.
export function dotcBinary(root) {
  if (process.env.DOTC) return process.env.DOTC;
  const target = process.env.CARGO_TARGET_DIR || path.join(root, "target");
  const binary = path.join(target, "debug", "dotc");
  if (!existsSync(binary)) throw new Error(`no dotc at ${binary}: run \`cargo build --bin dotc\` or set DOTC`);
  return binary;
}

/// Chromium, headless, with a fresh profile under `dir`. Without the networking flags chromium
/// keeps calling out, which a closed network answers slowly.
export function launch(dir) {
  const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
  if (!existsSync(executablePath)) throw new Error(`no chromium at ${executablePath}: apt-get install chromium, or set CHROMIUM`);
  return puppeteer.launch({
    executablePath,
    headless: true,
    userDataDir: mkdtempSync(path.join(dir, "profile-")),
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
