// The README's picture of `dotc replay --html`: the tutorial game's page at a mid-game step
// (turn 2's first volley, told as a story), written to docs/images/replay-html.png.
//
// Run: `npm ci && npm run screenshot` here, after `cargo build --bin dotc` (DOTC and CHROMIUM
// as for the tests).

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { launch, dotcBinary } from "./browser.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const work = mkdtempSync(path.join(tmpdir(), "dotc-shot-"));
const out = path.join(work, "tutorial.html");
execFileSync(dotcBinary(root), ["replay", "scenarios/tutorial/fence-line-game.dotc", "--html", out], { cwd: root, stdio: "pipe" });
const browser = await launch(work);
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  await page.goto(pathToFileURL(out).href + "#t2-fire-1");
  const png = path.join(root, "docs/images/replay-html.png");
  mkdirSync(path.dirname(png), { recursive: true });
  await page.screenshot({ path: png });
  console.log(`wrote ${path.relative(root, png)}`);
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
