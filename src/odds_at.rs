//! `dotc odds --at FILE:LINE`: the exact odds of a logged volley or assault as the replay saw
//! it: the positions, cover, smoke, markers, modules and rulings of that moment of the game, the
//! engine's plan (`dotc_runtime::engine::fire::plan_volley`, `engine::assault::plan_assault`) and
//! its exact distribution, and where the log's own dice fell in it. On an `assault` line the
//! whole assault is priced (the closing volley, the checks, the melee); on its `closing_volley`
//! step, the volley.

use std::path::PathBuf;
use std::process::ExitCode;

use dotc_lang::Diagnostic;
use dotc_runtime::campaign::logged::replay_logged;
use dotc_runtime::odds::explain::{assault_lines, assault_outcome_line, outcome_line, volley_lines};
use dotc_runtime::replay::ReplayOptions;

use crate::output::{Format, FormatArgs, print_document, schema};

/// `--at FILE:LINE` of `dotc odds`.
#[derive(clap::Args, Debug)]
pub struct OddsAtArgs {
    /// A game log and a line of it holding a `fire` (Phase 3 or Opportunity Fire), an `assault`
    /// or an assault's `closing_volley`, e.g. `game.dotc:42` (`-:42` reads the log from standard
    /// input): its odds as the replay saw them.
    #[arg(long, value_name = "FILE:LINE", allow_hyphen_values = true)]
    pub at: Option<String>,
    /// With --at, text for people; JSON or YAML: the plan, the odds and the log's outcome
    /// (docs/schemas/odds-at.schema.json).
    #[command(flatten)]
    pub format: FormatArgs,
}

/// The file and 1-based line of `FILE:LINE`.
fn parse_at(at: &str) -> Result<(PathBuf, usize), String> {
    let bad = || format!("--at wants FILE:LINE (a game log and a line number), not `{at}`");
    let (file, line) = at.rsplit_once(':').ok_or_else(bad)?;
    let line: usize = line.trim().parse().map_err(|_| bad())?;
    if file.is_empty() || line == 0 {
        return Err(bad());
    }
    Ok((PathBuf::from(file), line))
}

/// What `--at --format json` prints for a volley.
#[derive(serde::Serialize)]
struct AtJson<'a> {
    /// `volley`: which of the two documents this is.
    kind: &'static str,
    file: &'a str,
    line: usize,
    firer: &'a str,
    target: &'a str,
    range: f64,
    band: &'static str,
    stands: u32,
    base: i32,
    modifiers: &'a [dotc_runtime::engine::events::Modifier],
    save_modifiers: &'a [dotc_runtime::engine::events::Modifier],
    odds: &'a dotc_runtime::odds::FireOdds,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<Outcome>,
}

/// What `--at --format json` prints for an assault line.
#[derive(serde::Serialize)]
struct AssaultJson<'a> {
    /// `assault`: which of the two documents this is.
    kind: &'static str,
    file: &'a str,
    line: usize,
    charger: &'a str,
    target: &'a str,
    odds: &'a dotc_runtime::odds::assault_plan::PlannedAssaultOdds,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<dotc_runtime::engine::assault::AssaultResult>,
}

#[derive(serde::Serialize)]
struct Outcome {
    hits: u32,
    unsaved: u32,
    stands_lost: u32,
}

pub fn odds_at(
    args: &OddsAtArgs,
    render: impl Fn(&[Diagnostic], &str, &str) -> String,
) -> Result<ExitCode, String> {
    let Some(at) = &args.at else {
        return Err("say what to price: `dotc odds fire|melee|assault ...`, or `dotc odds --at FILE:LINE` \
                    for a volley of a game log"
            .to_string());
    };
    let (path, line) = parse_at(at)?;
    let game = match super::replay_cmd::load_game(&path, &render)? {
        Ok(game) => game,
        Err(code) => return Ok(code),
    };
    let index = dotc_lang::lines::LineIndex::new(&game.source);
    // A text ending in a line break has an empty last line that no one counts.
    let lines =
        index.line_count() - usize::from(index.line_text(&game.source, index.line_count() - 1).is_empty());
    if line > lines {
        return Err(format!("{} has {lines} lines; there is no line {line}", game.name));
    }
    let probe = [line];
    let options = ReplayOptions { source: Some(&game.source), probe: &probe, ..ReplayOptions::default() };
    // A campaign battle's log is priced as it was fought: with the campaign's roster (Ch14 1.0).
    let replay =
        replay_logged(crate::files::named(&path), &game.analysis, &crate::files::InputLoader, &options, None);
    if let Some(assault) = replay.assault_probes.iter().find(|p| p.line == line) {
        let odds = assault.odds.as_ref().map_err(|e| {
            format!(
                "{}:{line}: the assault of {} on {} cannot be priced: {e}",
                game.name, assault.charger, assault.target
            )
        })?;
        if args.format.get() != Format::Text {
            let out = AssaultJson {
                kind: "assault",
                file: &game.name,
                line,
                charger: &assault.charger,
                target: &assault.target,
                odds,
                result: assault.result,
            };
            print_document(args.format.get(), schema::ODDS_AT, &out)?;
            return Ok(ExitCode::SUCCESS);
        }
        print!("{}", assault_text(&game.name, line, assault, odds));
        return Ok(ExitCode::SUCCESS);
    }
    let Some(volley) = replay.probes.iter().find(|p| p.line == line) else {
        let text = index.line_text(&game.source, line - 1).trim();
        let why: Vec<String> = replay
            .findings
            .iter()
            .filter(|f| {
                // The finding's action may begin on an attribute line above (`@allow`).
                (index.line(f.span.start)..=index.line(f.span.end)).contains(&line)
            })
            .map(|f| format!("  {} ({})", f.message, f.rule))
            .collect();
        let mut message =
            format!("line {line} of {} holds no volley the replay resolved: `{text}`", game.name);
        if !why.is_empty() {
            message.push_str(&format!("\nthe replay says:\n{}", why.join("\n")));
        } else {
            message.push_str(
                "\n(--at prices a `fire` line, Phase 3 or Opportunity Fire, an `assault` or its `closing_volley`)",
            );
        }
        return Err(message);
    };
    if args.format.get() != Format::Text {
        let plan = &volley.plan;
        let out = AtJson {
            kind: "volley",
            file: &game.name,
            line,
            firer: &plan.firer_name,
            target: &plan.target_name,
            range: plan.range,
            band: plan.band.word(),
            stands: plan.stands,
            base: plan.base,
            modifiers: &plan.modifiers,
            save_modifiers: &plan.save.modifiers,
            odds: &volley.odds,
            outcome: volley.outcome.map(|(hits, unsaved, stands_lost)| Outcome {
                hits,
                unsaved,
                stands_lost,
            }),
        };
        print_document(args.format.get(), schema::ODDS_AT, &out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = format!("{}:{line}\n", game.name);
    for l in volley_lines(&volley.plan, &volley.odds) {
        out.push_str(&format!("  {l}\n"));
    }
    if let Some(outcome) = volley.outcome {
        out.push_str(&format!("  {}\n", outcome_line(&volley.odds, outcome)));
    }
    print!("{out}");
    Ok(ExitCode::SUCCESS)
}

/// The text `--at` prints for an assault line (and the language server's hover shows).
pub fn assault_text(
    name: &str,
    line: usize,
    assault: &dotc_runtime::replay::AssaultProbe,
    odds: &dotc_runtime::odds::assault_plan::PlannedAssaultOdds,
) -> String {
    let mut out = format!("{name}:{line}\n");
    let volley = assault.volley.as_ref().zip(odds.closing_volley.as_ref());
    for l in assault_lines(&assault.charger, &assault.target, odds, volley) {
        out.push_str(&format!("  {l}\n"));
    }
    if let Some(result) = assault.result {
        out.push_str(&format!("  {}\n", assault_outcome_line(odds, result)));
    }
    out
}
