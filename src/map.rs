//! `dotc render`: a map of a scenario, or of a game log's scenario, as SVG or PNG.
//!
//! The SVG comes from the runtime's pure `render` module; this file reads the file, checks it,
//! picks the format from `-o`'s extension, rasterises PNGs with resvg using the one font the
//! binary embeds, and writes the output atomically.

use std::path::PathBuf;
use std::process::ExitCode;

use dotc_lang::ast::FileKind;
use dotc_lang::diagnostic::Diagnostic;
use dotc_runtime::campaign::logged::replay_logged;
use dotc_runtime::engine::tables::Tables;
use dotc_runtime::render::{self, Focus, MapState, RenderOptions};
use dotc_runtime::replay::{Replay, ReplayOptions, Until};

/// The font every label of a map is set in (DejaVu Sans; licence in assets/fonts/). Loaded
/// alone into the rasteriser's font database, so a PNG is the same on every machine.
pub(crate) const FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans.ttf");

/// The largest side of a PDF page, in points (PDF 1.7 Annex C: 200 inches).
const MAX_PDF_POINTS: u32 = 14_400;

/// The largest PNG drawn, in pixels (about 20,000 x 5,000): beyond it `--scale` is a mistake.
const MAX_PIXELS: u64 = 100_000_000;

#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// A scenario (its deployment), or a game log (the table where the log ends, or at --at);
    /// `-` is standard input.
    pub file: PathBuf,
    /// Where to write the map; its extension picks the format: .svg, .png or .pdf (a vector
    /// page, its text kept as text).
    #[arg(short, long, value_name = "MAP")]
    pub output: PathBuf,
    /// Replace MAP even if it is read-only.
    #[arg(long)]
    pub force: bool,
    /// The moment of a game log to draw: "turn 3" (the end of turn 3) or "turn 3 fire" (the end
    /// of its fire phase); the log is replayed up to it, and the map draws what the last phase
    /// before it did (moves, charges, fire lines, lost stands). Without it, a game log's map
    /// shows the table where the log ends.
    #[arg(long, value_name = "MOMENT")]
    pub at: Option<Until>,
    /// With --at, leave out the last phase's moves, charges and fire lines.
    #[arg(long, requires = "at")]
    pub no_actions: bool,
    /// Pixels per inch of table: the PNG's size, the SVG's width and height, and the PDF page's
    /// size in points.
    #[arg(long, value_name = "N", default_value_t = render::DEFAULT_SCALE)]
    pub scale: f64,
    /// A unit whose arcs and lines of sight to draw (both, unless --arcs or --sight picks one).
    #[arg(long, value_name = "NAME", add = crate::completion::unit_names())]
    pub unit: Option<String>,
    /// Draw the unit's 45-degree front arc, flank zones and 90-degree line (Ch16 4.5).
    #[arg(long, requires = "unit")]
    pub arcs: bool,
    /// Draw the unit's lines of sight to enemy units within its weapon's range.
    #[arg(long, requires = "unit")]
    pub sight: bool,
    /// Draw the table as this side saw it (Hidden Deployment, Ch13 4.0): the enemy's blinds not
    /// yet revealed as plain "?" tokens, with no name, and what they hide left out of the legend.
    /// Without it every blind shows its name and what it hides (the umpire's map).
    #[arg(long = "as", value_name = "SIDE")]
    pub seen_by: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MapFormat {
    Svg,
    Png,
    Pdf,
}

pub fn render_map(args: &RenderArgs) -> Result<ExitCode, String> {
    let format = match args
        .output
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("svg") => MapFormat::Svg,
        Some("png") => MapFormat::Png,
        Some("pdf") => MapFormat::Pdf,
        _ => {
            return Err(format!(
                "cannot tell the map's format from `{}`: give -o a file name ending in .svg, .png or .pdf",
                args.output.display()
            ));
        }
    };
    if !(args.scale.is_finite() && args.scale > 0.0) {
        return Err(format!("--scale is pixels per inch and must be above 0, not {}", args.scale));
    }

    let source = super::read(&args.file)?;
    let path = crate::files::named(&args.file);
    let name = path.display().to_string();
    // What `dotc check` says of the file (`check_file`): a map of a file with errors is not drawn.
    let checked = dotc_runtime::check::check_file(path, &source, &crate::files::InputLoader);
    let diagnostics = checked.diagnostics();
    let analysis = checked.analysis;
    if !diagnostics.is_empty() {
        eprint!("{}", super::render(&diagnostics, &name, &source));
    }
    if diagnostics.iter().any(Diagnostic::is_error) {
        eprintln!("error: {name} has errors; no map written");
        return Ok(ExitCode::from(1));
    }

    let (scenario, data, game) = match analysis.document.kind {
        Some(FileKind::Scenario) => {
            if let Some(at) = &args.at {
                return Err(format!(
                    "--at \"{at}\" picks a moment of a game log, and {name} is a scenario: its map is its deployment (leave out --at)"
                ));
            }
            let scenario = analysis.document.scenario.as_ref().ok_or(format!("{name} has no scenario"))?;
            (scenario, &analysis.rule_data, None)
        }
        Some(FileKind::Game) => {
            let loaded = analysis.scenario.as_ref().ok_or(format!("{name} names no scenario to draw"))?;
            let scenario = loaded.document.scenario.as_ref().ok_or(format!("{name}'s scenario is empty"))?;
            (scenario, &loaded.rule_data, analysis.document.game.as_ref())
        }
        Some(FileKind::Library | FileKind::Campaign) | None => {
            return Err(format!("{name} is not a scenario or a game log: there is no table to draw"));
        }
    };

    // Ch13 1.0: a game log's table is the scenario's after the Scouting winner's choice.
    let field = dotc_runtime::engine::bidding::game_battlefield(scenario, game, data);
    let mut state = MapState::deployment(scenario, data, &tables_of(data)?);
    let mut options = RenderOptions { scale: args.scale, ..RenderOptions::default() };
    if let Some(side) = &args.seen_by {
        state.as_seen_by(side)?;
    }
    if let Some(game) = game {
        // The game's name on top, its scenario's under it.
        state.subtitle = format!("{} \u{b7} {}", state.title, state.subtitle);
        state.title = game.name.value.clone();
    }
    if game.is_some() {
        // The table as the replay leaves it at the moment asked for, or at the log's end.
        // With --at, the replay keeps its steps: the last phase's are drawn.
        let frames = args.at.is_some() && !args.no_actions;
        let replay_options = ReplayOptions {
            source: Some(&source),
            until: args.at,
            tables: true,
            frames,
            ..ReplayOptions::default()
        };
        // A campaign battle's log is fought with the campaign's roster (Ch14 1.0).
        let replayed = replay_logged(path, &analysis, &crate::files::InputLoader, &replay_options, None);
        if let Some(at) = args.at
            && replayed.stopped.is_none()
        {
            crate::term::note!(
                "note: the log ends before turn {}; the map shows the table where it ends",
                at.turn
            );
        }
        if let Some(note) = args.at.and_then(|at| omitted_phase(&analysis.document, at)) {
            crate::term::note!("note: {note}; the map shows the table the phases before it left");
        }
        if replayed.has_problems() {
            crate::term::note!(
                "note: the replay found problems in the log (see `dotc audit {name}`); the map follows the log"
            );
        }
        if let Some(table) = replayed.tables.last() {
            state.at(table, data);
        }
        // Issue 21: each unit's micro-hit and the stands it has lost so far.
        state.losses(&replayed.summary);
        if let Some((phase, marks)) = last_phase(&replayed) {
            options.marks = marks;
            options.note = Some(format!("drawn over it: what turn {phase} did"));
        }
    }
    if let Some(unit) = &args.unit {
        let Some(found) = state.unit(unit) else {
            let names = state.units.iter().map(|u| u.name.as_str());
            let hint = match dotc_lang::names::suggest(unit, names) {
                Some(s) => format!("; did you mean \"{s}\"?"),
                None => String::new(),
            };
            return Err(format!("no unit \"{unit}\" in \"{}\"{hint}", scenario.name.value));
        };
        let (arcs, sight) = if args.arcs || args.sight { (args.arcs, args.sight) } else { (true, true) };
        if found.body.is_none() {
            crate::term::note!(
                "note: \"{unit}\" is not on the table at the deployment; no arcs or lines of sight to draw"
            );
        } else if sight && found.weapon.is_none() {
            crate::term::note!("note: \"{unit}\" has no weapon, so no lines of sight are drawn");
        }
        options.focus = Some(Focus { unit: unit.clone(), arcs, sight });
    }

    let layout = render::layout(&field, &state, &options);
    let (width, height) = layout.pixels(args.scale);
    if format == MapFormat::Png && u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(format!(
            "a map of {width} x {height} pixels is too large; lower --scale (it is {})",
            args.scale
        ));
    }
    // A PDF page is at most 200 inches a side (14,400 points, PDF 1.7 Annex C): readers refuse
    // a larger one.
    if format == MapFormat::Pdf && width.max(height) > MAX_PDF_POINTS {
        return Err(format!(
            "a PDF page of {width} x {height} points is larger than a PDF page may be ({MAX_PDF_POINTS} points, 200 inches, a side); lower --scale (it is {})",
            args.scale
        ));
    }
    let svg = render::render_svg(&field, &state, &options);
    let bytes = match format {
        MapFormat::Svg => svg.into_bytes(),
        MapFormat::Png => png(&svg, (width, height))?,
        MapFormat::Pdf => crate::pdf::document(&scenario.name.value, &[svg])?,
    };
    super::write_atomically(&args.output, &bytes, args.force)?;
    let unit = if format == MapFormat::Pdf { "points" } else { "pixels" };
    crate::term::note!(
        "wrote {} ({width} x {height} {unit} at {} per inch)",
        args.output.display(),
        args.scale
    );
    Ok(ExitCode::SUCCESS)
}

/// The SVG drawn at its own size (`width` x `height` pixels) as PNG bytes.
pub(crate) fn png(svg: &str, (width, height): (u32, u32)) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let options = crate::pdf::svg_options();
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| format!("cannot read the map's SVG: {e}"))?;
    let mut pixmap =
        tiny_skia::Pixmap::new(width, height).ok_or(format!("cannot make a {width} x {height} picture"))?;
    let size = tree.size();
    let transform =
        tiny_skia::Transform::from_scale(width as f32 / size.width(), height as f32 / size.height());
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| format!("cannot encode the PNG: {e}"))
}

/// The rule data's tables, which give the stands' and bases' sizes and the ground scale.
fn tables_of(data: &dotc_lang::library::RuleData) -> Result<Tables, String> {
    Tables::from_rule_data(data).map_err(|e| format!("the rule data cannot be drawn from: {e}"))
}

/// One SVG map after every turn of a replay (and where it stopped), into `dir`: `turn-01.svg`,
/// ..., `turn-03-fire.svg`. Returns how many were written.
pub fn replay_maps(
    analysis: &dotc_lang::Analysis,
    replay: &Replay,
    dir: &std::path::Path,
    force: bool,
    seen_by: Option<&str>,
) -> Result<usize, String> {
    let loaded = analysis.scenario.as_ref().ok_or("the game names no scenario to draw")?;
    let scenario = loaded.document.scenario.as_ref().ok_or("the game's scenario is empty")?;
    let data = &loaded.rule_data;
    let field =
        dotc_runtime::engine::bidding::game_battlefield(scenario, analysis.document.game.as_ref(), data);
    let options = RenderOptions::default();
    let mut base = MapState::deployment(scenario, data, &tables_of(data)?);
    // Ch13 4.0: the maps as one side saw the table (`dotc replay --as`).
    if let Some(side) = seen_by {
        base.as_seen_by(side)?;
    }
    if let Some(game) = &analysis.document.game {
        base.subtitle = format!("{} \u{b7} {}", base.title, base.subtitle);
        base.title = game.name.value.clone();
    }
    for table in &replay.tables {
        let mut state = base.clone();
        state.at(table, data);
        let file = match table.phase {
            dotc_lang::ast::PhaseKind::Status => format!("turn-{:02}.svg", table.turn),
            phase => format!("turn-{:02}-{}.svg", table.turn, phase.word()),
        };
        super::write_atomically(&dir.join(file), render::render_svg(&field, &state, &options), force)?;
    }
    Ok(replay.tables.len())
}

/// What the last phase the replay played did, as marks to draw over the map (issue 21): the
/// moves, charges, fire lines, lost stands and notes of each of its steps, with the phase
/// named ("3's fire phase"). None when the replay kept no steps or the phase did nothing drawn.
fn last_phase(replay: &Replay) -> Option<(String, Vec<render::action::Mark>)> {
    use dotc_runtime::replay::frames::FrameKind;
    let acted = |f: &&dotc_runtime::replay::frames::Frame| {
        matches!(f.kind, FrameKind::Action { .. } | FrameKind::Scripts { .. }) && f.phase.is_some()
    };
    let last = replay.frames.iter().rev().find(acted)?;
    let (turn, phase) = (last.turn, last.phase);
    let mut marks = Vec::new();
    for (i, frame) in replay.frames.iter().enumerate() {
        if frame.turn != turn || frame.phase != phase || !acted(&frame) {
            continue;
        }
        let Some(before) = i.checked_sub(1).and_then(|j| replay.frames.get(j)) else { continue };
        let events = replay.events.get(frame.events.clone()).unwrap_or(&[]);
        marks.extend(render::action::marks_of(events, &before.table, &frame.table));
    }
    let phase = phase?.word();
    (!marks.is_empty()).then(|| (format!("{turn}'s {phase} phase"), marks))
}

/// Whether a moment (`--at`, `--until`) is in a phase its turn of the log leaves out: then nothing
/// was done in it, and the table is the one the phases before it left. Says so, or None.
pub(crate) fn omitted_phase(
    document: &dotc_lang::ast::Document,
    at: dotc_runtime::replay::Until,
) -> Option<String> {
    let phase = at.phase?;
    let turn = document.turns.iter().find(|t| t.number.value == at.turn)?;
    let logged = turn.phases().iter().any(|p| p.kind.value == phase);
    (!logged)
        .then(|| format!("turn {} of the log has no {} phase: nothing was done in it", at.turn, phase.word()))
}
