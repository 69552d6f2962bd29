//! One diagnostic type for every layer, rendered by miette.
//!
//! Wording lives in [`crate::catalogue`]; this module is only the shape and the rendering.
//! Offsets are bytes; line and UTF-16 columns are computed only at the edges (CLI JSON, LSP).

use std::fmt;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode};
use serde::Serialize;

use crate::ast::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
    Advice,
}

/// A labelled span inside the file the diagnostic belongs to.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Label {
    pub span: Span,
    pub text: String,
}

/// A suggested edit: replace `span` with `replacement` (the "did you mean" quick fix).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fix {
    pub span: Span,
    pub replacement: String,
}

/// A problem found in a file, with its code, labels and help.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    /// A stable code such as `dotc::unknown-weapon`; `dotc explain CODE` describes it.
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub primary: Label,
    pub secondary: Vec<Label>,
    pub help: Option<String>,
    /// The rule or ruling the check enforces (`RULE-05-3.3`, `Ch16 5.2`, `RULINGS C3`).
    pub rule: Option<String>,
    pub fix: Option<Fix>,
    /// For "unknown ..." diagnostics, the name that was not found.
    #[serde(skip)]
    pub subject: Option<String>,
}

impl Diagnostic {
    pub fn error(
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            primary: Label { span, text: label.into() },
            secondary: Vec::new(),
            help: None,
            rule: None,
            fix: None,
            subject: None,
        }
    }

    pub fn warning(
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(code, message, span, label) }
    }

    pub fn with_label(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label { span, text: text.into() });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Set the help line unless one is already there (a "did you mean" is more useful).
    pub fn with_note_if_no_help(mut self, help: impl Into<String>) -> Diagnostic {
        if self.help.is_none() || self.fix.is_none() {
            self.help = Some(help.into());
        }
        self
    }

    pub fn with_rule(mut self, rule: impl Into<String>) -> Diagnostic {
        self.rule = Some(rule.into());
        self
    }

    pub fn with_fix(mut self, span: Span, replacement: impl Into<String>) -> Diagnostic {
        self.fix = Some(Fix { span, replacement: replacement.into() });
        self
    }

    /// The name a "not found" or "missing" diagnostic is about (see [`Diagnostic::subject`]).
    pub fn with_subject(mut self, subject: impl Into<String>) -> Diagnostic {
        self.subject = Some(subject.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Attach the file so miette can render it.
    pub fn with_source(&self, name: &str, source: &str) -> Report {
        Report {
            diagnostic: self.clone(),
            source: NamedSource::new(name, source.to_string()).with_language("dotc"),
        }
    }
}

/// A diagnostic together with its file, ready for miette.
#[derive(Debug)]
pub struct Report {
    pub diagnostic: Diagnostic,
    source: NamedSource<String>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.diagnostic.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Advice => miette::Severity::Advice,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let d = &self.diagnostic;
        match (&d.help, &d.rule) {
            (None, None) => None,
            (Some(help), None) => Some(Box::new(help.clone())),
            (None, Some(rule)) => Some(Box::new(format!("see {rule}"))),
            (Some(help), Some(rule)) => Some(Box::new(format!("{help} (see {rule})"))),
        }
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let d = &self.diagnostic;
        let primary = LabeledSpan::new_primary_with_span(Some(d.primary.text.clone()), d.primary.span);
        let secondary = d.secondary.iter().map(|l| LabeledSpan::new_with_span(Some(l.text.clone()), l.span));
        Some(Box::new(std::iter::once(primary).chain(secondary)))
    }
}

/// Render diagnostics the way tests and plain terminals see them: Unicode, no colour, 80
/// columns, no hyperlinks.
pub fn render_plain(diagnostics: &[Diagnostic], name: &str, source: &str) -> String {
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(80)
        .with_links(false);
    let handler = keep_ids_whole(handler);
    render_with(&handler, diagnostics, name, source)
}

/// Never break a line inside a hyphenated id such as `RULE-05-3.4` or `dotc::off-table`.
pub fn keep_ids_whole(handler: GraphicalReportHandler) -> GraphicalReportHandler {
    handler.with_word_splitter(textwrap::WordSplitter::NoHyphenation)
}

/// Render with a given miette handler (the CLI picks colours by terminal).
pub fn render_with(
    handler: &GraphicalReportHandler,
    diagnostics: &[Diagnostic],
    name: &str,
    source: &str,
) -> String {
    let mut out = String::new();
    for diagnostic in diagnostics {
        let report = diagnostic.with_source(name, source);
        // Rendering into a String cannot fail for want of space; a formatting error would
        // only come from a broken Display, which ours are not.
        let _ = handler.render_report(&mut out, &report);
    }
    out
}

/// Line and column (both 1-based, column in characters) of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let offset = (0..=offset).rev().find(|&o| source.is_char_boundary(o)).unwrap_or(0);
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}
