//! Parse + lower + check of a generated 100,000-line game log, side by side with serde_json
//! reading the same log exported as JSON (`dotc export`). Results and how to read them:
//! `BENCHMARKS.md` at the repository root.
//!
//! Run with `cargo bench -p dotc-lang --bench parse`.
//!
//! The log is generated deterministically (a small LCG, no randomness crate) against the
//! tutorial scenario, using its real unit and leader names, so the check resolves every name.
//! The scenario is fed from memory through a [`Loader`], with its `turns` raised to the number
//! of turns the log has: no disk IO happens in the measured loop. The generated log is checked
//! once before measuring and must produce zero diagnostics.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

#[path = "support/log.rs"]
mod log;

use log::{MemoryLoader, TARGET_LINES, generate_log, scenario_with_turns};

fn bench_parse(c: &mut Criterion) {
    let (log, turns) = generate_log(TARGET_LINES);
    let loader = MemoryLoader { scenario: scenario_with_turns(turns) };
    let path = Path::new("scenarios/tutorial/bench-game.dotc");

    // The log must check clean, or we would be measuring the error path.
    let analysis = dotc_lang::analyze(path, &log, &loader);
    assert!(
        analysis.diagnostics.is_empty(),
        "the generated log has {} diagnostics, first: {:?}",
        analysis.diagnostics.len(),
        analysis.diagnostics.first()
    );
    assert!(analysis.scenario.is_some(), "the scenario did not load");
    assert_eq!(analysis.document.turns.len(), turns as usize);

    let json =
        serde_json::to_string(&dotc_lang::model::export(&analysis, &log)).expect("the export serialises");
    drop(analysis);
    let lines = log.bytes().filter(|&b| b == b'\n').count();
    let actions: usize = dotc_lang::parse(&log)
        .document
        .turns
        .iter()
        .map(|t| t.phases().iter().map(|p| p.actions.len()).sum::<usize>())
        .sum();
    eprintln!(
        "input: {lines} lines, {turns} turns, {actions} actions; .dotc {} bytes, JSON {} bytes ({:.2}x the .dotc)",
        log.len(),
        json.len(),
        json.len() as f64 / log.len() as f64
    );
    if let Ok(dir) = std::env::var("DOTC_BENCH_DUMP") {
        // For profiling the same input outside criterion.
        let _ = std::fs::write(Path::new(&dir).join("bench-game.dotc"), &log);
        let _ = std::fs::write(Path::new(&dir).join("bench-game.json"), &json);
        let _ = std::fs::write(Path::new(&dir).join("fence-line.dotc"), &loader.scenario);
    }

    let mut group = c.benchmark_group("game_log_100k_lines");
    // One iteration takes a good part of a second: few, long samples.
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(3));
    group.measurement_time(Duration::from_secs(20));

    group.throughput(Throughput::Bytes(log.len() as u64));
    group.bench_function("analyze (parse+lower+check)", |b| {
        b.iter(|| dotc_lang::analyze(black_box(path), black_box(&log), &loader))
    });
    group.bench_function("parse (parse+lower)", |b| b.iter(|| dotc_lang::parse(black_box(&log))));

    group.throughput(Throughput::Bytes(json.len() as u64));
    group.bench_function("serde_json Value (same log as JSON)", |b| {
        b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(&json)).expect("valid JSON"))
    });
    // Context, not a goal: the same JSON read without building anything (syntax only). It shows
    // how much of (c) is serde_json's tree of maps and strings rather than reading the bytes.
    group.bench_function("serde_json IgnoredAny (same JSON, no tree)", |b| {
        b.iter(|| serde_json::from_str::<serde::de::IgnoredAny>(black_box(&json)).expect("valid JSON"))
    });
    group.finish();
}

criterion_group!(benches, bench_parse);
criterion_main!(benches);
