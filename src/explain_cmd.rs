//! `dotc explain ID`: what a diagnostic code, RULE id, chapter section or RULINGS id means.
//!
//! Codes come from the diagnostic catalogue; every rule reference from
//! `dotc_lang::references`, which accepts the usual spellings (`RULE-05-3.3`, `16.5.4`,
//! `ch16-5.4`, `c3`). A ruling switch's or module's name (`suppression`, `open_order`), a
//! campaign's ruling switch (`surgeon_prisoners`) or one of its post-battle steps (`surgeon`,
//! Ch14) explains the reference behind it.

use std::process::ExitCode;

use dotc_lang::campaign::{CAMPAIGN_RULINGS, STEPS, StepSpec};
use dotc_lang::library::EntryKind;
use dotc_lang::references::{self, Reference};
use dotc_lang::rulings::{self, RulingSpec};

/// Lines are wrapped to this width, like the rendered diagnostics.
const WIDTH: usize = 80;

pub fn explain(id: &str) -> Result<ExitCode, String> {
    let cli_code =
        crate::files::CODES.iter().find(|(code, _)| *code == id || code.strip_prefix("dotc::") == Some(id));
    if let Some(text) = dotc_lang::catalogue::explain(id).or(cli_code.map(|(_, text)| *text)) {
        println!(
            "{}\n\n{text}",
            if id.starts_with("dotc::") { id.to_string() } else { format!("dotc::{id}") }
        );
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(step) = STEPS.iter().find(|s| s.word == id.trim()) {
        print!("{}", step_text(step));
        return Ok(ExitCode::SUCCESS);
    }
    // A rule-data id (a weapon, terrain, trait, formation...) may also be a module's name
    // (`low_ammo`): both are said.
    let entries = entries_text(id);
    match (reference_for(id), entries) {
        (Some(reference), entries) => {
            print!("{}", render(reference));
            if let Some(entries) = entries {
                print!("\n{entries}");
            }
            Ok(ExitCode::SUCCESS)
        }
        (None, Some(entries)) => {
            print!("{entries}");
            Ok(ExitCode::SUCCESS)
        }
        (None, None) => Err(unknown(id)),
    }
}

/// Every diagnostic code dotc gives, with its explanation: the language's, the rule data's and
/// the command line's own.
fn all_codes() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    dotc_lang::catalogue::CODES
        .iter()
        .chain(dotc_lang::catalogue::library::CODES.iter())
        .chain(crate::files::CODES.iter())
}

/// Every id `dotc explain` knows, each with a few words of what it is, for shell completion
/// (`src/completion.rs`): diagnostic codes, RULE ids, chapter sections (as `16.5.4`, one word),
/// RULINGS and dotc register ids (`C3`, `D51`), ruling switches, modules, a campaign's steps and
/// the standard library's rule-data ids. In that order, each id once.
pub fn known_ids() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    out.extend(all_codes().map(|(code, _)| (code.to_string(), "diagnostic".to_string())));
    for reference in references::REFERENCES {
        let id = reference.id;
        let word = if let Some(rest) = id.strip_prefix("RULINGS ").or(id.strip_prefix("dotc ")) {
            rest.to_string()
        } else if let Some(section) = id.strip_prefix("Ch") {
            section.replacen(' ', ".", 1)
        } else {
            id.to_string()
        };
        out.push((word, reference.title.to_string()));
    }
    out.extend(
        rulings::RULINGS
            .iter()
            .chain(CAMPAIGN_RULINGS)
            .map(|r| (r.name.to_string(), format!("ruling {}", r.id))),
    );
    out.extend(
        rulings::Module::ALL.iter().map(|m| (m.name().to_string(), format!("module, {}", m.section()))),
    );
    out.extend(STEPS.iter().map(|s| (s.word.to_string(), "campaign step".to_string())));
    let data = dotc_lang::stdlib();
    for kind in EntryKind::ALL {
        out.extend(
            data.metas(kind).into_iter().map(|m| (m.id.clone(), format!("{}: {}", kind.word(), m.title()))),
        );
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|(id, _)| !id.contains(char::is_whitespace) && seen.insert(id.clone()));
    out
}

/// The rule data's entries with this id, of every kind (the standard library's, as the editor's
/// hover gives them): title, kind, and the entry's summary (its numbers, note and source).
fn entries_text(id: &str) -> Option<String> {
    let data = dotc_lang::stdlib();
    let parts: Vec<String> = EntryKind::ALL
        .iter()
        .filter_map(|&kind| data.meta(kind, id.trim()))
        .map(|m| format!("{} ({} `{}`)\n\n{}\n", m.title(), m.kind.word(), m.id, wrap(&m.summary)))
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n"))
}

/// `dotc list WHAT`: the ids a file may write, one a line with its title: the rule data's entries
/// of a kind (`weapons`, `terrain`, `traits`, `formations`, any kind of the standard library), the
/// optional modules, or the ruling switches with their values.
pub fn list(what: &str) -> Result<ExitCode, String> {
    let word = what.trim();
    let rows: Vec<(String, String)> = match word {
        "modules" | "module" => {
            rulings::Module::ALL.iter().map(|m| (m.name().to_string(), m.section().to_string())).collect()
        }
        "rulings" | "ruling" => rulings::RULINGS
            .iter()
            .chain(CAMPAIGN_RULINGS)
            .map(|r| {
                let campaign =
                    if CAMPAIGN_RULINGS.iter().any(|c| c.name == r.name) { ", a campaign's" } else { "" };
                (r.name.to_string(), format!("{}{campaign}: {}", r.citation(), r.values.join(" | ")))
            })
            .collect(),
        _ => {
            let kind = entry_kind(word).ok_or_else(|| {
                let kinds: Vec<String> = EntryKind::ALL.iter().map(|k| plural(k.word())).collect();
                format!("`dotc list` knows no `{word}`; it lists {}, modules and rulings", kinds.join(", "))
            })?;
            let data = dotc_lang::stdlib();
            data.metas(kind)
                .into_iter()
                .map(|m| {
                    let source = m.source.as_deref().map(|s| format!(" ({s})")).unwrap_or_default();
                    (m.id.clone(), format!("{}{source}", m.title()))
                })
                .collect()
        }
    };
    let width = rows.iter().map(|(id, _)| id.chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    for (id, text) in rows {
        out.push_str(&format!("{id:width$}  {text}\n"));
    }
    print!("{out}");
    Ok(ExitCode::SUCCESS)
}

/// The entry kind a word names, singular or plural (`weapons`, `weapon`, `terrain`).
fn entry_kind(word: &str) -> Option<EntryKind> {
    EntryKind::ALL.iter().copied().find(|k| k.word() == word || plural(k.word()) == word)
}

/// The plural `dotc list` takes: `weapons`, `brigade_states`; `terrain`, `health` stay as they are.
fn plural(word: &str) -> String {
    match word {
        "terrain" | "staff" | "health" | "weather" => word.to_string(),
        w if w.ends_with('y') => format!("{}ies", &w[..w.len() - 1]),
        w => format!("{w}s"),
    }
}

/// The reference an id names: directly, or through a ruling switch or module name.
fn reference_for(id: &str) -> Option<&'static Reference> {
    if let Some(reference) = references::lookup(id) {
        return Some(reference);
    }
    let name = id.trim();
    if let Some(ruling) = rulings::ruling(name).or(CAMPAIGN_RULINGS.iter().find(|r| r.name == name)) {
        return references::lookup(ruling.id);
    }
    rulings::module(name).and_then(|section| references::lookup(first_reference(section)))
}

/// The explanation: a heading with the id and title, the summary, what switches it (for a
/// ruling or module) and the related references.
fn render(reference: &Reference) -> String {
    let mut out = format!("{}: {}\n\n{}\n", reference.id, reference.title, wrap(reference.summary));
    for switch in switches_of(reference) {
        out.push_str(&format!("\n{}\n", wrap(&switch_text(switch))));
    }
    let modules: Vec<&str> = rulings::Module::ALL
        .iter()
        .filter(|m| references::canonical_id(first_reference(m.section())).as_deref() == Some(reference.id))
        .map(|m| m.name())
        .collect();
    for name in modules {
        out.push_str(&format!(
            "\n{}\n",
            wrap(&format!("Optional: a scenario switches it on with `module {name}`."))
        ));
    }
    if !reference.related.is_empty() {
        out.push_str(&format!("\n{}\n", wrap(&format!("See also: {}.", reference.related.join(", ")))));
    }
    out
}

/// The switches of a ruling (dotc D35 has two).
fn switches_of(reference: &Reference) -> impl Iterator<Item = &'static RulingSpec> {
    rulings::RULINGS.iter().chain(CAMPAIGN_RULINGS).filter(|r| reference.id == r.citation())
}

fn switch_text(r: &RulingSpec) -> String {
    let others: Vec<&str> = r.values.iter().skip(1).copied().collect();
    if CAMPAIGN_RULINGS.iter().any(|c| c.name == r.name) {
        return format!(
            "Switch: a campaign's `rules` block sets it; ruling {} = {} is the default; other values: {}.",
            r.name,
            r.default_value(),
            others.join(", ")
        );
    }
    format!(
        "Switch: ruling {} = {} is the default; other values: {}. The as_printed preset uses {}.",
        r.name,
        r.default_value(),
        others.join(", "),
        r.as_printed
    )
}

/// A campaign's post-battle step (Ch14 1.0): how it is written, what it does, and the section
/// it plays.
fn step_text(step: &StepSpec) -> String {
    let mut out = format!(
        "{}: a step of a campaign's post-battle sequence ({})\n\n{}\n\n{}\n",
        step.word,
        step.rule,
        wrap(&format!("Written: {}", step.form)),
        wrap(step.summary)
    );
    if let Some(reference) = references::lookup(step.rule) {
        out.push('\n');
        out.push_str(&render(reference));
    }
    out
}

/// The first reference of a module's section text: `Ch13 10.0` of `Ch13 10.0 (RULINGS C28)`.
fn first_reference(section: &str) -> &str {
    section.split([',', '(']).next().unwrap_or(section).trim()
}

/// The error for an unknown id, with the nearest known one.
fn unknown(id: &str) -> String {
    let word = id.trim();
    let suggestion = if word.chars().any(|c| c.is_ascii_digit()) {
        references::nearest(word).map(str::to_string)
    } else {
        // A word: a diagnostic code (compared without its `dotc::`), a ruling or a module name.
        let suffixes: Vec<&str> = all_codes().filter_map(|(code, _)| code.strip_prefix("dotc::")).collect();
        let names = rulings::RULINGS
            .iter()
            .chain(CAMPAIGN_RULINGS)
            .map(|r| r.name)
            .chain(rulings::Module::ALL.iter().map(|m| m.name()))
            .chain(STEPS.iter().map(|s| s.word));
        let bare = word.strip_prefix("dotc::").unwrap_or(word);
        match dotc_lang::names::suggest(bare, suffixes.iter().copied().chain(names)) {
            Some(near) if suffixes.contains(&near) => Some(format!("dotc::{near}")),
            Some(near) => Some(near.to_string()),
            None => references::nearest(word).map(str::to_string),
        }
    };
    let hint = "`dotc explain` knows diagnostic codes (dotc::unknown-weapon), RULE ids (RULE-05-3.3), \
                chapter sections (\"Ch16 5.4\", 16.5.4), RULINGS ids (C3, G9, E1), ruling switches \
                and modules (suppression, open_order), a campaign's steps (surgeon) and the rule \
                data's ids (rifled_musket, stone_wall, rebel_yell; `dotc list` gives them)";
    match suggestion {
        Some(near) => format!("no explanation for `{word}`; did you mean `{near}`? {hint}"),
        None => format!("no explanation for `{word}`; {hint}"),
    }
}

/// Wrap text to [`WIDTH`] columns at spaces; words longer than a line stay whole.
fn wrap(text: &str) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in text.split_whitespace() {
        let len = word.chars().count();
        if line_len > 0 && line_len + 1 + len > WIDTH {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_lines_within_the_width() {
        let text = "word ".repeat(60);
        let wrapped = wrap(&text);
        assert!(wrapped.lines().all(|l| l.chars().count() <= WIDTH));
        assert_eq!(wrapped.split_whitespace().count(), 60);
    }

    #[test]
    fn module_and_switch_names_find_their_reference() {
        assert_eq!(reference_for("suppression").map(|r| r.id), Some("RULINGS C3"));
        assert_eq!(reference_for("open_order").map(|r| r.id), Some("Ch13 22.0"));
        assert_eq!(reference_for("low_ammo").map(|r| r.id), Some("RULE-05-2.5b"));
        assert_eq!(reference_for("premature_fire").map(|r| r.id), Some("Ch13 10.0"));
        // A campaign's switches (Ch14; dotc D32, D40).
        assert_eq!(reference_for("surgeon_prisoners").map(|r| r.id), Some("dotc D32"));
        assert_eq!(reference_for("replacements").map(|r| r.id), Some("dotc D40"));
    }
}
