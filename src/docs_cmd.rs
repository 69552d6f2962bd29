//! `dotc docs [TOPIC [SECTION]]`: the project's documents, built into the binary so they travel
//! with it (issue 21): the language reference, the command line, the rulings register, the
//! optional modules, scripting, and the README's tour. A SECTION picks the sections whose heading
//! holds those words.

use std::process::ExitCode;

/// Each topic: its name, what it is, and the document.
pub(crate) const TOPICS: &[(&str, &str, &str)] = &[
    ("tour", "the README: install, the main job, the tour of the commands", include_str!("../README.md")),
    ("language", "the .dotc language: scenarios, rule data, game logs", include_str!("../docs/language.md")),
    ("cli", "the command line: conventions, files in and out, each command", include_str!("../docs/cli.md")),
    ("rulings", "dotc's rulings register (D1..), each with its switch", include_str!("../docs/rulings.md")),
    ("modules", "the optional modules of Chapter 13", include_str!("../docs/modules.md")),
    (
        "scripting",
        "scenario scripts (Rhai): hooks, the game API, limits",
        include_str!("../docs/scripting.md"),
    ),
];

pub fn docs(topic: Option<&str>, section: &[String]) -> Result<ExitCode, String> {
    let Some(topic) = topic else {
        let width = TOPICS.iter().map(|(name, _, _)| name.len()).max().unwrap_or(0);
        for (name, what, _) in TOPICS {
            println!("{name:width$}  {what}");
        }
        println!(
            "\n`dotc docs TOPIC` prints one; `dotc docs TOPIC WORDS` the sections whose heading holds the words."
        );
        return Ok(ExitCode::SUCCESS);
    };
    let Some((name, _, text)) = TOPICS.iter().find(|(name, _, _)| *name == topic.trim()) else {
        let names: Vec<&str> = TOPICS.iter().map(|(name, _, _)| *name).collect();
        let near = dotc_lang::names::suggest(topic.trim(), names.iter().copied())
            .map(|n| format!("did you mean `{n}`? "))
            .unwrap_or_default();
        return Err(format!("no document `{topic}`; {near}the topics are {}", names.join(", ")));
    };
    if section.is_empty() {
        print!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    let words: Vec<String> =
        section.iter().flat_map(|s| s.split_whitespace()).map(str::to_lowercase).collect();
    let found = sections(text, &words);
    if found.is_empty() {
        let headings: Vec<&str> =
            text.lines().filter(|l| l.starts_with("## ")).map(|l| l.trim_start_matches('#').trim()).collect();
        return Err(format!(
            "no section of `{name}` has \"{}\" in its heading; its sections are: {}",
            words.join(" "),
            headings.join("; ")
        ));
    }
    print!("{}", found.join("\n"));
    Ok(ExitCode::SUCCESS)
}

/// The sections of a Markdown text whose heading holds every word (case-insensitive): each from
/// its heading to the next heading of its level or higher. Headings inside code blocks are not
/// headings.
fn sections(text: &str, words: &[String]) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut in_code = false;
    let mut headings = Vec::new(); // (line index, level)
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            let level = line.chars().take_while(|&c| c == '#').count();
            if line[level..].starts_with(' ') {
                headings.push((i, level));
            }
        }
    }
    let mut out = Vec::new();
    for (n, &(at, level)) in headings.iter().enumerate() {
        let heading = lines[at].to_lowercase();
        if !words.iter().all(|w| heading.contains(w.as_str())) {
            continue;
        }
        let end = headings[n + 1..].iter().find(|&&(_, l)| l <= level).map_or(lines.len(), |&(i, _)| i);
        let mut part = lines[at..end].join("\n");
        part.push('\n');
        out.push(part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_runs_to_the_next_heading_of_its_level_and_skips_code() {
        let text = "# T\n\n## A one\n\ntext\n\n### A sub\n\n```\n## not a heading\n```\n\n## B two\n\nmore\n";
        let found = sections(text, &["a".to_string()]);
        assert_eq!(found[0], "## A one\n\ntext\n\n### A sub\n\n```\n## not a heading\n```\n\n");
        assert_eq!(found[1], "### A sub\n\n```\n## not a heading\n```\n\n");
        assert_eq!(sections(text, &["two".to_string()]), vec!["## B two\n\nmore\n".to_string()]);
        assert!(sections(text, &["heading".to_string()]).is_empty());
    }
}
