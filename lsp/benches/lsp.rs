//! The language server on the generated 100,000-line game log (`lang/benches/support/log.rs`):
//! keystroke-to-diagnostics (apply one edit, re-analyse, convert the diagnostics) and
//! completion in the middle of the log. The goal is 16 ms at the 99th percentile.
//!
//! Run with `cargo bench -p dotc-lsp --bench lsp`. Before criterion measures, the bench times
//! a few keystrokes and completions itself and prints their 50th and 99th percentiles, since
//! criterion reports means and medians only.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use dotc_lsp::workspace::Workspace;
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

fn setup() -> Setup {
    let (text, turns) = generate_log(TARGET_LINES);
    let mut ws = Workspace::new();
    ws.open(uri("/bench/fence-line.dotc"), 1, scenario_with_turns(turns));
    let log = uri("/bench/bench-game.dotc");
    ws.open(log.clone(), 1, text.clone());
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
        self.ws.change(&self.log, self.version, vec![change]);
        let doc = self.ws.get(&self.log).expect("the log is open");
        convert::diagnostics(doc).len()
    }

    fn complete(&self) -> usize {
        let doc = self.ws.get(&self.log).expect("the log is open");
        let offset = doc.index.offset(&doc.text, self.action);
        completion::completion(doc, offset).len()
    }
}

fn percentiles(name: &str, mut run: impl FnMut() -> usize, n: usize) {
    let mut times: Vec<Duration> = (0..n)
        .map(|_| {
            let start = Instant::now();
            black_box(run());
            start.elapsed()
        })
        .collect();
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
            "input: {} lines, {} bytes; {} diagnostics; replayed: {}",
            doc.index.line_count(),
            doc.text.len(),
            doc.analyzed.diagnostics.len(),
            doc.analyzed.replay.is_some()
        );
        assert!(s.complete() > 0, "completion at an action line offers the verbs");
    }
    percentiles("keystroke-to-diagnostics", || s.keystroke(), 10);
    percentiles("completion", || s.complete(), 200);

    let mut group = c.benchmark_group("lsp");
    group.sample_size(10);
    // One keystroke per sample: a whole-file re-analysis is far too slow for criterion's
    // growing iteration counts.
    group.sampling_mode(SamplingMode::Flat);
    group.measurement_time(Duration::from_secs(30));
    group.bench_function("keystroke_to_diagnostics_100k_lines", |b| b.iter(|| black_box(s.keystroke())));
    group.bench_function("completion_100k_lines", |b| b.iter(|| black_box(s.complete())));
    group.finish();
}

criterion_group!(benches, bench_lsp);
criterion_main!(benches);
