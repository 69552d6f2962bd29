//! The audit layer: a replay's findings as `dotc_lang` diagnostics, and what the umpire allowed.
//!
//! `dotc replay`, `dotc audit`, the language server and the tests all go through here, so a
//! finding reads the same everywhere. Each [`Level`] of finding has its code in the catalogue
//! (`dotc::replay-disagrees`, `-doubtful`, `-not-replayed`, `-follows-log`). A log line may carry
//! `@allow(CODE, "reason")`: a finding of that code within the line (or, on an assault step,
//! within the step) is then not a problem but a [`Suppressed`] finding with the umpire's reason;
//! a suppression that matches nothing is itself a warning ([`catalogue::unmatched_suppression`]).
//!
//! Protocol-free: positions are byte spans; lines and columns are for the caller to make.

use dotc_lang::ast::{Action, Allow, Document, Span};
use dotc_lang::catalogue;
use dotc_lang::diagnostic::{Diagnostic, Severity};
use dotc_lang::incremental::Shift as _;
use serde::Serialize;

use crate::replay::{Finding, Level};

/// What [`audit`] keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AuditOptions {
    /// Keep the notes too (what the replay does not play, where it followed the log's result);
    /// otherwise only errors and warnings.
    pub notes: bool,
}

/// A log's audit: the findings left standing, as diagnostics sorted by position (the
/// suppressions that matched nothing among them), and what the umpire allowed.
#[derive(Clone, Debug, Default)]
pub struct Audit {
    pub diagnostics: Vec<Diagnostic>,
    pub suppressed: Vec<Suppressed>,
}

impl Audit {
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == Severity::Error).count()
    }

    pub fn warnings(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == Severity::Warning).count()
    }

    /// No error and no warning: the log audits clean.
    pub fn is_clean(&self) -> bool {
        self.errors() + self.warnings() == 0
    }
}

/// A finding the umpire allowed on the spot with `@allow(CODE, "reason")`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Suppressed {
    /// Where the finding is.
    pub span: Span,
    pub code: &'static str,
    pub reason: String,
    pub message: String,
}

/// The code of a finding of each level, from the catalogue.
pub fn finding_code(level: Level) -> &'static str {
    match level {
        Level::Error => catalogue::REPLAY_DISAGREES,
        Level::Warning => catalogue::REPLAY_DOUBTFUL,
        Level::Note => catalogue::REPLAY_NOT_REPLAYED,
        Level::Followed => catalogue::REPLAY_FOLLOWS_LOG,
    }
}

/// The level of a diagnostic of the audit, back from its code and severity (an unmatched
/// suppression is a warning).
pub fn level_of(d: &Diagnostic) -> Level {
    match (d.severity, d.code) {
        (Severity::Error, _) => Level::Error,
        (Severity::Warning, _) => Level::Warning,
        (_, catalogue::REPLAY_FOLLOWS_LOG) => Level::Followed,
        _ => Level::Note,
    }
}

/// A finding as a diagnostic: its code, severity and label by its level, its rule cited.
pub fn finding_diagnostic(f: &Finding) -> Diagnostic {
    let (severity, label) = match f.level {
        Level::Error => (Severity::Error, "the rules disagree"),
        Level::Warning => (Severity::Warning, "doubtful"),
        Level::Note => (Severity::Advice, "not replayed"),
        Level::Followed => (Severity::Advice, "followed"),
    };
    let mut d = Diagnostic::error(finding_code(f.level), f.message.clone(), f.span, label);
    d.severity = severity;
    if !f.rule.is_empty() {
        d = d.with_rule(f.rule.clone());
    }
    d
}

/// Every action and assault step of a log that carries suppressions, with the span each covers:
/// a step's own cover the step, the action's the whole action (an assault with its steps).
/// Suppressions are few: each is copied out, with its spans where the text has them (a turn
/// an edit moved may not have moved its phases yet, `Turn::stored_phases`).
pub fn suppressions(document: &Document) -> Vec<(Span, Allow)> {
    let mut out = Vec::new();
    for turn in &document.turns {
        let (phases, lag) = turn.stored_phases();
        for action in phases.iter().flat_map(|p| &p.actions) {
            allows_of(action, lag, &mut out);
        }
    }
    out
}

fn allows_of(action: &Action, lag: isize, out: &mut Vec<(Span, Allow)>) {
    let moved = |span: Span, allow: &Allow| {
        let mut allow = allow.clone();
        allow.shift(lag);
        (span.shifted(lag), allow)
    };
    for step in &action.steps {
        out.extend(step.allows.iter().map(|a| moved(step.span, a)));
    }
    out.extend(action.allows.iter().map(|a| moved(action.span, a)));
}

/// Whether a suppression's code names this code (with or without its `dotc::`).
fn same_code(allowed: &str, code: &str) -> bool {
    allowed.trim_start_matches("dotc::") == code.trim_start_matches("dotc::")
}

/// Audit a log's findings against its suppressions: each finding is suppressed by the first
/// `@allow` of its code whose action or step holds it, or kept as a diagnostic (notes only with
/// [`AuditOptions::notes`]); each suppression that matched nothing is a warning.
pub fn audit(document: &Document, findings: &[Finding], options: AuditOptions) -> Audit {
    audit_with(suppressions(document), findings, options)
}

/// [`audit`] against the log's suppressions as [`suppressions`] gathered them (a caller that
/// knows the log has none passes none).
pub fn audit_with(allows: Vec<(Span, Allow)>, findings: &[Finding], options: AuditOptions) -> Audit {
    let mut used = vec![false; allows.len()];
    let mut out = Audit::default();
    for finding in findings {
        let code = finding_code(finding.level);
        let by = allows.iter().position(|(span, allow)| {
            span.start <= finding.span.start
                && finding.span.end <= span.end
                && same_code(&allow.code.value, code)
        });
        match by {
            Some(i) => {
                used[i] = true;
                out.suppressed.push(Suppressed {
                    span: finding.span,
                    code,
                    reason: allows[i].1.reason.value.clone(),
                    message: finding.message.clone(),
                });
            }
            None if options.notes || matches!(finding.level, Level::Error | Level::Warning) => {
                out.diagnostics.push(finding_diagnostic(finding));
            }
            None => {}
        }
    }
    for (i, (_, allow)) in allows.iter().enumerate() {
        if !used[i] {
            out.diagnostics.push(catalogue::unmatched_suppression(allow.span, &allow.code.value));
        }
    }
    out.diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(level: Level, start: usize, end: usize) -> Finding {
        Finding {
            span: Span::new(start, end),
            level,
            message: format!("{level:?}"),
            rule: "Ch16 5.2".to_string(),
            in_scenario: None,
        }
    }

    #[test]
    fn every_finding_code_is_in_the_catalogue() {
        for level in [Level::Error, Level::Warning, Level::Note, Level::Followed] {
            let code = finding_code(level);
            assert!(catalogue::explain(code).is_some(), "{code} is not in the catalogue");
            assert_eq!(level_of(&finding_diagnostic(&finding(level, 0, 1))), level);
        }
    }

    #[test]
    fn an_allow_suppresses_its_code_on_its_action_and_one_matching_nothing_is_a_warning() {
        let log = "game \"g\" {\n    scenario \"s.dotc\"\n}\n\nturn 1 union {\n    command {\n        \
                   @allow(dotc::replay-disagrees, \"umpire's call\")\n        pips \"A\" roll [5] => 3\n        \
                   @allow(dotc::replay-doubtful, \"nothing here\")\n        pips \"B\" roll [2] => 1\n    }\n}\n";
        let document = dotc_lang::parse(log).document;
        let actions: Vec<Span> = document.turns[0].phases()[0].actions.iter().map(|a| a.span).collect();
        assert_eq!(actions.len(), 2, "{document:#?}");
        let on = |level, span: Span| finding(level, span.start, span.end);
        let findings = [on(Level::Error, actions[0]), on(Level::Error, actions[1])];
        let audit = audit(&document, &findings, AuditOptions::default());
        assert_eq!(audit.suppressed.len(), 1);
        assert_eq!(audit.suppressed[0].reason, "umpire's call");
        assert_eq!(audit.suppressed[0].code, catalogue::REPLAY_DISAGREES);
        assert_eq!((audit.errors(), audit.warnings()), (1, 1), "{:#?}", audit.diagnostics);
        assert!(audit.diagnostics.iter().any(|d| d.message.contains("matches nothing on its line")));
    }

    #[test]
    fn notes_are_kept_only_when_asked_for() {
        let findings = [finding(Level::Note, 0, 1), finding(Level::Error, 2, 3)];
        let document = Document::default();
        let plain = audit(&document, &findings, AuditOptions::default());
        assert_eq!(plain.diagnostics.len(), 1);
        assert_eq!((plain.errors(), plain.warnings()), (1, 0));
        let all = audit(&document, &findings, AuditOptions { notes: true });
        assert_eq!(all.diagnostics.len(), 2);
        assert_eq!(all.diagnostics[0].rule.as_deref(), Some("Ch16 5.2"));
    }
}
