//! `dotc odds --at FILE:LINE`: the exact odds of a logged volley as the replay saw it: the
//! positions, cover, smoke, markers, modules and rulings of that moment of the game, the engine's
//! plan of the volley (`dotc_runtime::engine::fire::plan_volley`) and its exact distribution, and
//! where the log's own dice fell in it.

use std::path::PathBuf;
use std::process::ExitCode;

use dotc_lang::Diagnostic;
use dotc_runtime::odds::explain::{outcome_line, volley_lines};
use dotc_runtime::replay::{ReplayOptions, replay};

/// `--at FILE:LINE` of `dotc odds`.
#[derive(clap::Args, Debug)]
pub struct OddsAtArgs {
    /// A game log and a line of it holding a `fire` (Phase 3 or Opportunity Fire) or an
    /// assault's closing volley, e.g. `game.dotc:42`: its odds as the replay saw them.
    #[arg(long, value_name = "FILE:LINE")]
    pub at: Option<String>,
    /// With --at: print the plan, the odds and the log's outcome as JSON.
    #[arg(long, requires = "at")]
    pub json: bool,
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

/// What `--at --json` prints.
#[derive(serde::Serialize)]
struct AtJson<'a> {
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
    let lines = game.source.lines().count();
    if line > lines {
        return Err(format!("{} has {lines} lines; there is no line {line}", game.name));
    }
    let probe = [line];
    let options = ReplayOptions { source: Some(&game.source), probe: &probe, ..ReplayOptions::default() };
    let replay = replay(&game.analysis, &options);
    let Some(volley) = replay.probes.iter().find(|p| p.line == line) else {
        let text = game.source.lines().nth(line - 1).unwrap_or("").trim();
        let why: Vec<String> = replay
            .findings
            .iter()
            .filter(|f| game.source[..f.span.start.min(game.source.len())].lines().count().max(1) == line)
            .map(|f| format!("  {} ({})", f.message, f.rule))
            .collect();
        let mut message =
            format!("line {line} of {} holds no volley the replay resolved: `{text}`", game.name);
        if !why.is_empty() {
            message.push_str(&format!("\nthe replay says:\n{}", why.join("\n")));
        } else {
            message.push_str("\n(--at prices a `fire` line, Phase 3 or Opportunity Fire, or an assault's `closing_volley`)");
        }
        return Err(message);
    };
    if args.json {
        let plan = &volley.plan;
        let out = AtJson {
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
        println!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
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
