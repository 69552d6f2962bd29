//! `dotc playtest GAME.dotc`: the logged game's orders played again with other dice.
//!
//! Every die and every claimed result is taken out of the log
//! ([`dotc_runtime::replay::without_dice`]); the orders left are replayed once per seed, each
//! die rolled from that seed, and the results are tallied. It measures how far the dice, not the
//! players' choices, move a scenario's result: a designer's balance check (issue 19), the
//! companion of `dotc analyze`'s time and motion. An order the other dice made illegal (the
//! retreat of a unit that won its melee, a charge by a brigade already Broken) is a finding of
//! that replay, refused or flagged as any audit would; the lines refused most often are where the
//! logged game turned on its dice. The players would have played on differently, so a seed's
//! game is the same plan met by other dice, not a game two players would have played.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use dotc_lang::analyze;
use dotc_lang::diagnostic::Diagnostic;
use dotc_lang::lines::LineIndex;
use dotc_runtime::campaign::logged::replay_logged;
use dotc_runtime::replay::{Level, Replay, ReplayOptions, without_dice};
use rayon::prelude::*;
use serde::Serialize;

use crate::output::{self, Format, FormatArgs, schema};
use crate::replay_cmd::{WhatIfArgs, option_settings};

#[derive(clap::Args, Debug)]
pub struct PlaytestArgs {
    /// The game log whose orders to play again (its scenario is read from its `scenario` line);
    /// `-` is standard input.
    pub file: PathBuf,
    /// The seeds to roll from: `N` for seeds 1 to N, or `A..B` for A to B (both included).
    #[arg(long, value_name = "N|A..B", default_value = "20", value_parser = parse_seeds)]
    pub seeds: Seeds,
    #[command(flatten)]
    pub what_if: WhatIfArgs,
    /// Switch one of the scenario's optional triggers on or off, NAME=on|off (repeatable).
    #[arg(long = "option", value_name = "NAME=on|off")]
    pub options: Vec<String>,
    /// How many games to replay at once (default: one per core). The report is the same
    /// whatever the number.
    #[arg(long, value_name = "N")]
    pub jobs: Option<NonZeroUsize>,
    /// Text: a row per seed, the results tallied, each brigade's losses and the lines refused
    /// most often; JSON or YAML: the same as a document (docs/schemas/playtest.schema.json).
    #[command(flatten)]
    pub format: FormatArgs,
}

/// The seeds of a playtest, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seeds {
    pub first: u64,
    pub last: u64,
}

/// How many seeds one playtest may take: each is a whole replay.
const MOST_SEEDS: u64 = 10_000;

/// `20` (seeds 1 to 20) or `5..24`.
fn parse_seeds(text: &str) -> Result<Seeds, String> {
    let number = |t: &str| {
        t.trim().parse::<u64>().map_err(|_| format!("`{}` is not a seed (a whole number)", t.trim()))
    };
    let seeds = match text.split_once("..") {
        Some((a, b)) => Seeds { first: number(a)?, last: number(b.trim_start_matches('='))? },
        None => {
            let n = number(text)?;
            if n == 0 {
                return Err("at least one seed: `--seeds 20` plays seeds 1 to 20".to_string());
            }
            Seeds { first: 1, last: n }
        }
    };
    if seeds.last < seeds.first {
        return Err(format!(
            "the seeds run from {} down to {}: write the smaller first",
            seeds.first, seeds.last
        ));
    }
    if seeds.last - seeds.first >= MOST_SEEDS {
        return Err(format!("at most {MOST_SEEDS} seeds in one playtest"));
    }
    Ok(seeds)
}

/// One game: the logged one (no seed) or one seed's.
#[derive(Clone, Debug, Serialize)]
struct Played {
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    /// `union minor`, `draw`; `none` when no victory condition held.
    result: String,
    /// The log stops before the scenario's last turn: the result is where it stops.
    unfinished: bool,
    victory_points: BTreeMap<String, f64>,
    brigades: Vec<BrigadeEnd>,
    /// The 1-based lines of the orders this game's rules refused or found fault with.
    refused: Vec<usize>,
}

#[derive(Clone, Debug, Serialize)]
struct BrigadeEnd {
    name: String,
    state: String,
    losses: u32,
    starting_stands: u32,
}

/// How often one result came up.
#[derive(Debug, Serialize)]
struct Tally {
    result: String,
    games: usize,
}

/// One brigade over every seed.
#[derive(Debug, Serialize)]
struct BrigadeOver {
    name: String,
    starting_stands: u32,
    /// What the logged game's own dice left it.
    logged_losses: u32,
    logged_state: String,
    mean_losses: f64,
    least_losses: u32,
    most_losses: u32,
    /// In how many seeds' games it ended Broken, and Hesitant.
    broken: usize,
    hesitant: usize,
}

/// An order refused in some seeds' games.
#[derive(Debug, Serialize)]
struct RefusedLine {
    line: usize,
    text: String,
    games: usize,
}

#[derive(Debug, Serialize)]
struct Report {
    game: String,
    first_seed: u64,
    last_seed: u64,
    logged: Played,
    games: Vec<Played>,
    results: Vec<Tally>,
    brigades: Vec<BrigadeOver>,
    refused: Vec<RefusedLine>,
}

/// How many of the most refused lines the text report lists.
const REFUSED_SHOWN: usize = 10;

/// Run `dotc playtest`: exit 1 for a log with errors, else print the report and exit 0.
pub fn playtest(
    args: &PlaytestArgs,
    render: impl Fn(&[Diagnostic], &str, &str) -> String,
) -> Result<ExitCode, String> {
    let what_if = args.what_if.parse()?;
    let source = crate::read(&args.file)?;
    let path: &Path = crate::files::named(&args.file);
    let name = path.display().to_string();
    let analysis = analyze(path, &source, &crate::files::InputLoader);
    if analysis.has_errors() {
        eprint!("{}", render(&analysis.diagnostics, &name, &source));
        eprintln!("error: {name} has errors; not played again");
        return Ok(ExitCode::from(1));
    }
    if analysis.document.game.is_none() {
        return Err(format!("{name} is not a game log (it has no `game` header)"));
    }
    let switches = option_settings(&args.options, &analysis)?;
    let options = |text| ReplayOptions {
        source: Some(text),
        what_if: Some(&what_if),
        options: &switches,
        findings_only: true,
        ..ReplayOptions::default()
    };
    let logged_replay = replay_logged(path, &analysis, &crate::files::InputLoader, &options(&source), None);
    let logged = played(None, &logged_replay, &LineIndex::new(&source), &source);
    if logged_replay.has_problems() {
        crate::term::note!(
            "note: the logged game itself has findings (see `dotc audit {name}`); its orders are played again all the same"
        );
    }
    // The same orders, no dice: lines stay where they were, so a finding's line is the log's.
    let orders = without_dice(&source, &analysis.document);
    let orders_analysis = analyze(path, &orders, &crate::files::InputLoader);
    if orders_analysis.has_errors() {
        eprint!("{}", render(&orders_analysis.diagnostics, &name, &orders));
        return Err(format!("{name} without its dice does not read back; please report this"));
    }
    let lines = LineIndex::new(&orders);
    let seeds: Vec<u64> = (args.seeds.first..=args.seeds.last).collect();
    let bar = crate::term::progress_bar(seeds.len(), "games played");
    let one = |seed: &u64| {
        let replay = replay_logged(
            path,
            &orders_analysis,
            &crate::files::InputLoader,
            &ReplayOptions { seed: Some(*seed), ..options(&orders) },
            None,
        );
        bar.inc(1);
        played(Some(*seed), &replay, &lines, &orders)
    };
    let games: Vec<Played> = if args.jobs.map(NonZeroUsize::get) == Some(1) {
        seeds.iter().map(one).collect()
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(args.jobs.map_or(0, NonZeroUsize::get))
            .build()
            .map_err(|e| format!("cannot start the playtest's threads: {e}"))?;
        pool.install(|| seeds.par_iter().map(one).collect())
    };
    bar.finish_and_clear();
    let report = Report {
        game: analysis.document.game.as_ref().map_or_else(String::new, |g| g.name.value.clone()),
        first_seed: args.seeds.first,
        last_seed: args.seeds.last,
        results: tally(&games),
        brigades: brigades_over(&logged, &games),
        refused: refused_lines(&games, &orders),
        logged,
        games,
    };
    let output = match args.format.get() {
        Format::Text => text(&name, &report),
        format => output::document(format, schema::PLAYTEST, &report)?,
    };
    // A reader that stops early (`| head`) is not an error.
    match std::io::stdout().lock().write_all(output.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(format!("cannot write: {e}")),
        _ => {}
    }
    Ok(ExitCode::SUCCESS)
}

/// What one replay came to.
fn played(seed: Option<u64>, replay: &Replay, lines: &LineIndex, source: &str) -> Played {
    let summary = &replay.summary;
    let mut refused: Vec<usize> = replay
        .findings
        .iter()
        .filter(|f| f.level == Level::Error && f.span.end <= source.len())
        .map(|f| lines.line_of(f.span.start) + 1)
        .collect();
    refused.sort_unstable();
    refused.dedup();
    Played {
        seed,
        result: summary.result.as_ref().map_or_else(|| "none".to_string(), |r| r.result.clone()),
        unfinished: summary.result.as_ref().is_some_and(|r| r.unfinished.is_some()),
        victory_points: summary.victory_points.clone(),
        brigades: summary
            .brigades
            .iter()
            .map(|b| BrigadeEnd {
                name: b.name.clone(),
                state: b.state.clone(),
                losses: b.losses,
                starting_stands: b.starting_stands,
            })
            .collect(),
        refused,
    }
}

/// Each result and how many games came to it, the most frequent first (ties by name).
fn tally(games: &[Played]) -> Vec<Tally> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for game in games {
        *counts.entry(&game.result).or_default() += 1;
    }
    let mut tally: Vec<Tally> =
        counts.into_iter().map(|(result, games)| Tally { result: result.to_string(), games }).collect();
    tally.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.result.cmp(&b.result)));
    tally
}

/// Each brigade of the logged game, its losses there and over the seeds.
fn brigades_over(logged: &Played, games: &[Played]) -> Vec<BrigadeOver> {
    logged
        .brigades
        .iter()
        .map(|b| {
            let ends: Vec<&BrigadeEnd> =
                games.iter().filter_map(|g| g.brigades.iter().find(|e| e.name == b.name)).collect();
            let losses: Vec<u32> = ends.iter().map(|e| e.losses).collect();
            BrigadeOver {
                name: b.name.clone(),
                starting_stands: b.starting_stands,
                logged_losses: b.losses,
                logged_state: b.state.clone(),
                mean_losses: if losses.is_empty() {
                    0.0
                } else {
                    f64::from(losses.iter().sum::<u32>()) / losses.len() as f64
                },
                least_losses: losses.iter().copied().min().unwrap_or(0),
                most_losses: losses.iter().copied().max().unwrap_or(0),
                broken: ends.iter().filter(|e| e.state == "broken").count(),
                hesitant: ends.iter().filter(|e| e.state == "hesitant").count(),
            }
        })
        .collect()
}

/// The lines refused in any seed's game, the most often first (then in log order).
fn refused_lines(games: &[Played], orders: &str) -> Vec<RefusedLine> {
    let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
    for line in games.iter().flat_map(|g| &g.refused) {
        *counts.entry(*line).or_default() += 1;
    }
    let starts: Vec<&str> = orders.lines().collect();
    let mut refused: Vec<RefusedLine> = counts
        .into_iter()
        .map(|(line, games)| RefusedLine {
            line,
            text: starts.get(line - 1).map_or_else(String::new, |t| t.trim().to_string()),
            games,
        })
        .collect();
    refused.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.line.cmp(&b.line)));
    refused
}

fn points(played: &Played) -> String {
    if played.victory_points.is_empty() {
        return "-".to_string();
    }
    played.victory_points.iter().map(|(side, vp)| format!("{side} {vp}")).collect::<Vec<_>>().join(", ")
}

fn result_words(played: &Played) -> String {
    if played.unfinished { format!("{} (unfinished)", played.result) } else { played.result.clone() }
}

/// The brigades a game left Broken, by name.
fn broken(played: &Played) -> String {
    let names: Vec<&str> =
        played.brigades.iter().filter(|b| b.state == "broken").map(|b| b.name.as_str()).collect();
    if names.is_empty() { "-".to_string() } else { names.join(", ") }
}

/// The whole text report.
fn text(name: &str, report: &Report) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let count = report.games.len();
    let _ = writeln!(
        out,
        "{name}: the logged orders played again with other dice, seeds {} to {} ({count} games)",
        report.first_seed, report.last_seed
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "the log's own dice: {}; VP {}; Broken: {}",
        result_words(&report.logged),
        points(&report.logged),
        broken(&report.logged)
    );
    let _ = writeln!(out);
    let width = report.games.iter().map(|g| result_words(g).chars().count()).max().unwrap_or(6).max(6);
    let _ = writeln!(out, "{:>6}  {:<width$}  {:>7}  VP; Broken", "seed", "result", "refused");
    for game in &report.games {
        let _ = writeln!(
            out,
            "{:>6}  {:<width$}  {:>7}  {}; {}",
            game.seed.unwrap_or_default(),
            result_words(game),
            game.refused.len(),
            points(game),
            broken(game)
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "results over {count} games:");
    for tally in &report.results {
        let share = 100.0 * tally.games as f64 / count.max(1) as f64;
        let _ = writeln!(out, "  {:<width$}  {:>5}  {share:>3.0}%", tally.result, tally.games);
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "stands lost by each brigade (the log's own dice; over the seeds: mean, least-most, times Broken / Hesitant):"
    );
    let name_width = report.brigades.iter().map(|b| b.name.chars().count()).max().unwrap_or(8);
    for b in &report.brigades {
        let _ = writeln!(
            out,
            "  {:<name_width$}  of {:>3}: logged {:>3} ({}); mean {:>5.1}, {}-{}, Broken {}, Hesitant {}",
            b.name,
            b.starting_stands,
            b.logged_losses,
            b.logged_state,
            b.mean_losses,
            b.least_losses,
            b.most_losses,
            b.broken,
            b.hesitant
        );
    }
    if !report.refused.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "the orders refused most often (other dice made them illegal; `dotc replay {name} --reroll --seed N` shows why):"
        );
        for line in report.refused.iter().take(REFUSED_SHOWN) {
            let _ = writeln!(out, "  line {:>5}, in {:>4} of {count}: {}", line.line, line.games, line.text);
        }
        if report.refused.len() > REFUSED_SHOWN {
            let _ = writeln!(
                out,
                "  and {} lines more (--format json lists them all)",
                report.refused.len() - REFUSED_SHOWN
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_a_count_or_a_range() {
        assert_eq!(parse_seeds("20"), Ok(Seeds { first: 1, last: 20 }));
        assert_eq!(parse_seeds("5..24"), Ok(Seeds { first: 5, last: 24 }));
        assert_eq!(parse_seeds("5..=24"), Ok(Seeds { first: 5, last: 24 }));
        assert_eq!(parse_seeds("7..7"), Ok(Seeds { first: 7, last: 7 }));
        assert!(parse_seeds("0").unwrap_err().contains("at least one seed"));
        assert!(parse_seeds("9..3").unwrap_err().contains("smaller first"));
        assert!(parse_seeds("x").unwrap_err().contains("not a seed"));
        assert!(parse_seeds("1..20000").unwrap_err().contains("at most"));
    }
}
