//! `dotc replay GAME.dotc`: play a logged game through the rules and say where the log and the
//! rules disagree; `dotc audit` shares its loading and its what-if rulings.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::ValueEnum;
use dotc_lang::diagnostic::Diagnostic;
use dotc_lang::{Analysis, analyze};
use dotc_runtime::audit::finding_diagnostic;
use dotc_runtime::campaign::logged::{analyze_and_replay_logged, replay_logged};
use dotc_runtime::replay::{Finding, Replay, ReplayOptions, Telling, Until, completed_log};
use dotc_runtime::rulings::WhatIf;

use crate::output::{Format, print_document, schema};

/// How `dotc replay` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReplayFormat {
    /// The narrative, then the findings as diagnostics.
    Text,
    /// The events, findings and final state as JSON.
    Json,
    /// The events, findings and final state as YAML.
    Yaml,
}

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// The game log to replay (its scenario is read from its `scenario` line); `-` is standard
    /// input, whose scenario path is read from the current directory.
    pub file: PathBuf,
    /// Print the state at the end (each regiment's stands, health and markers; each brigade's
    /// tally and state) after the narrative.
    #[arg(long)]
    pub summary: bool,
    /// Tell every action as the log wrote it, then every event the rules made of it (each roll,
    /// modifier, marker and tally) with the rule it applied. Without it the replay tells the
    /// game as a story: each action in a few plain sentences.
    #[arg(long)]
    pub rules: bool,
    /// Output format: text for people; json or yaml for tools (docs/schemas/replay.schema.json).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = ReplayFormat::Text)]
    pub format: ReplayFormat,
    /// Stop at this point of the game: "turn 3" (the end of turn 3) or "turn 3 fire" (the end of
    /// its fire phase).
    #[arg(long, value_name = "MOMENT")]
    pub until: Option<Until>,
    #[command(flatten)]
    pub what_if: WhatIfArgs,
    /// Switch one of the scenario's optional triggers on or off, NAME=on|off (repeatable; a
    /// what-if over the scenario's and the log's `option` settings).
    #[arg(long = "option", value_name = "NAME=on|off")]
    pub options: Vec<String>,
    /// Roll the dice a line left out from this seed (a what-if replay; a short list stays an error).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Roll every die afresh from --seed: the log's dice lists, claimed results and `scripted`
    /// lines are left out, and its orders are played again with other dice (`dotc playtest`
    /// tallies many seeds). With --write-completed, OUT is the log as these dice give it.
    #[arg(long, requires = "seed")]
    pub reroll: bool,
    /// Write the log with the seeded rolls filled in to OUT (needs --seed).
    #[arg(long, value_name = "OUT", requires = "seed")]
    pub write_completed: Option<PathBuf>,
    /// Write a map of the table after every turn (turn-01.svg, ...) into DIR.
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// Write the game as one self-contained HTML page to OUT: step through it action by action
    /// with the map, the narrative, the rosters, the luck chart and the findings (issue 21).
    #[arg(long, value_name = "OUT", conflicts_with = "seen_by")]
    pub html: Option<PathBuf>,
    /// Replace read-only files among those --write-completed, --svg and --html write.
    #[arg(long)]
    pub force: bool,
    /// Show the game as this side saw it (Hidden Deployment, Ch13 4.0): the narrative, the
    /// summary and the JSON/YAML leave out what an enemy blind not yet revealed hides (its
    /// brigade's units, brigadier and their actions; real or dummy), showing only the blind; its
    /// own blinds in full; with --svg, the maps draw the enemy's blinds as plain "?" tokens. The
    /// findings are not filtered: they are the umpire's view.
    #[arg(long = "as", value_name = "SIDE")]
    pub seen_by: Option<String>,
}

/// Rulings to play by instead of the log's: a what-if replay or audit.
#[derive(clap::Args, Debug, Default)]
pub struct WhatIfArgs {
    /// Play by a preset of rulings: `defaults` (RULINGS.md) or `as_printed` (the texts as printed).
    #[arg(long, value_name = "PRESET", value_parser = ["defaults", "as_printed"])]
    pub preset: Option<String>,
    /// Set one ruling switch, NAME=VALUE (repeatable; `dotc explain C3` lists the values).
    #[arg(long = "ruling", value_name = "NAME=VALUE")]
    pub rulings: Vec<String>,
    /// Switch an optional module (Ch13) on, over the files' own (repeatable, or commas;
    /// `dotc explain NAME` says what one does).
    #[arg(long = "module", value_name = "MODULE", value_delimiter = ',')]
    pub modules: Vec<String>,
    /// Switch an optional module off, whatever the scenario and log say (repeatable, or commas).
    #[arg(long = "no-module", value_name = "MODULE", value_delimiter = ',')]
    pub no_modules: Vec<String>,
}

impl WhatIfArgs {
    /// The preset and switches, each checked against the rulings register (the one parse of
    /// `dotc_runtime::rulings::WhatIf`, shared with `dotc odds assault`).
    pub fn parse(&self) -> Result<WhatIf, String> {
        WhatIf::parse(self.preset.as_deref(), &self.rulings)?.with_modules(&self.modules, &self.no_modules)
    }
}

/// `--option NAME=on|off` switches, each checked against the scenario's optional triggers (with a
/// "did you mean").
pub fn option_settings(options: &[String], analysis: &Analysis) -> Result<Vec<(String, bool)>, String> {
    let scenario = analysis.scenario.as_ref().and_then(|s| s.document.scenario.as_ref());
    let known: Vec<&str> = scenario.map(dotc_lang::check::option_names).unwrap_or_default();
    options
        .iter()
        .map(|setting| {
            let (name, value) =
                setting.split_once('=').ok_or(format!("--option takes NAME=on|off, not `{setting}`"))?;
            let (name, value) = (name.trim(), value.trim());
            if !known.contains(&name) {
                let hint = match dotc_lang::names::suggest(name, known.iter().copied()) {
                    Some(s) => format!("; did you mean `{s}`?"),
                    None if known.is_empty() => "; the scenario has no optional triggers".to_string(),
                    None => format!("; its options are {}", known.join(", ")),
                };
                return Err(format!("the scenario has no option `{name}`{hint}"));
            }
            let on = dotc_lang::ast::switch_word(value)
                .ok_or(format!("option {name} is `on` or `off`, not `{value}`"))?;
            Ok((name.to_string(), on))
        })
        .collect()
}

/// The `--option`s of a long log, judged against the scenario named in its head (the header and
/// first turns, read alone as `dotc_lang::incremental::read_in_stretches` reads them), so that
/// it can be replayed while it is parsed. None when the log is not read in stretches or an
/// option is wrong: then it is analysed whole first, and a wrong option is reported after the
/// log's own errors, as for a short log.
fn head_switches(path: &std::path::Path, source: &str, options: &[String]) -> Option<Vec<(String, bool)>> {
    let (head, _) = dotc_lang::incremental::read_in_stretches(source, dotc_lang::incremental::STRETCH_BYTES)?;
    let analysis = dotc_lang::analysis::set_up(path, head, &crate::files::InputLoader);
    option_settings(options, &analysis).ok()
}

/// A game log read and analysed, or the exit code after its errors were printed.
pub struct LoadedGame {
    pub name: String,
    pub source: String,
    pub analysis: Analysis,
}

/// Read and analyse a game log. Errors in it (or its scenario) are printed and give exit 1.
pub fn load_game(
    path: &Path,
    render: &impl Fn(&[Diagnostic], &str, &str) -> String,
) -> Result<Result<LoadedGame, ExitCode>, String> {
    let source = super::read(path)?;
    let path = crate::files::named(path);
    let analysis = analyze(path, &source, &crate::files::InputLoader);
    match game_of(path, source, analysis, render)? {
        Ok(game) => Ok(Ok(game)),
        Err(report) => {
            eprint!("{report}");
            Ok(Err(ExitCode::from(1)))
        }
    }
}

/// An analysed file as a game log to replay; or, when it has errors, the report that says why
/// it is not replayed (its diagnostics and a last line); an error when it is not a game log.
pub fn game_of(
    path: &Path,
    source: String,
    analysis: Analysis,
    render: &impl Fn(&[Diagnostic], &str, &str) -> String,
) -> Result<Result<LoadedGame, String>, String> {
    let name = path.display().to_string();
    if analysis.has_errors() {
        let report = render(&analysis.diagnostics, &name, &source);
        return Ok(Err(format!("{report}error: {name} has errors; not replayed\n")));
    }
    if analysis.document.game.is_none() {
        return Err(format!("{name} is not a game log (it has no `game` header)"));
    }
    Ok(Ok(LoadedGame { name, source, analysis }))
}

/// The events, findings, final state and what a seed filled in, for JSON and YAML (in this order).
#[derive(serde::Serialize)]
struct Output<'a> {
    events: &'a [dotc_runtime::replay::ReplayEvent],
    findings: &'a [Finding],
    summary: &'a dotc_runtime::replay::Summary,
    /// The side whose view this is (`--as`).
    #[serde(skip_serializing_if = "Option::is_none")]
    seen_by: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    filled: &'a [dotc_runtime::replay::Filled],
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<Until>,
}

impl<'a> Output<'a> {
    fn of(replay: &'a Replay) -> Output<'a> {
        Output {
            events: &replay.events,
            findings: &replay.findings,
            summary: &replay.summary,
            seen_by: replay.seen_by.as_deref(),
            filled: &replay.filled,
            stopped: replay.stopped,
        }
    }
}

/// What `dotc replay` asks of the replay.
fn replay_options<'a>(
    args: &ReplayArgs,
    source: &'a str,
    what_if: &'a dotc_runtime::rulings::WhatIf,
    switches: &'a [(String, bool)],
) -> ReplayOptions<'a> {
    ReplayOptions {
        source: Some(source),
        seed: args.seed,
        until: args.until,
        what_if: Some(what_if),
        options: switches,
        tables: args.svg.is_some(),
        probe: &[],
        cancel: None,
        findings_only: false,
        // The text narrative, written as the game is played: the events are kept only where
        // something reads them after the replay (JSON and YAML, a side's view, the maps).
        narrate: args.format == ReplayFormat::Text
            && args.seen_by.is_none()
            && args.svg.is_none()
            && args.html.is_none(),
        telling: if args.rules { Telling::Rules } else { Telling::Story },
        order_of_battle: None,
        moment: false,
        owed: false,
        frames: args.html.is_some(),
    }
}

/// The log with every die and claim left out (`--reroll`); a text that does not parse is kept
/// as it is, for the replay to report its errors.
fn without_its_dice(source: &str) -> String {
    let parsed = dotc_lang::parse(source);
    if parsed.diagnostics.is_empty() {
        dotc_runtime::replay::without_dice(source, &parsed.document)
    } else {
        source.to_string()
    }
}

pub fn replay_file(
    args: &ReplayArgs,
    render: impl Fn(&[Diagnostic], &str, &str) -> String,
) -> Result<ExitCode, String> {
    let what_if = args.what_if.parse();
    // A long log is replayed while it is still being parsed (issue 16). Its `--option`s are
    // judged first against the scenario its head names. A log that names its campaign battle
    // (Ch14 1.0) is fought with the campaign's roster, as `dotc audit` fights it, decided from
    // its header before the one replay (issue 19).
    let source = super::read(&args.file)?;
    let source = if args.reroll { without_its_dice(&source) } else { source };
    let path = crate::files::named(&args.file);
    let early_switches =
        if args.options.is_empty() { Some(Vec::new()) } else { head_switches(path, &source, &args.options) };
    let streamed = match (&what_if, &early_switches) {
        (Ok(what_if), Some(switches)) => Some(analyze_and_replay_logged(
            path,
            &source,
            &crate::files::InputLoader,
            &replay_options(args, &source, what_if, switches),
        )),
        _ => None,
    };
    let (analysis, replayed) =
        streamed.unwrap_or_else(|| (analyze(path, &source, &crate::files::InputLoader), None));
    let game = match game_of(path, source, analysis, &render)? {
        Ok(game) => game,
        Err(report) => {
            eprint!("{report}");
            return Ok(ExitCode::from(1));
        }
    };
    let what_if = what_if?;
    let switches = option_settings(&args.options, &game.analysis)?;
    if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    }
    let replay = match replayed {
        Some(replay) => replay,
        None => {
            let options = replay_options(args, &game.source, &what_if, &switches);
            replay_logged(path, &game.analysis, &crate::files::InputLoader, &options, None)
        }
    };
    // Ch13 4.0: the game as one side saw it.
    let replay = match &args.seen_by {
        Some(side) => replay.as_seen_by(side)?,
        None => replay,
    };
    if let Some(until) = args.until
        && replay.stopped.is_none()
    {
        crate::term::note!("note: the log ends before turn {}; the whole log was replayed", until.turn);
    }
    if let Some(note) = args.until.and_then(|at| crate::map::omitted_phase(&game.analysis.document, at)) {
        crate::term::note!("note: {note}; the replay stops after the phases before it");
    }
    match args.format {
        ReplayFormat::Json => print_document(Format::Json, schema::REPLAY, &Output::of(&replay))?,
        ReplayFormat::Yaml => print_document(Format::Yaml, schema::REPLAY, &Output::of(&replay))?,
        ReplayFormat::Text => {
            if crate::term::colour_stdout() {
                print!("{}", crate::term::paint_narrative(&replay.narrative()));
            } else {
                print!("{}", replay.narrative());
            }
            if args.summary {
                println!();
                print!("{}", replay.summary());
            }
            // Every finding, notes too, as the audit layer words it (no `@allow` here: that is
            // `dotc audit`'s).
            let diagnostics: Vec<Diagnostic> = replay.findings.iter().map(finding_diagnostic).collect();
            if !diagnostics.is_empty() {
                eprint!("{}", render(&diagnostics, &game.name, &game.source));
            }
        }
    }
    if let Some(out) = &args.write_completed {
        let text = completed_log(&game.source, &game.analysis.document, &replay.filled);
        super::write_atomically(out, &text, args.force)?;
        let rolls: usize = replay.filled.iter().map(|f| f.rolls.len()).sum();
        crate::term::note!(
            "wrote {} ({rolls} rolls filled from seed {})",
            out.display(),
            args.seed.unwrap_or_default()
        );
    }
    if let Some(dir) = &args.svg {
        let written =
            crate::map::replay_maps(&game.analysis, &replay, dir, args.force, args.seen_by.as_deref())?;
        crate::term::note!("wrote {written} maps into {}", dir.display());
    }
    if let Some(out) = &args.html {
        crate::replay_html::write(&game.analysis, &replay, out, args.force)?;
    }
    let code = if replay.has_problems() { ExitCode::from(1) } else { ExitCode::SUCCESS };
    // The process ends with this command: the replay's millions of events and the parsed log
    // are left to the operating system rather than freed one by one (7% of a long log's replay,
    // issue 16).
    std::mem::forget(replay);
    std::mem::forget(game);
    Ok(code)
}
