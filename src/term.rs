//! What dotc may do to the terminal (issue 21, "Conventions"): the one decision whether output
//! is coloured (`--color auto|always|never` and the `NO_COLOR` variable) and whether
//! informational notes are printed (`--quiet`). Everything that colours text or prints a note
//! asks here, so a command never decides alone.

use std::ffi::OsStr;
use std::io::IsTerminal;
use std::sync::OnceLock;

/// When to colour: `--color WHEN`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour when the output is a terminal and `NO_COLOR` is not set to a non-empty value.
    #[default]
    Auto,
    /// Always colour, even into a pipe and whatever `NO_COLOR` says.
    Always,
    /// Never colour.
    Never,
}

/// Whether to colour a stream: `always` and `never` decide alone; `auto` colours a terminal
/// unless `NO_COLOR` holds a non-empty value (no-color.org: its value does not matter, an empty
/// one counts as unset).
pub fn colour(choice: ColorChoice, no_color: Option<&OsStr>, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && no_color.is_none_or(OsStr::is_empty),
    }
}

/// The settings of this run, made once from the global options.
#[derive(Clone, Copy, Debug, Default)]
struct Settings {
    choice: ColorChoice,
    quiet: bool,
}

static SETTINGS: OnceLock<Settings> = OnceLock::new();

/// Record the global options; the first call wins (the process runs one command).
pub fn init(choice: ColorChoice, quiet: bool) {
    let _ = SETTINGS.set(Settings { choice, quiet });
}

fn settings() -> Settings {
    SETTINGS.get().copied().unwrap_or_default()
}

/// Whether what dotc writes on standard error (the diagnostics) may be coloured.
pub fn colour_stderr() -> bool {
    let no_color = std::env::var_os("NO_COLOR");
    colour(settings().choice, no_color.as_deref(), std::io::stderr().is_terminal())
}

/// Whether what dotc writes on standard output (`dotc replay`'s story) may be coloured.
pub fn colour_stdout() -> bool {
    let no_color = std::env::var_os("NO_COLOR");
    colour(settings().choice, no_color.as_deref(), std::io::stdout().is_terminal())
}

/// The narrative's lines as a terminal shows them (issue 21): turn headings bold, phase
/// headings dim, findings red and warnings yellow. Each line keeps its text; only ANSI styles
/// are added around it.
pub fn paint_narrative(text: &str) -> String {
    const BOLD: &str = "\x1b[1m";
    const DIM: &str = "\x1b[2m";
    const RED: &str = "\x1b[31m";
    const YELLOW: &str = "\x1b[33m";
    const RESET: &str = "\x1b[0m";
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.lines() {
        let body = line.trim_start();
        let style = if line.starts_with("Turn ") || line == "Before the game" {
            Some(BOLD)
        } else if line.starts_with("  ") && !line.starts_with("   ") {
            Some(DIM)
        } else if body.starts_with("! finding") {
            Some(RED)
        } else if body.starts_with("! warning") {
            Some(YELLOW)
        } else {
            None
        };
        match style {
            Some(style) => {
                let indent = &line[..line.len() - body.len()];
                out.push_str(&format!("{indent}{style}{body}{RESET}\n"));
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// Whether `--quiet` was given: no progress bars and no informational notes on standard error;
/// results, warnings, errors and exit statuses are the same.
pub fn quiet() -> bool {
    settings().quiet
}

/// Print an informational note on standard error (what was written, where a replay stopped),
/// unless `--quiet` was given.
macro_rules! note {
    ($($arg:tt)*) => {
        if !$crate::term::quiet() {
            eprintln!($($arg)*);
        }
    };
}
pub(crate) use note;

/// A bar on standard error counting `len` pieces of long work (`{pos}/{len} WHAT, ...`), shown
/// only for more than one piece, on a terminal, and without `--quiet`; otherwise hidden.
pub fn progress_bar(len: usize, what: &str) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    if len < 2 || !std::io::stderr().is_terminal() || quiet() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    let template = format!("{{bar:30}} {{pos}}/{{len}} {what}, {{per_sec}} {{eta}} left");
    bar.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_narrative_is_painted_line_by_line_keeping_its_text() {
        let text = "Turn 1 (union)\n  Phase 3, fire\n    A fires.\n    ! finding at line 5: no\n";
        let painted = paint_narrative(text);
        assert!(painted.starts_with("\x1b[1mTurn 1 (union)\x1b[0m\n"), "{painted:?}");
        assert!(painted.contains("  \x1b[2mPhase 3, fire\x1b[0m\n"), "{painted:?}");
        assert!(painted.contains("\n    A fires.\n"), "{painted:?}");
        assert!(painted.contains("    \x1b[31m! finding at line 5: no\x1b[0m\n"), "{painted:?}");
        // Without the styles it is the text itself.
        let plain: String = painted
            .replace("\x1b[1m", "")
            .replace("\x1b[2m", "")
            .replace("\x1b[31m", "")
            .replace("\x1b[0m", "");
        assert_eq!(plain, text);
    }

    #[test]
    fn auto_colours_a_terminal_only_without_a_non_empty_no_color() {
        let set = OsStr::new("1");
        let empty = OsStr::new("");
        assert!(colour(ColorChoice::Auto, None, true));
        assert!(colour(ColorChoice::Auto, Some(empty), true), "an empty NO_COLOR counts as unset");
        assert!(!colour(ColorChoice::Auto, Some(set), true));
        assert!(!colour(ColorChoice::Auto, None, false));
        assert!(!colour(ColorChoice::Auto, Some(set), false));
    }

    #[test]
    fn always_and_never_decide_alone() {
        let set = OsStr::new("yes");
        for terminal in [true, false] {
            for no_color in [None, Some(set)] {
                assert!(colour(ColorChoice::Always, no_color, terminal));
                assert!(!colour(ColorChoice::Never, no_color, terminal));
            }
        }
    }
}
