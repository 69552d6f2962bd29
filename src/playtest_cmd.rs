//! `dotc playtest GAME.dotc`: the logged game's orders played again with other dice.
//!
//! Every die and every claimed result is taken out of the log
//! ([`dotc_runtime::replay::without_dice`]); the orders left are replayed once per seed, each
//! die rolled from that seed, and the results are tallied. It measures how far the dice, not the
//! players' choices, move a scenario's result: a designer's balance check (issue 19), the
//! companion of `dotc analyze`'s time and motion. An order the other dice made illegal (the
//! retreat of a unit that won its melee, a charge by a brigade already Broken) is a finding of
//! that replay, refused or flagged as any audit would; the lines refused most often are where the
//! logged game turned on its dice. A move the rules force and the orders did not make (the
//! retreat of a melee's loser, a Broken brigade's retreat, [`OwedMove`]) is written in where the
//! log would write it, and the game replayed again, until none is owed. The players would have
//! played on differently, so a seed's game is the same plan met by other dice, not a game two
//! players would have played.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use dotc_lang::analysis::Analysis;
use dotc_lang::analyze;
use dotc_lang::ast::{Document, PhaseKind};
use dotc_lang::diagnostic::Diagnostic;
use dotc_lang::lines::LineIndex;
use dotc_runtime::campaign::logged::replay_logged;
use dotc_runtime::engine::events::BrigadeStatus::{Broken as BROKEN, Hesitant as HESITANT};
use dotc_runtime::replay::{Level, OwedMove, Replay, ReplayOptions, completed_log, without_dice};
use dotc_runtime::rulings::WhatIf;
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
    /// Write each seed's game into DIR as a log (`seed-7.dotc`): the orders, the forced moves
    /// written in (each marked `// forced: dotc playtest`) and every die the seed rolled, with
    /// its scenario named by its full path. `dotc replay DIR/seed-7.dotc` tells that game.
    #[arg(long, value_name = "DIR")]
    pub write: Option<PathBuf>,
    /// Replace read-only files among those --write writes.
    #[arg(long, requires = "write")]
    pub force: bool,
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
    /// How many forced moves (a melee loser's retreat, a Broken brigade's) the rules owed that
    /// the orders did not make, written in for this game.
    forced: usize,
    /// `union minor`, `draw`; `none` when no victory condition held.
    result: String,
    /// The log stops before the scenario's last turn: the result is where it stops.
    unfinished: bool,
    victory_points: BTreeMap<String, f64>,
    brigades: Vec<BrigadeEnd>,
    /// The 1-based lines of the orders this game's rules refused or found fault with.
    refused: Vec<usize>,
    /// Why: the first error at each of those lines.
    #[serde(skip)]
    reasons: BTreeMap<usize, String>,
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
    /// The first error at the line, the one found in the most of those games (the earliest seed's
    /// on a tie).
    reason: String,
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
    let logged_replay = replay_of(path, &analysis, &source, None, &what_if, &switches);
    let logged = played(None, &logged_replay, &source);
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
    let seeds: Vec<u64> = (args.seeds.first..=args.seeds.last).collect();
    let bar = crate::term::progress_bar(seeds.len(), "games played");
    let one = |seed: &u64| {
        // The seed's game, played again with each forced move the rules owe and the orders did
        // not make written in where the log would write it, until none is owed.
        let mut text = orders.clone();
        let mut analysis = None;
        let mut written: Vec<(String, u32, PhaseKind)> = Vec::new();
        let replay = loop {
            let analysed =
                analysis.take().unwrap_or_else(|| analyze(path, &text, &crate::files::InputLoader));
            let replay = replay_of(path, &analysed, &text, Some(*seed), &what_if, &switches);
            let new: Vec<&OwedMove> = replay
                .owed
                .iter()
                .filter(|o| !written.iter().any(|w| w.0 == o.unit && w.1 == o.turn && w.2 == o.phase))
                .collect();
            if new.is_empty() || written.len() >= MOST_FORCED_MOVES {
                break replay;
            }
            let next = with_forced_moves(&text, &analysed.document, &new);
            if next == text {
                break replay;
            }
            written.extend(new.iter().map(|o| (o.unit.clone(), o.turn, o.phase)));
            text = next;
            let again = analyze(path, &text, &crate::files::InputLoader);
            if again.has_errors() {
                break replay;
            }
            analysis = Some(again);
        };
        bar.inc(1);
        let game = played(Some(*seed), &replay, &text);
        let log = args.write.as_ref().map(|_| {
            let analysed = analyze(path, &text, &crate::files::InputLoader);
            completed_log(&text, &analysed.document, &replay.filled)
        });
        (game, log)
    };
    let games: Vec<(Played, Option<String>)> = if args.jobs.map(NonZeroUsize::get) == Some(1) {
        seeds.iter().map(one).collect()
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(args.jobs.map_or(0, NonZeroUsize::get))
            .build()
            .map_err(|e| format!("cannot start the playtest's threads: {e}"))?;
        pool.install(|| seeds.par_iter().map(one).collect())
    };
    bar.finish_and_clear();
    let games: Vec<Played> = match &args.write {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
            let mut kept = Vec::new();
            for (game, log) in games {
                let log = standalone(path, &analysis.document, &log.unwrap_or_default());
                let file = dir.join(format!("seed-{}.dotc", game.seed.unwrap_or_default()));
                crate::write_atomically(&file, &log, args.force)?;
                kept.push(game);
            }
            crate::term::note!("wrote {} game logs to {}", kept.len(), dir.display());
            kept
        }
        None => games.into_iter().map(|(game, _)| game).collect(),
    };
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

/// One replay of `text` (analysed as `analysis`) under the playtest's rulings and options, rolling
/// from `seed` every die the text leaves out.
fn replay_of(
    path: &Path,
    analysis: &Analysis,
    text: &str,
    seed: Option<u64>,
    what_if: &WhatIf,
    switches: &[(String, bool)],
) -> Replay {
    let options = ReplayOptions {
        source: Some(text),
        seed,
        what_if: Some(what_if),
        options: switches,
        findings_only: true,
        owed: true,
        ..ReplayOptions::default()
    };
    replay_logged(path, analysis, &crate::files::InputLoader, &options, None)
}

/// What one replay came to. `source` is the text replayed: the lines a playtest wrote in for its
/// forced moves are not the log's, and are counted apart.
fn played(seed: Option<u64>, replay: &Replay, source: &str) -> Played {
    let summary = &replay.summary;
    let lines = LineIndex::new(source);
    // The log's line of each line of the text: the forced moves written in do not count.
    let mut log_line = Vec::new();
    let mut forced = 0;
    for line in source.lines() {
        if line.ends_with(FORCED_MARK) {
            forced += 1;
            log_line.push(None);
        } else {
            log_line.push(Some(log_line.len() + 1 - forced));
        }
    }
    let mut reasons: BTreeMap<usize, String> = BTreeMap::new();
    for f in replay.findings.iter().filter(|f| f.level == Level::Error && f.span.end <= source.len()) {
        if let Some(line) = log_line.get(lines.line_of(f.span.start)).copied().flatten() {
            reasons.entry(line).or_insert_with(|| f.message.clone());
        }
    }
    let refused: Vec<usize> = reasons.keys().copied().collect();
    Played {
        seed,
        forced,
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
        reasons,
    }
}

/// A log that reads from anywhere: the files its header names (its scenario, its campaign) by
/// their full paths. The header is the log's own, so its spans hold in `log`.
fn standalone(path: &Path, document: &Document, log: &str) -> String {
    let Some(game) = &document.game else { return log.to_string() };
    let base = path.parent().unwrap_or(Path::new(""));
    let mut names: Vec<&dotc_lang::ast::Name> = game.scenario.iter().collect();
    names.extend(game.campaign.as_ref().map(|(file, _)| file));
    names.sort_by_key(|n| std::cmp::Reverse(n.span.start));
    let mut out = log.to_string();
    for name in names {
        let full = base.join(&name.value);
        let full = std::fs::canonicalize(&full).unwrap_or(full);
        let quoted = format!("\"{}\"", full.display().to_string().replace('\\', "\\\\").replace('"', "\\\""));
        if out.get(name.span.start..name.span.end).is_some_and(|t| t.starts_with('"')) {
            out.replace_range(name.span.start..name.span.end, &quoted);
        }
    }
    out
}

/// What ends each line a playtest writes in for a forced move.
const FORCED_MARK: &str = "// forced: dotc playtest";

/// How many forced moves one game may have written in (each takes a replay more).
const MOST_FORCED_MOVES: usize = 200;

/// The text with these forced moves written in, each at the end of its turn's phase (a new
/// phase where the turn has none, in its place among the turn's phases).
fn with_forced_moves(text: &str, document: &Document, owed: &[&OwedMove]) -> String {
    let mut inserts: Vec<(usize, String)> = Vec::new();
    for turn in &document.turns {
        let phases = turn.phases();
        for kind in [PhaseKind::Maneuver, PhaseKind::Melee] {
            let lines: Vec<String> = owed
                .iter()
                .filter(|o| o.turn == turn.number.value && o.phase == kind)
                .map(|o| {
                    format!(
                        "retreat \"{}\" to ({}, {}) {FORCED_MARK}",
                        o.unit.replace('\\', "\\\\").replace('"', "\\\""),
                        inches(o.to.0),
                        inches(o.to.1)
                    )
                })
                .collect();
            if lines.is_empty() {
                continue;
            }
            match phases.iter().find(|p| p.kind.value == kind) {
                Some(phase) => {
                    // Before the line of the phase's closing brace.
                    let Some(close) = text.get(..phase.span.end).and_then(|t| t.rfind('}')) else { continue };
                    let at = line_start(text, close);
                    if text[at..close].trim().is_empty() {
                        let indent = format!("{}    ", indent_at(text, phase.span.start));
                        let block: String = lines.iter().map(|l| format!("{indent}{l}\n")).collect();
                        inserts.push((at, block));
                    }
                }
                None => {
                    // A new phase, before the first phase that comes after it, or the turn's end.
                    let (at, indent) = match phases.iter().find(|p| p.kind.value > kind) {
                        Some(after) => {
                            (line_start(text, after.span.start), indent_at(text, after.span.start))
                        }
                        None => {
                            let Some(close) = text.get(..turn.span.end).and_then(|t| t.rfind('}')) else {
                                continue;
                            };
                            let indent = format!("{}    ", indent_at(text, turn.span.start));
                            (line_start(text, close), indent)
                        }
                    };
                    let body: String = lines.iter().map(|l| format!("{indent}    {l}\n")).collect();
                    inserts.push((at, format!("{indent}{} {{\n{body}{indent}}}\n", kind.word())));
                }
            }
        }
    }
    inserts.sort_by_key(|&(at, _)| std::cmp::Reverse(at));
    let mut out = text.to_string();
    for (at, block) in inserts {
        out.insert_str(at, &block);
    }
    out
}

/// A coordinate as a log writes it: to the hundredth, no trailing zeros.
fn inches(value: f64) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0".to_string() } else { text.to_string() }
}

fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The blanks that open the line `at` is on.
fn indent_at(text: &str, at: usize) -> String {
    text[line_start(text, at)..].chars().take_while(|c| *c == ' ' || *c == '\t').collect()
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
                broken: ends.iter().filter(|e| e.state == BROKEN.label()).count(),
                hesitant: ends.iter().filter(|e| e.state == HESITANT.label()).count(),
            }
        })
        .collect()
}

/// The lines refused in any seed's game, the most often first (then in log order).
fn refused_lines(games: &[Played], orders: &str) -> Vec<RefusedLine> {
    let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
    // Each line's reasons, with how many games gave each, in the order first met.
    let mut why: BTreeMap<usize, Vec<(&str, usize)>> = BTreeMap::new();
    for game in games {
        for (&line, reason) in &game.reasons {
            *counts.entry(line).or_default() += 1;
            let reasons = why.entry(line).or_default();
            match reasons.iter_mut().find(|(r, _)| *r == reason.as_str()) {
                Some((_, n)) => *n += 1,
                None => reasons.push((reason.as_str(), 1)),
            }
        }
    }
    let starts: Vec<&str> = orders.lines().collect();
    let mut refused: Vec<RefusedLine> = counts
        .into_iter()
        .map(|(line, games)| {
            // The most frequent reason; `max_by_key` keeps the last of a tie, so look from the end.
            let reason = why
                .get(&line)
                .and_then(|rs| rs.iter().rev().max_by_key(|(_, n)| *n))
                .map_or_else(String::new, |(r, _)| (*r).to_string());
            RefusedLine {
                line,
                text: starts.get(line - 1).map_or_else(String::new, |t| t.trim().to_string()),
                games,
                reason,
            }
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
        played.brigades.iter().filter(|b| b.state == BROKEN.label()).map(|b| b.name.as_str()).collect();
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
    let _ =
        writeln!(out, "{:>6}  {:<width$}  {:>7}  {:>6}  VP; Broken", "seed", "result", "refused", "forced");
    for game in &report.games {
        let _ = writeln!(
            out,
            "{:>6}  {:<width$}  {:>7}  {:>6}  {}; {}",
            game.seed.unwrap_or_default(),
            result_words(game),
            game.refused.len(),
            game.forced,
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
            "the orders refused most often (other dice made them illegal; --write DIR keeps each game's log for `dotc replay`):"
        );
        for line in report.refused.iter().take(REFUSED_SHOWN) {
            let _ = writeln!(out, "  line {:>5}, in {:>4} of {count}: {}", line.line, line.games, line.text);
            let _ = writeln!(out, "               why: {}", line.reason);
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

    fn game(reasons: &[(usize, &str)]) -> Played {
        let reasons: BTreeMap<usize, String> = reasons.iter().map(|&(l, r)| (l, r.to_string())).collect();
        Played {
            seed: Some(1),
            forced: 0,
            result: "draw".into(),
            unfinished: false,
            victory_points: BTreeMap::new(),
            brigades: Vec::new(),
            refused: reasons.keys().copied().collect(),
            reasons,
        }
    }

    /// Each refused line is counted once a game, the most refused first, and says why: the reason
    /// most of its games gave, the earliest game's on a tie.
    #[test]
    fn each_refused_line_gives_its_most_frequent_reason() {
        let games = [
            game(&[(2, "out of range"), (3, "owes no retreat here")]),
            game(&[(2, "not on the table"), (3, "owes no retreat here")]),
            game(&[(2, "not on the table")]),
            game(&[(1, "pip overspent"), (3, "ends on top of a friend")]),
        ];
        let refused = refused_lines(&games, "move\nfire\nretreat\n");
        let seen: Vec<(usize, usize, &str, &str)> =
            refused.iter().map(|r| (r.line, r.games, r.text.as_str(), r.reason.as_str())).collect();
        assert_eq!(
            seen,
            [
                (2, 3, "fire", "not on the table"),
                (3, 3, "retreat", "owes no retreat here"),
                (1, 1, "move", "pip overspent"),
            ]
        );
        let tie = refused_lines(&[game(&[(1, "first")]), game(&[(1, "second")])], "move\n");
        assert_eq!(tie[0].reason, "first");
    }
}
