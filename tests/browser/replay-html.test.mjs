// `dotc replay GAME --html OUT.html` in a real browser (issue 21): Debian's chromium driven by
// puppeteer-core. The page of the tutorial game is stepped through with the keyboard and the
// buttons, the turn slider and a link, and what each step shows is checked against the replay's
// own outputs: `dotc replay` (the narrative of each action), `dotc replay --format json` (the
// events, from which each unit's stands and markers follow).
//
// Run: `npm ci && npm test` here, after `cargo build --bin dotc`. DOTC names the binary
// (default: $CARGO_TARGET_DIR or ../../target, debug/dotc); CHROMIUM the browser
// (default /usr/bin/chromium).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { launch, dotcBinary } from "./browser.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TUTORIAL = "scenarios/tutorial/fence-line-game.dotc";
const dotc = dotcBinary(root);

let work, browser, url, narrative, story, json;

/// The narrative's actions: each `line N: TEXT` and the events told under it.
function narratedActions(text) {
  const out = [];
  let open = null;
  for (const line of text.split("\n")) {
    const action = line.match(/^ {4}line (\d+): (.*)$/);
    if (action) {
      open = { line: Number(action[1]), text: action[2], events: [] };
      out.push(open);
    } else if (line.startsWith("      ") && open) {
      if (!line.trimStart().startsWith("!")) open.events.push(line.slice(6));
    } else {
      open = null;
    }
  }
  return out;
}

before(async () => {
  work = mkdtempSync(path.join(tmpdir(), "dotc-html-"));
  const out = path.join(work, "tutorial.html");
  execFileSync(dotc, ["replay", TUTORIAL, "--html", out], { cwd: root, stdio: "pipe" });
  url = pathToFileURL(out).href;
  narrative = narratedActions(execFileSync(dotc, ["replay", TUTORIAL, "--rules"], { cwd: root }).toString());
  // `dotc replay`'s story: the sentences each step shows.
  story = new Set(
    execFileSync(dotc, ["replay", TUTORIAL], { cwd: root })
      .toString()
      .split("\n")
      .filter((l) => l.startsWith("    ") && !l.trimStart().startsWith("!"))
      .map((l) => l.trim()),
  );
  json = JSON.parse(execFileSync(dotc, ["replay", TUTORIAL, "--format", "json"], { cwd: root }).toString());
  browser = await launch(work);
});

after(async () => {
  if (browser) await browser.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/// A page on the file, with every request other than the file itself refused and counted, and
/// every script error kept.
async function open(hash = "") {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  await page.setRequestInterception(true);
  page.on("request", (r) => {
    if (r.url().startsWith("file:") || r.url().startsWith("data:")) r.continue();
    else {
      problems.push("request to " + r.url());
      r.abort();
    }
  });
  await page.setViewport({ width: 1400, height: 1000 });
  await page.goto(url + hash);
  return { page, problems };
}

/// What the page shows now.
function shown(page) {
  return page.evaluate(() => {
    const units = {};
    for (const tr of document.querySelectorAll("#roster tr[data-unit]")) {
      units[tr.dataset.unit] = {
        stands: Number(tr.dataset.stands),
        markers: tr.querySelector(".markers").textContent,
        onTable: !tr.classList.contains("off"),
      };
    }
    const map = {};
    for (const g of document.querySelectorAll("#forces g.unit")) {
      map[g.dataset.unit] = {
        stands: g.querySelectorAll("path.stand").length,
        letters: [...g.querySelectorAll("text")].map((t) => t.textContent),
      };
    }
    return {
      step: document.body.dataset.step,
      heading: document.getElementById("heading").textContent,
      action: document.getElementById("action-line").textContent,
      counter: document.getElementById("counter").textContent,
      turn: document.getElementById("turn").value,
      told: [...document.querySelectorAll("#told li")].map((li) => li.textContent),
      toldVisible: getComputedStyle(document.getElementById("told")).display !== "none",
      events: [...document.querySelectorAll("#narrative li")].map((li) => ({
        text: li.firstChild.textContent,
        rule: li.dataset.rule,
        ruleVisible: getComputedStyle(li.querySelector(".rule")).display !== "none",
      })),
      units,
      map,
      fires: document.querySelectorAll("#action-layer g.fire").length,
      charges: document.querySelectorAll("#action-layer g.charge").length,
      moves: document.querySelectorAll("#action-layer g.move").length,
      lost: document.querySelectorAll("#action-layer path.lost").length,
    };
  });
}

/// A marker as the roster names it: the events write its title ("Clean Barrels"), the roster
/// its id (`clean_barrels`).
const markerId = (title) => title.toLowerCase().replace(/ /g, "_");

/// Each unit's stands and markers after the first `count` events of the JSON replay.
function stateAfter(count) {
  const units = {};
  for (const u of json.summary.units) units[u.name] = { stands: u.starting_stands, markers: new Set() };
  for (const e of json.events.slice(0, count)) {
    const u = units[e.event.unit];
    if (!u) continue;
    if (e.event.event === "stands_lost") u.stands = e.event.remaining;
    if (e.event.event === "marker_placed") u.markers.add(markerId(e.event.marker));
    if (e.event.event === "marker_removed") u.markers.delete(markerId(e.event.marker));
  }
  return units;
}

test("stepping through the tutorial with the keyboard shows each action as the replay tells it", async () => {
  const { page, problems } = await open();
  let now = await shown(page);
  assert.equal(now.step, "start");
  const total = Number(now.counter.match(/of (\d+)/)[1]);
  let actions = 0;
  let told = now.events.length;
  let fires = 0, losses = 0, moves = 0;
  for (let i = 1; i < total; i++) {
    await page.keyboard.press("ArrowRight");
    now = await shown(page);
    assert.equal(now.counter, `step ${i + 1} of ${total}`);
    if (now.action) {
      // An action: the log's line and text, and exactly the narrative's events under it.
      const want = narrative[actions++];
      assert.equal(now.action, `line ${want.line}: ${want.text}`);
      assert.deepEqual(now.events.map((e) => `${e.text}  [${e.rule}]`), want.events, now.step);
    }
    assert.ok(now.events.every((e) => !e.ruleVisible), "the rules are hidden until asked for");
    // The story: shown, each sentence one that `dotc replay` tells, one or more for an action
    // with events that are not bookkeeping.
    assert.ok(now.toldVisible, `${now.step}: the story is shown`);
    for (const sentence of now.told) assert.ok(story.has(sentence), `${now.step}: "${sentence}" is not dotc replay's`);
    if (now.events.some((e) => / fires \d+D6 at | loses \d+ stands?,/.test(e.text))) {
      assert.ok(now.told.length > 0, `${now.step}: a volley or a loss told`);
    }
    told += now.events.length;
    // The roster and the map against the JSON replay's events told so far.
    const want = stateAfter(told);
    for (const [name, unit] of Object.entries(want)) {
      assert.equal(now.units[name].stands, unit.stands, `${now.step}: ${name}'s stands`);
      for (const marker of unit.markers) {
        assert.ok(now.units[name].markers.includes(marker), `${now.step}: ${name} has ${marker}`);
      }
      const drawn = now.map[name];
      if (now.units[name].onTable) {
        assert.equal(drawn.stands, unit.stands, `${now.step}: ${name}'s stands drawn`);
        // Disorder's marker is the red "D" beside the unit.
        assert.equal(drawn.letters.includes("D"), unit.markers.has("disorder"), `${now.step}: ${name}'s Disorder drawn`);
      } else {
        assert.equal(drawn, undefined, `${now.step}: ${name} is off the table`);
      }
    }
    // The step's action drawn: a fire line for each volley, the stands lost, the moves.
    const volleys = now.events.filter((e) => / fires \d+D6 at /.test(e.text)).length;
    assert.ok(now.fires >= volleys, `${now.step}: ${volleys} volleys, ${now.fires} fire lines`);
    if (now.events.some((e) => / loses \d+ stands?,/.test(e.text))) assert.ok(now.lost > 0, `${now.step}: lost stands drawn`);
    if (now.events.some((e) => / moves [\d.]+" of an allowed/.test(e.text))) assert.ok(now.moves + now.charges > 0, `${now.step}: the move drawn`);
    fires += now.fires; losses += now.lost; moves += now.moves;
  }
  assert.equal(actions, narrative.length, "every action of the log is a step");
  assert.equal(told, json.events.length, "every event of the replay is told once");
  assert.ok(fires > 0 && losses > 0 && moves > 0, "the tutorial has fire, losses and moves drawn");
  // Past the end nothing moves; back with the left arrow.
  await page.keyboard.press("ArrowRight");
  assert.equal((await shown(page)).counter, `step ${total} of ${total}`);
  await page.keyboard.press("ArrowLeft");
  assert.equal((await shown(page)).counter, `step ${total - 1} of ${total}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the buttons, the rules toggle, the turn slider and a link open the steps they name", async () => {
  const { page, problems } = await open();
  const total = Number((await shown(page)).counter.match(/of (\d+)/)[1]);
  await page.click("#last");
  assert.equal((await shown(page)).counter, `step ${total} of ${total}`);
  assert.equal((await shown(page)).step, "t3-end");
  await page.click("#prev");
  assert.equal((await shown(page)).counter, `step ${total - 1} of ${total}`);
  await page.click("#first");
  assert.equal((await shown(page)).step, "start");
  await page.click("#next");
  let now = await shown(page);
  assert.equal(now.step, "t1-command-1");
  assert.equal(now.action, `line ${narrative[0].line}: ${narrative[0].text}`);
  // The rules, on demand: every event with the rule it applied, instead of the story.
  assert.ok(now.told.length > 0 && now.toldVisible);
  await page.click("#rules");
  now = await shown(page);
  assert.ok(now.events.length > 0 && now.events.every((e) => e.ruleVisible));
  assert.ok(!now.toldVisible, "the story gives way to the rules");
  await page.click("#rules");
  // The wide map: the map takes the page's width.
  const width = () => page.$eval("#map > svg", (svg) => svg.getBoundingClientRect().width);
  const narrow = await width();
  await page.click("#wide");
  assert.ok((await width()) > narrow * 1.3, "the wide map is wider");
  await page.click("#wide");
  // The slider: turn 3 opens its first action.
  await page.$eval("#turn", (s) => {
    s.value = "3";
    s.dispatchEvent(new Event("input"));
  });
  now = await shown(page);
  assert.equal(now.step, "t3-command-1");
  assert.match(now.heading, /^Turn 3 \(confederate\)/);
  assert.equal(now.turn, "3");
  // A link within the page.
  await page.evaluate(() => { location.hash = "#t2-fire-1"; });
  await page.waitForFunction(() => document.body.dataset.step === "t2-fire-1");
  now = await shown(page);
  assert.match(now.action, /^line \d+: fire "12th New Jersey" at "6th Louisiana"/);
  // Each step's URL names it.
  assert.ok(page.url().endsWith("#t2-fire-1"));
  assert.deepEqual(problems, []);
  await page.close();
});

test("a link opens its step, and the luck chart and findings are drawn", async () => {
  const { page, problems } = await open("#t2-fire-1");
  const now = await shown(page);
  assert.equal(now.step, "t2-fire-1");
  assert.equal(now.heading, "Turn 2 (union) \u00b7 Phase 3, fire \u00b7 action 1");
  const want = narrative.find((a) => a.text.startsWith('fire "12th New Jersey" at "6th Louisiana"'));
  assert.equal(now.action, `line ${want.line}: ${want.text}`);
  assert.ok(now.fires >= 1, "the volley's fire line is drawn");
  const chart = await page.evaluate(() =>
    [...document.querySelectorAll("#luck-chart polyline")].map((p) => p.getAttribute("points").split(" ").length),
  );
  assert.deepEqual(chart, [3, 3], "each side's luck after each of the three turns");
  const clean = await page.$eval("#findings", (f) => f.textContent);
  assert.match(clean, /None: the log agrees with the rules/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a hostile log's names are shown as text and run nothing", async () => {
  const hostile = `9th </script><script>alert("x")</script> & <img src=x onerror=alert(1)> <b>Co's</b>`;
  const quoted = hostile.replace(/"/g, '\\"');
  for (const [from, to] of [["scenarios/tutorial/fence-line.dotc", "fence-line.dotc"], [TUTORIAL, "game.dotc"]]) {
    writeFileSync(path.join(work, to), readFileSync(path.join(root, from), "utf8").replaceAll("9th Louisiana", quoted));
  }
  const out = path.join(work, "hostile.html");
  execFileSync(dotc, ["replay", "game.dotc", "--html", out], { cwd: work, stdio: "pipe" });
  const page = await browser.newPage();
  const dialogs = [];
  page.on("dialog", async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  await page.goto(pathToFileURL(out).href);
  const total = Number((await shown(page)).counter.match(/of (\d+)/)[1]);
  const names = new Set();
  for (let i = 1; i < total; i++) {
    await page.keyboard.press("ArrowRight");
    const now = await shown(page);
    for (const name of Object.keys(now.units)) names.add(name);
    for (const name of Object.keys(now.map)) names.add(name);
  }
  assert.ok(names.has(hostile), "the roster and the map name the regiment as written");
  assert.deepEqual(dialogs, [], "no script from the log ran");
  assert.equal(await page.$$eval("img, b", (e) => e.length), 0, "no markup from the log was made");
  await page.close();
});

test("the dotc binary and the browser were found", () => {
  assert.ok(existsSync(dotc));
});
