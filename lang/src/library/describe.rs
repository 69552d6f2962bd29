//! The one-line summaries of entries, for hovers and `dotc export`.

use super::*;

pub(super) fn fmt_num(n: f64) -> String {
    if n.fract() == 0.0 { format!("{}", n as i64) } else { format!("{n}") }
}

pub(super) fn fmt_signed(n: f64) -> String {
    if n >= 0.0 { format!("+{}", fmt_num(n)) } else { fmt_num(n) }
}

pub(super) fn fmt_mod(n: i32) -> String {
    if n >= 0 { format!("+{n}") } else { n.to_string() }
}

pub(super) fn summary_of<T: RuleEntry>(entry: &T) -> String {
    let meta = entry.meta();
    let mut text = format!("{}: {}.", meta.title(), entry.describe());
    if let Some(note) = &meta.note {
        text.push(' ');
        text.push_str(note);
    }
    if let Some(source) = &meta.source {
        text.push_str(&format!(" ({source})"));
    }
    text
}

/// The numbers of an entry in one line.
pub(super) trait Describe {
    fn parts(&self) -> Vec<String>;
}

pub(super) fn describe<T: Describe>(entry: &T) -> String {
    entry.parts().join("; ")
}

/// `-1 pip`, `+2 pips`.
pub(super) fn plural_signed(n: i32, word: &str) -> String {
    if n.abs() == 1 { format!("{} {word}", fmt_mod(n)) } else { format!("{} {word}s", fmt_mod(n)) }
}

pub(super) fn plural(n: u32, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}
