// What the browser tests and the screenshot share: the dotc binary and Debian's chromium,
// launched headless with nothing that reaches the network and a fresh profile.

import { mkdtempSync } from "node:fs";
import path from "node:path";
import puppeteer from "puppeteer-core";
import { CHROMIUM_ARGS, chromiumPath, dotcBinary } from "../chromium.mjs";

export { dotcBinary };

/// Chromium, headless, with a fresh profile under `dir`.
export function launch(dir) {
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    userDataDir: mkdtempSync(path.join(dir, "profile-")),
    args: CHROMIUM_ARGS,
  });
}
