//! A generator of rules-legal game logs: a long game of the tutorial scenario that `dotc audit`
//! finds nothing wrong with, for the replay benchmarks (issue 16) and `tools/size_table.py`.
//!
//! The other generator (`lang/benches/support/log.rs`) draws its dice and claims at random, so
//! most of its volleys are refused early and its replay measures the cost of findings. This one
//! writes the game a replay has to play in full: both sides roll their pips (with the pips the
//! rules give claimed), the active side shuffles a regiment or two (a step back, a step forward,
//! a change into column and back) and every regiment that stood still fires at its nearest enemy,
//! with the number of dice the rules give and a claimed result.
//!
//! The armies must last for as long a game as asked (a million lines is some 40,000 turns), so
//! no volley takes a stand: a volley at a target in the open misses with every die, and one at a
//! target in cover hits with some and sees every hit saved (saves of 6). No 6 is rolled to hit, so
//! no Shock Trigger calls for a Discipline save, and at most one natural 1, so no Low Ammo.
//!
//! The rules themselves say what is legal; the generator does not try to know them:
//!
//! 1. it writes the game with the volleys' dice left out and replays it with every volley probed
//!    (`ReplayOptions::probe`): each volley's plan gives its number of dice, the number a die
//!    needs to hit and the save a hit gets, as the replay saw them;
//! 2. it writes the dice from those plans, replays again and leaves out every action the replay
//!    found fault with. A refused action changes nothing (the engine is transactional), so the
//!    game without it is the same game; it replays again until nothing is found (two rounds in
//!    practice) and fails if it cannot get there.
//!
//! Deterministic: the other generator's small LCG, no randomness crate; the same arguments give the same
//! bytes. Included with `#[path]` next to `lang/benches/support/log.rs` as the module `log`,
//! whose scenario loader it shares.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use dotc_runtime::replay::{Level, ReplayOptions, replay};

use super::log::Lcg;
pub use super::log::{MemoryLoader, scenario_with_turns};

/// The scenario file name the log names (the tutorial's, served by the other generator's
/// [`MemoryLoader`] with its turns raised by [`scenario_with_turns`]).
pub const SCENARIO_FILE: &str = "fence-line.dotc";

/// A face from `low` to `high` inclusive.
fn face(rng: &mut Lcg, low: i32, high: i32) -> i32 {
    low + rng.below((high - low + 1) as u64) as i32
}

#[derive(Clone, Copy, PartialEq)]
enum Temper {
    Reliable,
    Aggressive,
    Timid,
}

struct Regiment {
    name: &'static str,
    home: (f64, f64),
    facing: &'static str,
    /// Steps back toward its own edge: -1 for the union (west), +1 for the confederates.
    back: f64,
    /// Moves, fires and changes formation (infantry); a battery or the cavalry only fires.
    shuffles: bool,
}

struct Side {
    id: &'static str,
    brigadiers: &'static [(&'static str, Temper)],
    regiments: &'static [Regiment],
}

const UNION: Side = Side {
    id: "union",
    brigadiers: &[("Col. Asa Hollister", Temper::Reliable), ("Col. Jacob Ostrander", Temper::Timid)],
    regiments: &[
        Regiment { name: "12th New Jersey", home: (19.5, 6.0), facing: "east", back: -1.0, shuffles: true },
        Regiment { name: "19th Maine", home: (19.5, 13.0), facing: "east", back: -1.0, shuffles: true },
        Regiment {
            name: "Battery K, 4th U.S.",
            home: (15.0, 19.0),
            facing: "100",
            back: 0.0,
            shuffles: false,
        },
        Regiment { name: "20th Connecticut", home: (19.5, 23.5), facing: "east", back: -1.0, shuffles: true },
        Regiment {
            name: "150th Pennsylvania",
            home: (19.5, 30.0),
            facing: "east",
            back: -1.0,
            shuffles: true,
        },
    ],
};

const CONFEDERATE: Side = Side {
    id: "confederate",
    brigadiers: &[("Brig. Gen. Émile Laforêt", Temper::Aggressive), ("Col. Thomas Carrow", Temper::Reliable)],
    regiments: &[
        Regiment { name: "6th Louisiana", home: (30.0, 6.0), facing: "west", back: 1.0, shuffles: true },
        Regiment { name: "9th Louisiana", home: (30.0, 14.0), facing: "west", back: 1.0, shuffles: true },
        Regiment { name: "50th Georgia", home: (30.0, 24.0), facing: "west", back: 1.0, shuffles: true },
        Regiment { name: "51st Georgia", home: (30.0, 31.0), facing: "west", back: 1.0, shuffles: true },
        Regiment {
            name: "7th Virginia Cavalry",
            home: (36.0, 3.0),
            facing: "west_north_west",
            back: 0.0,
            shuffles: false,
        },
    ],
};

/// Where a shuffling regiment stands and how.
#[derive(Clone, Copy, PartialEq)]
enum Pose {
    Home,
    Back,
    Column,
}

/// One line of the game, with the id the rounds leave it out by.
struct Line {
    id: usize,
    text: String,
    /// A volley: its firer and target, whose dice come from its plan.
    volley: Option<(&'static str, &'static str)>,
}

enum Block {
    /// Text written as it is (turn and phase braces, comments).
    Fixed(String),
    Action(Line),
}

/// What the generator knows of a volley from the probe round.
#[derive(Clone, Copy)]
struct Plan {
    dice: u32,
    to_hit: i32,
    save: Option<i32>,
    rerolls: u32,
}

/// A rules-legal game log of about `target_lines` lines (the draft has that many; the actions the
/// rules refuse, some 3% of its lines, are left out); returns it with its number of turns.
/// Panics if the rounds cannot make it audit clean (a change in the rules the generator must
/// follow).
pub fn generate_legal_log(target_lines: usize) -> (String, u32) {
    let (blocks, turns) = draft(target_lines);
    let loader = MemoryLoader { scenario: scenario_with_turns(turns) };
    let path = Path::new("scenarios/tutorial/legal-game.dotc");

    // Round 1: every volley probed, its dice left out (so each is refused for a missing die, after
    // its plan is kept, and changes nothing). A volley at the wrong target is turned on the one
    // the rules name (Ch16 5.1's nearest enemy in its arc, which the draft only guesses from the
    // regiments' centres) and probed again.
    let mut retarget: BTreeMap<usize, String> = BTreeMap::new();
    let mut plans = BTreeMap::new();
    for _probe_round in 0..2 {
        let (text, lines) = render(&blocks, &BTreeMap::new(), &BTreeSet::new(), &retarget, true);
        let analysis = dotc_lang::analyze(path, &text, &loader);
        assert!(
            analysis.diagnostics.is_empty(),
            "the draft has diagnostics: {:?}",
            analysis.diagnostics.first()
        );
        let volleys = volley_ids(&blocks);
        let probe: Vec<usize> =
            lines.iter().filter(|(_, id)| volleys.contains(id)).map(|(l, _)| *l).collect();
        let options = ReplayOptions { source: Some(&text), probe: &probe, ..ReplayOptions::default() };
        let probed = replay(&analysis, &options);
        plans.clear();
        for p in &probed.probes {
            if let Some(id) = lines.get(&p.line) {
                let save = p.plan.save.needed();
                plans.insert(
                    *id,
                    Plan { dice: p.plan.dice, to_hit: p.plan.to_hit, save, rerolls: p.plan.rerolls },
                );
            }
        }
        let index = dotc_lang::lines::LineIndex::new(&text);
        for f in &probed.findings {
            let Some(id) = lines.get(&index.line(f.span.start)) else { continue };
            let named = f
                .message
                .split_once("in its arc, ")
                .and_then(|(_, rest)| rest.split_once(" ("))
                .map(|(name, _)| name);
            if let Some(name) = named {
                retarget.insert(*id, name.to_string());
            }
        }
    }

    // Round 2 on: the dice written, every action found at fault left out, until none is.
    let mut dropped: BTreeSet<usize> =
        volley_ids(&blocks).into_iter().filter(|id| !plans.contains_key(id)).collect();
    for _round in 0..8 {
        let (text, lines) = render(&blocks, &plans, &dropped, &retarget, false);
        let analysis = dotc_lang::analyze(path, &text, &loader);
        assert!(
            analysis.diagnostics.is_empty(),
            "the log has diagnostics: {:?}",
            analysis.diagnostics.first()
        );
        let played = replay(&analysis, &ReplayOptions { source: Some(&text), ..ReplayOptions::default() });
        let faults: Vec<_> = played
            .findings
            .iter()
            .filter(|f| matches!(f.level, Level::Error | Level::Warning | Level::Followed))
            .collect();
        if faults.is_empty() {
            return (text, turns);
        }
        let index = dotc_lang::lines::LineIndex::new(&text);
        let mut progress = false;
        for f in &faults {
            let line = index.line(f.span.start);
            match lines.get(&line) {
                Some(id) => progress |= dropped.insert(*id),
                None => panic!("a finding the generator cannot leave out, line {line}: {}", f.message),
            }
        }
        assert!(progress, "the rounds make no progress: {}", faults[0].message);
    }
    panic!("the generated log still has findings after 8 rounds");
}

fn volley_ids(blocks: &[Block]) -> BTreeSet<usize> {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Action(line) if line.volley.is_some() => Some(line.id),
            _ => None,
        })
        .collect()
}

/// The game as blocks, before any dice are known.
fn draft(target_lines: usize) -> (Vec<Block>, u32) {
    let mut rng = Lcg(0x00d0_7c00_2026_1204);
    let mut blocks = vec![Block::Fixed(format!(
        "// Generated by tools/legal_log.rs: a long, rules-legal game of the tutorial scenario.\n\
         game \"The Fence Line, legal benchmark\" {{\n\
         \x20   scenario \"{SCENARIO_FILE}\"\n\
         \x20   players union \"Margaret Okafor\", confederate \"Tomás Ferreira\"\n\
         \x20   played 2026-11-14\n\
         \x20   seed 1\n\
         }}\n"
    ))];
    let mut next_id = 0usize;
    let mut action = |blocks: &mut Vec<Block>, text: String, volley: Option<(&'static str, &'static str)>| {
        blocks.push(Block::Action(Line { id: next_id, text, volley }));
        next_id += 1;
    };
    let mut poses: BTreeMap<&'static str, Pose> = BTreeMap::new();
    let (mut lines, mut turn) = (7usize, 0u32);
    while lines < target_lines {
        turn += 1;
        let before = blocks.len();
        let (active, other) = if turn % 2 == 1 { (&CONFEDERATE, &UNION) } else { (&UNION, &CONFEDERATE) };
        blocks.push(Block::Fixed(format!("\nturn {turn} {} {{\n    command {{\n", active.id)));
        for side in [active, other] {
            for (name, temper) in side.brigadiers {
                let roll = face(&mut rng, 1, 6);
                let base = (roll + 1) / 2;
                let pips = match temper {
                    Temper::Reliable => base,
                    Temper::Aggressive => base + 1,
                    Temper::Timid => (base + 1) / 2,
                };
                action(&mut blocks, format!("        pips \"{name}\" roll [{roll}] => {pips}\n"), None);
            }
        }
        blocks.push(Block::Fixed("    }\n    maneuver {\n".into()));
        // The reinforcements come on when the scenario says, and then stand.
        if turn == 3 {
            action(
                &mut blocks,
                "        enter \"Hart’s Georgia Battery\" to (47, 20) facing west\n".into(),
                None,
            );
        }
        if turn == 4 {
            action(
                &mut blocks,
                "        enter \"1st Vermont Cavalry\" to (1, 30) facing east\n".into(),
                None,
            );
        }
        let mut moved = BTreeSet::new();
        let shufflers: Vec<&Regiment> = active.regiments.iter().filter(|r| r.shuffles).collect();
        for _ in 0..1 + rng.below(2) {
            let r = shufflers[rng.below(shufflers.len() as u64) as usize];
            if !moved.insert(r.name) {
                continue;
            }
            let pose = poses.get(r.name).copied().unwrap_or(Pose::Home);
            let (x, y) = r.home;
            let (text, next) = match pose {
                Pose::Home if rng.below(3) == 0 => {
                    (format!("        formation \"{}\" assault_column\n", r.name), Pose::Column)
                }
                Pose::Home => (
                    format!("        move \"{}\" to ({}, {y}) facing {}\n", r.name, x + r.back, r.facing),
                    Pose::Back,
                ),
                Pose::Back => {
                    (format!("        move \"{}\" to ({x}, {y}) facing {}\n", r.name, r.facing), Pose::Home)
                }
                Pose::Column => (format!("        formation \"{}\" line\n", r.name), Pose::Home),
            };
            poses.insert(r.name, next);
            action(&mut blocks, text, None);
        }
        blocks.push(Block::Fixed("    }\n    fire {\n".into()));
        for r in active.regiments.iter().filter(|r| !moved.contains(r.name)) {
            let target = nearest(r, other, &poses);
            action(
                &mut blocks,
                format!("        fire \"{}\" at \"{target}\"", r.name),
                Some((r.name, target)),
            );
        }
        blocks.push(Block::Fixed("    }\n}\n".into()));
        lines += blocks[before..]
            .iter()
            .map(|b| match b {
                Block::Fixed(t) => t.matches('\n').count(),
                Block::Action(_) => 1,
            })
            .sum::<usize>();
    }
    (blocks, turn)
}

/// The enemy regiment nearest to `r`'s home, by where the draft put them.
fn nearest(r: &Regiment, other: &Side, poses: &BTreeMap<&'static str, Pose>) -> &'static str {
    let place = |reg: &Regiment| {
        let back = if poses.get(reg.name) == Some(&Pose::Back) { reg.back } else { 0.0 };
        (reg.home.0 + back, reg.home.1)
    };
    let (x, y) = place(r);
    other
        .regiments
        .iter()
        .min_by(|a, b| {
            let d = |reg: &Regiment| {
                let (ox, oy) = place(reg);
                (ox - x).hypot(oy - y)
            };
            d(a).total_cmp(&d(b))
        })
        .map_or("", |reg| reg.name)
}

/// The log's text, and the 1-based line of every action written with its id.
fn render(
    blocks: &[Block],
    plans: &BTreeMap<usize, Plan>,
    dropped: &BTreeSet<usize>,
    retarget: &BTreeMap<usize, String>,
    probing: bool,
) -> (String, BTreeMap<usize, usize>) {
    let mut rng = Lcg(0x00d0_7c00_0000_d1ce);
    let mut out = String::new();
    let mut lines = BTreeMap::new();
    let mut line = 1usize;
    for block in blocks {
        match block {
            Block::Fixed(text) => {
                out.push_str(text);
                line += text.matches('\n').count();
            }
            Block::Action(a) if dropped.contains(&a.id) => {}
            Block::Action(a) => {
                lines.insert(line, a.id);
                match (a.volley, retarget.get(&a.id)) {
                    (Some((firer, _)), Some(target)) => {
                        let _ = write!(out, "        fire \"{firer}\" at \"{target}\"");
                    }
                    _ => out.push_str(&a.text),
                }
                if a.volley.is_some() {
                    if !probing && let Some(plan) = plans.get(&a.id) {
                        volley(&mut out, &mut rng, plan);
                    }
                    out.push('\n');
                }
                line += 1;
            }
        }
    }
    (out, lines)
}

/// A volley's dice and claim from its plan: misses in the open; in cover, some hits, all saved.
fn volley(out: &mut String, rng: &mut Lcg, plan: &Plan) {
    let mut faces = Vec::new();
    let mut ones = 0;
    let covered = plan.save.is_some_and(|s| s <= 6) && plan.rerolls == 0;
    let mut hits = 0;
    for _ in 0..plan.dice {
        // A miss: below the number a die needs, a natural 1 at most once (RULE-05-2.5b).
        let top = (plan.to_hit - 1).min(5);
        // A hit is a 5 where the probe said 4+ or better: a volley after the unit's first has
        // lost the Clean Barrels +1 the probe (which fired nothing) still saw (Ch13 2.0).
        let face = if covered && plan.to_hit <= 4 && rng.below(3) == 0 {
            hits += 1;
            5
        } else if top >= 2 {
            face(rng, if ones == 0 { 1 } else { 2 }, top)
        } else {
            1
        };
        ones += i32::from(face == 1);
        faces.push(face.to_string());
    }
    // A Sharpshooters volley rolls its missed dice again, from the same list: they miss again.
    for _ in 0..plan.rerolls.min(plan.dice) {
        let top = (plan.to_hit - 1).min(5);
        faces.push(if top >= 2 { face(rng, 2, top) } else { 1 }.to_string());
    }
    let _ = write!(out, " roll [{}]", faces.join(", "));
    if hits > 0 {
        let saves: Vec<&str> = (0..hits).map(|_| "6").collect();
        let _ = write!(out, " saves [{}] => hits {hits}, saved {hits}", saves.join(", "));
    } else {
        let _ = write!(out, " => hits 0");
    }
}
