//! Replay and audit of the generated 100,000-line game log, side by side with parsing it.
//! Results and how to read them: `BENCHMARKS.md` at the repository root.
//!
//! Run with `cargo bench -p dotc-runtime --bench replay`.
//!
//! Two logs: the generated one below, and a rules-legal one (`tools/legal_log.rs`) whose every
//! action the replay plays in full.
//!
//! The log is the parse benchmark's (`lang/benches/support/log.rs`): a long game of the tutorial
//! scenario, served from memory. Its dice and claims are drawn at random, so the replay finds a
//! great many disagreements; that is the audit's real work (every finding is built, located and
//! kept), and the bench prints how many before measuring.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dotc_runtime::replay::{Level, ReplayOptions, replay};

#[path = "../../tools/legal_log.rs"]
mod legal_log;
#[path = "../../lang/benches/support/log.rs"]
mod log;

use log::{MemoryLoader, TARGET_LINES, generate_log, scenario_with_turns};

fn bench_replay(c: &mut Criterion) {
    let (text, turns) = generate_log(TARGET_LINES);
    let loader = MemoryLoader { scenario: scenario_with_turns(turns) };
    let path = Path::new("scenarios/tutorial/bench-game.dotc");
    let analysis = dotc_lang::analyze(path, &text, &loader);
    assert!(
        analysis.diagnostics.is_empty(),
        "the generated log has diagnostics: {:?}",
        analysis.diagnostics.first()
    );
    let options = ReplayOptions { source: Some(&text), ..ReplayOptions::default() };
    let once = replay(&analysis, &options);
    let count = |level: Level| once.findings.iter().filter(|f| f.level == level).count();
    eprintln!(
        "input: {} lines, {turns} turns, {} bytes; replay: {} events, findings: {} errors, {} warnings, {} notes, {} followed",
        text.lines().count(),
        text.len(),
        once.events.len(),
        count(Level::Error),
        count(Level::Warning),
        count(Level::Note),
        count(Level::Followed),
    );
    drop(once);

    let mut group = c.benchmark_group("game_log_100k_lines_replay");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(3));
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("parse (parse+lower)", |b| b.iter(|| dotc_lang::parse(black_box(&text))));
    group.bench_function("replay+audit (of an analysed log)", |b| {
        b.iter(|| replay(black_box(&analysis), black_box(&options)))
    });
    group.bench_function("analyze+replay+audit (from text)", |b| {
        b.iter(|| {
            let analysis = dotc_lang::analyze(black_box(path), black_box(&text), &loader);
            replay(&analysis, &ReplayOptions { source: Some(&text), ..ReplayOptions::default() })
        })
    });
    group.finish();
}

/// The same on a rules-legal log (`tools/legal_log.rs`): nothing is refused or found, so every
/// action is played in full; the ratio of the two is the replay's cost over parsing (issue 16).
fn bench_legal_replay(c: &mut Criterion) {
    let (text, turns) = legal_log::generate_legal_log(TARGET_LINES);
    let loader = MemoryLoader { scenario: scenario_with_turns(turns) };
    let path = Path::new("scenarios/tutorial/legal-game.dotc");
    let analysis = dotc_lang::analyze(path, &text, &loader);
    let options = ReplayOptions { source: Some(&text), ..ReplayOptions::default() };
    let once = replay(&analysis, &options);
    assert!(!once.has_problems(), "the legal log has findings: {:?}", once.findings.first());
    eprintln!(
        "input: {} lines, {turns} turns, {} bytes; replay: {} events, {} findings",
        text.lines().count(),
        text.len(),
        once.events.len(),
        once.findings.len()
    );
    drop(once);

    let mut group = c.benchmark_group("legal_log_100k_lines_replay");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(3));
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("analyze (parse+lower+check)", |b| {
        b.iter(|| dotc_lang::analyze(black_box(path), black_box(&text), &loader))
    });
    group.bench_function("replay+audit (of an analysed log)", |b| {
        b.iter(|| replay(black_box(&analysis), black_box(&options)))
    });
    group.finish();
}

criterion_group!(benches, bench_replay, bench_legal_replay);
criterion_main!(benches);
