//! One diagnostic type for every layer, rendered by miette.
//!
//! Wording lives in [`crate::catalogue`]; this module is only the shape and the rendering.
//! Offsets are bytes; line and UTF-16 columns are computed only at the edges (CLI JSON, LSP).

use std::fmt;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode};
use serde::Serialize;

use crate::ast::Span;
use crate::lines::{LineIndex, work};

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
        Some(miette_severity(self.diagnostic.severity))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        help_text(&self.diagnostic).map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        labels_of(&self.diagnostic)
    }
}

fn miette_severity(severity: Severity) -> miette::Severity {
    match severity {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
        Severity::Advice => miette::Severity::Advice,
    }
}

/// The help line miette shows: the help, the rule it enforces, or both.
fn help_text(d: &Diagnostic) -> Option<String> {
    match (&d.help, &d.rule) {
        (None, None) => None,
        (Some(help), None) => Some(help.clone()),
        (None, Some(rule)) => Some(format!("see {rule}")),
        (Some(help), Some(rule)) => Some(format!("{help} (see {rule})")),
    }
}

fn labels_of(d: &Diagnostic) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
    let primary = LabeledSpan::new_primary_with_span(Some(d.primary.text.clone()), d.primary.span);
    let secondary = d.secondary.iter().map(|l| LabeledSpan::new_with_span(Some(l.text.clone()), l.span));
    Some(Box::new(std::iter::once(primary).chain(secondary)))
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
///
/// Each diagnostic gets a view of the file that reads only the lines around its labels (found
/// in a line index made once), so many diagnostics cost linear time, not a scan from the top
/// of the file each; a line longer than [`LONG_LINE`] is shown clipped around the labels, so a
/// huge token or a far column renders short (and within the widths `format!` accepts).
pub fn render_with(
    handler: &GraphicalReportHandler,
    diagnostics: &[Diagnostic],
    name: &str,
    source: &str,
) -> String {
    let index = LineIndex::new(source);
    let mut out = String::new();
    for diagnostic in diagnostics {
        let mut diagnostic = diagnostic.clone();
        diagnostic.message = shorten_quotes(&diagnostic.message);
        // A help line quotes what to write, which may be long and is never the file's text.
        diagnostic.help = diagnostic.help.as_deref().map(|h| shorten_quotes_to(h, LONG_HELP_QUOTE));
        diagnostic.primary.text = shorten_quotes(&diagnostic.primary.text);
        for label in &mut diagnostic.secondary {
            label.text = shorten_quotes(&label.text);
        }
        // Rendering into a String cannot fail for want of space; a formatting error would
        // only come from a broken Display, which ours are not.
        match Clipped::new(&diagnostic, name, source, &index) {
            Some((clipped, diagnostic)) => {
                let _ = handler.render_report(&mut out, &Viewed { diagnostic, source: &clipped });
            }
            None => {
                let window = Window { name, text: source, index: &index };
                let _ = handler.render_report(&mut out, &Viewed { diagnostic, source: &window });
            }
        }
    }
    out
}

/// The longest quotation of the file a message or label keeps whole, in characters. Generous:
/// an inch mark (`14"`) pairs with the next double quote, and such a false quotation must
/// stay whole.
pub const LONG_QUOTE: usize = 120;
/// How many characters of a longer quotation are kept.
const KEPT_OF_QUOTE: usize = 40;
/// The longest quotation a help line keeps whole, in characters.
const LONG_HELP_QUOTE: usize = 200;

/// Shorten every quotation (between backticks or double quotes) longer than [`LONG_QUOTE`]
/// characters to its first 40 characters, an ellipsis and its length: a 50 MB token is not
/// repeated whole in its message.
pub fn shorten_quotes(text: &str) -> String {
    shorten_quotes_to(text, LONG_QUOTE)
}

fn shorten_quotes_to(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len().min(1024));
    let mut rest = text;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = rest[open..].chars().next().unwrap_or('"');
        let after = &rest[open + 1..];
        let Some(close) = after.find(quote) else { break };
        let quoted = &after[..close];
        out.push_str(&rest[..=open]);
        let chars = quoted.chars().count();
        if chars > limit {
            out.extend(quoted.chars().take(KEPT_OF_QUOTE));
            out.push_str(&format!("\u{2026} ({chars} characters)"));
        } else {
            out.push_str(quoted);
        }
        out.push(quote);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// A line longer than this (in bytes) is shown clipped around the labels on it.
pub const LONG_LINE: usize = 400;
/// How much of a clipped line is kept on each side of a label's start and end, in bytes.
const CLIP_MARGIN: usize = 40;

/// A diagnostic with its view of the file, for miette.
struct Viewed<'a, S> {
    diagnostic: Diagnostic,
    source: &'a S,
}

impl<S> fmt::Debug for Viewed<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.diagnostic.fmt(f)
    }
}

impl<S> fmt::Display for Viewed<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl<S> std::error::Error for Viewed<'_, S> {}

impl<S: SourceCode> miette::Diagnostic for Viewed<'_, S> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.diagnostic.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(miette_severity(self.diagnostic.severity))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        help_text(&self.diagnostic).map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        labels_of(&self.diagnostic)
    }
}

/// The whole file, read by miette a few lines at a time: each read is miette's own over a
/// window of whole lines around the span, shifted back to the file's offsets and lines.
struct Window<'a> {
    name: &'a str,
    text: &'a str,
    index: &'a LineIndex,
}

impl SourceCode for Window<'_> {
    fn read_span<'b>(
        &'b self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'b> + 'b>, miette::MietteError> {
        let first = self.index.line_of(span.offset()).saturating_sub(context_lines_before);
        let last = self.index.line_of((span.offset() + span.len()).saturating_sub(1));
        // One line more than miette looks at, so that it stops where it would in the whole file.
        let (start, end) =
            (self.index.line_start(first), self.index.line_start(last + context_lines_after + 2));
        let window = &self.text.as_bytes()[start..end];
        work::add(window.len() as u64);
        let shifted = miette::SourceSpan::new(span.offset().saturating_sub(start).into(), span.len());
        let inner =
            <[u8] as SourceCode>::read_span(window, &shifted, context_lines_before, context_lines_after)?;
        let contents = miette::MietteSpanContents::new_named(
            self.name.to_string(),
            inner.data(),
            miette::SourceSpan::new((inner.span().offset() + start).into(), inner.span().len()),
            inner.line() + first,
            inner.column(),
            inner.line_count() + first,
        )
        .with_language("dotc");
        Ok(Box::new(contents))
    }
}

/// The lines of one diagnostic when one of them is too long to show: each long line clipped
/// to the parts around the labels (an ellipsis for each cut), the labels moved to match, and
/// miette told the real line and column.
struct Clipped {
    name: String,
    text: String,
    /// The file's line that is the first line of `text`.
    first_line: usize,
    /// Where each label starts in `text`, and its column (in bytes, as miette counts) in the file.
    columns: Vec<(usize, usize)>,
}

impl Clipped {
    /// The clipped view and the diagnostic with its labels moved into it, or `None` when no
    /// line around the labels is long.
    fn new(
        diagnostic: &Diagnostic,
        name: &str,
        source: &str,
        index: &LineIndex,
    ) -> Option<(Clipped, Diagnostic)> {
        let labels = || std::iter::once(&diagnostic.primary).chain(&diagnostic.secondary);
        let clamp = |o: usize| o.min(source.len());
        let first = labels().map(|l| index.line_of(clamp(l.span.start))).min()?.saturating_sub(1);
        let last = labels().map(|l| index.line_of(clamp(l.span.end))).max()? + 1;
        let last = last.min(index.line_count() - 1);
        let long = |line: usize| index.content_end(source, line) - index.line_start(line) > LONG_LINE;
        if !(first..=last).any(long) {
            return None;
        }
        let points: Vec<usize> = labels().flat_map(|l| [clamp(l.span.start), clamp(l.span.end)]).collect();
        // (start in the file, end in the file, start in the text, length in the text)
        let mut pieces: Vec<(usize, usize, usize, usize)> = Vec::new();
        let mut text = String::new();
        let floor = |mut o: usize| {
            while !source.is_char_boundary(o) {
                o -= 1;
            }
            o
        };
        for line in first..=last {
            let (start, end, next) =
                (index.line_start(line), index.content_end(source, line), index.line_start(line + 1));
            let mut keep: Vec<(usize, usize)> = if end - start <= LONG_LINE {
                vec![(start, end)]
            } else {
                let mut keep: Vec<(usize, usize)> = points
                    .iter()
                    .filter(|&&p| p >= start && p <= next)
                    .map(|&p| {
                        let p = p.min(end);
                        (floor(p.saturating_sub(CLIP_MARGIN).max(start)), floor((p + CLIP_MARGIN).min(end)))
                    })
                    .collect();
                if keep.is_empty() {
                    keep.push((start, floor((start + 2 * CLIP_MARGIN).min(end))));
                }
                keep
            };
            keep.sort_unstable();
            let mut at = start;
            for (from, to) in keep {
                let from = from.max(at);
                if to < from {
                    continue;
                }
                if from > at {
                    text.push('\u{2026}');
                }
                pieces.push((from, to, text.len(), to - from));
                text.push_str(&source[from..to]);
                at = to;
            }
            if at < end {
                text.push('\u{2026}');
            }
            if next > end {
                pieces.push((end, next, text.len(), 1));
                text.push('\n');
            }
        }
        // A position of the file in `text`: exact inside a kept piece, else the ellipsis after it.
        let place = |o: usize| -> usize {
            let o = clamp(o);
            let i = pieces.partition_point(|p| p.0 <= o);
            if i == 0 {
                return 0;
            }
            let (from, to, at, len) = pieces[i - 1];
            if o <= to { at + (o - from).min(len) } else { at + len }
        };
        let mut moved = diagnostic.clone();
        let mut columns = Vec::new();
        for label in std::iter::once(&mut moved.primary).chain(&mut moved.secondary) {
            let original = clamp(label.span.start);
            let (start, end) = (place(label.span.start), place(label.span.end));
            label.span = Span::new(start, end.max(start));
            columns.push((start, original - index.line_start(index.line_of(original))));
        }
        Some((Clipped { name: name.to_string(), text, first_line: first, columns }, moved))
    }
}

impl SourceCode for Clipped {
    fn read_span<'b>(
        &'b self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'b> + 'b>, miette::MietteError> {
        let inner =
            <str as SourceCode>::read_span(&self.text, span, context_lines_before, context_lines_after)?;
        // miette reads a label alone (no context) for the `file:line:column` it shows.
        let column = match self.columns.iter().find(|(at, _)| *at == span.offset()) {
            Some((_, column)) if context_lines_before == 0 => *column,
            _ => inner.column(),
        };
        let contents = miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line,
            column,
            inner.line_count() + self.first_line,
        )
        .with_language("dotc");
        Ok(Box::new(contents))
    }
}

pub use crate::lines::line_col;
