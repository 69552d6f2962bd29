//! `dotc man`: the manual pages, `dotc(1)` and one per subcommand (`dotc-check(1)`,
//! `dotc-campaign-status(1)`), each with its EXIT STATUS and EXAMPLES (issue 21). The options
//! come from the clap definitions, as `--help` shows them; the examples are kept here and run by
//! `tests/man.rs`, so none goes stale.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// The subcommand whose page to print (`check`, `campaign status`); without it, dotc(1).
    pub command: Vec<String>,
    /// Write every page into this folder instead (dotc.1, dotc-check.1, ...), for `man -l` or a
    /// package's man directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// An example: its command line (after `dotc`) and what it does.
type Example = (&'static str, &'static str);

/// Each page's examples, by the command's path (empty for dotc itself). Every one succeeds on
/// the shipped files, run in this order from a folder where `scenarios/` is the repository's:
/// `tests/man.rs` runs them all from the pages, but `lsp`'s, which waits for an editor
/// (`tests/lsp_nvim.rs` drives it).
pub(crate) const EXAMPLES: &[(&str, &[Example])] = &[
    (
        "",
        &[
            (
                "check scenarios/tutorial/fence-line.dotc",
                "Check a scenario: nothing is printed and the exit status is 0 when it is clean.",
            ),
            (
                "audit scenarios/tutorial/fence-line-game.dotc",
                "Audit a logged game against the rules and its own dice.",
            ),
            ("explain RULE-05-3.3", "Say what a rule the tool cites means."),
        ],
    ),
    (
        "check",
        &[
            (
                "check scenarios/tutorial/fence-line.dotc scenarios/tutorial/fence-line-game.dotc",
                "Check a scenario and a game log.",
            ),
            (
                "check --format json scenarios/tutorial/fence-line.dotc",
                "The diagnostics as JSON for a tool (schema dotc.check/1).",
            ),
        ],
    ),
    (
        "fmt",
        &[
            (
                "fmt --check scenarios/tutorial/fence-line.dotc",
                "Tell whether a file is in the canonical layout (exit 1 if not).",
            ),
            (
                "fmt scenarios/tutorial/fence-line.dotc",
                "Print the file in the canonical layout; --write rewrites it in place.",
            ),
        ],
    ),
    (
        "export",
        &[
            (
                "export scenarios/tutorial/fence-line.dotc",
                "The resolved model as JSON: stands from men, facings in degrees, rulings in force.",
            ),
            ("export --format yaml scenarios/tutorial/fence-line.dotc", "The same as YAML."),
        ],
    ),
    (
        "new",
        &[(
            "new scenario \"The Wilderness\" --output wilderness.dotc",
            "Write a commented skeleton scenario; `new game` starts a log.",
        )],
    ),
    (
        "new scenario",
        &[(
            "new scenario \"Antietam, the Cornfield\" --output cornfield.dotc",
            "Write a commented skeleton scenario to fill in.",
        )],
    ),
    (
        "new game",
        &[(
            "new game scenarios/tutorial/fence-line.dotc --output club-night.dotc",
            "Start a game log on a scenario, with its first pip rolls to fill in.",
        )],
    ),
    (
        "explain",
        &[
            ("explain dotc::unknown-weapon", "A diagnostic code."),
            ("explain C3", "A ruling of RULINGS.md, with its switch."),
            ("explain rifled_musket", "A rule-data id, with its numbers."),
        ],
    ),
    (
        "list",
        &[
            ("list weapons", "Every weapon a scenario may give a unit."),
            ("list rulings", "Every ruling switch with its values, the default first."),
        ],
    ),
    (
        "odds",
        &[
            (
                "odds fire --weapon rifled_musket --stands 5 --range 10",
                "The exact distribution of one volley.",
            ),
            (
                "odds --at scenarios/tutorial/fence-line-game.dotc:50",
                "The odds of a logged volley as the replay saw it.",
            ),
        ],
    ),
    (
        "odds fire",
        &[(
            "odds fire --weapon rifled_musket --stands 5 --range 10",
            "Five stands of rifled muskets at 10 inches.",
        )],
    ),
    ("odds melee", &[("odds melee --attacker-stands 5 --defender-stands 4", "An opposed melee roll.")]),
    (
        "odds assault",
        &[(
            "odds assault --weapon rifled_musket --stands 5 --charger-stands 4",
            "A charge through the closing volley to the melee.",
        )],
    ),
    (
        "render",
        &[
            ("render scenarios/tutorial/fence-line.dotc -o fence-line.svg", "Draw a scenario's deployment."),
            (
                "render scenarios/tutorial/fence-line-game.dotc --at \"turn 3 fire\" -o turn3.png",
                "Draw a game at the end of turn 3's fire phase, with that phase's moves and fire lines.",
            ),
            (
                "render scenarios/tutorial/fence-line-game.dotc --at \"turn 3 fire\" --no-actions -o turn3.svg",
                "The same moment without the phase's moves and fire lines.",
            ),
            (
                "render scenarios/tutorial/fence-line.dotc -o fence-line.pdf",
                "The deployment as a vector PDF page.",
            ),
        ],
    ),
    (
        "roster",
        &[
            (
                "roster scenarios/tutorial/fence-line.dotc",
                "Print each side's order of battle as the rules set it up.",
            ),
            (
                "roster scenarios/tutorial/fence-line.dotc -o roster.pdf",
                "Write it as a sheet to print: stand boxes, brigade clocks, quality, weapon bands, health.",
            ),
            (
                "roster scenarios/tutorial/fence-line.dotc --side union --paper a4 -o union.html",
                "One side's sheet as a page to print from a browser, set for A4.",
            ),
        ],
    ),
    (
        "analyze",
        &[(
            "analyze scenarios/tutorial/fence-line.dotc",
            "When each force can first reach each objective and the enemy.",
        )],
    ),
    (
        "replay",
        &[
            (
                "replay scenarios/tutorial/fence-line-game.dotc --summary",
                "Tell the game turn by turn as a story, then the forces at the end.",
            ),
            (
                "replay scenarios/tutorial/fence-line-game.dotc --rules --until \"turn 1\"",
                "Turn 1 with every roll, modifier and marker and the rule each applied.",
            ),
            (
                "replay scenarios/tutorial/fence-line-game.dotc --html game.html",
                "One page to post, stepping through the game.",
            ),
        ],
    ),
    (
        "audit",
        &[
            (
                "audit scenarios/tutorial/fence-line-game.dotc",
                "Every illegal action and wrong claim, at its line, with its rule.",
            ),
            ("audit scenarios/gettysburg-day1", "Every game log under a folder."),
        ],
    ),
    (
        "campaign",
        &[(
            "campaign status scenarios/campaign/road-to-gettysburg.dotc",
            "The rosters after the last battle.",
        )],
    ),
    (
        "campaign status",
        &[(
            "campaign status scenarios/campaign/road-to-gettysburg.dotc --history",
            "Each unit's stands battle by battle.",
        )],
    ),
    (
        "campaign next",
        &[(
            "campaign next scenarios/campaign/road-to-gettysburg.dotc",
            "The post-battle sequence due, if any, rolled from a seed.",
        )],
    ),
    (
        "luck",
        &[("luck scenarios/tutorial/fence-line-game.dotc", "How each side's dice compared with the odds.")],
    ),
    (
        "playtest",
        &[
            (
                "playtest scenarios/tutorial/fence-line-game.dotc --seeds 10",
                "The logged orders again with ten other throws of the dice: the results tallied.",
            ),
            (
                "playtest scenarios/tutorial/fence-line-game.dotc --seeds 100..199 --format json",
                "A hundred other throws, seeds 100 to 199, as JSON for a spreadsheet.",
            ),
        ],
    ),
    (
        "play",
        &[(
            "play club-night.dotc",
            "Log a game at the table: what the rules allow, the odds, the dice to type.",
        )],
    ),
    ("lsp", &[("lsp", "Run the language server on standard input and output (an editor starts it).")]),
    (
        "completions",
        &[("completions bash", "Shell completions for bash (also zsh, fish, elvish, powershell).")],
    ),
    (
        "docs",
        &[
            ("docs", "The documents built into dotc."),
            ("docs language actions", "The language reference's sections on actions."),
        ],
    ),
    (
        "man",
        &[("man check", "The page of dotc check."), ("man --out man", "Every page into the folder man/.")],
    ),
];

/// What exit status 1 means, per command; the others share 0, 2 and 141.
const FINDINGS: &[(&str, &str)] = &[
    ("", "the subcommand found problems (see each subcommand's page)"),
    ("check", "some file has an error"),
    ("fmt", "with --check: a file is not in the canonical layout"),
    ("replay", "the log disagrees with the rules somewhere"),
    ("audit", "a log has an error or a warning the umpire did not allow"),
    ("playtest", "the log has errors, so its orders are not played again"),
    ("campaign", "a battle's log or its post-battle sequence disagrees with the rules"),
    ("campaign status", "a battle's log or its post-battle sequence disagrees with the rules"),
    ("campaign next", "a battle's log or its post-battle sequence disagrees with the rules"),
];

pub fn man(args: &ManArgs, root: clap::Command) -> Result<ExitCode, String> {
    let mut root = root.disable_help_subcommand(true);
    root.build();
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
        let mut written = 0;
        for path in pages(&root, &mut Vec::new()) {
            let (name, text) = page(&root, &path)?;
            let file = dir.join(format!("{name}.1"));
            crate::write_atomically(&file, text, false)?;
            written += 1;
        }
        crate::term::note!("wrote {written} manual pages to {}", dir.display());
        return Ok(ExitCode::SUCCESS);
    }
    let path: Vec<String> =
        args.command.iter().flat_map(|w| w.split_whitespace().map(str::to_string)).collect();
    let (_, text) = page(&root, &path)?;
    std::io::stdout().write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(ExitCode::SUCCESS)
}

/// Every page's command path: dotc itself, then each visible subcommand, depth first.
fn pages(cmd: &clap::Command, path: &mut Vec<String>) -> Vec<Vec<String>> {
    let mut out = vec![path.clone()];
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        path.push(sub.get_name().to_string());
        out.extend(pages(sub, path));
        path.pop();
    }
    out
}

/// The page of a command path: its file name (`dotc-campaign-status`) and its roff text.
fn page(root: &clap::Command, path: &[String]) -> Result<(String, String), String> {
    let mut cmd = root.clone();
    for (i, word) in path.iter().enumerate() {
        let Some(sub) = cmd.find_subcommand(word).cloned() else {
            let known: Vec<&str> = cmd.get_subcommands().map(|s| s.get_name()).collect();
            let at = if i == 0 { "dotc".to_string() } else { format!("dotc {}", path[..i].join(" ")) };
            return Err(format!("{at} has no subcommand `{word}`; it has {}", known.join(", ")));
        };
        cmd = sub;
    }
    let name = std::iter::once("dotc").chain(path.iter().map(String::as_str)).collect::<Vec<_>>().join("-");
    let bin = std::iter::once("dotc").chain(path.iter().map(String::as_str)).collect::<Vec<_>>().join(" ");
    let cmd = cmd.display_name(name.clone()).bin_name(bin);
    let mut out = Vec::new();
    let man = clap_mangen::Man::new(cmd).source(format!("dotc {}", env!("CARGO_PKG_VERSION")));
    man.render(&mut out).map_err(|e| e.to_string())?;
    let mut text = String::from_utf8(out).map_err(|e| e.to_string())?;
    let key = path.join(" ");
    text.push_str(&exit_status(&key));
    text.push_str(&examples(&key));
    if !path.is_empty() {
        text.push_str(".SH \"SEE ALSO\"\ndotc(1), docs/cli.md in the source\n");
    }
    Ok((name, text))
}

/// The EXIT STATUS section.
fn exit_status(key: &str) -> String {
    let one = FINDINGS.iter().find(|(k, _)| *k == key).map(|(_, text)| *text);
    let mut rows = vec![("0", "success")];
    if let Some(one) = one {
        rows.push(("1", one));
    }
    rows.push(("2", "could not do it: a wrong command line, a file that cannot be read or written"));
    rows.push(("141", "the reader of the output went away (SIGPIPE)"));
    let mut out = String::from(".SH \"EXIT STATUS\"\n");
    for (code, text) in rows {
        out.push_str(&format!(".TP\n\\fB{code}\\fR\n{}\n", roff_text(text)));
    }
    out
}

/// The EXAMPLES section, from [`EXAMPLES`].
fn examples(key: &str) -> String {
    let Some((_, list)) = EXAMPLES.iter().find(|(k, _)| *k == key) else { return String::new() };
    let mut out = String::from(".SH EXAMPLES\n");
    for (line, what) in *list {
        out.push_str(&format!(".TP\n\\fBdotc {}\\fR\n{}\n", roff_text(line), roff_text(what)));
    }
    out
}

/// Text safe in a roff line: backslashes and hyphens escaped, no control character at a line's
/// start.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) { format!("\\&{escaped}") } else { escaped }
}
