"use strict";
// The replay's steps: every string is set as text, never as markup; the map's layers are the
// SVG dotc wrote, with every name already escaped.
(function () {
  const data = JSON.parse(document.getElementById("dotc-data").textContent);
  const $ = (id) => document.getElementById(id);
  const forces = $("forces");
  const action = $("action");
  const slider = $("turn");
  let current = -1;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function ruleSpan(rule) {
    return el("span", " [" + rule + "]", "rule");
  }

  function roster(index, previous) {
    const box = $("roster");
    box.replaceChildren(el("h2", "Rosters"));
    const sides = data.rosters[index] || [];
    const before = data.rosters[previous] || [];
    sides.forEach((side, s) => {
      box.appendChild(el("h3", side.side));
      const brigades = el("p", undefined, "brigades");
      side.brigades.forEach((b, i) => {
        if (i) brigades.appendChild(document.createTextNode(" \u00b7 "));
        const span = el("span", b[0] + ": " + b[1], "brigade state-" + b[1]);
        span.dataset.brigade = b[0];
        span.dataset.state = b[1];
        span.title = b[2] + " of " + b[3] + " stands lost";
        brigades.appendChild(span);
      });
      box.appendChild(brigades);
      const table = el("table", undefined, "units");
      const head = el("tr");
      ["Unit", "Stands", "Health", "Markers"].forEach((h) => head.appendChild(el("th", h)));
      table.appendChild(head);
      const old = before[s] ? before[s].units.map((i) => data.units[i]) : [];
      side.units.map((i) => data.units[i]).forEach((u) => {
        const tr = el("tr");
        tr.dataset.unit = u.name;
        tr.dataset.stands = u.stands;
        const was = old.find((o) => o.name === u.name);
        if (!u.on_table) tr.className = "off";
        if (was && (was.stands !== u.stands || was.health !== u.health || was.micro_hit !== u.micro_hit ||
            was.markers.join() !== u.markers.join())) tr.classList.add("changed");
        tr.appendChild(el("td", u.name));
        tr.appendChild(el("td", u.stands + "/" + u.starting + (u.micro_hit ? " +micro-hit" : ""), "stands"));
        tr.appendChild(el("td", u.on_table ? u.health : u.health + " (off the table)", "health"));
        tr.appendChild(el("td", u.markers.join(", "), "markers"));
        table.appendChild(tr);
      });
      box.appendChild(table);
    });
  }

  function luckNow(turn) {
    const chart = $("luck-chart");
    const line = $("luck-now");
    if (!chart || !line) return;
    const x = parseFloat(chart.dataset.x0) + Math.max(0, turn - 1) * parseFloat(chart.dataset.dx);
    line.setAttribute("x1", x);
    line.setAttribute("x2", x);
    line.style.visibility = turn > 0 ? "visible" : "hidden";
  }

  function show(i, fromHash) {
    i = Math.max(0, Math.min(data.steps.length - 1, i));
    const step = data.steps[i];
    current = i;
    document.body.dataset.step = step.id;
    forces.innerHTML = (data.forces[step.forces] || []).map((l) => data.lines[l]).join("\n");
    action.innerHTML = data.actions[step.action] || "";
    $("heading").textContent = step.heading;
    $("action-line").textContent = step.line ? "line " + step.line + ": " + step.text : step.text;
    const told = $("told");
    told.replaceChildren();
    (step.story || []).forEach((sentence) => told.appendChild(el("li", sentence, "sentence")));
    const list = $("narrative");
    list.replaceChildren();
    step.events.forEach((e) => {
      const li = el("li", e[0], "event");
      li.dataset.rule = e[1];
      li.appendChild(ruleSpan(e[1]));
      list.appendChild(li);
    });
    const found = $("step-findings");
    found.replaceChildren();
    step.findings.forEach((f) => {
      const li = el("li", "\u26a0 " + f[0] + ": " + f[1], "finding level-" + f[0].replace(/ /g, "-"));
      if (f[2]) li.appendChild(ruleSpan(f[2]));
      found.appendChild(li);
    });
    // What changed at this step: against the step before it.
    roster(step.roster, data.steps[Math.max(0, i - 1)].roster);
    slider.value = step.turn;
    $("turn-value").textContent = step.turn;
    $("counter").textContent = "step " + (i + 1) + " of " + data.steps.length;
    $("link").href = "#" + step.id;
    luckNow(step.turn);
    if (!fromHash) {
      try { history.replaceState(null, "", "#" + step.id); } catch (e) { /* a page opened without a URL */ }
    }
  }

  function fromHash() {
    const id = decodeURIComponent(location.hash.slice(1));
    const i = data.steps.findIndex((s) => s.id === id);
    return i;
  }

  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(current - 1));
  $("next").addEventListener("click", () => show(current + 1));
  $("last").addEventListener("click", () => show(data.steps.length - 1));
  slider.addEventListener("input", () => {
    const t = parseInt(slider.value, 10);
    show(data.turns[Math.min(t, data.turns.length - 1)] || 0);
  });
  $("rules").addEventListener("change", (e) => document.body.classList.toggle("show-rules", e.target.checked));
  $("wide").addEventListener("change", (e) => document.body.classList.toggle("wide-map", e.target.checked));
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "INPUT" && e.target.type === "range") return;
    if (e.key === "ArrowRight") show(current + 1);
    else if (e.key === "ArrowLeft") show(current - 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(data.steps.length - 1);
    else return;
    e.preventDefault();
  });
  window.addEventListener("hashchange", () => {
    const i = fromHash();
    if (i >= 0 && i !== current) show(i, true);
  });
  const start = fromHash();
  show(start >= 0 ? start : 0, start >= 0);
})();
