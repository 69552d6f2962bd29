//! `dotc analyze SCENARIO`: the designer's time-and-motion report (issue 19), from the
//! runtime's [`dotc_runtime::analyze`]: per brigade and reinforcement the earliest turn it can
//! reach each objective and each enemy (contact, effective range), the earliest first contact,
//! and whether each victory condition can be met by the side it favours; as text or JSON, and
//! with `--svg OUT --brigade NAME` a map with that force's reach turn by turn.

use std::path::PathBuf;
use std::process::ExitCode;

use dotc_lang::ast::FileKind;
use dotc_lang::lines::LineIndex;
use dotc_runtime::analyze::{Depth, analyze_with, overlay_svg, render_text};
use dotc_runtime::render::{self, MapState, RenderOptions};

use crate::output::{Format, FormatArgs, print_document, schema};

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("map").args(["svg", "png"])))]
pub struct AnalyzeArgs {
    /// The scenario (or a game log, whose scenario is analysed); `-` is standard input.
    pub file: PathBuf,
    /// Text: a readable table per force; JSON or YAML: the report (docs/cli.md lists its fields).
    #[command(flatten)]
    pub format: FormatArgs,
    /// Also write a map (SVG, or PNG when OUT ends in .png) with the reach of the force named
    /// by --brigade, turn by turn, and arrows to the reinforcements' entry points.
    #[arg(long, value_name = "OUT", requires = "brigade", conflicts_with = "png")]
    pub svg: Option<PathBuf>,
    /// The same map as a PNG, whatever OUT ends in.
    #[arg(long, value_name = "OUT", requires = "brigade")]
    pub png: Option<PathBuf>,
    /// The brigade (or unit outside a brigade) whose reach the --svg or --png map shows.
    #[arg(long, value_name = "NAME", requires = "map", add = crate::completion::brigade_names())]
    pub brigade: Option<String>,
    /// Replace OUT even if it is read-only.
    #[arg(long)]
    pub force: bool,
    /// Infantry in line or column take the Double-Time Advance (Ch16 2.3: 3" more for a pip) on
    /// every move. By default they go at the ordinary pace of a formed advance.
    #[arg(long)]
    pub double_time: bool,
}

pub fn analyze_file(args: &AnalyzeArgs) -> Result<ExitCode, String> {
    let super::Analysed { analysis, name, source } = match super::analysed(&args.file, "not analysed")? {
        Ok(analysed) => analysed,
        Err(code) => return Ok(code),
    };
    let (scenario, data, text) = match analysis.document.kind {
        Some(FileKind::Scenario) => {
            let s = analysis.document.scenario.as_ref().ok_or(format!("{name} has no scenario"))?;
            (s, &analysis.rule_data, source.as_str())
        }
        Some(FileKind::Game) => {
            let loaded = analysis.scenario.as_ref().ok_or(format!("{name} names no scenario"))?;
            let s = loaded.document.scenario.as_ref().ok_or(format!("{name}'s scenario is empty"))?;
            (s, &loaded.rule_data, loaded.source.as_str())
        }
        _ => return Err(format!("{name} is not a scenario or a game log: there is nothing to analyse")),
    };
    let depth = Depth { double_time: args.double_time, ..Depth::FULL };
    let Some(mut report) = analyze_with(scenario, data, depth) else {
        return Err(format!("{name} has no table and turns to analyse (`table W x D`, `turns N`)"));
    };
    let lines = LineIndex::new(text);
    for f in &mut report.forces {
        f.line = Some(lines.line(f.span.start));
    }
    for c in &mut report.conditions {
        c.line = Some(lines.line(c.span.start));
    }
    match args.format.get() {
        Format::Text => print!("{}", render_text(&report)),
        format => print_document(format, schema::ANALYZE, &report)?,
    }
    let map = args.svg.as_ref().map(|out| (out, false)).or(args.png.as_ref().map(|out| (out, true)));
    if let (Some((out, png)), Some(brigade)) = (map, &args.brigade) {
        let Some(force) = report.forces.iter().find(|f| &f.name == brigade) else {
            let names = report.forces.iter().map(|f| f.name.as_str());
            let hint = match dotc_lang::names::suggest(brigade, names) {
                Some(s) => format!("; did you mean \"{s}\"?"),
                None => String::new(),
            };
            return Err(format!(
                "no brigade or unit \"{brigade}\" to follow in \"{}\"{hint}",
                scenario.name.value
            ));
        };
        let tables = dotc_runtime::engine::tables::Tables::from_rule_data(data).map_err(|e| e.to_string())?;
        let field = dotc_runtime::battlefield::Battlefield::from_scenario(scenario, data);
        let state = MapState::deployment(scenario, data, &tables);
        let options = RenderOptions::default();
        let page = render::layout(&field, &state, &options);
        let svg = render::render_svg(&field, &state, &options);
        let overlay = overlay_svg(&report, force, page.table);
        let svg = match svg.rfind("</svg>") {
            Some(at) => format!("{}{overlay}{}", &svg[..at], &svg[at..]),
            None => svg,
        };
        let bytes = if png || out.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) {
            crate::map::png(&svg, page.pixels(options.scale))?
        } else {
            svg.into_bytes()
        };
        super::write_atomically(out, bytes, args.force)?;
        crate::term::note!("wrote {}", out.display());
    }
    Ok(ExitCode::SUCCESS)
}
