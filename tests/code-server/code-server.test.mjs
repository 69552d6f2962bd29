// The dotc VS Code extension in a real VS Code build (issue 21, "VS Code for real"): code-server
// (VS Code 1.100 on Node 20, from the npm registry) with the packaged .vsix installed, driven by
// Debian's chromium through puppeteer-core. A copy of the tutorial scenario with one weapon
// misspelt is opened; the test waits for the dotc server's diagnostic, reads it in the marker
// widget, takes the server's quick fix from the Quick Fix menu, saves, and checks the file on
// disk is the shipped scenario again.
//
// Run: `bash .ci/code-server.sh` from the repository, after `cargo build --bin dotc`: it installs
// code-server (without its download scripts, with its native modules built against the local
// Node headers and Debian's ripgrep), packages the extension, and runs `npm test` here.
// DOTC names the dotc binary (default: $CARGO_TARGET_DIR or ../../target, debug/dotc); DOTC_VSIX
// the extension package (default: lsp/editors/vscode/dotc-0.1.0.vsix); CHROMIUM the browser
// (default /usr/bin/chromium).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer from "puppeteer-core";
import { CHROMIUM_ARGS, chromiumPath, dotcBinary } from "../chromium.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const SCENARIO = "scenarios/tutorial/fence-line.dotc";
const FILE = "fence-line.dotc";
// The typo: the 19th Maine's weapon, one letter wrong.
const UNIT_LINE = 'regiment "19th Maine"';
const [RIGHT, WRONG] = ["rifled_musket", "rifled_muskit"];
const codeServer = path.join(here, "node_modules/code-server/out/node/entry.js");
// Generous: the first start of the workbench, the extension host and the server.
const WAIT = 120_000;

/// The packaged extension: $DOTC_VSIX, else the one `npm run package` writes.
function vsix() {
  const file = process.env.DOTC_VSIX || path.join(root, "lsp/editors/vscode/dotc-0.1.0.vsix");
  if (!existsSync(file)) {
    throw new Error(`no extension package at ${file}: run \`npm ci && npm run package\` in lsp/editors/vscode, or set DOTC_VSIX`);
  }
  return file;
}

let work, workspace, dotc, server, serverLog = "", browser, page, original, expected;

/// code-server's arguments that keep it to the test's own directories, offline and quiet.
function serverArgs() {
  return [
    "--config", path.join(work, "config.yaml"),
    "--user-data-dir", path.join(work, "user-data"),
    "--extensions-dir", path.join(work, "extensions"),
    "--auth", "none",
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-workspace-trust",
    "--disable-getting-started-override",
  ];
}

/// The environment for code-server: its data and config directories under the test's own, not
/// the user's home.
function serverEnv() {
  return { ...process.env, XDG_CONFIG_HOME: path.join(work, "xdg-config"), XDG_DATA_HOME: path.join(work, "xdg-data") };
}

/// Starts code-server on 127.0.0.1, on a port the system picks, in a process group of its own
/// (so that `after` ends it with its extension host and the dotc server); resolves to its URL.
function startServer() {
  const args = [codeServer, ...serverArgs(), "--bind-addr", "127.0.0.1:0", "--ignore-last-opened", workspace];
  server = spawn(process.execPath, args, {
    env: serverEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  return new Promise((resolve, reject) => {
    const read = (chunk) => {
      serverLog += chunk;
      const m = serverLog.match(/HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\//);
      if (m) resolve(m[1]);
    };
    server.stdout.on("data", read);
    server.stderr.on("data", read);
    server.on("exit", (code, signal) => {
      reject(new Error(`code-server exited (${code ?? signal}) before it listened:\n${serverLog}`));
    });
  });
}

/// Ends code-server's whole process group: the server, its extension host and the dotc server.
async function stopServer() {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  const kill = (signal) => {
    try {
      process.kill(-server.pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  kill("SIGTERM");
  const timer = setTimeout(() => kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
  kill("SIGKILL");
}

/// Chromium, headless, with a fresh profile and nothing that reaches the network.
function launchBrowser() {
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    userDataDir: mkdtempSync(path.join(work, "profile-")),
    args: CHROMIUM_ARGS,
  });
}

/// Presses `key` with Control held, as VS Code's keybindings want it.
async function withControl(key) {
  await page.keyboard.down("Control");
  await page.keyboard.press(key);
  await page.keyboard.up("Control");
}

/// The text of the first element matching `selector` that contains `needle`, once there is one.
async function textWhen(selector, needle, what) {
  const handle = await page
    .waitForFunction(
      (selector, needle) =>
        [...document.querySelectorAll(selector)].map((e) => e.innerText).find((t) => t.includes(needle)),
      { timeout: WAIT, polling: 250 },
      selector,
      needle,
    )
    .catch((e) => {
      throw new Error(`waiting for ${what} (${selector} with ${JSON.stringify(needle)}): ${e.message}`);
    });
  return handle.jsonValue();
}

before(async () => {
  dotc = path.resolve(dotcBinary(root));
  const extension = path.resolve(vsix());
  work = mkdtempSync(path.join(tmpdir(), "dotc-code-server-"));
  workspace = path.join(work, "workspace");
  mkdirSync(workspace);
  writeFileSync(path.join(work, "config.yaml"), "");

  // The scenario with its typo, and what `dotc check` says of it: the diagnostic the editor
  // must show, from the same checks the server runs.
  original = readFileSync(path.join(root, SCENARIO), "utf8");
  const lines = original.split("\n");
  const at = lines.findIndex((l) => l.includes(UNIT_LINE));
  assert.ok(at >= 0 && lines[at].split(RIGHT).length === 2, `${SCENARIO} has one ${RIGHT} on the ${UNIT_LINE} line`);
  lines[at] = lines[at].replace(RIGHT, WRONG);
  writeFileSync(path.join(workspace, FILE), lines.join("\n"));
  const check = spawnSync(dotc, ["check", "--format", "json", path.join(workspace, FILE)], { encoding: "utf8" });
  assert.equal(check.status, 1, `dotc check finds the typo: ${check.stderr}`);
  const found = JSON.parse(check.stdout);
  assert.equal(found.length, 1, `one diagnostic: ${check.stdout}`);
  expected = found[0];
  assert.equal(expected.fix?.replacement, RIGHT, `the diagnostic carries the fix: ${check.stdout}`);
  assert.equal(expected.primary.start.line, at + 1);

  // The extension, installed by code-server itself, and the user settings that point it at
  // this dotc (`dotc.server.path`, lsp/editors/vscode/package.json) and keep the editor quiet.
  const installed = execFileSync(process.execPath, [codeServer, ...serverArgs(), "--install-extension", extension], {
    env: serverEnv(),
    encoding: "utf8",
  });
  assert.match(installed, /successfully installed/, `code-server installs ${extension}`);
  mkdirSync(path.join(work, "user-data/User"), { recursive: true });
  writeFileSync(
    path.join(work, "user-data/User/settings.json"),
    JSON.stringify(
      {
        "dotc.server.path": dotc,
        "telemetry.telemetryLevel": "off",
        "update.mode": "none",
        "extensions.autoCheckUpdates": false,
        "extensions.autoUpdate": false,
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": false,
        "security.workspace.trust.enabled": false,
        "files.autoSave": "off",
      },
      null,
      2,
    ),
  );

  const url = await startServer();
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  await page.goto(`${url}/?folder=${encodeURIComponent(workspace)}`);
  await page.waitForSelector(".explorer-folders-view .monaco-list-row", { timeout: WAIT });
});

after(async () => {
  try {
    if (browser) await browser.close();
  } finally {
    await stopServer();
    if (work) rmSync(work, { recursive: true, force: true });
  }
});

test("a typo's diagnostic from the dotc server, and its quick fix taken in VS Code", async (t) => {
  try {
    // Open the file with Quick Open.
    await withControl("KeyP");
    await page.waitForSelector(".quick-input-widget input", { visible: true, timeout: WAIT });
    await page.keyboard.type(FILE);
    await textWhen(".quick-input-list .monaco-list-row", FILE, "the file in Quick Open");
    await page.keyboard.press("Enter");
    await textWhen(".tabs-container .tab", FILE, "the file's tab");

    // The server's one error, counted in the status bar.
    await page.waitForFunction(
      () => document.querySelector('[id="status.problems"]')?.getAttribute("aria-label")?.includes("Errors: 1"),
      { timeout: WAIT, polling: 250 },
    );

    // F8 goes to it and shows it in the marker widget: the server's message and help, its
    // code (the `dotc explain` line) and the source `dotc`.
    await page.click(".monaco-editor .view-lines");
    await page.keyboard.press("F8");
    const marker = await textWhen(".marker-widget", "dotc explain", "the marker widget");
    await page.waitForSelector(".monaco-editor .view-overlays .squiggly-error", { timeout: WAIT });
    assert.ok(marker.includes(expected.message), `the message ${JSON.stringify(expected.message)} in:\n${marker}`);
    assert.ok(marker.includes(`help: ${expected.help}`), `the help in:\n${marker}`);
    assert.ok(marker.includes(`\`dotc explain ${expected.code}\``), `the code in:\n${marker}`);
    assert.ok(marker.includes(`dotc(${expected.code})`), `the source and code in:\n${marker}`);
    const position = await page.$eval('[id="status.editor.selection"]', (e) => e.innerText);
    assert.equal(position, `Ln ${expected.primary.start.line}, Col ${expected.primary.start.column}`);
    await page.keyboard.press("Escape");

    // Ctrl+. lists the quick fixes at the cursor; the server's is chosen.
    const title = `Replace \`${WRONG}\` with \`${RIGHT}\``;
    await withControl("Period");
    await textWhen(".action-widget .monaco-list-row.action", title, "the quick fix");
    const rows = await page.$$(".action-widget .monaco-list-row.action");
    let chosen = false;
    for (const row of rows) {
      if ((await row.evaluate((e) => e.innerText)).includes(title)) {
        await row.click();
        chosen = true;
        break;
      }
    }
    assert.ok(chosen, `a row ${title}`);
    await textWhen(".tabs-container .tab.dirty", FILE, "the edited, unsaved file");

    // Saved, the file on disk is the shipped scenario again, and the server finds no problem.
    await withControl("KeyS");
    const file = path.join(workspace, FILE);
    const deadline = Date.now() + WAIT;
    while (readFileSync(file, "utf8") !== original && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(readFileSync(file, "utf8"), original, "the quick fix, saved, restores the shipped scenario");
    await page.waitForFunction(
      () => {
        const label = document.querySelector('[id="status.problems"]')?.getAttribute("aria-label") ?? "";
        return /Errors: 0|No Problems/.test(label);
      },
      { timeout: WAIT, polling: 250 },
    );

    // Every native module the server and the extension host loaded was there (the install
    // builds them by hand, .ci/code-server.sh).
    assert.doesNotMatch(serverLog, /Could not locate the bindings file|Cannot find module|was compiled against a different/);
  } catch (e) {
    const shot = path.join(tmpdir(), "dotc-code-server-failure.png");
    if (page) await page.screenshot({ path: shot }).catch(() => {});
    t.diagnostic(`screenshot: ${shot}`);
    t.diagnostic(`code-server's output:\n${serverLog.slice(-4000)}`);
    throw e;
  }
});
