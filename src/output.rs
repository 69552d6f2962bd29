//! The one spelling of output formats (issue 21, "Conventions"): `--format text|json|yaml` on
//! every command with more than one output form, the old spellings (`--format human`, `--json`,
//! `export --to`) kept as hidden aliases, and the versioned documents every JSON and YAML output
//! is: a top-level `"schema": "dotc.NAME/VERSION"` first, then the command's fields, as
//! published in `docs/schemas/NAME.schema.json`. YAML is made from the same serde value as the
//! JSON.

use serde::Serialize;

/// An output format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// For people (diagnostics on standard error, reports on standard output).
    #[default]
    #[value(alias = "human")]
    Text,
    /// One JSON document on standard output, with its schema's name and version.
    Json,
    /// The same document as YAML.
    Yaml,
}

/// `--format` as a command with a text form takes it, with the hidden `--json` of old.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct FormatArgs {
    /// Output format: text for people; json or yaml for tools, each a versioned document whose
    /// JSON Schema is in docs/schemas/.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    format: Format,
    /// The old spelling of `--format json`.
    #[arg(long, hide = true)]
    json: bool,
}

impl FormatArgs {
    /// The format asked for (`--json` is `--format json`).
    pub fn get(&self) -> Format {
        if self.json { Format::Json } else { self.format }
    }

    /// The arguments that ask for `format`, for callers that build them.
    #[cfg(test)]
    pub fn of(format: Format) -> FormatArgs {
        FormatArgs { format, json: false }
    }
}

/// The schema names of the documents dotc prints, each `dotc.NAME/VERSION` with its JSON
/// Schema in `docs/schemas/NAME.schema.json`. A version changes when a field is removed,
/// renamed or changes its type; new fields may be added within a version.
pub mod schema {
    pub const EXPORT: &str = "dotc.export/1";
    pub const ODDS_FIRE: &str = "dotc.odds-fire/1";
    pub const ODDS_MELEE: &str = "dotc.odds-melee/1";
    pub const ODDS_ASSAULT: &str = "dotc.odds-assault/1";
    pub const ODDS_AT: &str = "dotc.odds-at/1";
    pub const ANALYZE: &str = "dotc.analyze/1";
    pub const ROSTER: &str = "dotc.roster/1";
    pub const REPLAY: &str = "dotc.replay/1";
    pub const AUDIT: &str = "dotc.audit/1";
    pub const LUCK: &str = "dotc.luck/1";
    pub const PLAYTEST: &str = "dotc.playtest/1";
    pub const CAMPAIGN_STATUS: &str = "dotc.campaign-status/1";
    pub const CAMPAIGN_HISTORY: &str = "dotc.campaign-history/1";
}

/// A command's document: its schema's name first, then its own fields.
#[derive(Serialize)]
struct Versioned<'a, T: Serialize> {
    schema: &'a str,
    #[serde(flatten)]
    body: &'a T,
}

/// A value (which serializes as a map) as the JSON or YAML document `schema` names.
pub fn document(format: Format, schema: &str, value: &impl Serialize) -> Result<String, String> {
    data(format, &Versioned { schema, body: value })
}

/// A value as JSON (pretty, with a last line break) or YAML, as it is. The YAML is the JSON
/// read back, in the same order: the same document (an enum is what JSON makes of it, never a
/// YAML tag).
pub fn data(format: Format, value: &impl Serialize) -> Result<String, String> {
    match format {
        Format::Yaml => {
            let json = serde_json::to_string(value).map_err(|e| e.to_string())?;
            let mut reader = serde_json::Deserializer::from_str(&json);
            let yaml = <serde_norway::Value as serde::Deserialize>::deserialize(&mut reader)
                .map_err(|e| e.to_string())?;
            serde_norway::to_string(&yaml).map_err(|e| e.to_string())
        }
        Format::Json | Format::Text => {
            serde_json::to_string_pretty(value).map(|mut s| {
                s.push('\n');
                s
            })
        }
        .map_err(|e| e.to_string()),
    }
}

/// Print a value as the JSON or YAML document `schema` names, on standard output.
pub fn print_document(format: Format, schema: &str, value: &impl Serialize) -> Result<(), String> {
    print!("{}", document(format, schema, value)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Example {
        b: u32,
        a: Option<&'static str>,
    }

    #[test]
    fn a_document_is_the_value_with_its_schema_first() {
        let value = Example { b: 2, a: None };
        let json = document(Format::Json, "dotc.example/1", &value).unwrap();
        assert_eq!(json, "{\n  \"schema\": \"dotc.example/1\",\n  \"b\": 2,\n  \"a\": null\n}\n");
        let yaml = document(Format::Yaml, "dotc.example/1", &value).unwrap();
        assert_eq!(yaml, "schema: dotc.example/1\nb: 2\na: null\n");
    }

    #[derive(Serialize)]
    enum Shape {
        Square(u32),
    }

    #[test]
    fn yaml_writes_an_enum_as_json_does_not_as_a_tag() {
        let yaml = data(Format::Yaml, &vec![Shape::Square(3)]).unwrap();
        assert_eq!(yaml, "- Square: 3\n");
    }

    #[test]
    fn json_is_the_old_spelling_of_format_json() {
        assert_eq!(FormatArgs { format: Format::Text, json: true }.get(), Format::Json);
        assert_eq!(FormatArgs::of(Format::Yaml).get(), Format::Yaml);
    }
}
