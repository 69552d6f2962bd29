//! Speed of the exact odds and of the seeded dice, measured side by side in one run. Results:
//! `BENCHMARKS.md`. Run with `cargo bench -p dotc-runtime --bench odds`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dotc_runtime::dice::{D6Stream, DiceSource, Purpose, SeededDice};
use dotc_runtime::engine::events::BrigadeStatus;
use dotc_runtime::odds::assault::{AssaultQuery, Charger, Defender, assault_monte_carlo, assault_odds};
use dotc_runtime::odds::melee::{MeleeSide, melee_odds};
use dotc_runtime::odds::{Cover, FireQuery, TargetFormation, fire_odds, forget_remembered};
use dotc_runtime::rulings::Rulings;

fn bench_odds(c: &mut Criterion) {
    let data = dotc_lang::stdlib();
    let rulings = Rulings::default();
    let mut group = c.benchmark_group("odds");
    // One exact volley query: 5 rifled-musket stands at 10" against a stone wall.
    let mut behind_wall = FireQuery::new("rifled_musket", 5, 10.0);
    behind_wall.cover = Cover::Heavy;
    group.bench_function("fire_odds (exact volley)", |b| {
        b.iter(|| fire_odds(black_box(&behind_wall), data, &rulings).map(|o| o.expected_stands_lost))
    });
    // The same query with nothing remembered from the one before (the engine's casualty table
    // and the last volley's distributions worked out every time), as a first query finds it.
    group.bench_function("fire_odds (exact volley, nothing remembered)", |b| {
        b.iter(|| {
            forget_remembered();
            fire_odds(black_box(&behind_wall), data, &rulings).map(|o| o.expected_stands_lost)
        })
    });
    let attacker = MeleeSide { engaged_stands: 2, modifier: 2 };
    let defender = MeleeSide { engaged_stands: 3, modifier: 2 };
    group.bench_function("melee_odds (exact melee)", |b| {
        b.iter(|| melee_odds(black_box(attacker), black_box(defender)).map(|o| o.attacker_wins))
    });
    // One exact assault (Ch16 7.1-7.4), priced by running the engine over every way its dice
    // fall: 5 rifled muskets fire the closing volley at 4" into a Fresh Regular assault column
    // of 6 stands that charges with momentum 5 stands behind a stone wall.
    let assault = assault_query();
    group.bench_function("assault_odds (exact, engine-walked)", |b| {
        b.iter(|| assault_odds(black_box(&assault), data, &rulings).map(|o| o.p_attacker_wins))
    });
    // The Monte Carlo source: dice per second, rolled as a volley would (a pool at a time).
    const POOL: usize = 5;
    const VOLLEYS: usize = 10_000;
    group.throughput(Throughput::Elements((POOL * VOLLEYS) as u64));
    group.bench_function("SeededDice (5-die pools, per die)", |b| {
        b.iter(|| {
            let mut dice = SeededDice::new(black_box(7));
            let mut sixes = 0u32;
            for _ in 0..VOLLEYS {
                if let Ok(faces) = dice.roll(Purpose::ToHit, POOL) {
                    sixes += faces.iter().filter(|&&f| f == 6).count() as u32;
                }
            }
            sixes
        })
    });
    // The same stream without the record, as the Monte Carlo estimates roll it.
    group.bench_function("D6Stream (Monte Carlo, per die)", |b| {
        b.iter(|| {
            let mut dice = D6Stream::new(black_box(7));
            let mut sixes = 0u32;
            for _ in 0..POOL * VOLLEYS {
                sixes += u32::from(dice.next_d6() == 6);
            }
            sixes
        })
    });
    // The same chain simulated, per assault: what the exact answer replaces.
    const ASSAULTS: u64 = 10_000;
    group.throughput(Throughput::Elements(ASSAULTS));
    group.bench_function("assault_monte_carlo (per assault)", |b| {
        b.iter(|| {
            assault_monte_carlo(black_box(&assault), data, &rulings, ASSAULTS, 7)
                .map(|e| e.p_attacker_wins.mean)
        })
    });
    group.finish();
}

fn assault_query() -> AssaultQuery {
    let volley = FireQuery { target: TargetFormation::Column, ..FireQuery::new("rifled_musket", 5, 4.0) };
    AssaultQuery {
        volley,
        closing_volley: true,
        distance: 8.0,
        charger: Charger::new(6),
        defender: Defender {
            quality: "regular".into(),
            brigade: BrigadeStatus::Fresh,
            engaged: 0,
            formation: "line".into(),
            supported: false,
        },
        momentum: true,
        flank: false,
        counter_charge: false,
        ground: Some("stone_wall".into()),
    }
}

criterion_group!(benches, bench_odds);
criterion_main!(benches);
