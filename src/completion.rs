//! Dynamic shell completion (issue 21): `dotc explain` completes every id it knows, and
//! `--unit` (`dotc render`) and `--brigade` (`dotc analyze`) complete the names of the file on
//! the same command line.
//!
//! clap_complete's completion engine runs inside dotc: the shell's registration script (`dotc
//! completions SHELL`, or `COMPLETE=SHELL dotc`) calls `COMPLETE=SHELL dotc -- WORDS` at every
//! Tab, and [`clap_complete::CompleteEnv`] answers from the same clap definitions the command
//! line parses with, so the options and subcommands complete as before, and these arguments
//! from the files and the rule data. A completer reads nothing but the file named on the line,
//! and never fails: a file that cannot be read or parsed completes nothing.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use clap_complete::engine::{ArgValueCompleter, CompletionCandidate};

/// The environment variable that asks dotc for completions.
pub const VAR: &str = "COMPLETE";

/// Answer a completion request, when the shell made one (the `COMPLETE` variable is set), and
/// exit; otherwise return at once.
pub fn answer_if_asked() {
    use clap::CommandFactory as _;
    clap_complete::CompleteEnv::with_factory(crate::Cli::command).var(VAR).complete();
}

/// Write the registration script for `shell`: sourced, it makes the shell ask dotc at each Tab.
pub fn write_registration(shell: clap_complete::Shell, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    use clap_complete::env::EnvCompleter as _;
    let (name, bin, completer) = ("dotc", "dotc", "dotc");
    match shell {
        clap_complete::Shell::Bash => {
            clap_complete::env::Bash.write_registration(VAR, name, bin, completer, out)
        }
        clap_complete::Shell::Elvish => {
            clap_complete::env::Elvish.write_registration(VAR, name, bin, completer, out)
        }
        clap_complete::Shell::Fish => {
            clap_complete::env::Fish.write_registration(VAR, name, bin, completer, out)
        }
        clap_complete::Shell::PowerShell => {
            clap_complete::env::Powershell.write_registration(VAR, name, bin, completer, out)
        }
        clap_complete::Shell::Zsh => {
            clap_complete::env::Zsh.write_registration(VAR, name, bin, completer, out)
        }
        _ => Err(std::io::Error::other(format!("no completion for the shell {shell}"))),
    }
}

/// The completer of `dotc explain ID`.
pub fn explain_ids() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &OsStr| {
        let Some(current) = current.to_str() else { return Vec::new() };
        crate::explain_cmd::known_ids()
            .into_iter()
            .filter(|(id, _)| id.starts_with(current))
            .map(|(id, help)| CompletionCandidate::new(id).help(Some(help.into())))
            .collect()
    })
}

/// The completer of a unit's name (`--unit`): every regiment, battery and unit outside a
/// brigade of the file on the command line (a game log's scenario's).
pub fn unit_names() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &OsStr| names(current, Names::Units))
}

/// The completer of a brigade's name (`--brigade`): every brigade, and every unit outside a
/// brigade, of the file on the command line.
pub fn brigade_names() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &OsStr| names(current, Names::Brigades))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Names {
    Units,
    Brigades,
}

fn names(current: &OsStr, which: Names) -> Vec<CompletionCandidate> {
    let Some(current) = current.to_str() else { return Vec::new() };
    let Some(file) = file_on_the_line(std::env::args_os().map(PathBuf::from)) else { return Vec::new() };
    matching(file_names(&file, which), current)
        .into_iter()
        .map(|(name, help)| CompletionCandidate::new(name).help(Some(help.into())))
        .collect()
}

/// The names that start as `current` does. Names hold spaces, so the word may start with the
/// quote the user opened (bash hands it over as typed); the candidates then keep that quote, and
/// the user closes it.
fn matching(names: Vec<(String, String)>, current: &str) -> Vec<(String, String)> {
    let quote = current.chars().next().filter(|c| *c == '"' || *c == '\'');
    let typed = quote.map_or(current, |q| &current[q.len_utf8()..]);
    names
        .into_iter()
        .filter(|(name, _)| name.starts_with(typed))
        .map(|(name, help)| (quote.map_or(name.clone(), |q| format!("{q}{name}")), help))
        .collect()
}

/// The first `.dotc` file among the words of the command line being completed.
fn file_on_the_line(words: impl Iterator<Item = PathBuf>) -> Option<PathBuf> {
    words.into_iter().find(|w| w.extension().is_some_and(|e| e == "dotc") && w.is_file())
}

/// The names a file declares, with what each is (`brigade, union`), in the file's order.
fn file_names(path: &Path, which: Names) -> Vec<(String, String)> {
    let Ok(source) = std::fs::read_to_string(path) else { return Vec::new() };
    let analysis = dotc_lang::analyze(path, &source, &dotc_lang::FsLoader);
    let scenario = match (&analysis.document.scenario, &analysis.scenario) {
        (Some(s), _) => s,
        (None, Some(loaded)) => match &loaded.document.scenario {
            Some(s) => s,
            None => return Vec::new(),
        },
        (None, None) => return Vec::new(),
    };
    let mut out = Vec::new();
    for side in &scenario.sides {
        let side_id = &side.id.value;
        for brigade in &side.brigades {
            match which {
                Names::Brigades => out.push((brigade.name.value.clone(), format!("brigade, {side_id}"))),
                Names::Units => out.extend(
                    brigade
                        .units
                        .iter()
                        .map(|u| (u.name.value.clone(), format!("{}, {side_id}", brigade.name.value))),
                ),
            }
        }
        out.extend(side.units.iter().map(|u| (u.name.value.clone(), side_id.to_string())));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use clap::CommandFactory as _;

    use super::*;

    /// The candidates clap_complete's engine gives for the last word of `line`, as the shell
    /// would ask at Tab (the completers read the file from the process's own arguments, so the
    /// tests name files through [`file_names`] and [`file_on_the_line`] directly).
    fn complete(line: &[&str]) -> Vec<String> {
        let mut cmd = crate::Cli::command();
        let args: Vec<OsString> = line.iter().map(OsString::from).collect();
        let index = args.len() - 1;
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        clap_complete::engine::complete(&mut cmd, args, index, Some(root))
            .unwrap_or_default()
            .into_iter()
            .map(|c| c.get_value().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn explain_completes_rule_data_ids_rulings_modules_and_codes() {
        let rifled = complete(&["dotc", "explain", "rifled_"]);
        assert!(rifled.contains(&"rifled_musket".to_string()), "{rifled:?}");
        assert!(rifled.iter().all(|c| c.starts_with("rifled_")), "{rifled:?}");
        let d5 = complete(&["dotc", "explain", "D5"]);
        for id in ["D50", "D51"] {
            assert!(d5.contains(&id.to_string()), "{d5:?}");
        }
        assert!(complete(&["dotc", "explain", "melee_ti"]).contains(&"melee_timing".to_string()));
        assert!(complete(&["dotc", "explain", "july"]).contains(&"july_sun".to_string()));
        assert!(
            complete(&["dotc", "explain", "dotc::unknown-w"]).contains(&"dotc::unknown-weapon".to_string())
        );
        assert!(complete(&["dotc", "explain", "zzz-nothing"]).is_empty());
    }

    #[test]
    fn the_options_still_complete_from_the_clap_definitions() {
        let render = complete(&["dotc", "render", "--u"]);
        assert!(render.contains(&"--unit".to_string()), "{render:?}");
        let subcommands = complete(&["dotc", "ana"]);
        assert_eq!(subcommands, vec!["analyze".to_string()]);
    }

    #[test]
    fn unit_and_brigade_names_come_from_the_file_on_the_line() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let game = root.join("scenarios/tutorial/fence-line-game.dotc");
        let words = ["dotc", "render", "nothing.txt", game.to_str().expect("a path"), "--unit"];
        assert_eq!(file_on_the_line(words.iter().map(PathBuf::from)), Some(game.clone()));
        // A game log: its scenario's units, each with its brigade and side.
        let units = file_names(&game, Names::Units);
        assert!(units.iter().any(|(n, help)| n == "19th Maine" && help.ends_with(", union")), "{units:?}");
        // Brigades, and the units outside one (`analyze --brigade` takes either).
        let brigades = file_names(&game, Names::Brigades);
        let pair = |n: &str, h: &str| (n.to_string(), h.to_string());
        assert!(brigades.contains(&pair("Hollister’s Brigade", "brigade, union")), "{brigades:?}");
        assert!(brigades.contains(&pair("7th Virginia Cavalry", "confederate")), "{brigades:?}");
        assert!(!brigades.iter().any(|(n, _)| n == "19th Maine"), "{brigades:?}");
        // A word opened with a quote keeps it.
        let quoted = matching(units.clone(), "\"19th");
        assert_eq!(quoted.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), vec!["\"19th Maine"]);
        assert_eq!(matching(units, "19th").len(), 1);
        // Nothing readable: nothing, and no panic.
        assert!(file_names(&root.join("no-such-file.dotc"), Names::Units).is_empty());
        assert!(file_names(&root.join("Cargo.toml"), Names::Units).is_empty());
    }

    #[test]
    fn every_shell_gets_a_registration_that_calls_dotc_back() {
        for shell in [
            clap_complete::Shell::Bash,
            clap_complete::Shell::Zsh,
            clap_complete::Shell::Fish,
            clap_complete::Shell::Elvish,
            clap_complete::Shell::PowerShell,
        ] {
            let mut out = Vec::new();
            write_registration(shell, &mut out).expect("written");
            let script = String::from_utf8(out).expect("UTF-8");
            assert!(script.contains(VAR) && script.contains("dotc"), "{shell}: {script}");
        }
    }
}
