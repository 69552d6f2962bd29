//! `dotc check` of one file: the language's analysis and the checks that need the runtime
//! ([`check_file`], the one composition the CLI, the language server and the tests share), and
//! the scenario checks that need the table's geometry.

use std::path::Path;

use dotc_lang::Analysis;
use dotc_lang::ast::{FileKind, Scenario, Unit};
use dotc_lang::catalogue;
use dotc_lang::check::{NameIndex, starting_stands};
use dotc_lang::diagnostic::Diagnostic;
use dotc_lang::library::RuleData;
use dotc_lang::ranges;
use geo::Polygon;

use crate::battlefield::Body;
use crate::engine::tables::Tables;
use crate::geometry::{OVERLAP_TOLERANCE, overlap_area};

/// A file checked: the language's analysis and the checks that need the runtime, kept apart
/// (an editor re-analyses in place and keeps the rules checks).
#[derive(Debug)]
pub struct CheckedFile {
    pub analysis: Analysis,
    /// A scenario's rules-aware checks ([`check_scenario`]: stacked units, scripts that do not
    /// compile), a library's scripts that do not compile ([`crate::script::check_library`]).
    pub rules_checks: Vec<Diagnostic>,
}

impl CheckedFile {
    /// Every diagnostic, sorted by position (stable: the language's before the rules checks').
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut all: Vec<Diagnostic> =
            self.analysis.diagnostics.iter().chain(&self.rules_checks).cloned().collect();
        all.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
        all
    }
}

/// Check one file as `dotc check` does: [`dotc_lang::analyze`] (a game log's scenario read
/// through `loader`), then [`rules_checks`]. Never panics on any input.
pub fn check_file(path: &Path, source: &str, loader: &dyn dotc_lang::Loader) -> CheckedFile {
    let analysis = dotc_lang::analyze(path, source, loader);
    let rules_checks = rules_checks(&analysis);
    CheckedFile { analysis, rules_checks }
}

/// Every diagnostic of one file, exactly `check_file(path, source, loader).diagnostics()`, for
/// `dotc check`, which needs nothing else: a long game log is checked a stretch of turns at a
/// time without keeping its syntax tree ([`dotc_lang::analysis::check_in_stretches`], issue 16:
/// the tree was most of `check`'s peak memory); any other file is checked whole.
pub fn check_diagnostics(path: &Path, source: &str, loader: &dyn dotc_lang::Loader) -> Vec<Diagnostic> {
    check_diagnostics_in(path, source, loader, dotc_lang::incremental::STRETCH_BYTES)
}

/// [`check_diagnostics`] with stretches of at least `stretch` bytes (small in tests, so that
/// short logs are cut).
pub fn check_diagnostics_in(
    path: &Path,
    source: &str,
    loader: &dyn dotc_lang::Loader,
    stretch: usize,
) -> Vec<Diagnostic> {
    // Only a game log is read in stretches, and [`rules_checks`] has nothing to say of one (it
    // checks a scenario's geometry and scripts and a library's scripts): the language's
    // diagnostics are all of them, already sorted.
    match dotc_lang::analysis::check_in_stretches(path, source, loader, stretch) {
        Some(diagnostics) => diagnostics,
        None => {
            let checked = check_file(path, source, loader);
            let mut all = checked.diagnostics();
            let slow = slow_checks(&checked.analysis);
            if !slow.is_empty() {
                all.extend(slow);
                all.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
            }
            all
        }
    }
}

/// The checks of `dotc check` that cost more than a keystroke may (a campaign replays its
/// battles; a scenario's time and motion searches the table): [`campaign_notes`] and
/// [`motion_warnings`]. They are not [`rules_checks`], which the language server runs at every
/// keystroke: the server runs these after a pause, as it audits a long log.
pub fn slow_checks(analysis: &Analysis) -> Vec<Diagnostic> {
    let mut out = campaign_notes(analysis);
    out.extend(motion_warnings(analysis));
    out
}

/// Time and motion (issue 19), of a scenario without errors (one with errors is not what will be
/// played): a victory condition out of the favoured side's reach (`dotc::unreachable-victory`),
/// a reinforcement that cannot reach the fight (`dotc::reinforcement-too-late`); `dotc analyze`
/// gives the whole report. A few hundred milliseconds on a Gettysburg scenario.
pub fn motion_warnings(analysis: &Analysis) -> Vec<Diagnostic> {
    let (Some(scenario), Some(names)) = (&analysis.document.scenario, analysis.names.as_ref()) else {
        return Vec::new();
    };
    let data = &analysis.rule_data;
    if analysis.diagnostics.iter().chain(&check_scenario(scenario, names, data)).any(Diagnostic::is_error) {
        return Vec::new();
    }
    match crate::analyze::analyze_with(scenario, data, crate::analyze::Depth::CHECK) {
        Some(report) => crate::analyze::warnings(scenario, &report),
        None => Vec::new(),
    }
}

/// A campaign's battles fought with the roster (Ch14 1.0): a note at each battle's `scenario`
/// line saying what the roster changes (advice; the audit reports the rest), for `dotc check`.
/// It plays the campaign, replaying every battle's log, so it is not one of [`rules_checks`],
/// which the language server runs at every keystroke: the server gives these notes with the
/// campaign's play, after a pause.
pub fn campaign_notes(analysis: &Analysis) -> Vec<Diagnostic> {
    if analysis.document.campaign.is_none() || analysis.has_errors() {
        return Vec::new();
    }
    crate::campaign::play(analysis).notes.iter().map(crate::campaign::note_diagnostic).collect()
}

/// The checks of an analysed file that need the runtime and are quick enough for every
/// keystroke: a scenario's geometry and scripts, a library file's scripts
/// (`stdlib/scripts.dotc`). See [`slow_checks`] for the rest of `dotc check`'s.
pub fn rules_checks(analysis: &Analysis) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let (Some(scenario), Some(names)) = (&analysis.document.scenario, analysis.names.as_ref()) {
        out.extend(check_scenario(scenario, names, &analysis.rule_data));
    }
    if analysis.document.kind == Some(FileKind::Library) {
        out.extend(crate::script::check_library(&analysis.document));
    }
    out
}

/// Units whose footprints overlap at the start of the scenario (`dotc::stacked-units`), and
/// scenario scripts that do not compile (`dotc::script-error`, see [`crate::script::check`]).
///
/// Units without a position (reinforcements) or with an unreadable facing are skipped: the
/// language checks already report those.
pub fn check_scenario(scenario: &Scenario, _names: &NameIndex, data: &RuleData) -> Vec<Diagnostic> {
    let men_per_stand = scenario.men_per_stand.as_ref().map(|m| m.value);
    let mut placed: Vec<(&Unit, Polygon<f64>)> = Vec::new();
    // The stands' size comes from the rule data's tables (`scale table`). Rule data too
    // incomplete to give them has its own diagnostics (a missing required key), and no unit is
    // placed.
    if let Ok(tables) = Tables::from_rule_data(data) {
        for side in &scenario.sides {
            let units = side.brigades.iter().flat_map(|b| b.units.iter()).chain(side.units.iter());
            // A unit whose strength is out of its range has its diagnostic already (lowering,
            // `dotc_lang::ranges`); it is not laid out, so it overlaps nothing.
            let in_range = |unit: &&Unit| {
                starting_stands(unit, men_per_stand).is_some_and(|n| ranges::STANDS.admits(n))
                    || unit.sections.as_ref().is_some_and(|n| ranges::SECTIONS.admits(n.value))
            };
            for unit in units.filter(in_range) {
                if let Some(shape) = unit_footprint(unit, data, &tables, men_per_stand) {
                    placed.push((unit, shape));
                }
            }
        }
    }
    // Scenario scripts: every script, trigger and victory `when` compiles (`dotc::script-error`).
    let mut diagnostics = crate::script::check(scenario);
    for (i, (unit, shape)) in placed.iter().enumerate() {
        for (other, other_shape) in &placed[..i] {
            let area = overlap_area(shape, other_shape);
            if area > OVERLAP_TOLERANCE {
                let at = unit.position.as_ref().map_or(unit.name.span, |p| p.span);
                let other_at = other.position.as_ref().map_or(other.name.span, |p| p.span);
                diagnostics.push(catalogue::stacked_units(
                    at,
                    &unit.name.value,
                    &other.name.value,
                    other_at,
                    area,
                ));
            }
        }
    }
    diagnostics
}

/// The footprint of a unit as declared, if it has a position, a facing and a strength (see
/// [`Body::from_unit`]).
pub fn unit_footprint(
    unit: &Unit,
    data: &RuleData,
    tables: &Tables,
    men_per_stand: Option<u32>,
) -> Option<Polygon<f64>> {
    Body::from_unit(unit, data, tables, men_per_stand).map(|body| body.footprint())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NoFiles;

    impl dotc_lang::Loader for NoFiles {
        fn load(&self, path: &Path) -> Result<String, String> {
            Err(format!("{} is not available", path.display()))
        }
    }

    /// Two 5-stand lines 6" apart, front centre to front centre, and the scale `library`
    /// lines, if any.
    fn two_lines(library: &str) -> Vec<String> {
        let source = format!(
            "scenario \"Scale\" {{\n    turns 4\n    table 48 x 36\n{library}    side union {{\n        edge west\n        \
             brigade \"B\" {{\n            brigadier \"Col. B\" reliable at (10, 2)\n            \
             regiment \"1st\" {{ stands 5 regular rifled_musket line at (10, 10) facing north }}\n            \
             regiment \"2nd\" {{ stands 5 regular rifled_musket line at (16, 10) facing north }}\n        }}\n    }}\n}}\n"
        );
        let checked = check_file(Path::new("scale.dotc"), &source, &NoFiles);
        checked.diagnostics().iter().map(|d| d.code.to_string()).collect()
    }

    /// Ch15 8.0, Ch16 3.2: a stand's frontage is the rule data's (`scale table`), so footprints
    /// follow it: 1" stands leave the two lines a gap, 2" stands lay them over each other.
    #[test]
    fn the_stand_width_of_the_rule_data_sizes_the_footprints() {
        assert!(two_lines("").is_empty(), "{:?}", two_lines(""));
        let wide = "    library {\n        scale table \"Wide Bases\" {\n            stand_width 2\n            yards_per_inch 25\n            source \"Ch15 8.0\"\n        }\n    }\n";
        assert_eq!(two_lines(wide), ["dotc::stacked-units"]);
    }

    /// Every `.dotc` file under `dir`, leaving out build output and hidden folders.
    fn dotc_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for path in entries.flatten().map(|e| e.path()) {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if path.is_dir() && !(name.starts_with('.') || name == "target" || name == "node_modules") {
                dotc_files(&path, files);
            } else if path.extension().is_some_and(|e| e == "dotc") {
                files.push(path);
            }
        }
    }

    /// `dotc check`'s way ([`check_diagnostics`]: a game log read in stretches, without the
    /// rules checks) gives what [`check_file`] gives, on every `.dotc` file of the repository,
    /// cut small so that the short logs are read in stretches too (issue 16); for a campaign,
    /// with [`slow_checks`] besides.
    #[test]
    fn check_diagnostics_are_those_of_check_file_on_every_file() {
        let mut files = Vec::new();
        dotc_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join(".."), &mut files);
        assert!(files.len() > 250, "the .dotc files moved: {} found", files.len());
        for path in &files {
            let Ok(text) = std::fs::read_to_string(path) else { continue };
            let checked = check_file(path, &text, &dotc_lang::FsLoader);
            let mut whole = checked.diagnostics();
            whole.extend(slow_checks(&checked.analysis));
            whole.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
            for stretch in [1, 2048] {
                let streamed = check_diagnostics_in(path, &text, &dotc_lang::FsLoader, stretch);
                assert_eq!(streamed, whole, "{}, stretch {stretch}", path.display());
            }
            assert_eq!(check_diagnostics(path, &text, &dotc_lang::FsLoader), whole, "{}", path.display());
        }
    }
}
