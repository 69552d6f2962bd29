//! The language server on the generated 100,000-line game log (`lang/benches/support/log.rs`):
//! keystroke-to-diagnostics (apply one edit, re-analyse, convert the diagnostics the editor is
//! sent), completion in the middle of the log and semantic tokens (whole, delta, range). The
//! goal is 16 ms at the 99th percentile.
//! Keystrokes are typed three ways: into a comment in the middle of the log, a new action line
//! in the middle (every keystroke but the last leaves a line that does not parse), and a new
//! turn at the end. The replay of the audit, which the server runs after a pause in typing, is
//! timed apart.
//!
//! Run with `cargo bench -p dotc-lsp --bench lsp`. Before criterion measures, the bench times
//! a few keystrokes, completions and semantic tokens itself and prints their 50th and 99th
//! percentiles, since criterion reports means and medians only.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use dotc_lsp::semantic::{DocumentTokens, TokenInputs};
use dotc_lsp::workspace::{MAX_AUDIT_DIAGNOSTICS, Workspace};
use dotc_lsp::{completion, convert};
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

// The loader in it serves the other benches; this one opens the scenario as a buffer.
#[allow(dead_code)]
#[path = "../../lang/benches/support/log.rs"]
mod log;

use log::{TARGET_LINES, generate_log, scenario_with_turns};

fn uri(path: &str) -> Uri {
    format!("file://{path}").parse().expect("a file URI")
}

/// The scenario and the 100,000-line log open in a workspace, and where to type in the log.
struct Setup {
    ws: Workspace,
    log: Uri,
    /// A comment line in the middle of the log, where a keystroke keeps the log valid.
    comment: Position,
    /// The start of an action line in the middle of the log (completion gives the verbs).
    action: Position,
    version: i32,
}

/// What is typed for the "new action" and "new turn" runs.
const NEW_ACTION: &str =
    "        fire \"51st Georgia\" at \"150th Pennsylvania\" roll [6, 3, 4, 2] => hits 2\n";
const NEW_TURN: &str = "{\n    command {\n        pips \"Col. Asa Hollister\" roll [4] => 2\n    }\n}\n";

fn setup() -> Setup {
    let (text, turns) = generate_log(TARGET_LINES);
    let mut ws = Workspace::new();
    // One turn more than the log has: the bench types it.
    ws.open(uri("/bench/fence-line.dotc"), 1, scenario_with_turns(turns + 1));
    let log = uri("/bench/bench-game.dotc");
    ws.open(log.clone(), 1, text.clone());
    // The audit of a log this long is replayed after a pause in typing; replay it once now, as
    // the server would, so the keystrokes below carry its findings along.
    let job = ws.audit_job(&log, 1).expect("the audit of a long log is due");
    let analyzed = job.run().expect("nothing changed the log");
    ws.finish_audit(&log, &job, analyzed).expect("the log is unchanged");
    let lines: Vec<&str> = text.lines().collect();
    let middle = lines.len() / 2;
    let comment =
        (middle..lines.len()).find(|&i| lines[i].trim_start().starts_with("//")).expect("a comment");
    let action =
        (middle..lines.len()).find(|&i| lines[i].trim_start().starts_with("fire \"")).expect("a fire action");
    let indent = lines[action].len() - lines[action].trim_start().len();
    Setup {
        ws,
        log,
        comment: Position { line: comment as u32, character: 3 },
        action: Position { line: action as u32, character: indent as u32 },
        version: 1,
    }
}

impl Setup {
    /// Type one character into the comment (or take it out again): the log stays valid.
    fn keystroke(&mut self) -> usize {
        self.version += 1;
        let at = self.comment;
        let change = if self.version % 2 == 0 {
            TextDocumentContentChangeEvent {
                range: Some(Range { start: at, end: at }),
                range_length: None,
                text: "x".into(),
            }
        } else {
            let end = Position { line: at.line, character: at.character + 1 };
            TextDocumentContentChangeEvent {
                range: Some(Range { start: at, end }),
                range_length: None,
                text: String::new(),
            }
        };
        self.apply(change)
    }

    /// Apply one change and convert the diagnostics the editor would be sent.
    fn apply(&mut self, change: TextDocumentContentChangeEvent) -> usize {
        self.ws.change(&self.log, self.version, vec![change]);
        let doc = self.ws.get(&self.log).expect("the log is open");
        convert::diagnostics(doc, MAX_AUDIT_DIAGNOSTICS).len()
    }

    /// Type `typed` one character at a time at `at`, returning the time of each keystroke.
    fn type_text(&mut self, at: Position, typed: &str) -> Vec<Duration> {
        let mut at = at;
        typed
            .chars()
            .map(|c| {
                self.version += 1;
                let change = TextDocumentContentChangeEvent {
                    range: Some(Range { start: at, end: at }),
                    range_length: None,
                    text: c.to_string(),
                };
                at = if c == '\n' {
                    Position { line: at.line + 1, character: 0 }
                } else {
                    Position { line: at.line, character: at.character + c.len_utf16() as u32 }
                };
                let start = Instant::now();
                black_box(self.apply(change));
                start.elapsed()
            })
            .collect()
    }

    /// The end of the log.
    fn end(&self) -> Position {
        let doc = self.ws.get(&self.log).expect("the log is open");
        doc.index.position(&doc.text, doc.text.len())
    }

    fn complete(&self) -> usize {
        let doc = self.ws.get(&self.log).expect("the log is open");
        let offset = doc.index.offset(&doc.text, self.action);
        completion::completion(doc, offset).len()
    }
}

fn percentiles(name: &str, mut run: impl FnMut() -> usize, n: usize) {
    let times: Vec<Duration> = (0..n)
        .map(|_| {
            let start = Instant::now();
            black_box(run());
            start.elapsed()
        })
        .collect();
    report(name, times);
}

fn report(name: &str, mut times: Vec<Duration>) {
    let n = times.len();
    times.sort();
    let at =
        |p: f64| times[((times.len() as f64 * p).ceil() as usize).saturating_sub(1).min(times.len() - 1)];
    eprintln!("{name}: {n} runs, p50 {:?}, p99 {:?}, max {:?}", at(0.5), at(0.99), at(1.0));
}

fn bench_lsp(c: &mut Criterion) {
    let mut s = setup();
    {
        let doc = s.ws.get(&s.log).expect("the log is open");
        eprintln!(
            "input: {} lines, {} bytes; {} diagnostics ({} of them the audit's); replayed: {}",
            doc.index.line_count(),
            doc.text.len(),
            doc.analyzed.diagnostics().len(),
            doc.analyzed.audit.len(),
            doc.analyzed.replay.is_some()
        );
        assert!(s.complete() > 0, "completion at an action line offers the verbs");
    }
    percentiles("keystroke-to-diagnostics, in a comment", || s.keystroke(), 400);
    // Semantic tokens made afresh, then, after each of 300 keystrokes in the comment, from the
    // tokens kept between requests: the whole file, a delta from the last answer or one screen
    // (60 lines) around the keystroke, in turn. Each timed with its snapshot of the document.
    let inputs = |s: &Setup| TokenInputs::of(s.ws.get(&s.log).expect("the log is open"));
    percentiles("semantic tokens, the whole file made afresh", || inputs(&s).tokens().len(), 10);
    let mut kept = DocumentTokens::default();
    let mut last = kept.full(&inputs(&s)).0;
    let screen = (s.comment.line.saturating_sub(30), s.comment.line + 30);
    let (mut full, mut delta, mut range) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..300 {
        s.keystroke();
        let start = Instant::now();
        let now = inputs(&s);
        match round % 3 {
            0 => {
                last = black_box(kept.full(&now)).0;
                full.push(start.elapsed());
            }
            1 => {
                last = black_box(kept.delta(&now, &last)).0;
                delta.push(start.elapsed());
            }
            _ => {
                black_box(kept.range(&now, screen));
                range.push(start.elapsed());
            }
        }
    }
    report("semantic tokens after a keystroke, the whole file from the kept tokens", full);
    report("semantic tokens after a keystroke, a delta from the last answer", delta);
    report("semantic tokens after a keystroke, a range of 60 lines around it", range);
    let middle = Position { line: s.action.line, character: 0 };
    let times = s.type_text(middle, NEW_ACTION);
    report("keystroke-to-diagnostics, typing an action line mid-log", times);
    let end = s.end();
    let next = {
        let doc = s.ws.get(&s.log).expect("the log is open");
        let last = doc.analyzed.analysis.document.turns.last().expect("turns");
        let side = if last.side.value == "union" { "confederate" } else { "union" };
        format!("turn {} {side} {NEW_TURN}", last.number.value + 1)
    };
    let times = s.type_text(end, &next);
    report("keystroke-to-diagnostics, typing a new turn at the end", times);
    percentiles("completion", || s.complete(), 400);
    {
        let doc = s.ws.get(&s.log).expect("the log is open");
        assert!(doc.analyzed.audit_due, "typing leaves the audit due");
    }
    // The replay the server runs after a pause, off the editing path.
    let job = s.ws.audit_job(&s.log, s.version).expect("the audit is due");
    percentiles(
        "audit replay after a pause (off the editing path)",
        || job.run().map_or(0, |a| a.audit.len()),
        3,
    );

    let mut group = c.benchmark_group("lsp");
    group.sample_size(50);
    group.sampling_mode(SamplingMode::Flat);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("keystroke_to_diagnostics_100k_lines", |b| b.iter(|| black_box(s.keystroke())));
    group.bench_function("completion_100k_lines", |b| b.iter(|| black_box(s.complete())));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("audit_replay_100k_lines", |b| {
        b.iter(|| black_box(job.run().map_or(0, |a| a.audit.len())))
    });
    group.finish();
}

criterion_group!(benches, bench_lsp);
criterion_main!(benches);
