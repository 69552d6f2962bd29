//! Contact between units, as a replay asks it: is this unit in melee, i.e. does any stand of it
//! touch any stand of an enemy unit? Asked of every pair of units on a brigade-level table, with
//! the quick rejection by reach (`contact::in_contact`) and, side by side in the same run,
//! without it (every pair of stands built and measured, as before issue 16). Results:
//! `BENCHMARKS.md`.
//!
//! Run with `cargo bench -p dotc-runtime --bench contact`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use dotc_runtime::battlefield::body::Body;
use dotc_runtime::battlefield::contact::{in_contact, stands_touch};
use dotc_runtime::geometry::Layout;

/// Two sides of 20 units each on a 48 x 36 table: lines of 4 to 6 stands and a few assault
/// columns, in two ragged lines facing each other 8" apart, with two pairs in base contact (a
/// melee) as a game's middle turns have.
fn table() -> Vec<(usize, Body)> {
    let mut units = Vec::new();
    for side in 0..2 {
        for i in 0..20 {
            let stands = 4 + (i % 3) as u32;
            let column = i % 5 == 4;
            let layout = Layout::new(stands, column.then_some(2), 0.0, 1.0);
            let x = 2.0 + (i % 10) as f64 * 4.6;
            let row = (i / 10) as f64 * 3.0;
            let (y, facing) = if side == 0 { (10.0 - row, 0.0) } else { (18.0 + row, 180.0) };
            units.push((side, Body::new((x, y), facing, layout)));
        }
    }
    // Two melees: the first two union units pushed onto the confederates facing them.
    for i in [0, 1] {
        let enemy = units[20 + i].1.position;
        units[i].1.position = (enemy.0, enemy.1);
    }
    units
}

/// Contact by every pair of stands, without the rejection by reach.
fn every_pair(a: &Body, b: &Body) -> bool {
    let theirs = b.stands();
    a.stands().iter().any(|mine| theirs.iter().any(|other| stands_touch(mine, other)))
}

/// How many units are in melee, asking `touch` of each unit and each enemy.
fn in_melee(units: &[(usize, Body)], touch: impl Fn(&Body, &Body) -> bool) -> usize {
    units.iter().filter(|(side, body)| units.iter().any(|(other, b)| other != side && touch(body, b))).count()
}

fn bench_contact(c: &mut Criterion) {
    let units = table();
    let (fast, exact) = (in_melee(&units, in_contact), in_melee(&units, every_pair));
    assert_eq!(fast, exact, "the rejection by reach changed an answer");
    assert!(fast >= 4, "two melees, each of at least two units: {fast}");
    let mut group = c.benchmark_group("contact_40_units_in_melee");
    group.sample_size(20);
    group.warm_up_time(Duration::from_secs(2));
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("every pair of stands (before)", |b| {
        b.iter(|| in_melee(black_box(&units), every_pair))
    });
    group.bench_function("rejected by reach first (in_contact)", |b| {
        b.iter(|| in_melee(black_box(&units), in_contact))
    });
    group.finish();
}

criterion_group!(benches, bench_contact);
criterion_main!(benches);
