//! Structure-aware game logs, replayed and audited as `dotc audit` does, against the tutorial and
//! both Gettysburg scenarios.
//!
//! The fuzzer's bytes are decoded (with `arbitrary`) into a log: a header, turns, phases and
//! actions whose verbs, phases, claim words, unit and leader names, points and dice are drawn
//! from the language's own registers (`dotc_lang::verbs::VERBS`, `claims::CLAIM_WORDS`,
//! `rulings::RULINGS`) and the scenario's text, so most logs parse and name real units and the
//! work lands in the replay, the rules engine and the audit rather than in the parser. Nothing
//! may panic, overflow the stack or hang; the same log must replay to the same findings twice.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use arbitrary::{Arbitrary, Unstructured};
use dotc_lang::claims::{CLAIM_WORDS, NUMBER_ON};
use dotc_lang::verbs::VERBS;
use dotc_runtime::audit::{AuditOptions, audit};
use dotc_runtime::replay::{ReplayOptions, replay};
use libfuzzer_sys::fuzz_target;

/// The scenarios a log may name, served from memory.
const SCENARIOS: &[(&str, &str)] = &[
    ("fence-line.dotc", include_str!("../../scenarios/tutorial/fence-line.dotc")),
    (
        "gettysburg-day1-morning.dotc",
        include_str!("../../scenarios/gettysburg-day1/gettysburg-day1-morning.dotc"),
    ),
    (
        "gettysburg-day1-afternoon.dotc",
        include_str!("../../scenarios/gettysburg-day1/gettysburg-day1-afternoon.dotc"),
    ),
];

struct Scenarios;

impl dotc_lang::Loader for Scenarios {
    fn load(&self, path: &Path) -> Result<String, String> {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        SCENARIOS
            .iter()
            .find(|(file, _)| *file == name)
            .map(|(_, text)| text.to_string())
            .ok_or_else(|| format!("no scenario {name}"))
    }
}

/// What a scenario offers a log: its quoted names and the points it places things at.
struct Vocabulary {
    /// The scenario's `first_side` is union.
    union_first: bool,
    names: Vec<String>,
    points: Vec<(f64, f64)>,
}

fn vocabularies() -> &'static [Vocabulary] {
    static VOCABULARIES: OnceLock<Vec<Vocabulary>> = OnceLock::new();
    VOCABULARIES.get_or_init(|| SCENARIOS.iter().map(|(_, text)| vocabulary(text)).collect())
}

fn vocabulary(text: &str) -> Vocabulary {
    let mut names = Vec::new();
    let mut points = Vec::new();
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or_default();
        // Units and leaders.
        let first = line.split_whitespace().next().unwrap_or_default();
        let named = ["regiment", "battery", "cavalry", "brigadier", "commander"];
        let mut rest = if named.contains(&first) { line } else { "" };
        while let Some(start) = rest.find('"') {
            let after = &rest[start + 1..];
            let Some(end) = after.find('"') else { break };
            let name = after[..end].to_string();
            if !name.is_empty() && !name.ends_with(".dotc") && !names.contains(&name) {
                names.push(name);
            }
            rest = &after[end + 1..];
        }
        let mut rest = line;
        while let Some(start) = rest.find('(') {
            let after = &rest[start + 1..];
            let Some(end) = after.find(')') else { break };
            let mut parts = after[..end].split(',').map(|p| p.trim().parse::<f64>());
            if let (Some(Ok(x)), Some(Ok(y)), None) = (parts.next(), parts.next(), parts.next()) {
                points.push((x, y));
            }
            rest = &after[end + 1..];
        }
    }
    if points.is_empty() {
        points.push((0.0, 0.0));
    }
    let union_first = text.lines().any(|l| l.split_whitespace().eq(["first_side", "union"]));
    Vocabulary { union_first, names, points }
}

/// The action lines of the shipped and suite logs, by phase (an assault with its steps as one
/// text), read once from the repository.
fn templates() -> &'static [Vec<String>; 5] {
    static TEMPLATES: OnceLock<[Vec<String>; 5]> = OnceLock::new();
    TEMPLATES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        let mut stack = vec![root.join("tests/rules"), root.join("scenarios")];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "dotc") {
                    files.push(path);
                }
            }
        }
        files.sort();
        let mut by_phase: [Vec<String>; 5] = Default::default();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            let phase: Option<usize> = None;
            let mut assault: Option<String> = None;
            let mut phase: Option<usize> = phase;
            for line in text.lines() {
                let code = line.split("//").next().unwrap_or_default().trim();
                if code.is_empty() {
                    continue;
                }
                if let Some(open) = assault.as_mut() {
                    open.push('\n');
                    open.push_str(code);
                    if code == "}" {
                        if let (Some(p), Some(done)) = (phase, assault.take()) {
                            by_phase[p].push(done);
                        }
                    }
                    continue;
                }
                if let Some(word) = code.strip_suffix('{').map(str::trim) {
                    if let Some(p) = PHASES.iter().position(|w| *w == word) {
                        phase = Some(p);
                        continue;
                    }
                }
                if code == "}" || code.starts_with("turn ") {
                    phase = None;
                    continue;
                }
                let Some(p) = phase else { continue };
                if code.ends_with('{') {
                    assault = Some(code.to_string());
                } else {
                    by_phase[p].push(code.to_string());
                }
            }
        }
        by_phase
    })
}

/// A real line with its names, points and dice redrawn from `spec`.
fn write_real(out: &mut String, v: &Vocabulary, kind: usize, spec: &RealSpec) -> bool {
    let lines = &templates()[kind];
    if lines.is_empty() {
        return false;
    }
    let template = &lines[spec.template as usize % lines.len()];
    let mut bytes = spec.bytes.iter().copied().cycle();
    let mut next = move || if spec.bytes.is_empty() { 0 } else { bytes.next().unwrap_or(0) };
    let mut rest = template.as_str();
    while let Some(at) = rest.find(['"', '(', '[', '=', '\n']) {
        out.push_str(&rest[..at]);
        let here = &rest[at..];
        let end = match here.as_bytes()[0] {
            b'"' => here[1..].find('"').map(|e| e + 2),
            b'(' if here[1..].starts_with(|c: char| c.is_ascii_digit() || c == '-') => {
                here.find(')').map(|e| e + 1)
            }
            b'[' => here.find(']').map(|e| e + 1),
            b'=' if here.starts_with("=>") && spec.claim.is_some() => {
                here.find(['\n', '{']).or(Some(here.len()))
            }
            b'\n' => {
                out.push_str("\n            ");
                rest = &here[1..];
                continue;
            }
            _ => Some(1),
        };
        let Some(end) = end else { break };
        let token = &here[..end];
        match token.as_bytes()[0] {
            b'"' => out.push_str(&format!("\"{}\"", name(v, u16::from(next()) * 7 + u16::from(next())))),
            b'(' if token.len() > 1 => {
                let (a, dx, dy) = (u16::from(next()), next() as i8, next() as i8);
                out.push_str(&point(v, a, dx / 4, dy / 4));
            }
            b'[' if !spec.keep_dice => {
                let count = token.matches(',').count() + 1;
                let count = match next() % 8 {
                    0 => count + 1,
                    1 => count.saturating_sub(1),
                    _ => count,
                };
                let dice: Vec<String> = (0..count).map(|_| (1 + next() % 6).to_string()).collect();
                out.push_str(&format!("[{}]", dice.join(", ")));
            }
            b'=' if token.starts_with("=>") => {
                let verb = template.split_whitespace().next().unwrap_or_default();
                write_claim(out, verb, &spec.claim);
            }
            _ => out.push_str(token),
        }
        rest = &here[end..];
    }
    out.push_str(rest);
    true
}

/// Words a log's arguments use besides names: formations, orders, reactions, compass words and
/// a few the parser must refuse.
const WORDS: &[&str] = &[
    "line",
    "assault_column",
    "road_column",
    "column",
    "skirmish",
    "limbered",
    "unlimbered",
    "double_time",
    "concentrated_battery_fire",
    "counter_charge",
    "north",
    "south",
    "east",
    "west",
    "north_east",
    "south_west",
    "union",
    "confederate",
    "screen",
    "evade",
    "to",
    "pass",
    "fail",
    "bogus_word",
];

const PHASES: &[&str] = &["command", "maneuver", "fire", "melee", "status"];
const LABELS: &[&str] = &["roll", "saves", "discipline", "vs", "leader_casualty", "reroll"];

/// A list of at most `N` items whose length is one byte of the input (rather than `arbitrary`'s
/// length from the end of the data, which keeps random inputs' lists short).
#[derive(Debug)]
struct Few<T, const N: usize>(Vec<T>);

impl<'a, T: Arbitrary<'a>, const N: usize> Arbitrary<'a> for Few<T, N> {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let n = usize::from(u.arbitrary::<u8>()?) % (N + 1);
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            if u.is_empty() {
                break;
            }
            items.push(T::arbitrary(u)?);
        }
        Ok(Few(items))
    }
}

impl<T, const N: usize> std::ops::Deref for Few<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.0
    }
}

#[derive(Arbitrary, Debug)]
struct Log {
    scenario: u8,
    seed: Option<u16>,
    rulings: Few<(u8, u8), 3>,
    turns: Few<TurnSpec, 12>,
}

#[derive(Arbitrary, Debug)]
struct TurnSpec {
    /// Usually the next turn; sometimes a skip or a repeat.
    step: u8,
    union: bool,
    phases: Few<PhaseSpec, 5>,
}

#[derive(Arbitrary, Debug)]
struct PhaseSpec {
    kind: u8,
    actions: Few<ActionSpec, 8>,
}

/// One action: most often a line of a real log with its names, points, dice and claim redrawn,
/// sometimes a verb of the register with arguments drawn freely.
#[derive(Arbitrary, Debug)]
enum ActionSpec {
    Real(RealSpec),
    Real2(RealSpec),
    Real3(RealSpec),
    Free(FreeSpec),
}

/// A real log line of the phase (`template`), its quoted names and points replaced with the
/// scenario's, its dice redrawn from `bytes` unless `keep_dice`, its claim kept or redrawn.
#[derive(Arbitrary, Debug)]
struct RealSpec {
    template: u16,
    bytes: Few<u8, 24>,
    keep_dice: bool,
    claim: Option<Few<(u8, u8), 4>>,
}

#[derive(Arbitrary, Debug)]
struct FreeSpec {
    verb: u8,
    subject: u16,
    target: u16,
    args: Few<ArgSpec, 5>,
    claim: Option<Few<(u8, u8), 4>>,
    steps: Few<StepSpec, 5>,
}

#[derive(Arbitrary, Debug)]
struct StepSpec {
    verb: u8,
    args: Few<ArgSpec, 5>,
    claim: Option<Few<(u8, u8), 4>>,
}

#[derive(Arbitrary, Debug)]
enum ArgSpec {
    To { anchor: u16, dx: i8, dy: i8 },
    Facing(u8),
    FacingDegrees(u16),
    Dice { label: u8, dice: Few<u8, 12> },
    Pip(u16),
    Name(u16),
    Word(u8),
    Number(u8),
    Via(Few<(u16, i8, i8), 4>),
}

fn pick<T: Copy>(items: &[T], i: usize) -> Option<T> {
    (!items.is_empty()).then(|| items[i % items.len()])
}

fn name(v: &Vocabulary, i: u16) -> String {
    v.names.get(i as usize % v.names.len().max(1)).cloned().unwrap_or_else(|| "nobody".into())
}

fn point(v: &Vocabulary, anchor: u16, dx: i8, dy: i8) -> String {
    let (x, y) = v.points[anchor as usize % v.points.len()];
    // Offsets of up to ±16", in quarter inches.
    format!("({}, {})", x + f64::from(dx) / 8.0, y + f64::from(dy) / 8.0)
}

fn write_args(out: &mut String, v: &Vocabulary, args: &[ArgSpec]) {
    for arg in args.iter().take(6) {
        out.push(' ');
        match arg {
            ArgSpec::To { anchor, dx, dy } => {
                out.push_str("to ");
                out.push_str(&point(v, *anchor, *dx, *dy));
            }
            ArgSpec::Facing(w) => {
                out.push_str("facing ");
                out.push_str(pick(&WORDS[11..17], *w as usize).unwrap_or("east"));
            }
            ArgSpec::FacingDegrees(d) => out.push_str(&format!("facing {}", d % 400)),
            ArgSpec::Dice { label, dice } => {
                let dice: Vec<String> = dice.iter().take(24).map(|d| (1 + d % 6).to_string()).collect();
                out.push_str(&format!("{} [{}]", LABELS[*label as usize % LABELS.len()], dice.join(", ")));
            }
            ArgSpec::Pip(i) => out.push_str(&format!("pip \"{}\"", name(v, *i))),
            ArgSpec::Name(i) => out.push_str(&format!("\"{}\"", name(v, *i))),
            ArgSpec::Word(w) => out.push_str(WORDS[*w as usize % WORDS.len()]),
            ArgSpec::Number(n) => out.push_str(&(n % 20).to_string()),
            ArgSpec::Via(points) => {
                let points: Vec<String> =
                    points.iter().take(4).map(|(a, dx, dy)| point(v, *a, *dx, *dy)).collect();
                if points.is_empty() {
                    out.push_str("via (0, 0)");
                } else {
                    out.push_str(&format!("via {}", points.join(", ")));
                }
            }
        }
    }
}

fn write_claim(out: &mut String, verb: &str, claim: &Option<Few<(u8, u8), 4>>) {
    let Some(items) = claim else { return };
    if items.is_empty() {
        return;
    }
    if NUMBER_ON.contains(&verb) {
        out.push_str(&format!(" => {}", items.first().map_or(2, |(_, n)| n % 8)));
        return;
    }
    let words: Vec<_> = CLAIM_WORDS.iter().filter(|w| w.on(verb)).collect();
    let written: Vec<String> = items
        .iter()
        .take(5)
        .filter_map(|(w, n)| {
            let word = pick(&words, *w as usize)?;
            Some(if word.number { format!("{} {}", word.word, n % 10) } else { word.word.to_string() })
        })
        .collect();
    if !written.is_empty() {
        out.push_str(&format!(" => {}", written.join(", ")));
    }
}

fn write_log(log: &Log) -> (String, usize) {
    let which = log.scenario as usize % SCENARIOS.len();
    let v = &vocabularies()[which];
    let mut out = format!("game \"fuzz\" {{\n    scenario \"{}\"\n", SCENARIOS[which].0);
    if let Some(seed) = log.seed {
        out.push_str(&format!("    seed {seed}\n"));
    }
    if !log.rulings.is_empty() {
        out.push_str("    rules {\n");
        for (r, value) in log.rulings.iter().take(3) {
            let ruling = &dotc_lang::rulings::RULINGS[*r as usize % dotc_lang::rulings::RULINGS.len()];
            if let Some(value) = pick(ruling.values, *value as usize) {
                out.push_str(&format!("        ruling {} = {}\n", ruling.name, value));
            }
        }
        out.push_str("    }\n");
    }
    out.push_str("}\n");
    let verbs: Vec<_> = VERBS.iter().filter(|v| !v.step).collect();
    let steps: Vec<_> = VERBS.iter().filter(|v| v.step).collect();
    // Turns numbered 1, 2, 3... with the sides alternating; one turn in sixty-four breaks the
    // numbering or the alternation.
    let mut number = 0u32;
    let mut union = v.union_first;
    for turn in log.turns.iter().take(12) {
        number += u32::from(turn.step != 64) + u32::from(turn.step == 65);
        if turn.step != 66 && number > 1 {
            union = !union;
        }
        if turn.step == 67 {
            union = turn.union;
        }
        let side = if union { "union" } else { "confederate" };
        out.push_str(&format!("turn {} {side} {{\n", number.max(1)));
        // Phases in their order (Ch16 1.0), each at most once; one turn in sixteen breaks it.
        let mut phases: Vec<(&str, &PhaseSpec)> =
            turn.phases.iter().take(5).map(|p| (PHASES[p.kind as usize % PHASES.len()], p)).collect();
        if turn.step % 16 != 7 {
            phases.sort_by_key(|(kind, _)| PHASES.iter().position(|p| p == kind));
            phases.dedup_by_key(|(kind, _)| *kind);
        }
        for (kind, phase) in phases {
            out.push_str(&format!("    {kind} {{\n"));
            let kind_index = PHASES.iter().position(|p| *p == kind).unwrap_or(0);
            for action in phase.actions.iter().take(8) {
                let action = match action {
                    ActionSpec::Real(real) | ActionSpec::Real2(real) | ActionSpec::Real3(real) => {
                        out.push_str("        ");
                        if write_real(&mut out, v, kind_index, real) {
                            out.push('\n');
                        }
                        continue;
                    }
                    ActionSpec::Free(free) => free,
                };
                // Mostly a verb of this phase, sometimes any verb.
                let of_phase: Vec<_> =
                    verbs.iter().filter(|v| v.phases.iter().any(|p| p.word() == kind)).copied().collect();
                let spec = if action.verb < 248 { pick(&of_phase, action.verb as usize) } else { None }
                    .or_else(|| pick(&verbs, action.verb as usize));
                let Some(spec) = spec else { continue };
                out.push_str("        ");
                out.push_str(spec.verb);
                if spec.subject {
                    out.push_str(&format!(" \"{}\"", name(v, action.subject)));
                }
                if spec.target {
                    let arrow = if spec.verb == "assault" { "->" } else { "at" };
                    out.push_str(&format!(" {arrow} \"{}\"", name(v, action.target)));
                }
                write_args(&mut out, v, &action.args);
                write_claim(&mut out, spec.verb, &action.claim);
                if spec.verb == "assault" && !action.steps.is_empty() {
                    out.push_str(" {\n");
                    for step in action.steps.iter().take(6) {
                        let Some(s) = pick(&steps, step.verb as usize) else { continue };
                        out.push_str("            ");
                        out.push_str(s.verb);
                        write_args(&mut out, v, &step.args);
                        write_claim(&mut out, s.verb, &step.claim);
                        out.push('\n');
                    }
                    out.push_str("        }");
                }
                out.push('\n');
            }
            out.push_str("    }\n");
        }
        out.push_str("}\n");
    }
    (out, which)
}

/// Replay and audit one log as `dotc audit` does; the findings as rendered text.
fn audit_once(path: &Path, source: &str) -> Option<String> {
    let analysis = dotc_lang::analyze(path, source, &Scenarios);
    let rendered = dotc_lang::diagnostic::render_plain(&analysis.diagnostics, "fuzz.dotc", source);
    if analysis.has_errors() || analysis.document.game.is_none() {
        return Some(rendered);
    }
    let options = ReplayOptions { source: Some(source), ..ReplayOptions::default() };
    let replayed = replay(&analysis, &options);
    let audited = audit(&analysis.document, &replayed.findings, AuditOptions { notes: true });
    Some(dotc_lang::diagnostic::render_plain(&audited.diagnostics, "fuzz.dotc", source))
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(log) = Log::arbitrary(&mut u) else { return };
    let (source, which) = write_log(&log);
    let dir = match which {
        0 => "scenarios/tutorial",
        _ => "scenarios/gettysburg-day1",
    };
    let path = PathBuf::from(dir).join("fuzz-game.dotc");
    let first = audit_once(&path, &source);
    // `DOTC_FUZZ_PRINT=1 .../replay corpus/replay/*` shows what the inputs decode to.
    if std::env::var_os("DOTC_FUZZ_PRINT").is_some() {
        eprintln!("{source}\n{}", first.as_deref().unwrap_or_default());
    }
    // Determinism: the same log gives the same findings, every time (checked on a sample, as it
    // doubles the cost of a run).
    if data.len() % 16 == 0 {
        assert_eq!(first, audit_once(&path, &source), "the same log audited twice differs:\n{source}");
    }
});
