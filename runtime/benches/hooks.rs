//! Cost of a scenario script hook per game event, with the engine and the compiled script built
//! once outside the loop (as a replay does). Results: `BENCHMARKS.md`. Run with
//! `cargo bench -p dotc-runtime --bench hooks`.

use std::collections::VecDeque;
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use dotc_runtime::script::{Limits, Scripts, Snapshot, UnitView};

struct NoFiles;

impl dotc_lang::Loader for NoFiles {
    fn load(&self, _: &Path) -> Result<String, String> {
        Err("no files".into())
    }
}

const SCENARIO: &str = r#"scenario "Bench" {
    turns 8
    first_side union
    table 24 x 24
    side union "U" { brigade "B" { brigadier "Col. A" reliable at (2, 2)
        regiment "1st" { stands 4 regular rifled_musket line at (5, 5) facing north } } }
    side confederate "C" { brigade "D" { brigadier "Col. Z" reliable at (20, 20)
        regiment "2nd" { stands 4 regular rifled_musket line at (18, 18) facing south } } }
    script ```rhai
        fn on_unit_destroyed(game, unit) { }
        fn on_unit_routed(game, unit) {
            if game.turn >= 5 && unit == "2nd" { game.log("routed late"); }
        }
    ```
}
"#;

fn bench_hooks(c: &mut Criterion) {
    let analysis = dotc_lang::analyze(Path::new("bench.dotc"), SCENARIO, &NoFiles);
    let Some(scenario) = analysis.document.scenario else { return };
    let mut scripts = Scripts::compile(&scenario, Limits::default());
    assert!(scripts.errors.is_empty(), "{:?}", scripts.errors);
    let unit = UnitView { name: "2nd".into(), side: "confederate".into(), stands: 4, ..UnitView::default() };
    let snapshot = Arc::new(Snapshot {
        turn: 3,
        side: "union".into(),
        sides: vec!["union".into(), "confederate".into()],
        units: vec![unit; 30],
        ..Snapshot::default()
    });
    let mut dice = VecDeque::new();
    let mut group = c.benchmark_group("hooks");
    group.bench_function("hook not defined (skipped)", |b| {
        b.iter(|| black_box(scripts.has_hook(black_box("on_leader_hit"))))
    });
    group.bench_function("empty hook, one call", |b| {
        b.iter(|| {
            scripts.call_hook("on_unit_destroyed", &[black_box("2nd")], &snapshot, &mut dice).effects.len()
        })
    });
    group.bench_function("hook reading game.turn, one call", |b| {
        b.iter(|| {
            scripts.call_hook("on_unit_routed", &[black_box("2nd")], &snapshot, &mut dice).effects.len()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_hooks);
criterion_main!(benches);
