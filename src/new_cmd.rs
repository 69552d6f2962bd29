//! `dotc new scenario NAME`: a new file from the commented skeleton of
//! `lang/templates/new-scenario.dotc`. `dotc new game SCENARIO`: a game log to fill in at the
//! table, its header naming the scenario and its first turn's phases laid out, with a `pips` line
//! for each brigadier who rolls in turn 1 (issue 20).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;

use crate::write_atomically;

#[derive(Subcommand, Debug)]
pub enum NewKind {
    /// A scenario skeleton, written to NAME.dotc (or the path given with --output).
    Scenario {
        /// The scenario's title; also the file name, lower-cased with dashes.
        name: String,
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// A game log to fill in as you play SCENARIO: its header, and turn 1 with its five phases
    /// and a `pips` line for each brigadier who rolls (written to SCENARIO-STEM-game.dotc beside
    /// the scenario, or the path given with --output). It checks clean; `dotc audit` then asks for
    /// the dice as you type them.
    Game {
        /// The scenario file to play.
        scenario: PathBuf,
        /// What to call the game (default: the scenario's title).
        #[arg(long)]
        name: Option<String>,
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

const SCENARIO_TEMPLATE: &str = include_str!("../lang/templates/new-scenario.dotc");

pub fn new_scenario(name: &str, output: Option<PathBuf>) -> Result<ExitCode, String> {
    let slug: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let path = output.unwrap_or_else(|| {
        PathBuf::from(format!("{}.dotc", if slug.is_empty() { "scenario" } else { &slug }))
    });
    if path.exists() {
        return Err(format!("{} already exists; choose another name or --output", path.display()));
    }
    let title = name.replace('\\', "\\\\").replace('"', "\\\"");
    let text = SCENARIO_TEMPLATE.replace("{{NAME}}", &title);
    write_atomically(&path, &text, false)?;
    crate::term::note!("wrote {}; check it with `dotc check {}`", path.display(), path.display());
    Ok(ExitCode::SUCCESS)
}

/// Write a game log skeleton for `scenario` (see [`NewKind::Game`]).
pub fn new_game(scenario: &Path, name: Option<&str>, output: Option<PathBuf>) -> Result<ExitCode, String> {
    let source = match crate::files::read(scenario) {
        Ok(source) => source,
        Err(crate::files::ReadFailure::Message(message)) => return Err(message),
        Err(crate::files::ReadFailure::NotUtf8 { .. }) => {
            return Err(format!(
                "{} is not UTF-8 text; `dotc check {}` shows where",
                scenario.display(),
                scenario.display()
            ));
        }
    };
    let checked = dotc_lang::analyze(scenario, &source, &crate::files::InputLoader);
    let Some(scene) = checked.document.scenario.as_ref() else {
        return Err(format!(
            "{} is not a scenario (it has no `scenario \"...\" {{ }}` block)",
            scenario.display()
        ));
    };
    if checked.has_errors() {
        return Err(format!(
            "{} has errors; fix them first (`dotc check {}`)",
            scenario.display(),
            scenario.display()
        ));
    }
    let path = output.unwrap_or_else(|| {
        let stem = scenario.file_stem().and_then(|s| s.to_str()).unwrap_or("scenario");
        scenario.with_file_name(format!("{stem}-game.dotc"))
    });
    if path.exists() {
        return Err(format!("{} already exists; choose another path with --output", path.display()));
    }
    let text = game_skeleton(scenario, &path, scene, name)?;
    write_atomically(&path, &text, false)?;
    crate::term::note!(
        "wrote {}; type each die after `roll` as it falls and the agreed result after `=>`, then `dotc audit {}`",
        path.display(),
        path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The text of a new game log for `scene` (the scenario at `scenario`), to be written at `log`.
fn game_skeleton(
    scenario: &Path,
    log: &Path,
    scene: &dotc_lang::ast::Scenario,
    name: Option<&str>,
) -> Result<String, String> {
    let quote = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let title = &scene.name.value;
    let relative = relative_path(scenario, log)?;
    let sides: Vec<&str> = scene.sides.iter().map(|s| s.id.value.as_str()).collect();
    let players: Vec<String> = sides.iter().map(|s| format!("{s} \"\"")).collect();
    let mut text = format!(
        "// A game of \"{title}\", begun with `dotc new game`. Write each action on a line as it\n\
         // happens: the verb, the units, the dice as they fell (`roll [..]`, `saves [..]`), and after\n\
         // `=>` the result the players agreed. `dotc audit` checks every line against the rules and\n\
         // says what a line is missing; docs/language.md section 5 lists the verbs.\n\n\
         game \"{}\" {{\n    scenario \"{}\"\n    // players {}\n    // played YYYY-MM-DD\n}}\n",
        quote(name.unwrap_or(title)),
        quote(&relative),
        players.join(", "),
    );
    // Who rolls pips in turn 1, as the replay judges it: from the header alone, analysed where
    // the log will be.
    let header = dotc_lang::analyze(log, &text, &crate::files::InputLoader);
    if header.has_errors() {
        return Err(format!(
            "the new log's header does not check: {:?}",
            header.diagnostics.first().map(|d| &d.message)
        ));
    }
    let pips = dotc_runtime::replay::first_turn_pips(&header);
    let first =
        scene.first_side.as_ref().map(|s| s.value.clone()).or_else(|| sides.first().map(|s| s.to_string()));
    let Some(first) = first else { return Err("the scenario has no sides".to_string()) };
    let clock = scene.start.as_ref().map(|t| format!(" {}", t.value)).unwrap_or_default();
    text.push_str(&format!("\n// ===================================================================={clock}\nturn 1 {first} {{\n"));
    text.push_str(
        "    command {\n        // Ch16 2.1, RULINGS G8: every brigadier of both sides rolls his staff pips. Type the\n        \
         // die and the pips it gives: `pips \"Name\" roll [4] => 2`.\n",
    );
    for leader in &pips {
        text.push_str(&format!("        pips \"{}\"\n", quote(leader)));
    }
    text.push_str("    }\n");
    let phases = [
        ("maneuver", "moves, formation changes and assaults: `move \"Unit\" to (x, y) facing east`"),
        ("fire", "volleys: `fire \"Unit\" at \"Target\" roll [..] saves [..] => hits N, saved N, lost N`"),
        ("melee", "retreats and consolidation after a melee"),
        ("status", "rallies and the end of the turn"),
    ];
    for (phase, what) in phases {
        text.push_str(&format!("    {phase} {{\n        // {what}\n    }}\n"));
    }
    text.push_str("}\n");
    let checked = dotc_lang::analyze(log, &text, &crate::files::InputLoader);
    if checked.has_errors() {
        return Err(format!(
            "the new log does not check: {:?}",
            checked.diagnostics.first().map(|d| &d.message)
        ));
    }
    Ok(text)
}

/// `to` as a path relative to the folder of `from_file` (both as given, made absolute), with `/`
/// between its parts as a log writes it.
fn relative_path(to: &Path, from_file: &Path) -> Result<String, String> {
    let absolute =
        |p: &Path| std::path::absolute(p).map_err(|e| format!("cannot resolve {}: {e}", p.display()));
    let to = absolute(to)?;
    let from = absolute(from_file)?;
    let from_dir = from.parent().unwrap_or(Path::new("/"));
    let (to_parts, dir_parts): (Vec<_>, Vec<_>) =
        (to.components().collect(), from_dir.components().collect());
    let common = to_parts.iter().zip(&dir_parts).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = std::iter::repeat_n("..".to_string(), dir_parts.len() - common).collect();
    parts.extend(to_parts[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    Ok(parts.join("/"))
}
