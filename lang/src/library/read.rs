//! Reading an entry's properties against its kind's schema: the cursor over one property's
//! values, the per-entry reader, and the checks on keys.

use super::*;

/// The closest of `candidates` to a misspelt `word`, if any is close enough.
pub(super) fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let limit = 1 + word.chars().count() / 3;
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(word, c), c))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, c)| c)
}

/// Unknown keys, and keys given twice where the schema allows one.
pub(super) fn check_keys(kind: EntryKind, entry: &Entry, diags: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(&str, Span)> = Vec::new();
    for prop in &entry.props {
        let key = prop.key.value.as_str();
        match kind.prop(key) {
            None => {
                let keys = kind.keys();
                diags.push(msg::unknown_property(
                    prop.key.span,
                    kind.word(),
                    key,
                    closest(key, keys.iter().copied()),
                    &keys,
                ));
            }
            Some(spec) if !spec.repeatable => match seen.iter().find(|(k, _)| *k == key) {
                Some((_, first)) => {
                    diags.push(msg::repeated_property(prop.key.span, *first, kind.word(), key))
                }
                None => seen.push((key, prop.key.span)),
            },
            Some(_) => {}
        }
    }
}

/// Why a property's values could not be read: a label and where it goes.
pub(super) struct Problem {
    pub(super) span: Span,
    pub(super) text: String,
}

impl Problem {
    pub(super) fn new(span: Span, text: impl Into<String>) -> Problem {
        Problem { span, text: text.into() }
    }

    pub(super) fn found(value: &Spanned<Value>, expected: &str) -> Problem {
        Problem::new(value.span, format!("expected {expected}, found {}", describe_value(&value.value)))
    }
}

pub(super) fn describe_value(value: &Value) -> String {
    match value {
        Value::Number(n) => format!("the number {}", fmt_num(*n)),
        Value::Signed(n) => format!("the modifier `{}`", fmt_signed(*n)),
        Value::Target(t) => format!("the target `{t}+`"),
        Value::Word(w) => format!("`{w}`"),
        Value::Text(_) => String::from("a quoted string"),
        Value::Point(_) => String::from("a position"),
        Value::Dice(_) => String::from("a dice list"),
    }
}

/// The longest distance in rule data: the largest table's side (crate::ranges::MAX_INCHES).
const MAX_INCHES: f64 = crate::ranges::MAX_INCHES;
const DISTANCE_RANGE: &str = "a distance must be a number from 0 to 2400 inches";
const SIGNED_DISTANCE_RANGE: &str = "a signed distance must be a number from -2400 to 2400 inches";

/// Reads the values of one property line from left to right.
pub(super) struct Cursor<'a> {
    pub(super) prop: &'a Prop,
    pub(super) pos: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(prop: &'a Prop) -> Cursor<'a> {
        Cursor { prop, pos: 0 }
    }

    pub(super) fn peek(&self) -> Option<&'a Spanned<Value>> {
        self.prop.values.get(self.pos)
    }

    pub(super) fn at_end(&self) -> bool {
        self.pos >= self.prop.values.len()
    }

    /// The next value, or a problem pointing after the last value read.
    pub(super) fn take(&mut self, expected: &str) -> Result<&'a Spanned<Value>, Problem> {
        match self.peek() {
            Some(value) => {
                self.pos += 1;
                Ok(value)
            }
            None => {
                let span = self.prop.values.last().map_or(self.prop.key.span, |v| v.span);
                Err(Problem::new(span, format!("expected {expected} after this")))
            }
        }
    }

    pub(super) fn inches(&mut self) -> Result<f64, Problem> {
        const WHAT: &str = "a distance in inches";
        let value = self.take(WHAT)?;
        match value.value {
            Value::Number(n) if n <= MAX_INCHES => Ok(n),
            Value::Number(_) => Err(Problem::new(value.span, DISTANCE_RANGE)),
            Value::Signed(_) => Err(Problem::new(value.span, "a distance is written without a sign")),
            _ => Err(Problem::found(value, WHAT)),
        }
    }

    /// A signed distance such as a penalty: `-2`. An unsigned number reads as positive.
    pub(super) fn signed_inches(&mut self) -> Result<f64, Problem> {
        const WHAT: &str = "a signed distance such as `-2`";
        let value = self.take(WHAT)?;
        match value.value {
            Value::Number(n) | Value::Signed(n) if n.abs() <= MAX_INCHES => Ok(n),
            Value::Number(_) | Value::Signed(_) => Err(Problem::new(value.span, SIGNED_DISTANCE_RANGE)),
            _ => Err(Problem::found(value, WHAT)),
        }
    }

    pub(super) fn count(&mut self, what: &str) -> Result<u32, Problem> {
        let value = self.take(what)?;
        match value.value {
            Value::Number(n) if n.fract() == 0.0 && (0.0..=1_000_000.0).contains(&n) => Ok(n as u32),
            Value::Number(_) => Err(Problem::new(value.span, format!("expected {what}, a whole number"))),
            _ => Err(Problem::found(value, what)),
        }
    }

    /// A percentage from 0 to 100, written as a plain number: `75`.
    pub(super) fn percent(&mut self) -> Result<u32, Problem> {
        const WHAT: &str = "a percentage such as `75`";
        let value = self.take(WHAT)?;
        match value.value {
            Value::Number(n) if n.fract() == 0.0 && (0.0..=100.0).contains(&n) => Ok(n as u32),
            Value::Number(_) => Err(Problem::new(value.span, "a percentage is a whole number from 0 to 100")),
            _ => Err(Problem::found(value, WHAT)),
        }
    }

    /// One face of a d6: 1 to 6.
    pub(super) fn face(&mut self) -> Result<u32, Problem> {
        const WHAT: &str = "a d6 roll from 1 to 6";
        let value = self.take(WHAT)?;
        match value.value {
            Value::Number(n) if n.fract() == 0.0 && (1.0..=6.0).contains(&n) => Ok(n as u32),
            Value::Number(_) => Err(Problem::new(value.span, "a d6 roll runs from 1 to 6")),
            _ => Err(Problem::found(value, WHAT)),
        }
    }

    /// A whole-number modifier: `+1`, `-2` (an unsigned number reads as positive).
    pub(super) fn modifier(&mut self) -> Result<i32, Problem> {
        const WHAT: &str = "a modifier such as `+1` or `-2`";
        let value = self.take(WHAT)?;
        match value.value {
            Value::Number(n) | Value::Signed(n) if n.fract() == 0.0 && n.abs() <= 100.0 => Ok(n as i32),
            Value::Number(_) | Value::Signed(_) => {
                Err(Problem::new(value.span, "a modifier is a whole number"))
            }
            _ => Err(Problem::found(value, WHAT)),
        }
    }

    /// A die target from 2+ to 6+.
    pub(super) fn target(&mut self) -> Result<u32, Problem> {
        const WHAT: &str = "a die target such as `4+`";
        let value = self.take(WHAT)?;
        match value.value {
            Value::Target(t) if (2..=6).contains(&t) => Ok(t),
            Value::Target(_) => Err(Problem::new(value.span, "a die target runs from 2+ to 6+")),
            _ => Err(Problem::found(value, WHAT)),
        }
    }

    pub(super) fn word(&mut self, expected: &str) -> Result<Spanned<String>, Problem> {
        let value = self.take(expected)?;
        match &value.value {
            Value::Word(w) => Ok(Spanned::new(w.clone(), value.span)),
            _ => Err(Problem::found(value, expected)),
        }
    }

    pub(super) fn choice<E: Words>(&mut self) -> Result<E, Problem> {
        let expected = one_of(E::WORDS);
        let value = self.take(&expected)?;
        let Value::Word(w) = &value.value else {
            return Err(Problem::found(value, &expected));
        };
        E::from_word(w).ok_or_else(|| {
            let hint = match closest(w, E::WORDS.iter().copied()) {
                Some(s) => format!("; did you mean `{s}`?"),
                None => String::new(),
            };
            Problem::new(value.span, format!("expected {expected}, found `{w}`{hint}"))
        })
    }

    /// One or more words of a vocabulary, to the end of the line.
    pub(super) fn choices<E: Words>(&mut self) -> Result<Vec<E>, Problem> {
        let mut out = vec![self.choice::<E>()?];
        while !self.at_end() {
            out.push(self.choice::<E>()?);
        }
        Ok(out)
    }

    /// One or more ids up to the end of the line or the word `stop`.
    pub(super) fn ids(
        &mut self,
        expected: &str,
        stop: Option<&str>,
    ) -> Result<Vec<Spanned<String>>, Problem> {
        let mut out = vec![self.word(expected)?];
        while !self.at_end() && !stop.is_some_and(|s| self.next_is(s)) {
            out.push(self.word(expected)?);
        }
        Ok(out)
    }

    pub(super) fn keyword(&mut self, keyword: &str) -> Result<(), Problem> {
        let expected = format!("`{keyword}`");
        let value = self.take(&expected)?;
        match &value.value {
            Value::Word(w) if w == keyword => Ok(()),
            _ => Err(Problem::found(value, &expected)),
        }
    }

    pub(super) fn next_is(&self, keyword: &str) -> bool {
        matches!(self.peek(), Some(Spanned { value: Value::Word(w), .. }) if w == keyword)
    }

    /// Consume `keyword` if it comes next.
    pub(super) fn eat(&mut self, keyword: &str) -> bool {
        let found = self.next_is(keyword);
        if found {
            self.pos += 1;
        }
        found
    }

    pub(super) fn next_is_signed(&self) -> bool {
        matches!(self.peek(), Some(Spanned { value: Value::Signed(_), .. }))
    }

    pub(super) fn next_is_number(&self) -> bool {
        matches!(self.peek(), Some(Spanned { value: Value::Number(_), .. }))
    }

    pub(super) fn text(&mut self) -> Result<String, Problem> {
        const WHAT: &str = "a quoted string";
        let value = self.take(WHAT)?;
        match &value.value {
            Value::Text(t) => Ok(t.clone()),
            _ => Err(Problem::found(value, WHAT)),
        }
    }

    pub(super) fn finish(&self) -> Result<(), Problem> {
        match self.peek() {
            Some(extra) => {
                Err(Problem::new(extra.span, format!("unexpected {}", describe_value(&extra.value))))
            }
            None => Ok(()),
        }
    }
}

pub(super) fn one_of(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    match quoted.as_slice() {
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
        [] => String::from("a word"),
    }
}

/// Reads the properties of one entry against its kind's schema.
pub(super) struct Reader<'a, 'd> {
    pub(super) entry: &'a Entry,
    pub(super) kind: EntryKind,
    pub(super) diags: &'d mut Vec<Diagnostic>,
    pub(super) refs: &'d mut Vec<Reference>,
}

impl<'a> Reader<'a, '_> {
    pub(super) fn first(&self, key: &str) -> Option<&'a Prop> {
        self.entry.props.iter().find(|p| p.key.value == key)
    }

    pub(super) fn spec(&self, key: &str) -> Option<&'static PropSpec> {
        self.kind.prop(key)
    }

    pub(super) fn usage(&self, key: &str) -> &'static str {
        self.spec(key).map_or("", |s| s.usage)
    }

    /// The first line of `key`, read by `f`; a problem or a missing required key is reported.
    pub(super) fn read<T>(
        &mut self,
        key: &str,
        f: impl FnOnce(&mut Cursor<'a>) -> Result<T, Problem>,
    ) -> Option<T> {
        match self.first(key) {
            Some(prop) => self.parse(prop, f),
            None => {
                if self.spec(key).is_some_and(|s| s.required) {
                    self.missing(key);
                }
                None
            }
        }
    }

    /// Every line of `key`, in order.
    pub(super) fn read_all<T>(
        &mut self,
        key: &str,
        mut f: impl FnMut(&mut Cursor<'a>) -> Result<T, Problem>,
    ) -> Vec<T> {
        let props: Vec<&'a Prop> = self.entry.props.iter().filter(|p| p.key.value == key).collect();
        if props.is_empty() && self.spec(key).is_some_and(|s| s.required) {
            self.missing(key);
        }
        props.into_iter().filter_map(|prop| self.parse(prop, &mut f)).collect()
    }

    pub(super) fn parse<T>(
        &mut self,
        prop: &'a Prop,
        f: impl FnOnce(&mut Cursor<'a>) -> Result<T, Problem>,
    ) -> Option<T> {
        let mut cursor = Cursor::new(prop);
        match f(&mut cursor).and_then(|value| cursor.finish().map(|()| value)) {
            Ok(value) => Some(value),
            Err(problem) => {
                let key = prop.key.value.as_str();
                self.diags.push(msg::bad_property(
                    problem.span,
                    self.kind.word(),
                    key,
                    &problem.text,
                    self.usage(key),
                ));
                None
            }
        }
    }

    /// A flag: present means true. Values after it are reported.
    pub(super) fn flag(&mut self, key: &str) -> bool {
        let Some(prop) = self.first(key) else {
            return false;
        };
        if let (Some(first), Some(last)) = (prop.values.first(), prop.values.last()) {
            self.diags.push(msg::flag_with_values(first.span.join(last.span), self.kind.word(), key));
        }
        true
    }

    pub(super) fn missing(&mut self, key: &str) {
        let entry = self.entry;
        // The missing line may be the one that did not parse, or one whose key is misspelt
        // (reported as an unknown property with this key as its suggestion).
        let misspelt = entry.props.iter().any(|p| {
            p.key.value != key
                && EntryKind::from_word(&p.key.value).is_none()
                && self.kind.prop(&p.key.value).is_none()
                && crate::names::suggest(&p.key.value, [key]).is_some()
        });
        if entry.broken || misspelt {
            return;
        }
        self.diags.push(msg::missing_property(
            entry.id.span,
            self.kind.word(),
            &entry.id.value,
            key,
            self.usage(key),
        ));
    }

    /// A value that reads but contradicts the rest of the entry.
    /// A value that contradicts another. Not reported for an entry with a line that did not
    /// parse: the other value may be on that line, and its syntax error comes first.
    pub(super) fn inconsistent(&mut self, span: Span, key: &str, problem: &str, help: &str) {
        if !self.entry.broken {
            self.diags.push(msg::inconsistent_property(span, self.kind.word(), key, problem, help));
        }
    }

    /// Note a name of another entry, checked once all libraries are in.
    pub(super) fn refer(&mut self, kind: EntryKind, id: &Spanned<String>) {
        self.refs.push(Reference { kind, id: id.value.clone(), span: id.span });
    }

    pub(super) fn meta(&mut self) -> EntryMeta {
        let entry = self.entry;
        EntryMeta {
            kind: self.kind,
            id: entry.id.value.clone(),
            name: entry.name.as_ref().map(|n| n.value.clone()),
            span: entry.span,
            id_span: entry.id.span,
            source: self.read("source", |c| c.text()),
            note: self.read("note", |c| c.text()),
            summary: String::new(),
        }
    }
}
