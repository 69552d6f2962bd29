//! The register of every rule reference the tool cites: the numbered RULE ids of the ranged
//! combat and morale sections, the chapter sections of the field manual (all of Ch16, the Ch13
//! modules, and the narrative sections the code names) and the RULINGS.md ids (C = conflict,
//! G = gap, E = worked-example error).
//!
//! Each entry is plain data: a canonical id (`RULE-05-3.3`, `Ch16 5.4`, `RULINGS C3`), a title,
//! a summary in our own words (the rulebook's facts and numbers, never its sentences) and the ids
//! it relates to. `dotc explain` prints it; a language server can show it on hover. [`lookup`]
//! accepts the ways people write ids (`rule-05-3.3`, `16.5.4`, `ch16-5.4`, `c3`); [`nearest`]
//! finds the closest known id for a "did you mean".
//!
//! `tests/explain.rs` scans the sources and the stdlib for citations and fails when one has no
//! entry here, so a new citation needs its summary in the same change.

/// One explained reference.
#[derive(Clone, Copy, Debug)]
pub struct Reference {
    /// The canonical id as the code cites it: `RULE-05-3.3`, `Ch16 5.4`, `RULINGS C3`.
    pub id: &'static str,
    /// A few words naming what the reference is about.
    pub title: &'static str,
    /// Two to five sentences in our own words, with the rulebook's numbers.
    pub summary: &'static str,
    /// Canonical ids of related references, each one in [`REFERENCES`].
    pub related: &'static [&'static str],
}

/// The kinds of reference, by the text they come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReferenceKind {
    /// A numbered `RULE-05-x` or `RULE-07-x` id.
    Rule,
    /// A section of the field manual, `ChN M.m`.
    Chapter,
    /// A RULINGS.md id (conflict, gap or worked-example error), or one of dotc's own register
    /// (`dotc D1`, docs/rulings.md).
    Ruling,
}

impl Reference {
    pub fn kind(&self) -> ReferenceKind {
        kind_of(self.id)
    }
}

/// The kind of a canonical id.
pub fn kind_of(id: &str) -> ReferenceKind {
    if id.starts_with("RULE-") {
        ReferenceKind::Rule
    } else if id.starts_with("RULINGS ") || id.starts_with("dotc ") {
        ReferenceKind::Ruling
    } else {
        ReferenceKind::Chapter
    }
}

/// The entry for an id written in any of the accepted ways, if it is known.
pub fn lookup(text: &str) -> Option<&'static Reference> {
    let id = canonical_id(text)?;
    REFERENCES.iter().find(|r| r.id == id)
}

/// The canonical form of an id, whether or not it is known: `rule 5-3.3` becomes `RULE-05-3.3`,
/// `16.5.4`, `ch16-5.4` and `Chapter 16 §5.4` become `Ch16 5.4`, `c03` becomes `RULINGS C3`.
/// `None` when the text has the shape of no kind of id.
pub fn canonical_id(text: &str) -> Option<String> {
    let lower = text
        .trim()
        .trim_matches(|c: char| matches!(c, '(' | ')' | ',' | ';' | ':' | '`' | '\'' | '[' | ']'))
        .trim_end_matches('.')
        .trim()
        .to_lowercase();
    rule_id(&lower).or_else(|| ruling_id(&lower)).or_else(|| chapter_id(&lower))
}

/// The known id closest to `text`, for a "did you mean". An id of a known shape is matched
/// within its own family first (a RULE id or section whose last number is unknown suggests the
/// nearest number of the same section); anything else by string similarity, when it is close
/// enough to be a typo.
pub fn nearest(text: &str) -> Option<&'static str> {
    if let Some(id) = canonical_id(text) {
        if let Some(known) = REFERENCES.iter().find(|r| r.id == id) {
            return Some(known.id);
        }
        if let Some(same_family) = nearest_in_family(&id) {
            return Some(same_family);
        }
        return most_similar(&id, 0.0);
    }
    most_similar(text.trim(), 0.75)
}

/// Every id of a kind, in register order.
pub fn ids_of(kind: ReferenceKind) -> impl Iterator<Item = &'static str> {
    REFERENCES.iter().filter(move |r| r.kind() == kind).map(|r| r.id)
}

// ------------------------------------------------------------------ normalising ids

/// Separators people put between the parts of an id.
fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '-' | '_' | '.' | ',' | ':' | '§' | '\u{2013}')
}

/// Leading ASCII digits as a number, and the rest.
fn number(s: &str) -> Option<(u32, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if end == 0 || end > 4 {
        return None;
    }
    let value = s[..end].parse().ok()?;
    Some((value, &s[end..]))
}

/// `RULE-05-3.3` from `rule-05-3.3`, `RULE 5-3.3`, `r05 3.3`, `05-3.3`, `rule-05-2.5A`.
fn rule_id(s: &str) -> Option<String> {
    let (rest, prefixed) = if let Some(rest) = s.strip_prefix("rule") {
        (rest.trim_start_matches(is_separator), true)
    } else if let Some(rest) = s.strip_prefix('r') {
        (rest.trim_start_matches(is_separator), true)
    } else {
        (s, false)
    };
    let (file, rest) = number(rest)?;
    if file != 5 && file != 7 {
        return None;
    }
    // Without a prefix only `05-3.3` is a rule id: `5.3.3` reads as a chapter section.
    let rest = if prefixed {
        let trimmed = rest.trim_start_matches(is_separator);
        if trimmed.len() == rest.len() {
            return None;
        }
        trimmed
    } else {
        rest.strip_prefix('-')?.trim_start_matches(' ')
    };
    let (major, rest) = number(rest)?;
    let rest = rest.strip_prefix('.')?;
    let (minor, rest) = number(rest)?;
    let suffix = match rest {
        "" => "",
        "a" => "a",
        "b" => "b",
        _ => return None,
    };
    Some(format!("RULE-{file:02}-{major}.{minor}{suffix}"))
}

/// `RULINGS C3` from `c3`, `C03`, `RULINGS C3`, `rulings-g9`, `ruling e1`.
fn ruling_id(s: &str) -> Option<String> {
    let dotc = s.strip_prefix("dotc").map(|rest| rest.trim_start_matches(is_separator));
    let rest = dotc.unwrap_or_else(|| {
        s.strip_prefix("rulings")
            .or_else(|| s.strip_prefix("ruling"))
            .map(|rest| rest.trim_start_matches(is_separator))
            .unwrap_or(s)
    });
    let mut chars = rest.chars();
    let letter = match chars.next()? {
        'c' if dotc.is_none() => 'C',
        'g' if dotc.is_none() => 'G',
        'e' if dotc.is_none() => 'E',
        // dotc's own register (docs/rulings.md).
        'd' => 'D',
        _ => return None,
    };
    let (n, rest) = number(chars.as_str())?;
    if !rest.is_empty() || n == 0 {
        return None;
    }
    Some(crate::rulings::citation(&format!("{letter}{n}")))
}

/// `Ch16 5.4` from `ch16 5.4`, `Ch 16 5.4`, `ch16-5.4`, `Ch.16 §5.4`, `chapter 16 5.4`,
/// `16.5.4`, `16 5.4`; with a prefix a bare major is a whole section (`ch16 5` is `Ch16 5.0`).
fn chapter_id(s: &str) -> Option<String> {
    let (rest, prefixed) = if let Some(rest) = s.strip_prefix("chapter") {
        (rest, true)
    } else if let Some(rest) = s.strip_prefix("ch") {
        (rest, true)
    } else {
        (s, false)
    };
    let rest = rest.trim_start_matches(is_separator);
    let (chapter, rest) = number(rest)?;
    if !(1..=16).contains(&chapter) {
        return None;
    }
    let trimmed = rest.trim_start_matches(is_separator);
    if trimmed.len() == rest.len() {
        return None;
    }
    let (major, rest) = number(trimmed)?;
    let (minor, rest) = match rest.strip_prefix('.') {
        Some(after) => number(after)?,
        None if prefixed => (0, rest),
        None => return None,
    };
    if !rest.is_empty() {
        return None;
    }
    Some(format!("Ch{chapter} {major}.{minor}"))
}

/// The family of a canonical id (all but its last number) and that last number.
fn family(id: &str) -> Option<(&str, u32)> {
    let cut = id.rfind(['.', 'C', 'G', 'E'])?;
    let (head, tail) = id.split_at(cut + 1);
    let digits = tail.trim_end_matches(['a', 'b']);
    Some((head, digits.parse().ok()?))
}

fn nearest_in_family(id: &str) -> Option<&'static str> {
    let (head, n) = family(id)?;
    REFERENCES
        .iter()
        .filter_map(|r| {
            let (h, m) = family(r.id)?;
            (h == head).then_some((n.abs_diff(m), r.id))
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, id)| id)
}

fn most_similar(text: &str, threshold: f64) -> Option<&'static str> {
    let lower = text.to_lowercase();
    let mut best: Option<(f64, &'static str)> = None;
    for reference in REFERENCES {
        let score = strsim::jaro_winkler(&lower, &reference.id.to_lowercase());
        if score >= threshold && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, reference.id));
        }
    }
    best.map(|(_, id)| id)
}

// ------------------------------------------------------------------ the register

const fn r(
    id: &'static str,
    title: &'static str,
    summary: &'static str,
    related: &'static [&'static str],
) -> Reference {
    Reference { id, title, summary, related }
}

/// Every explained reference: RULE ids, chapter sections, then RULINGS ids.
pub const REFERENCES: &[Reference] = &[
    // ---------------------------------------------------------- 05: ranged combat
    r(
        "RULE-05-1.1",
        "The ranged combat phase",
        r#"Phase 3 is the active side's shooting phase: each of its eligible infantry regiments, dismounted cavalry units and unlimbered batteries may fire. The active player chooses the order and finishes one unit's fire before starting the next."#,
        &["RULE-05-1.2", "Ch16 1.0", "Ch16 5.1"],
    ),
    r(
        "RULE-05-1.2",
        "Who may fire",
        r#"A unit shoots in Phase 3 only if it held position in Phase 2 (no Advance or Double-Time), took no part in an assault, is not locked in melee, is not in road column, and sees an enemy inside its 45-degree front arc. Wheeling, pivoting or changing formation still allows fire, at -1 to hit. A unit that used Opportunity Fire in the enemy's last turn may not fire unless it has since left its smoke."#,
        &["Ch16 5.1", "RULE-05-1.1", "RULINGS C19", "RULINGS G11"],
    ),
    r(
        "RULE-05-1.3",
        "Choosing a target",
        r#"The firer names a single enemy regiment, battery or structure before any dice are rolled. It must take the nearest enemy in its 45-degree arc that is not locked in melee, with two exceptions: it may pass over a nearer frontal target to rake an exposed flank in effective range, and artillery may pass over skirmish stands to reach formed lines, columns or batteries."#,
        &["Ch16 4.5", "RULE-05-1.5", "RULINGS C16"],
    ),
    r(
        "RULE-05-1.4",
        "Measuring range; the firing arc",
        r#"Range runs from the middle of the front edge of the Color Stand (for a battery, its centre gun) to the nearest stand of the target. The arc of fire is a 45-degree cone opening outward from the unit's two front corners."#,
        &["RULINGS G4", "RULINGS G13", "Ch16 4.5"],
    ),
    r(
        "RULE-05-1.5",
        "Enfilade",
        r#"A target is enfiladed when the firer is wholly behind the line drawn out at 90 degrees from the target's front corner. Raking fire along such a line gets +1 to hit on every die, and the target gets no Light cover save from frontal linear obstacles such as rail fences or low walls."#,
        &["RULINGS C15", "Ch16 4.5", "Ch16 5.6", "RULINGS G13"],
    ),
    r(
        "RULE-05-2.1",
        "Dice pools",
        r#"Fire is one die per firing stand: a line of battle rolls for every front-rank stand (5 stands, 5D6), an assault column only for its front stands (usually 2D6), and each skirmish stand rolls one die. An unlimbered battery rolls 2D6 per section, so a full battery of 2 sections rolls 4D6."#,
        &["RULE-05-2.2", "RULE-05-2.3", "Ch16 3.2", "RULINGS G16"],
    ),
    r(
        "RULE-05-2.2",
        "Small arms to-hit numbers",
        r#"Every die equal to or above the weapon's number for the range band scores a hit. The section prints only the table's caption; the numbers are those of Ch16 5.2: smoothbore 3+ short, 5+ medium, no long range; rifled musket 4+, 4+, 5+; repeater 3+, 4+, 5+ with 2 extra dice; breechloader 4+, 4+, 5+ with an extra die per 2 stands (short 0-6", medium 6-14", long 14-20")."#,
        &["Ch16 5.2", "RULINGS G21", "RULINGS C21"],
    ),
    r(
        "RULE-05-2.3",
        "Artillery to-hit numbers",
        r#"A battery rolls 2D6 per section and hits on dice at or above the piece's number for the band. The table here is a caption only; Ch16 5.3 supplies it: Napoleon 2+ with canister (0-6"), 4+ to 18", 5+ to 30"; Ordnance and Parrott rifles 3+, 4+ to 20", 4+ to 36"; howitzer 2+, 4+ to 16", 5+ to 24"."#,
        &["Ch16 5.3", "RULINGS G21", "RULE-05-2.1"],
    ),
    r(
        "RULE-05-2.4",
        "Concentrated battery fire",
        r#"For 1 Staff Pip spent in Phase 1, up to 3 artillery sections of the same brigade combine their dice into one barrage at a single target. The target rolls all its cover saves at -1."#,
        &["Ch16 2.3", "Ch16 5.6", "RULINGS C18"],
    ),
    r(
        "RULE-05-2.5",
        "A number printed twice",
        r#"The ranged combat section gives the number 2.5 to two different rules, so dotc keys them RULE-05-2.5a (an assault column saves at -1 against all artillery) and RULE-05-2.5b (optional Low Ammunition). A plain RULE-05-2.5 in older citations means the first of the two."#,
        &["RULE-05-2.5a", "RULE-05-2.5b", "RULINGS G21"],
    ),
    r(
        "RULE-05-2.5a",
        "Artillery against assault columns",
        r#"A regiment in a deep assault column is an easy target for round shot and canister. It takes -1 on its cover saves against every kind of artillery fire: canister, shell and solid shot."#,
        &["RULINGS C30", "Ch16 3.2", "Ch8 5.0", "RULE-05-2.5"],
    ),
    r(
        "RULE-05-2.5b",
        "Low ammunition (optional)",
        r#"A regiment or battery that rolls two or more natural 1s in one volley takes a Low Ammo marker at once. Until it spends a turn out of action resupplying from the brigade train, all its shooting dice are at -1. dotc applies this only with the low_ammo module, to every unit (RULINGS C14)."#,
        &["Ch16 11.0", "RULINGS C14", "Ch12 4.0", "Ch9 4.0"],
    ),
    r(
        "RULE-05-3.1",
        "Cover saves",
        r#"The target rolls one die as a cover save for each hit it takes; each failed save is an unsaved hit that costs men. A target in the open gets no save at all."#,
        &["RULE-05-3.2", "RULE-05-3.3", "Ch16 5.4"],
    ),
    r(
        "RULE-05-3.2",
        "Cover categories",
        r#"Open ground and pasture give no save. Light cover saves on 5+: rail or snake fences, orchards, cornfields, light woods, sunken tracks and low earth banks, and any target in skirmish order. Heavy cover saves on 4+: stone walls, sunken roads, breastworks and field works, and stone farm buildings or masonry town blocks."#,
        &["Ch16 5.4", "Ch16 4.1", "RULINGS G17", "RULE-05-3.1"],
    ),
    r(
        "RULE-05-3.3",
        "Two hits remove a stand",
        r#"Every 2 unsaved hits remove one stand (60-75 men) for good, taken from the outer flanks so that the Color Stand goes last. An odd hit is kept as a micro-hit on a small die behind the Color Stand; it carries over and pairs with the next hit to remove another stand."#,
        &["RULE-05-3.4", "Ch16 5.4", "RULE-07-3.4", "RULINGS G5"],
    ),
    r(
        "RULE-05-3.4",
        "A regiment shatters at one stand",
        r#"An infantry regiment brought down to its last stand shatters at once: that stand is removed and its loss counts on the brigade's faltering clock. dotc applies this to infantry only, not to batteries (RULINGS G19)."#,
        &["Ch16 5.4", "Ch16 8.1", "RULINGS G5", "RULINGS G19"],
    ),
    r(
        "RULE-05-4.1",
        "The Shock trigger",
        r#"Heavy fire can shake a target as well as thin it. At short range (0-6") a single natural 6 on the to-hit dice is a Shock trigger; beyond 6" it takes two natural 6s in the same volley."#,
        &["RULE-05-4.2", "Ch16 5.5", "RULINGS C3", "RULINGS G4"],
    ),
    r(
        "RULE-05-4.2",
        "The discipline save against Shock",
        r#"A Shock trigger makes the target roll a discipline check on 1D6 at once: Veteran passes on 3+, Regular on 4+, Green on 5+. It gets +1 if Fresh (over 75% of its stands) and +1 in Light or Heavy cover, and -1 if Spent (under 35%) or under crossfire from more than one enemy unit this phase. A failure gives it a Disorder marker."#,
        &["RULE-05-4.1", "Ch16 5.5", "RULINGS C3", "RULINGS G9", "RULE-07-1.4"],
    ),
    r(
        "RULE-05-4.3",
        "Timing, and extra 6s",
        r#"The discipline save is rolled straight away, whatever the cover saves against casualties turn out to be. Rolling more 6s than the trigger needs forces no second save, but every 6 still scores as a hit."#,
        &["RULE-05-4.1", "RULINGS G1"],
    ),
    r(
        "RULE-05-4.4",
        "What Disorder does",
        r#"A Disordered unit may not Double-Time and moves 2" less, shoots at -1 to hit, may not declare an assault, and fights melee at -2. If it must retreat from a melee while already Disordered it takes a micro-hit under the Double Disorder rule rather than routing."#,
        &["RULE-07-3.1", "RULE-07-3.4", "RULINGS C6", "RULINGS C1", "Ch16 7.3"],
    ),
    r(
        "RULE-05-5.1",
        "Placing gunsmoke",
        r#"A stationary regiment or unlimbered battery that fires a volley in Phase 3, or Opportunity Fire in Phase 2, gets a smoke marker. The marker, a 1" tuft, sits against the middle of the unit's front edge."#,
        &["Ch16 5.7", "RULE-05-5.2", "RULINGS G11"],
    ),
    r(
        "RULE-05-5.2",
        "Smoke obscuration",
        r#"A line of sight longer than 6" that enters, leaves or crosses a smoke marker costs -1 to hit, for infantry and artillery alike. It applies to the unit that made the smoke as much as to any friend or enemy shooting through it. Smoke never hinders movement, only sight."#,
        &["Ch16 5.7", "RULE-05-5.3", "Ch16 5.6", "RULINGS G11"],
    ),
    r(
        "RULE-05-5.3",
        "Smoke at point-blank range",
        r#"At 6" or less the flashes, flags and advancing lines are plain to see through the smoke. Fire at a target within 6" ignores every smoke penalty."#,
        &["RULE-05-5.2", "RULINGS G4"],
    ),
    r(
        "RULE-05-5.4",
        "Clearing smoke",
        r#"A smoke marker is removed in three cases: at once when its unit moves forward in Phase 2; in Phase 5 if the unit held its fire for a whole active phase; or at the end of every player's turn when the scenario has a Brisk Wind. By default dotc clears smoke in no other way (RULINGS C17)."#,
        &["Ch16 5.7", "RULINGS C17", "RULINGS G11"],
    ),
    r(
        "RULE-05-5.5",
        "Smoke walls",
        r#"When three or more adjacent regiments of one brigade fire from standing positions, their smoke merges into one wall. Sight through the wall is blocked entirely beyond 8", so long-range guns cannot pick out the units behind it."#,
        &["Ch16 5.7", "RULINGS C32"],
    ),
    r(
        "RULE-05-6.1",
        "No firing through friends",
        r#"A formed line or battery never fires through another formed friendly unit. If friends block part of the arc to the target, the firer either chooses a clear target or rolls only for the stands that still see it."#,
        &["Ch16 4.5", "RULE-05-6.2"],
    ),
    r(
        "RULE-05-6.2",
        "Firing through a skirmish screen",
        r#"A regiment in line of battle may fire through its own detached skirmish screen. The screen's interference costs the volley -1 to hit."#,
        &["Ch16 3.4", "Ch16 5.6", "RULINGS G12"],
    ),
    r(
        "RULE-05-6.3",
        "Overhead artillery fire",
        r#"A battery on level 1 or 2 ground may fire shell or solid shot over friends on level 0 if they are at least 6" from its muzzles and at least 4" from the target. Canister (0-6") may never be fired over friendly troops."#,
        &["Ch16 4.4", "RULINGS C2", "Ch8 5.0", "Ch13 7.0"],
    ),
    r(
        "RULE-05-7.0",
        "Shooting modifiers matrix",
        r#"The section's summary of modifiers. To hit: firer Disordered -1, enfilade or flank +1 (and no fence save), through or out of smoke beyond 6" -1, through a friendly screen -1. Saves: Light cover and skirmish order 5+, Heavy cover 4+, road column -2, concentrated battery fire -1; the table's header row is missing, and Ch16 5.6 is the complete version."#,
        &["Ch16 5.6", "RULINGS G21", "RULINGS G1"],
    ),
    // ---------------------------------------------------------- 07: morale and leaders
    r(
        "RULE-07-1.1",
        "Health follows the stands",
        r#"How well a regiment fights, resists shock and keeps discipline is read straight from the share of its starting stands still on the table. There are no rosters or hit points beyond the stands themselves."#,
        &["RULE-07-1.2", "Ch16 8.1"],
    ),
    r(
        "RULE-07-1.2",
        "Health states",
        r#"Each regiment is in a health state set by its stands left against its starting strength. The text speaks of three states but prints only the table's caption; Ch16 8.1 gives Fresh over 75% (+1 in melee), Worn 35-75%, Spent under 35% or 2 stands (-1), and Shattered at 1 stand. dotc reconciles the percentages with the stand counts as RULINGS C4 describes."#,
        &["Ch16 8.1", "RULINGS C4", "RULE-07-1.3", "RULINGS G21"],
    ),
    r(
        "RULE-07-1.3",
        "Health by stand count",
        r#"The stand-by-stand breakdown this rule announces is printed only as a caption. Use the Ch16 8.1 table: a 5-stand regiment is Fresh at 5 or 4 stands, Worn at 3, Spent at 2 and Shattered at 1, and an 8-stand one is Fresh at 8 or 7 and Worn from 6 to 3."#,
        &["Ch16 8.1", "RULINGS C4", "RULINGS G21"],
    ),
    r(
        "RULE-07-1.4",
        "The discipline check",
        r#"A unit in a morale crisis (losses from a closing volley, a passage of lines, fire taken while Spent) rolls 1D6 against its quality. Veteran or Elite pass on 3+, Regular on 4+, Green or Conscript on 5+."#,
        &["RULE-07-1.5", "RULE-05-4.2", "Ch16 5.5", "RULINGS C8", "RULINGS G1"],
    ),
    r(
        "RULE-07-1.5",
        "Failing a discipline check",
        r#"A charging unit that fails stops 2" short of its target with a Disorder marker. A stationary unit, or one in a firefight, falls back 3" straight away from the enemy and is Disordered; if it was Disordered already it falls back 3" and takes a micro-hit instead. dotc uses this result only where the check's own rule states none (RULINGS C5)."#,
        &["RULINGS C5", "RULE-07-3.4", "Ch16 7.2"],
    ),
    r(
        "RULE-07-2.1",
        "Brigades collapse together",
        r#"Brigades rarely fought until every regiment was gone; mounting losses, fallen officers and empty cartridge boxes broke them as a whole. The Brigade Faltering Clock models that collective exhaustion."#,
        &["RULE-07-2.2", "Ch16 8.2"],
    ),
    r(
        "RULE-07-2.2",
        "Counting brigade losses",
        r#"At setup a brigade's total is the sum of the infantry stands of all its regiments. Each stand any of them loses to shooting or melee moves the tally die on the brigadier's base up by 1."#,
        &["RULINGS G5", "Ch16 8.2", "RULE-07-2.3"],
    ),
    r(
        "RULE-07-2.3",
        "Hesitant at about 30%",
        r#"When a brigade's losses reach or pass 30% of its starting stands it becomes Hesitant at once, marked on the brigadier's base. Its regiments may not assault or Double-Time, its regiments and attached batteries shoot at -1 to hit in Phase 3, and every unit takes -1 on discipline checks."#,
        &["Ch16 8.2", "RULINGS G6", "RULINGS C12", "RULINGS C13", "RULE-07-2.4"],
    ),
    r(
        "RULE-07-2.4",
        "Broken at 50%",
        r#"At 50% losses or more the brigade is Broken (Whipped): it forfeits its remaining Staff Pips and every regiment and battery takes a Disorder marker. From then on each unit spends every movement phase retreating 6" toward its own table edge. Broken units cannot shoot, rally or start a melee, and one that is charged routs and is removed."#,
        &["Ch16 8.2", "RULINGS G6", "RULINGS G14", "RULINGS C12"],
    ),
    r(
        "RULE-07-2.5",
        "Brigade threshold table",
        r#"The table of brigade sizes against thresholds is a caption only here; Ch16 8.2 gives it. Brigades of 16, 20, 24, 28 and 32 stands turn Hesitant at 5, 6, 7, 8 and 10 stands lost and break at 8, 10, 12, 14 and 16."#,
        &["Ch16 8.2", "RULINGS G6", "RULINGS C11", "RULINGS G21"],
    ),
    r(
        "RULE-07-3.1",
        "Disorder",
        r#"A Disordered regiment has lost its formation to smoke, fire and confusion. The rule lets it only hold, shoot at reduced effect, fall back or wait to rally: no Advance, Double-Time or assault. dotc's default follows RULE-05-4.4 instead and lets it move at -2" (RULINGS C6)."#,
        &["RULE-05-4.4", "RULINGS C6", "RULE-07-3.2", "RULE-07-3.3"],
    ),
    r(
        "RULE-07-3.2",
        "Command rally",
        r#"In Phase 1 or Phase 5 a brigadier may spend 1 unspent Staff Pip to remove one Disorder marker from a regiment within his 12" command radius, or 2 pips for one further away. No dice are rolled."#,
        &["Ch16 8.3", "Ch16 2.3", "RULINGS C10"],
    ),
    r(
        "RULE-07-3.3",
        "Natural rally",
        r#"In Phase 5 a Disordered regiment that got no pip rally may roll to rally if it is not in contact with the enemy, did not move, assault or fire this turn, and lost nothing to enemy fire this turn. It rallies on 3+ if Veteran or Elite, 4+ if Regular and 5+ if Green; on a failure it stays Disordered."#,
        &["Ch16 8.3", "RULINGS C20"],
    ),
    r(
        "RULE-07-3.4",
        "Double Disorder",
        r#"A unit never carries more than one Disorder marker. Anything that would give an already Disordered unit a second one (a failed terrain or discipline check, a lost melee) costs it a micro-hit instead, which counts toward its next stand loss."#,
        &["Ch16 8.3", "RULE-05-3.3", "RULE-05-4.4", "RULINGS C1"],
    ),
    r(
        "RULE-07-3.5",
        "Reforming worn lines",
        r#"A regiment that neither moves nor fires for two full consecutive turns, out of enemy sight, unengaged and more than 12" from the nearest enemy, may remove its micro-hit. Stands already lost never return during the battle."#,
        &["Ch12 5.0"],
    ),
    r(
        "RULE-07-4.1",
        "What commanders do",
        r#"A brigadier commands 3-6 regiments with their attached guns, makes 1-4 Staff Pips a turn and has a 12" command radius. A division or corps commander, on a 1.5" square base, has an 18" radius and once a turn may grant one brigadier within it a bonus pip."#,
        &["Ch16 2.1", "Ch16 2.2"],
    ),
    r(
        "RULE-07-4.2",
        "Attaching a brigadier",
        r#"A brigadier attaches to an infantry or cavalry regiment by moving into contact with its Color Stand. The regiment then gets +1 on its opposed melee roll and +1 on every discipline check, and may assault even while Spent."#,
        &["Ch16 2.4", "Ch16 7.1", "RULE-07-4.3"],
    ),
    r(
        "RULE-07-4.3",
        "When an attached leader is at risk",
        r#"An attached brigadier rolls on the leader casualty table at once when his regiment loses a stand to fire or melee. He also rolls when the regiment is shot at and the firer rolls a natural 6 to hit."#,
        &["RULE-07-4.4", "Ch16 2.4", "RULINGS C9", "RULINGS G18"],
    ),
    r(
        "RULE-07-4.4",
        "Leader casualty table",
        r#"The table is missing from this section; Ch16 2.4 supplies it. On 1D6: 1-3 no harm; 4 lightly wounded, one pip fewer on every later turn; 5 severely wounded or captured, removed, and a colonel takes over using the Timid formula; 6 killed, the regiment is Disordered, the brigade loses its unspent pips this turn and the replacement colonel is Timid for good."#,
        &["Ch16 2.4", "RULINGS C9", "RULINGS G21"],
    ),
    r(
        "RULE-07-4.5",
        "A lone brigadier as a target",
        r#"A brigadier's stand on its own may be shot at only when it is the nearest visible enemy and within 6" of the firer. Caught in the open by a charge with no regiment attached, it must make a 6" evasion at once or be captured."#,
        &["RULE-07-4.2"],
    ),
    // ---------------------------------------------------------- Ch16: quick reference
    r(
        "Ch16 1.0",
        "Sequence of play",
        r#"A turn has five phases: 1 Staff & Command (both sides: pips, orders, command ranges, rallies); 2 Maneuver & Assault (the active side moves and declares charges, the other may react); 3 Ranged Combat (the active side's volleys, smoke placed); 4 Assault & Melee (both sides); 5 Status, Smoke & Morale (faltering, natural rallies, smoke). After Phase 5 the sides swap roles and the turn counter advances."#,
        &["RULINGS G7", "RULINGS C12", "RULINGS C17", "RULINGS C33"],
    ),
    r(
        "Ch16 2.0",
        "Staff pips and command",
        r#"The command part of the quick reference. It covers pip generation (2.1), the command radius tiers (2.2), the special orders and their costs (2.3), and attached leaders with the leader casualty table (2.4)."#,
        &["Ch16 2.1", "Ch16 2.2", "Ch16 2.3", "Ch16 2.4"],
    ),
    r(
        "Ch16 2.1",
        "Pip generation",
        r#"Each brigadier rolls his pips in Phase 1: Aggressive 1D3+1 (2-4), Reliable 1D3 (1-3), Timid 1D3 halved and rounded up (1-2). At most one unspent pip may be kept for the next turn; the rest are lost. Once a turn a division or corps commander may give one brigadier within 18" a bonus pip."#,
        &["RULINGS G2", "RULINGS G8", "RULE-07-4.1"],
    ),
    r(
        "Ch16 2.2",
        "Command radius tiers",
        r#"Distance runs from any edge of the brigadier's base to the middle of the Color Stand's front edge. Bugle range (0-6") and courier range (6.1-12") pay the normal cost with full benefits; distant courier (12.1-24") pays double and takes -1 on discipline checks. Beyond 24" a unit is out of communication: it can receive no pips, takes -1 on checks, and its free moves are limited to an inertia advance or falling back."#,
        &["RULINGS C10", "RULINGS G8", "Ch16 2.3"],
    ),
    r(
        "Ch16 2.3",
        "Special orders and their pip costs",
        r#"Regimental assault 1 pip (Phase 2, charge at 9"); a "Dress on the Colors" assault by several regiments within 1" of each other 2 pips; Double-Time 1 pip for +3"; command rally 1 pip within 12" or 2 beyond (Phase 1 or 5); concentrated battery fire 1 pip for up to 3 sections, target saving at -1; reserve for reaction 1 pip banked in Phase 1 for Refuse the Flank or Counter-Charge. Free of pips: a normal advance, one wheel of up to 45 degrees, a change of formation, hold and fire, limbering or unlimbering."#,
        &["Ch16 7.1", "Ch16 6.0", "RULINGS C18", "RULINGS G8"],
    ),
    r(
        "Ch16 2.4",
        "Attached brigadier and leader casualties",
        r#"A brigadier touching a regiment's Color Stand gives it +1 in melee and +1 on discipline checks, and it ignores out-of-command penalties. If that regiment loses a stand, or the enemy rolls a natural 6 to hit it, roll 1D6: 1-3 unhurt; 4 lightly wounded, -1 pip on every later turn; 5 severely wounded or captured, removed, and a colonel takes over with the Timid formula; 6 killed, the regiment is Disordered, the brigade loses this turn's unspent pips and the replacement is Timid for good."#,
        &["RULE-07-4.3", "RULE-07-4.4", "RULINGS C9", "RULINGS G18"],
    ),
    r(
        "Ch16 3.0",
        "Movement and formations",
        r#"The movement part of the quick reference. It covers the movement rates (3.1), the formations (3.2), special moves such as passage of lines (3.3) and skirmish screens (3.4)."#,
        &["Ch16 3.1", "Ch16 3.2", "Ch16 3.3", "Ch16 3.4"],
    ),
    r(
        "Ch16 3.1",
        "Movement rates",
        r#"Open / woods or rough / road / obstacle / charge, in inches: infantry line 6/4/6/-2/9; assault column 8/5/9/-2/9; road column 10/6/12/-1, no charge; mounted cavalry line 9/5/10/-3/12; cavalry column 10/6/14, no charge; limbered artillery 8/3/12/-4; guns by prolonge 2/0/2, obstacles impassable; limbered horse artillery 10/4/14/-3; mounted brigadier 12/8/16, obstacles free; dismounted cavalry 5/4/6, obstacles free. A formed unit in command may always move at least 2", except across impassable water."#,
        &["RULINGS C24", "RULINGS C25", "Ch16 3.2", "Ch16 4.1"],
    ),
    r(
        "Ch16 3.2",
        "Formations",
        r#"Line of battle moves 6", fires with every stand, is 5" wide with 5 stands, and is open to enfilade. Assault column moves 8", fires with its front 2 stands, is 2" wide, gets +1 in melee and -1 on saves against artillery. Road column moves 10-12", cannot fire or assault, is 1" wide and saves at -2 when shot. Changing between line and assault column costs half the move (3") and the rest may be used in the new formation; deploying from road column into line takes the whole move."#,
        &["RULE-05-2.1", "RULE-05-2.5a", "Ch16 3.1", "RULINGS C30"],
    ),
    r(
        "Ch16 3.3",
        "Special movement",
        r#"In a passage of lines both the moving and the stationary unit test discipline at 4+, and a failure Disorders. Falling back in good order is a move of up to 3" straight back, still facing the front, and keeps full firing rights. An about face costs 1" and the unit may not fire in Phase 3; neighbouring regiments keep 0.5-1" apart."#,
        &["RULINGS C8", "RULINGS C19", "RULINGS C5"],
    ),
    r(
        "Ch16 3.4",
        "Skirmish screens",
        r#"A regiment may send one stand 2-3" ahead as a screen, for half its movement. Enemy fire at the parent through the screen is at -1 to hit, and the screen takes the first unsaved hit and is removed after 2. Calling it back is free if the parent stays still in Phase 2."#,
        &["RULINGS G12", "Ch10 1.0", "RULE-05-6.2"],
    ),
    r(
        "Ch16 4.0",
        "Terrain, elevation and line of sight",
        r#"The terrain part of the quick reference. It covers terrain types (4.1), linear obstacles (4.2), buildings (4.3), elevation and dead ground (4.4), and sight, arcs and target priority (4.5)."#,
        &["Ch16 4.1", "Ch16 4.2", "Ch16 4.3", "Ch16 4.4", "Ch16 4.5"],
    ),
    r(
        "Ch16 4.1",
        "Terrain types",
        r#"Open ground: normal moves, no save, clear sight; a ploughed field or mud: -2" and -1" off charges, no save; a minor stream: -2", no save, and a charge stops at the bank. Cornfields: -2", Light save, sight blocked beyond 4"; orchards and light woods: at most 4", Light save, sight blocked beyond 6", lines enter without disorder. Dense woods: at most 3", Light save, sight blocked beyond 3", formed lines Disorder to enter while skirmishers move freely. A major river is impassable except at bridges and fords, and a sunken road takes a full turn to leave, saves at 4+ (Heavy) and gives +2 in melee defence."#,
        &["RULE-05-3.2", "RULINGS C24", "RULINGS G17", "Ch16 4.2"],
    ),
    r(
        "Ch16 4.2",
        "Linear obstacles",
        r#"Rail or snake fence: 2" to cross, Light save, +1 in melee, can be pulled down in a full phase. Stone wall: 2" plus a 4+ discipline check (Disorder on a failure), Heavy save, +2 in melee. Hedge: 2", Light save, no melee effect, hides troops behind it. Abatis: 3" to cross, no save, -2 in melee and no charging momentum; breastworks: Heavy save, +2 in melee, and no flank shock when anchored."#,
        &["RULINGS C25", "RULINGS C29", "RULINGS G17", "Ch16 4.1"],
    ),
    r(
        "Ch16 4.3",
        "Buildings",
        r#"A masonry building holds up to 2 stands of infantry or dismounted cavalry, gives Heavy cover (4+) and +2 in melee defence, and ignores flank melee penalties. Its garrison fires all round, one die per stand. Solid shot damages it on 4+; at 4 structural hits it collapses, the garrison loses a stand and the rest are placed outside, Disordered, in light rubble (5+ save)."#,
        &["Ch16 5.4", "RULE-05-3.2"],
    ),
    r(
        "Ch16 4.4",
        "Elevation and dead ground",
        r#"Units more than 1" behind a crest cannot be seen, shot or charged by units at the foot of the hill until these reach the crest. Fighting downhill from a crest gives +1 in melee, and charging uphill at a crest defender costs -1. A battery on level 1 or higher may fire over friends on level 0 who are at least 6" from its muzzles and 4" from the target, but never with canister."#,
        &["RULE-05-6.3", "RULINGS C2", "RULINGS G17"],
    ),
    r(
        "Ch16 4.5",
        "Line of sight and firing arcs",
        r#"The firing arc is a 45-degree cone from the front corners, and no unit fires through formed friends. Target priority: the nearest unengaged enemy in the arc, a charging enemy first, and flank targets in effective range ahead of others. Enfilade here needs more than half the firer's stands behind the target's 90-degree line and gives +1 to hit with no fence or Light cover save; dotc follows the stricter RULE-05-1.5 (RULINGS C15)."#,
        &["RULE-05-1.3", "RULE-05-1.5", "RULINGS C15", "RULINGS C16", "RULINGS G13"],
    ),
    r(
        "Ch16 5.0",
        "Ranged combat and gunsmoke",
        r#"The shooting part of the quick reference. It covers eligibility (5.1), small arms (5.2), artillery (5.3), cover and casualties (5.4), suppression (5.5), modifiers (5.6) and smoke (5.7); `dotc odds fire` computes a volley from them."#,
        &["Ch16 5.1", "Ch16 5.2", "Ch16 5.3", "Ch16 5.4", "Ch16 5.5", "Ch16 5.6", "Ch16 5.7"],
    ),
    r(
        "Ch16 5.1",
        "Firing eligibility",
        r#"A unit fires in Phase 3 if it did not move in Phase 2 (a pivot or re-forming allows fire at -1 to hit), took no part in an assault, is not in melee contact, is not in road column, and has a clear line of sight within its 45-degree front arc. RULE-05-1.2 adds the limit after Opportunity Fire."#,
        &["RULE-05-1.2", "RULINGS C19"],
    ),
    r(
        "Ch16 5.2",
        "Small arms profiles",
        r#"One die per stand; short 0-6", medium 6-14", long 14-20". Smoothbore musket 3+, 5+, out of range; rifled musket 4+, 4+, 5+; repeating rifle 3+, 4+, 5+ with 2 bonus dice; breechloading carbine 4+, 4+, 5+ with 1 bonus die per 2 stands firing."#,
        &["RULE-05-2.2", "RULINGS C21", "RULINGS G16", "Ch16 10.3"],
    ),
    r(
        "Ch16 5.3",
        "Artillery profiles",
        r#"Two dice per section. 12-pdr Napoleon: canister (0-6") 2+, medium 4+ (6-18"), long 5+ (18-30"), and its canister hits Disorder automatically. 3-inch Ordnance rifle and 10/20-pdr Parrott: 3+, 4+ (6-20"), 4+ (20-36"), the Parrott with +1 damage against stone structures and forts. 12/24-pdr howitzer: 2+, 4+ (6-16"), 5+ (16-24"), ignoring Light cover saves behind ridges and fences."#,
        &["RULE-05-2.3", "Ch8 2.0", "Ch16 10.4"],
    ),
    r(
        "Ch16 5.4",
        "Cover saves and casualties",
        r#"Open ground gives no save; Light cover saves on 5+ (fences, orchards, cornfields, skirmish screens) and Heavy cover on 4+ (stone walls, sunken roads, earthworks, masonry buildings). Every 2 unsaved hits remove a stand, and an odd hit is kept as a micro-hit behind the Color Stand. An infantry regiment left with 1 stand is Shattered and removed."#,
        &["RULE-05-3.2", "RULE-05-3.3", "RULE-05-3.4", "RULINGS G17"],
    ),
    r(
        "Ch16 5.5",
        "Suppression and the Shock trigger",
        r#"At 0-6" one natural 6 to hit triggers Shock; beyond 6" it takes two natural 6s in the same volley. The target then rolls a discipline save: Veteran or Elite 3+, Regular 4+, Green 5+, with +1 if Fresh (over 75%), -1 if Spent (under 35%), +1 in any cover and -1 in crossfire. A failure gives a Disorder marker at once."#,
        &["RULE-05-4.1", "RULE-05-4.2", "RULINGS C3", "RULINGS G9"],
    ),
    r(
        "Ch16 5.6",
        "Shooting modifiers",
        r#"To hit: firer Disordered -1, enfilade or flank +1, through or out of smoke beyond 6" -1, through a friendly skirmish screen -1. Saves: target in road column -2, concentrated battery order -1, enfilade denies Light cover saves, and a target in skirmish order saves on 5+ even in the open. Other -1s come from a Hesitant brigade (Ch16 8.2) and a pivot before firing (Ch16 5.1)."#,
        &["RULE-05-7.0", "RULINGS G1", "RULINGS C15", "RULINGS C13"],
    ),
    r(
        "Ch16 5.7",
        "Gunsmoke",
        r#"A stationary regiment or unlimbered battery that fires in Phase 3, or as Opportunity Fire, places a smoke marker. Sight through smoke over more than 6" is at -1 to hit; within 6" there is no penalty. Three or more adjacent regiments firing make a smoke wall that blocks sight beyond 8". Smoke goes when the unit moves forward in Phase 2, in Phase 5 if it held its fire for the whole active phase, or at the end of each active turn in a Brisk Wind."#,
        &["RULE-05-5.1", "RULE-05-5.4", "RULE-05-5.5", "RULINGS C17", "RULINGS C32"],
    ),
    r(
        "Ch16 6.0",
        "Defensive reactions",
        r#"Reactions happen only in Phase 2, one per triggering enemy action. Closing Volley (free, enemy charges to within 4"): a hit or a natural 6 makes the charger test or stall 2" away Disordered; Opportunity Fire (free, enemy crosses the front arc within 8"): an immediate volley that places smoke and counts as firing. Skirmish Evade (free, formed enemy within 6"): the screen falls back 4-6" through friends without disorder. Refuse the Flank (a reserved pip or a 4+ check, enemy in the 45-90 degree flank zone): the outer 1-2 stands wheel 45 degrees, cancelling enfilade +1 and flank melee +2; Counter-Charge (a reserved pip, enemy charges from within 9"): surge 2-3" forward, cancelling the attacker's momentum and using your own shock traits."#,
        &["RULINGS C33", "RULINGS C7", "Ch16 7.2", "RULINGS G11"],
    ),
    r(
        "Ch16 7.0",
        "Assaults and melee",
        r#"The assault part of the quick reference. It covers declaring an assault (7.1), the 4" interruption line (7.2), the opposed shock roll (7.3) and the outcomes (7.4); `dotc odds melee` and `dotc odds assault` compute them."#,
        &["Ch16 7.1", "Ch16 7.2", "Ch16 7.3", "Ch16 7.4"],
    ),
    r(
        "Ch16 7.1",
        "Declaring an assault",
        r#"An assault costs 1 pip, or 2 for a coordinated push by several regiments. The unit must be in line or assault column, not Disordered, and Fresh or Worn (a Spent unit needs an attached brigadier). The target must lie in its 45-degree front arc and within charge reach: 9" for infantry, 12" for cavalry."#,
        &["Ch16 2.3", "RULE-07-4.2", "RULE-07-2.3"],
    ),
    r(
        "Ch16 7.2",
        "The 4-inch interruption line",
        r#"The charger halts 4" from its target while the defender fires a closing volley. If that volley costs it a stand or a Disorder marker, the charger takes a discipline check. On a pass it closes the last 4" into contact; on a failure it stops 2" away, Disordered, and the assault is over."#,
        &["RULINGS C7", "RULINGS G10", "Ch6 3.0", "Ch16 6.0"],
    ),
    r(
        "Ch16 7.3",
        "The opposed melee roll",
        r#"Both sides roll at once and score 1D6 + engaged stands + modifiers; the higher score wins and equal scores are a Bloody Draw. Either side: Fresh +1, Spent -1, Disordered -2, brigadier attached +1. Attacker: charging momentum over 3" or more of open ground +1, assault column +1, Rebel Yell +1 (also on a counter-charge), flank or rear attack +2, mounted cavalry against infantry in the open +1. Defender: heavy earthworks, stone wall or sunken road +2; light cover, fence or crest +1."#,
        &["Ch16 7.4", "RULINGS G3", "RULINGS C22", "RULINGS C29", "Ch16 8.1"],
    ),
    r(
        "Ch16 7.4",
        "Melee outcomes",
        r#"A draw gives both units a micro-hit and a Disorder marker, and they stay locked in contact. The loser loses a stand, retreats 6" straight back and is Disordered; the winner loses nothing and may make a free 2" consolidation move (advance, pivot up to 45 degrees or dress ranks). A Fresh attacker that wins by 4 or more and routs or destroys the defender may pay 1 more pip for a 4" sweeping advance against another target."#,
        &["RULINGS C1", "RULE-07-3.4", "Ch7 5.0", "Ch16 7.3"],
    ),
    r(
        "Ch16 8.0",
        "Morale, discipline and the brigade clock",
        r#"The morale part of the quick reference. It covers regimental health states (8.1), the brigade faltering clock (8.2), and rallies and Double Disorder (8.3)."#,
        &["Ch16 8.1", "Ch16 8.2", "Ch16 8.3"],
    ),
    r(
        "Ch16 8.1",
        "Regimental health states",
        r#"Fresh: over 75% of starting stands, +1 in melee, may assault. Worn: 35-75%, +0. Spent: under 35% (2 stands), -1, assaults only with a brigadier attached, and tests discipline when fired on; Shattered: 1 stand, removed at once. The stand table: 8 stands Fresh 8-7, Worn 6-3; 6 stands Fresh 6-5, Worn 4-3; 5 stands Fresh 5-4, Worn 3; 4 stands Fresh 4, Worn 3; 3 stands Fresh 3, no Worn; at every size 2 stands are Spent and 1 Shattered (dotc's combined reading is RULINGS C4)."#,
        &["RULINGS C4", "RULE-07-1.2", "RULE-07-1.3", "Ch1 4.0"],
    ),
    r(
        "Ch16 8.2",
        "Brigade faltering clock",
        r#"A brigade is Fresh at 0-29% of its stands lost. Hesitant at 30-49%: no assaults or Double-Time, -1 to hit, -1 on discipline checks; Broken (Whipped) at 50% or more: every unit Disordered and retreating 6" a turn toward its table edge, no shooting or rallying, routed if charged. The reference rows give Hesitant and Broken losses of 5 and 8 for 16 stands, 6 and 10 for 20, 7 and 12 for 24, 8 and 14 for 28, and 10 and 16 for 32."#,
        &["RULE-07-2.3", "RULE-07-2.4", "RULINGS G6", "RULINGS C11", "RULINGS C13"],
    ),
    r(
        "Ch16 8.3",
        "Rallying and Double Disorder",
        r#"A command rally in Phase 1 or 5 removes one Disorder marker without a roll: 1 pip if the unit is within 12" of its brigadier, 2 pips if further. A natural rally in Phase 5 is open to a stationary, unengaged unit that took no casualties, passing on 3+ if Veteran, 4+ if Regular and 5+ if Green. A unit holds at most one Disorder marker, and a second Disorder becomes a micro-hit."#,
        &["RULE-07-3.2", "RULE-07-3.3", "RULE-07-3.4", "RULINGS C10", "RULINGS C20"],
    ),
    r(
        "Ch16 9.0",
        "Historical army traits",
        r#"Rebel Yell: +1 in melee when charging or counter-charging, and Green or Regular Union defenders outside heavy works must pass a 4+ check or be Disordered before the melee. Seen the Elephant: a Green unit's first unsaved hit or natural 6 from fire forces a 5+ check, failing which it is Disordered and halts for the turn. Iron Discipline: ignores the first natural-6 suppression each turn (the hit still counts) and rallies naturally on 3+. Steady: +1 on checks caused by closing volleys and one cover save re-roll a turn; Sharpshooters: one missed die re-rolled at medium range (6-14") and a free screen; Buck & Ball: 3+ at short range, +1 die at 3" or less, no fire beyond 14"."#,
        &["Ch13 5.0", "RULINGS C27", "RULINGS C28", "RULINGS G9"],
    ),
    r(
        "Ch16 10.0",
        "Cavalry operations",
        r#"The cavalry part of the quick reference. It covers mounted shock (10.1), dismounting with horse holders (10.2), cavalry weapons (10.3) and horse artillery (10.4)."#,
        &["Ch16 10.1", "Ch16 10.2", "Ch16 10.3", "Ch16 10.4"],
    ),
    r(
        "Ch16 10.1",
        "Mounted shock",
        r#"Steady formed infantry meets a cavalry charge with its closing volley as usual. Against Disordered infantry or infantry in column, the cavalry gets +1 and the infantry -2 in the melee. When cavalry fights cavalry both roll 1D6 + stands + modifiers, and the loser loses a stand and retreats 9" Disordered."#,
        &["RULINGS C22", "RULINGS G15", "Ch9 5.0", "Ch16 7.3"],
    ),
    r(
        "Ch16 10.2",
        "Dismounting: horse holders",
        r#"Dismounting costs half the move (4.5") in Phase 2. One stand in four holds the horses: a 4-stand regiment puts 3 skirmish stands forward and 1 holder stand 2-3" behind the centre, which moves 4", cannot shoot, and if charged is destroyed so the regiment can never remount. Dismounted cavalry in the open count as Light cover (5+), and remounting takes contact with the holders and half a move (4.5")."#,
        &["Ch13 6.0", "RULINGS G15", "RULINGS G14", "dotc D24"],
    ),
    r(
        "Ch16 10.3",
        "Cavalry weapons",
        r#"Bands for dismounted cavalry: short 0-6", medium 6-14", long 14-18". Breechloading carbine 4+, 4+, 5+ with 1 bonus die per 2 stands; repeating carbine or rifle 3+, 4+, 5+ with 2 bonus dice; muzzleloading carbine or musketoon 4+, 5+, out of range. Shotguns and revolvers hit on 3+ at short range only, give +1 in melee and are deadly only within 4"."#,
        &["RULINGS C21", "Ch16 5.2", "Ch9 4.0"],
    ),
    r(
        "Ch16 10.4",
        "Horse artillery",
        r#"Limbered horse artillery moves 10" in the open and 14" on roads, keeping pace with cavalry. Limbering or unlimbering takes a 4" half move, and it may unlimber and fire in the same turn. By prolonge it moves 3", and it fires 2D6 per section on the normal artillery tables."#,
        &["Ch16 5.3", "RULINGS C31", "Ch16 3.1"],
    ),
    r(
        "Ch16 11.0",
        "Optional modules",
        r#"The short list of modules: command bidding (15 points split in secret over Scouting, The March, Initiative and Logistics), Clean Barrels (+1 to hit on a regiment's very first volley) and Low Ammunition (two or more 1s in a volley give -1 on all later fire until resupplied). Friction of War: when both sides roll the same pips in Phase 1, roll 1D6 for an event. Blinds: one per real brigade plus 2 dummies, moving 9" and revealed within 12" or on firing. Open Order (1864+): 1" gaps, +1 save, no terrain slowdown, -1 to hit, and overrun when charged by formed lines."#,
        &["Ch13 1.0", "Ch13 2.0", "Ch13 3.0", "Ch13 4.0", "Ch13 22.0", "RULE-05-2.5b"],
    ),
    // ---------------------------------------------------------- Ch13: optional modules
    r(
        "Ch13 1.0",
        "Command bidding",
        r#"Instead of rolling for first-turn initiative, each player splits 15 pre-battle staff points in secret over four categories; the higher bid wins each one and a tie gives it to nobody. Scouting moves or removes one non-river terrain piece up to 6" before deployment; The March makes the enemy deploy his whole army first; Initiative takes the first turn; Logistics starts one enemy battery with Low Ammo."#,
        &["Ch16 11.0"],
    ),
    r(
        "Ch13 2.0",
        "Clean barrels",
        r#"Every infantry regiment starts with a Clean Barrel marker. The first time it fires in the battle all its dice get +1 to hit, and the marker is then removed for good. A heavy downpour (Ch13 21.0) cancels the bonus."#,
        &["Ch16 11.0", "Ch13 21.0"],
    ),
    r(
        "Ch13 3.0",
        "Friction of war",
        r#"If both players roll the same pip number in Phase 1, the active player rolls 1D6 before giving orders. 1: the opponent gives one active battery or regiment Low Ammo; 2: a squall halves every shooting pool this turn, rounding down; 3: the opponent makes one active formed regiment march 6" straight ahead. 4: the active brigadier gets +2 pips but is wounded and removed if his brigade takes any casualty; 5: a random active regiment is Disordered on 1-3; 6: one regiment may assault for free and passes its closing check automatically."#,
        &["Ch16 11.0", "RULINGS G2", "RULINGS G16"],
    ),
    r(
        "Ch13 4.0",
        "Hidden deployment",
        r#"Players deploy blinds instead of troops: one per real brigade plus 2 dummies. Blinds move a flat 9" in Phase 2 over any passable ground and are revealed when an enemy unit or blind comes within 12", or when their owner reveals them to shoot or charge. A dummy is removed; a real blind is replaced by its regiments and batteries, facing as the owner chooses."#,
        &["Ch16 11.0", "dotc D27", "dotc D28"],
    ),
    r(
        "Ch13 5.0",
        "Historical army traits (module)",
        r#"Scenario designers may give units traits: Rebel Yell, Seen the Elephant, Iron Discipline, Steady, Sharpshooters and Buck & Ball, mostly as in Ch16 9.0. Rebel Yell gives +1 in melee when charging or counter-charging, and a Green or Regular Union target not in heavy works must pass a 4+ check or be Disordered before the melee. Here Steady may re-roll a failed morale or cover save (Ch16 9.0 allows cover only, RULINGS C27), and Seen the Elephant is an assigned trait rather than automatic (RULINGS C28)."#,
        &["Ch16 9.0", "RULINGS C27", "RULINGS C28"],
    ),
    r(
        "Ch13 6.0",
        "Horse holders in detail",
        r#"An unengaged mounted regiment in good order may dismount in Phase 2 for half its move (4.5"); one stand in four holds the horses, so 4 stands give 3 dismounted and 1 holder, and 3 stands give 2 and 1. Dismounted stands fight in skirmish order with gaps up to 0.5", count as Light cover (5+) in the open and enter dense woods, ridges and buildings without disorder. Holders stand 2-3" behind the centre, move 4" (8" on roads), stay within 4" of the line, cannot shoot and get no save; if charged they are lost and the regiment can never remount. Remounting takes contact and 4.5", leaving 4.5" to move mounted."#,
        &["Ch16 10.2", "RULINGS G15", "dotc D24"],
    ),
    r(
        "Ch13 7.0",
        "Advanced artillery tactics",
        r#"Overhead fire with looser clearances: friends at least 3" from the muzzles and the target at least 3" beyond them, never with canister (without this module RULINGS C2 keeps 6" and 4"). Counter-battery fire: a natural 6 against an enemy battery destroys the gun stand outright. Bouncing shot: spherical case or solid shot at medium or long range into the flank of a line of battle rolls 2 extra dice."#,
        &["RULINGS C2", "RULE-05-6.3", "Ch16 4.4", "dotc D10"],
    ),
    r(
        "Ch13 8.0",
        "Written orders",
        r#"After rolling pips in Phase 1 the active player puts a face-down order token behind every regiment and battery; all are revealed in Phase 2 and must be carried out exactly. Move/Advance (0 pips) advances or wheels; Assault (1 pip) charges the named target at 9"; Hold/Fire (0) stays put without pivoting and fires fully in Phase 3; Change Formation (0) spends the phase re-forming. An assaulting unit whose target has gone must still move its full 9" toward where it stood."#,
        &["Ch16 2.3"],
    ),
    r(
        "Ch13 9.0",
        "Elite sharpshooter regiments",
        r#"At most one such regiment per army is advised. It deploys in skirmish order with 1" gaps (half a move to enter or leave it), moves 8" and ignores movement penalties and checks in difficult terrain. It rolls one die per stand and does not block its friends' sight; enemies shoot at it at -1 and may fire through it. It may evade a charge 4-6" through friends (Reaction 3), may not assault formed lines, and fights at -2 when caught in melee."#,
        &["Ch16 3.4", "Ch16 6.0", "dotc D25"],
    ),
    r(
        "Ch13 10.0",
        "Premature fire",
        r#"The rulebook titles this section "Seeing the Elephant"; RULINGS C28 renames it to avoid the clash with the trait. When a Green regiment is charged and the attacker reaches the 4" line, it must pass a 4+ discipline check. On a failure it fires its closing volley too early at -2 to hit, then fights the melee at -1 with empty muskets. dotc tests only a defender that fires a closing volley, before its dice (dotc D9)."#,
        &["RULINGS C28", "Ch16 7.2", "dotc D9"],
    ),
    r(
        "Ch13 11.0",
        "The July sun",
        r#"An infantry regiment that moves at the double or assaults on two consecutive turns is overcome by the heat. It takes a Disorder marker at the end of its move on the second turn and may not double or charge again until it has rallied. RULINGS C26 keeps this rule optional."#,
        &["RULINGS C26", "Ch13 21.0"],
    ),
    r(
        "Ch13 12.0",
        "Uncontrollable pursuit",
        r#"A regiment that destroys or routs an enemy unit in melee must pass a 4+ discipline check. If it fails it is Frenzied: it moves 4" straight at the nearest enemy unit or objective and is then Disordered. dotc writes the move `pursue "Unit" to (x, y)` on the line after the melee (dotc D21)."#,
        &["Ch16 7.4", "dotc D21"],
    ),
    r(
        "Ch13 13.0",
        "Refusing the flank",
        r#"Wheeling a wing back while within 12" of an enemy that can see it costs the brigadier 1 pip and needs a discipline check. On 4-6 the wing wheels back up to 45 degrees; on 2-3 it stays put and the pip is spent (another pip allows another try); on 1 it keeps its facing, takes a Disorder marker and the pip is lost."#,
        &["Ch16 6.0"],
    ),
    r(
        "Ch13 14.0",
        "Digging in",
        r#"In Phase 1 an infantry regiment may spend 1 pip to dig in, and may not move, fire or assault that turn. At the end of the turn it gains hasty works along its front: open ground becomes Light cover (5+) and light cover such as a fence or wood edge becomes Heavy (4+). Works cannot be built in marshes, streams or buildings."#,
        &["RULINGS G17", "Ch16 4.2"],
    ),
    r(
        "Ch13 15.0",
        "Spiking the guns",
        r#"Infantry that beats a battery in melee removes its crews and holds the guns. In the next command phase its brigadier either spikes them for 1 pip, removing them from play, or hauls them off for free: the unit then moves at half speed, cannot fire, and loses the guns intact if counter-attacked and beaten."#,
        &["Ch8 6.0", "RULINGS G14", "dotc D16"],
    ),
    r(
        "Ch13 16.0",
        "Rebel Yell / Union Huzzah",
        r#"Once a game per army, a brigadier may spend 2 pips at the start of Phase 4 for a brigade-wide battle cry. Every enemy unit the brigade charges that phase takes -1 on reaction saves and discipline checks. At the end of the turn every regiment that took part is Disordered, win or lose."#,
        &["Ch16 9.0", "Ch13 5.0"],
    ),
    r(
        "Ch13 17.0",
        "Desperate valor",
        r#"In Phase 1 a brigadier may spend 2 pips on one charging regiment. During that turn's assault phase it rolls 2D6 and keeps the higher die for every discipline and morale check."#,
        &["Ch16 7.2"],
    ),
    r(
        "Ch13 18.0",
        "Caught flat-footed",
        r#"A unit in road column or assault column that is charged without a reserved pip for a reaction is caught flat-footed. It takes -1 on its melee score and must pass a 4+ discipline check or be Disordered before contact. By default dotc removes a charged road column outright (RULINGS C23), so in practice this applies to assault columns; dotc rolls the check when the charge goes in, after the closing volley (dotc D9)."#,
        &["RULINGS C23", "Ch16 6.0", "dotc D9"],
    ),
    r(
        "Ch13 19.0",
        "The second line",
        r#"A regiment taking a discipline check gets +1 when a second line supports it. The support must be a formed friendly regiment, neither skirmishers nor Disordered, within 3" directly behind the centre of the unit testing (dotc D11: straight back from the centre of its rear edge)."#,
        &["RULE-07-1.4", "dotc D11"],
    ),
    r(
        "Ch13 20.0",
        "Plunging fire and overshoot",
        r#"In a closing volley, rifled muskets hit only on 5+ instead of 4+, because the men fail to lower their sights. Smoothbores and repeaters keep their usual numbers."#,
        &["Ch16 6.0", "Ch16 5.2"],
    ),
    r(
        "Ch13 21.0",
        "Weather",
        r#"Players may agree on one ground and one atmospheric condition. Soft ground: -1" to infantry and cavalry moves, unlimbering costs 2 pips, artillery range 6" shorter; deep mud: infantry -2" with no double-quick off roads, cavalry -4", guns cannot fire in the turn they unlimber, limbered guns leaving the road are stuck for good. Drizzle: two or more 1s in a volley give a Fouled marker (-1 until cleared for 1 pip); downpour: sight 12", no first-volley bonus, and a single 1 fouls; light fog: sight 18", no artillery fire beyond 12" at units without smoke; dense fog: sight 6", no assaults beyond 6", and from turn 3 a 5+ on 1D6 thins it to light fog. Severe heat gives a micro-hit to any infantry unit that takes a Double-Time or Assault order."#,
        &["RULE-05-5.4", "Ch13 2.0", "Ch13 11.0", "RULINGS C31", "dotc D18"],
    ),
    r(
        "Ch13 22.0",
        "Late-war open order",
        r#"Open order costs 1 pip per regiment or 2 per brigade in Phase 1, and half a move (3") to open the stands to 1" gaps. It moves 6" in the open and 5" in dense woods or rough ground, never Disorders for dense woods, swamps or abatis, and pivots freely. It gets +1 on all cover saves (open ground 5+, woods 4+) but shoots at -1. It cannot charge, and a formed line or column that contacts it overruns it: it loses a stand, is Disordered and falls back 3" without a melee roll."#,
        &["Ch16 11.0", "RULINGS G14", "RULINGS G17"],
    ),
    r(
        "Ch13 23.0",
        "The wave attack",
        r#"For 2 pips, two or more regiments of one brigade in the same formation stack front to back, each no more than 1" behind the one ahead; they may not fire in Phase 3. If the lead regiment shatters, or fails its check and falls back, the next makes a free passage of lines and carries the charge home. Every solid shot or shell hit on the lead regiment also puts a stray hit on the regiment behind it."#,
        &["Ch16 3.3", "Ch16 7.2", "dotc D26"],
    ),
    // ---------------------------------------------------------- other chapters the code cites
    r(
        "Ch1 4.0",
        "Health by stands left",
        r#"The designer's stand-count table for a 5-stand regiment: at 5 or 4 stands it is Fresh (+1 shock), at 3 Worn (+0), at 2 Spent (-1, no assault without a brigadier), and at 1 Shattered and removed. It is one of the two readings of health that RULINGS C4 reconciles."#,
        &["Ch16 8.1", "RULINGS C4"],
    ),
    r(
        "Ch2 2.0",
        "Bugles and couriers",
        r#"The narrative behind the command tiers: orders by voice or gesture up to 6" (Tier 1), by bugle or courier to 12" (Tier 2), by distant courier to 24" at double pip cost and -1 on discipline (Tier 3), and none beyond 24" (Tier 4), where a unit takes no pips and stands in inertia. Making 1 to 3 pips a turn reflects how few orders could reach the line in a 15-minute turn."#,
        &["Ch16 2.2", "RULINGS C10"],
    ),
    r(
        "Ch2 3.0",
        "The 24-inch tether",
        r#"A regiment more than 24" from its brigadier is cut off: this chapter makes it cost double pips, take -1 on every discipline check and miss command help. Ch16 2.2 instead bars pips beyond 24" and charges double at 12-24"; dotc follows Ch16 2.2 (RULINGS C10)."#,
        &["RULINGS C10", "Ch16 2.2"],
    ),
    r(
        "Ch3 4.0",
        "Terrain multipliers",
        r#"Stone walls and sunken roads give Heavy cover (4+) and +2 in melee defence; snake and rail fences Light cover (5+), +1 in melee and 2" to cross. Dense woods give Light cover and no melee bonus, limit sight to 3" and Disorder formed lines that enter; RULINGS C29 lets this table, not Ch16 7.3, decide the melee bonus."#,
        &["Ch16 4.1", "Ch16 4.2", "RULINGS C29", "RULINGS G17"],
    ),
    r(
        "Ch5 4.0",
        "The brigade smoke wall (narrative)",
        r#"When three or more adjacent regiments of a brigade fire from standing positions their smoke merges into a wall that blocks sight beyond 8", so distant batteries cannot target the units behind it. The chapter also has brigadiers lose sight of their regiments and pay unstated extra pips to send couriers; dotc charges nothing (RULINGS C32)."#,
        &["RULE-05-5.5", "Ch16 5.7", "RULINGS C32"],
    ),
    r(
        "Ch4 3.0",
        "The short-range kill zone",
        r#"A design table of range bands: point-blank 0-3" (3+ or 4+), short 3.1-6" (4+), medium 6.1-14" (4+ rifle, 5+ smoothbore), long 14.1-20" (5+). It disagrees with Ch16 5.2 (an extra point-blank band, smoothbores 4+ at short), and dotc ignores it (RULINGS C21)."#,
        &["RULINGS C21", "Ch16 5.2"],
    ),
    r(
        "Ch6 2.0",
        "Initiating an assault",
        r#"An assault costs 1 pip, and no regiment of a Hesitant or Broken brigade may declare one. The charger moves 9" straight at its target: a line charges with normal shock, an assault column gets +1 in melee but -1 on saves against enfilading artillery, and a road column may not charge and is overrun if charged."#,
        &["Ch16 7.1", "RULINGS C23", "RULINGS C30"],
    ),
    r(
        "Ch6 3.0",
        "The 4-inch interruption line (narrative)",
        r#"The charger pauses 4" from the defender, who fires a closing volley at short range. If the volley costs a stand or Disorders the charger through a natural 6, it checks discipline (3+, 4+ or 5+ by grade): a pass carries it into contact, a failure halts it 2" short and Disordered. The chapter calls the 4" the last 40 yards, which RULINGS E6 corrects to 100."#,
        &["Ch16 7.2", "RULINGS C7", "RULINGS E6"],
    ),
    r(
        "Ch6 4.0",
        "The opposed melee roll (narrative)",
        r#"The same formula as Ch16 7.3, 1D6 + engaged stands + modifiers, with Fresh +1, Spent -1, momentum +1, assault column +1, Rebel Yell +1, heavy works +2 and Disordered -2. The loser loses a stand, retreats 6" and is Disordered, with a micro-hit more if it was Disordered already; the winner loses nothing and may consolidate 2"."#,
        &["Ch16 7.3", "Ch16 7.4", "RULINGS C1"],
    ),
    r(
        "Ch6 5.0",
        "Assault takeaways",
        r#"Soften a steady line with fire before charging it, and bring Veterans or an attached brigadier to an assault on a strong point. The chapter claims Green troops fail the pre-contact check a third of the time, but passing only on 5+ they fail two times in three (RULINGS E6)."#,
        &["RULINGS E6", "Ch6 3.0", "Ch16 7.2"],
    ),
    r(
        "Ch7 3.0",
        "Melee results (narrative)",
        r#"A beaten regiment loses a stand, retreats 6" and is Disordered; the winner loses nothing and consolidates 2". This chapter's table also routs and removes a loser that was already Disordered, against the numbered rules. dotc's default is the micro-hit instead (RULINGS C1, switch disordered_melee_loss)."#,
        &["RULINGS C1", "Ch16 7.4"],
    ),
    r(
        "Ch7 4.0",
        "Brigadiers in melee",
        r#"An attached brigadier gives +1 in melee and +1 on discipline checks. This chapter tests for his loss only when the regiment loses a stand in melee, and has a 5-6 strip the brigade's pips; Ch16 2.4 also tests on fire losses and natural 6s, and dotc follows it (RULINGS C9)."#,
        &["RULINGS C9", "Ch16 2.4"],
    ),
    r(
        "Ch7 5.0",
        "The Bloody Draw",
        r#"Equal final shock scores are a draw: both units take a micro-hit and a Disorder marker, neither retreats, and they stay in contact. The melee is fought again on the next turn."#,
        &["Ch16 7.4", "Ch16 7.3"],
    ),
    r(
        "Ch7 6.0",
        "Melee takeaways",
        r#"The chapter's advice repeats that a Disordered defender beaten in melee is destroyed, which conflicts with the numbered rules (RULINGS C1). It also urges winning on the first roll and using the 2" consolidation to cover a flank."#,
        &["RULINGS C1", "Ch7 3.0"],
    ),
    r(
        "Ch8 2.0",
        "Limbered and unlimbered batteries",
        r#"Unlimbered guns move only by hand (2") and fire 2D6 per section; limbered guns move 8" in the open and 12" on roads but cannot fire. Limbering or unlimbering takes the whole move, so foot artillery cannot unlimber and fire in one turn (RULINGS C31)."#,
        &["RULINGS C31", "Ch16 3.1", "Ch16 10.4"],
    ),
    r(
        "Ch8 4.0",
        "The bowling-alley effect",
        r#"Round shot and canister ploughed through deep formations far worse than through a two-rank line. Any regiment in assault column therefore takes -1 on its cover saves against all artillery fire, as RULE-05-2.5a has it (RULINGS C30)."#,
        &["RULE-05-2.5a", "RULINGS C30", "Ch16 3.2"],
    ),
    r(
        "Ch8 5.0",
        "Elevation and overhead fire (narrative)",
        r#"Infantry on a reverse slope, in dead ground, is safe from direct solid shot. A battery on a crest (level 1 or higher) may fire over friends on level 0 who are at least 6" in front of its muzzles; the chapter's "4 inches behind the target" is read as a misprint for 4" from the target (RULINGS C2). Canister never goes overhead."#,
        &["RULE-05-6.3", "Ch16 4.4", "RULINGS C2"],
    ),
    r(
        "Ch8 6.0",
        "Battery overrun",
        r#"A battery section in melee rolls 1D6 plus a bonus of 1 stand. If it loses it is overrun and captured, and its guns and crew are removed for good."#,
        &["RULINGS G3", "RULINGS G14", "Ch13 15.0"],
    ),
    r(
        "Ch9 4.0",
        "Cavalry firepower",
        r#"Cavalry weapons: breechloader 4+ short and medium with 1 bonus die per 2 stands; Spencer repeater 3+ and 4+ with 2 bonus dice, where two or more 1s give Low Ammo; musketoon 4+ and 5+ with no bonus. Here Low Ammo is a core rule for repeaters only; dotc applies it to every unit and only with the module (RULINGS C14)."#,
        &["Ch16 10.3", "RULINGS C14", "RULE-05-2.5b"],
    ),
    r(
        "Ch9 5.0",
        "Cavalry shock (narrative)",
        r#"A steady line meets charging cavalry with a closing volley. Against Disordered infantry the cavalry gets +1 and the infantry -2, and this chapter adds that the infantry cannot fire a closing volley and routs; a road column is overrun. dotc follows Ch16 10.1 with no automatic rout (RULINGS C22) and removes a charged road column (RULINGS C23)."#,
        &["Ch16 10.1", "RULINGS C22", "RULINGS C23"],
    ),
    r(
        "Ch10 1.0",
        "The picket line",
        r#"An infantry regiment of 4 or more stands may detach one stand as a skirmish screen for half its move (3"), placing it 2-3" straight ahead. The 4-stand minimum is stated only here (RULINGS G12)."#,
        &["Ch16 3.4", "RULINGS G12"],
    ),
    r(
        "Ch10 4.0",
        "Drill-book skirmishing",
        r#"The drill manuals of Hardee and Casey deployed skirmishers in pairs with bugle signals for each evolution. Here the chapter puts both sending the screen out and calling it back at half the regiment's move. The quick reference makes the recall free when the regiment stands still in Phase 2, and dotc charges the half move only to a regiment that also moves that turn."#,
        &["Ch16 3.4", "Ch10 1.0"],
    ),
    r(
        "Ch10 5.0",
        "Skirmishing in woods",
        r#"Formed lines must take Disorder to enter dense woods and move at most 3" there. Skirmishers, dismounted cavalry included, pass through dense timber, brush and abatis without disorder."#,
        &["Ch16 4.1", "RULINGS C6"],
    ),
    r(
        "Ch11 3.0",
        "The faltering clock (narrative)",
        r#"The brigade states: Fresh at 0-29% lost; Hesitant at 30-49% (no assaults or Double-Time, -1 to hit, -1 on discipline); Broken at 50% or more (all Disordered, pips forfeited, 6" retreats, routed if charged). The chapter applies the Hesitant -1 to all shooting, while dotc limits it to Phase 3 as RULE-07-2.3 does (RULINGS C13)."#,
        &["Ch16 8.2", "RULINGS C13", "RULE-07-2.3"],
    ),
    r(
        "Ch11 4.0",
        "Discipline checks and Seen the Elephant",
        r#"A discipline check is 1D6: Veteran or Elite pass on 3+, Regular on 4+, Green on 5+. This chapter makes Seen the Elephant automatic for Green units: the first time they take unsaved fire they must pass a check or be Disordered and stop advancing for the turn (RULINGS C28)."#,
        &["RULE-07-1.4", "Ch16 9.0", "RULINGS C28"],
    ),
    r(
        "Ch12 2.0",
        "Physical exhaustion",
        r#"Ploughed fields and mud cost 2" of movement and 1" of charge distance, and formed lines entering dense woods are Disordered at once. This chapter also Disorders a unit that moves at Double-Time on two turns in a row as a core rule; dotc treats that as the optional July Sun module (RULINGS C26)."#,
        &["Ch16 4.1", "Ch13 11.0", "RULINGS C26"],
    ),
    r(
        "Ch12 4.0",
        "Ammunition depletion",
        r#"A soldier's 40-60 rounds lasted 30-45 minutes, that is 2-3 turns. In this chapter a repeating unit that rolls two or more 1s in one volley takes Low Ammo and loses its bonus dice until it resupplies in an unengaged turn. dotc uses the optional version for all units at -1 to hit instead (RULINGS C14)."#,
        &["RULINGS C14", "RULE-05-2.5b", "Ch9 4.0"],
    ),
    r(
        "Ch12 5.0",
        "Reforming worn lines",
        r#"A regiment that stays still and unengaged for two full consecutive turns, out of enemy sight and more than 12" from any enemy, may remove its micro-hit. Lost stands never come back in the same battle."#,
        &["RULE-07-3.5"],
    ),
    r(
        "Ch14 1.0",
        "The post-battle sequence",
        r#"After each battle of a campaign the players go through four steps in order: confirm the victory points and who holds the battlefield, roll the surgeon's check for the stands lost, award and spend experience, then settle the brigadiers' health and promotions. In a dotc campaign file each battle's `after` block records them, `field SIDE` first (dotc D31), checked against the replay of the battle's log."#,
        &["Ch14 2.0", "Ch14 4.0", "dotc D31"],
    ),
    r(
        "Ch14 2.0",
        "The surgeon's roll",
        r#"After a campaign battle, roll 1D6 for every stand lost: on 5-6 (4+ for the side that held the field) it returns; on 2-4 it misses the next battle and returns for the one after; on 1 it is gone for the campaign. The side that held the field also takes surviving enemy casualties prisoner. By RULINGS G20 the victor's +1 also lifts a rolled 1."#,
        &["RULINGS G20", "Ch14 4.0"],
    ),
    r(
        "Ch14 3.0",
        "Regimental experience",
        r#"Infantry and cavalry regiments keep an experience track from 0 to 4 across a campaign, earning one point a feat and two at most a battle: breaking a formed enemy unit with a charge, holding while Worn or Spent against two or more attacks without retreating, or taking two or more stands from enemy artillery or elite troops. The total sets the grade: 0 Green, 1 Regular, 2 Veteran (with a trait to pick), 4 Crack with Iron Discipline; RULINGS G20 reads 3 as Veteran."#,
        &["Ch14 1.0", "RULINGS G20", "RULINGS C28", "dotc D35", "dotc D36", "dotc D37"],
    ),
    r(
        "Ch14 4.0",
        "Brigadier promotion and casualties",
        r#"A brigadier who survives a battle in which his brigade took its main objective rises one rating on 5+ (Timid to Reliable, Reliable to Aggressive). A lightly wounded one returns with his full rating; a severely wounded one misses 1D3 battles while a Timid colonel commands; a killed one is replaced, Timid on 1-3 and Reliable on 4-6."#,
        &["Ch16 2.4", "RULINGS C9", "Ch16 2.1"],
    ),
    r(
        "Ch14 5.0",
        "Reinforcements",
        r#"Between campaign turns each army receives 1D3 replacement stands for depleted regiments. A Veteran or Elite regiment that takes 2 or more new stands in one draft drops one discipline grade for the next battle."#,
        &["Ch14 2.0"],
    ),
    r(
        "Ch15 3.0",
        "The probability model",
        r#"Expected hits are dice times the hit chance, and expected stand losses half the unsaved hits; for 5 dice the matrix gives, for example, smoothbore short 66.7% (3.33 hits, 1.67 stands in the open) and rifled medium 50% (2.50 hits, 1.25 stands). Its suppression table (42.1% to 72.1% for 3 to 7 dice) is the chance of at least one 6, a Shock trigger only at 6" or less, and a trigger forces a save rather than Disorder (RULINGS C3, RULINGS E6). It also argues for 1D6 + stands in melee."#,
        &["RULINGS C3", "RULINGS E6", "Ch16 5.5"],
    ),
    r(
        "Ch15 4.0",
        "Frontage and flanks",
        r#"A 360-man regiment in two ranks covers about 120 yards, 4.8" at 1" to 25 yards, against 5" for 5 stands. A flank attacker must start entirely behind the 90-degree line from the target's front edge, and a frontal charge must meet the front edge flush."#,
        &["RULE-05-1.5", "RULINGS C15", "RULINGS G13"],
    ),
    r(
        "Ch15 8.0",
        "Design constants",
        r#"1" is 25 yards and a turn 10-15 minutes; a stand has 1" of frontage (60-75 men) and a standard regiment is 5 stands, 5" wide. Command radii are 6" (bugle) and 12" (courier), distant beyond; 2 unsaved hits remove a stand; a natural 6 suppresses; smoke costs -1 beyond 6". Brigades turn Hesitant at 30% and Broken at 50% of their stands lost, and a game runs 6-8 turns in 3-3.5 hours."#,
        &["Ch16 2.2", "Ch16 5.4", "Ch16 8.2"],
    ),
    // ---------------------------------------------------------- RULINGS: conflicts
    r(
        "RULINGS C1",
        "A Disordered unit loses a melee",
        r#"Ch7 routs and removes a Disordered loser; RULE-05-4.4, RULE-07-3.4, Ch6 4.0 and Ch16 8.3 give it the usual loss (a stand and a 6" retreat) plus a micro-hit. The rule texts agree with each other, so dotc takes the micro-hit by default."#,
        &["Ch7 3.0", "RULE-07-3.4", "RULE-05-4.4", "Ch16 7.4"],
    ),
    r(
        "RULINGS C2",
        "Overhead fire clearances",
        r#"RULE-05-6.3, Ch8 5.0 and Ch16 4.4 want friends at least 6" from the muzzles and 4" from the target; the Ch13 7.0 module relaxes this to 3" and 3". dotc uses 6" and 4" unless that module is on, and reads Ch8's "behind the target" as a misprint."#,
        &["RULE-05-6.3", "Ch13 7.0", "Ch16 4.4", "Ch8 5.0"],
    ),
    r(
        "RULINGS C3",
        "Natural-6 suppression",
        r#"Ch15 3.0 and every worked example Disorder a target on any single 6. RULE-05-4.1/4.2 and Ch16 5.5 make one 6 at 6" or less, or two 6s beyond, a trigger for a discipline save (3+, 4+ or 5+ by grade; Fresh +1, Spent -1, cover +1, crossfire -1), with Disorder only on a failure. dotc follows the numbered rule by default."#,
        &["RULE-05-4.1", "RULE-05-4.2", "Ch16 5.5", "RULINGS E1", "RULINGS G9"],
    ),
    r(
        "RULINGS C4",
        "Health states: percentages or stand counts",
        r#"The percentage bands (Fresh over 75%, Worn 35-75%, Spent under 35%) and the stand-count table (2 stands Spent, 1 Shattered) disagree when 5 stands drop to 2 or 1, 4 to 2, and 3 to 2. dotc's default: 1 stand Shattered; 2 stands or under 35% Spent; over 75% Fresh; Worn otherwise. That fits every table row and extends to regiments of 7 and 10 or more stands."#,
        &["Ch16 8.1", "RULE-07-1.2", "Ch1 4.0"],
    ),
    r(
        "RULINGS C5",
        "What a failed discipline check does",
        r#"RULE-07-1.5 says fall back 3" and take Disorder (a micro-hit if already Disordered), while RULE-05-4.2 and Ch16 3.3 and 5.5 give Disorder only. dotc applies the result stated by the check's own rule, and RULE-07-1.5 only where none is stated, such as the Spent-under-fire test."#,
        &["RULE-07-1.5", "RULE-05-4.2", "RULINGS G9"],
    ),
    r(
        "RULINGS C6",
        "Disordered movement",
        r#"RULE-05-4.4 slows a Disordered unit by 2" and bars Double-Time and assaults; RULE-07-3.1 bars any advance. dotc follows RULE-05-4.4 by default, because the dense-woods rules (Ch10 5.0, Ch16 4.1) expect Disordered lines to keep moving, and refers the question to the designer."#,
        &["RULE-05-4.4", "RULE-07-3.1", "Ch10 5.0"],
    ),
    r(
        "RULINGS C7",
        "What triggers the pre-contact check",
        r#"Ch6 3.0 names a stand loss or a natural-6 Disorder, Ch16 7.2 a stand loss or a Disorder marker, Ch16 6.0 any hit or a natural 6, and RULE-07-1.4 just casualties. dotc uses Ch16 7.2, counting as a stand loss one completed from an earlier micro-hit."#,
        &["Ch16 7.2", "Ch6 3.0", "Ch16 6.0", "RULINGS G10"],
    ),
    r(
        "RULINGS C8",
        "Passage of lines",
        r#"Ch16 3.3 tests a passage of lines at a flat 4+, while RULE-07-1.4 tests by troop grade. dotc tests by grade by default."#,
        &["Ch16 3.3", "RULE-07-1.4"],
    ),
    r(
        "RULINGS C9",
        "Leader casualties",
        r#"Ch7 4.0 rolls only for melee stand losses and strips all pips on 5-6. Ch16 2.4 and RULE-07-4.3 roll for a stand lost to fire or melee or an enemy natural 6, with 1-3 no effect, 4 -1 pip every turn, 5 removed for a Timid replacement, 6 Disorder, unspent pips lost and a permanently Timid replacement; the campaign's Ch14 4.0 replaces a killed leader Timid on 1-3, Reliable on 4-6. dotc uses Ch16 2.4, since the RULE-07-4.4 table is missing."#,
        &["Ch16 2.4", "RULE-07-4.3", "RULE-07-4.4", "Ch7 4.0", "RULINGS G18"],
    ),
    r(
        "RULINGS C10",
        "Command range",
        r#"Ch2 3.0 doubles pip costs only beyond 24"; Ch2 2.0 and Ch16 2.2 double them at 12-24" and allow no pips at all beyond 24"; RULE-07-3.2 and Ch16 8.3 allow a 2-pip rally beyond 12" with no upper limit. dotc uses the Ch16 2.2 tiers, so no pip rally reaches beyond 24"."#,
        &["Ch16 2.2", "RULE-07-3.2", "Ch16 8.3", "RULINGS G8"],
    ),
    r(
        "RULINGS C11",
        "Brigade thresholds against the table",
        r#"RULE-07-2.3 says Hesitant when losses reach or pass 30%, but the Ch16 8.2 table gives 7 losses for 24 stands and 8 for 28, both under 30%. RULINGS G6 sets the rounding dotc uses."#,
        &["RULINGS G6", "Ch16 8.2", "RULE-07-2.3"],
    ),
    r(
        "RULINGS C12",
        "When a brigade falters",
        r#"RULE-07-2.3 and 2.4 change a brigade's state immediately; Ch16 1.0 checks in Phase 5 and the Potts example in Phase 1. dotc changes it the moment the threshold is reached, by default."#,
        &["RULE-07-2.3", "RULE-07-2.4", "Ch16 1.0", "RULINGS E4"],
    ),
    r(
        "RULINGS C13",
        "The Hesitant -1 to hit",
        r#"RULE-07-2.3 applies it to Phase 3 shooting only; Ch11 3.0 and Ch16 8.2 to all shooting, reactions included. dotc follows the rule (Phase 3 only) by default and flags the question for the designer."#,
        &["RULE-07-2.3", "Ch16 8.2", "Ch11 3.0"],
    ),
    r(
        "RULINGS C14",
        "Low Ammo",
        r#"RULE-05-2.5b and Ch16 11.0 make it optional, for any unit that rolls two or more natural 1s, at -1 to hit. Ch12 4.0 and Ch9 4.0 make it a core rule for repeaters only, and Ch12 takes away the bonus dice instead. dotc: optional, all units, -1."#,
        &["RULE-05-2.5b", "Ch16 11.0", "Ch12 4.0", "Ch9 4.0"],
    ),
    r(
        "RULINGS C15",
        "Enfilade",
        r#"RULE-05-1.5 and Ch15 4.0 need the firer entirely behind the target's 90-degree line and deny only Light saves from frontal linear obstacles. Ch16 4.5 asks for more than half the stands, and Ch16 5.6 denies every Light save. dotc's default is "entirely" and frontal-obstacle saves only."#,
        &["RULE-05-1.5", "Ch16 4.5", "Ch16 5.6", "Ch15 4.0", "RULINGS G13"],
    ),
    r(
        "RULINGS C16",
        "Target priority",
        r#"RULE-05-1.3 requires the nearest target but lets the firer pass it over for enfilade, and lets artillery skip skirmishers. Ch16 4.5 puts flank targets first and makes a charging enemy a mandatory target. dotc follows the RULE and applies the mandatory charger to closing volleys only."#,
        &["RULE-05-1.3", "Ch16 4.5"],
    ),
    r(
        "RULINGS C17",
        "Clearing smoke",
        r#"Ch16 1.0 clears all unengaged smoke in Phase 5, while RULE-05-5.4 and Ch16 5.7 clear it only by a forward move, by holding fire, or in a Brisk Wind, which the second worked example needs. dotc follows RULE-05-5.4 by default."#,
        &["RULE-05-5.4", "Ch16 5.7", "Ch16 1.0", "RULINGS E2"],
    ),
    r(
        "RULINGS C18",
        "Concentrated battery fire",
        r#"RULE-05-2.4 pays the pip in Phase 1 and aims at "one stand"; Ch16 2.3 pays in Phase 3 and aims at "one target". dotc pays in Phase 1, resolves the fire in Phase 3 and targets one unit."#,
        &["RULE-05-2.4", "Ch16 2.3"],
    ),
    r(
        "RULINGS C19",
        "Firing after falling back",
        r#"Ch16 3.3 keeps full firing rights after a fall back in good order; RULE-05-1.2 asks for a Hold Position order yet bans only Advance and Double-Time. dotc lets the unit fire with no penalty."#,
        &["Ch16 3.3", "RULE-05-1.2"],
    ),
    r(
        "RULINGS C20",
        "Natural rally conditions",
        r#"Ch11 asks only for an unengaged, stationary unit; Ch16 8.3 adds that it took no casualties; RULE-07-3.3 also excludes units that fired, assaulted or were rallied with a pip. dotc uses RULE-07-3.3."#,
        &["RULE-07-3.3", "Ch16 8.3"],
    ),
    r(
        "RULINGS C21",
        "Weapon range bands",
        r#"The breechloader's long band is 14-20" in Ch16 5.2 but 14-18" in Ch16 10.3, and Ch4 3.0 adds a 0-3" band and gives smoothbores 4+ at short range instead of 3+. dotc uses Ch16 5.2 for infantry and Ch16 10.3 for cavalry, and ignores the Ch4 table."#,
        &["Ch16 5.2", "Ch16 10.3", "Ch4 3.0"],
    ),
    r(
        "RULINGS C22",
        "Cavalry shock",
        r#"Ch16 7.3 gives cavalry +1 against infantry in the open; Ch16 10.1 gives +1 to the cavalry and -2 to infantry that is Disordered or in column; Ch9 5.0 says Disordered infantry cannot fire a closing volley and routs. dotc uses Ch16 10.1 with no automatic rout."#,
        &["Ch16 10.1", "Ch16 7.3", "Ch9 5.0", "RULINGS G15"],
    ),
    r(
        "RULINGS C23",
        "Charging a road column",
        r#"Ch6 2.0 and Ch9 5.0 overrun a charged road column automatically; Ch13 18.0 has it fight at -1. dotc removes it by default, and the flat-footed penalty then matters for assault columns only."#,
        &["Ch13 18.0", "Ch6 2.0", "Ch9 5.0", "RULINGS G14"],
    ),
    r(
        "RULINGS C24",
        "Speed in woods",
        r#"The woods column of Ch16 3.1 (line 4", assault column 5", road column 6") and the caps of Ch16 4.1 (light woods 4", dense woods 3") differ. dotc uses the lower of the two by default."#,
        &["Ch16 3.1", "Ch16 4.1"],
    ),
    r(
        "RULINGS C25",
        "The cost of crossing an obstacle",
        r#"Ch16 3.1 charges by formation (1" to 4") and Ch16 4.2 by obstacle (a fence 2", abatis 3"). dotc charges the higher of the two by default."#,
        &["Ch16 3.1", "Ch16 4.2"],
    ),
    r(
        "RULINGS C26",
        "Two Double-Times in a row",
        r#"Ch12 2.0 Disorders a unit that doubles on two turns running as a core rule; Ch13 11.0 makes this an optional module. dotc treats it as optional."#,
        &["Ch13 11.0"],
    ),
    r(
        "RULINGS C27",
        "The Steady re-roll",
        r#"Ch13 5.0 lets a Steady unit re-roll a failed morale or cover save; Ch16 9.0 allows only a cover save. dotc follows Ch16 9.0."#,
        &["Ch16 9.0", "Ch13 5.0"],
    ),
    r(
        "RULINGS C28",
        "Seen the Elephant",
        r#"Ch11 4.0 and Ch14 make it automatic for Green units, Ch13 5.0 makes it a trait a designer assigns, and Ch13 10.0 reuses the name for a premature-fire rule. dotc makes it automatic and calls the Ch13 10.0 module Premature Fire."#,
        &["Ch16 9.0", "Ch13 5.0", "Ch13 10.0", "RULINGS G9"],
    ),
    r(
        "RULINGS C29",
        "Light cover in melee",
        r#"Ch16 7.3 gives a defender in light cover +1, but Ch16 4.2 and Ch3 4.0 give hedges and dense woods no melee bonus. dotc goes by the terrain tables."#,
        &["Ch16 7.3", "Ch16 4.2", "RULINGS G17"],
    ),
    r(
        "RULINGS C30",
        "The assault column's save penalty",
        r#"Ch6 2.0 applies the -1 only against enfilading artillery, while Ch8 4.0, RULE-05-2.5a and Ch16 3.2 apply it against all artillery. dotc applies it against all artillery."#,
        &["RULE-05-2.5a", "Ch16 3.2", "Ch6 2.0"],
    ),
    r(
        "RULINGS C31",
        "Unlimbering and firing",
        r#"Ch8 2.0 says unlimbering takes the whole move; Ch16 10.4 says horse artillery may unlimber and fire, which implies foot artillery cannot; Ch13 21.0 implies it normally can. dotc: foot artillery cannot fire in the turn it unlimbers."#,
        &["Ch8 2.0", "Ch16 10.4", "Ch13 21.0"],
    ),
    r(
        "RULINGS C32",
        "The smoke wall",
        r#"RULE-05-5.5 and Ch5 4.0 need three or more adjacent regiments of one brigade, Ch16 5.7 any three adjacent regiments, and Ch5 adds a pip cost it never states. dotc requires one brigade and charges no pips."#,
        &["RULE-05-5.5", "Ch16 5.7"],
    ),
    r(
        "RULINGS C33",
        "How many reactions",
        r#"Ch16 1.0 allows the defender "1 of 5" reactions, while Ch16 6.0 allows one per triggering enemy action. dotc allows one per trigger."#,
        &["Ch16 6.0", "Ch16 1.0"],
    ),
    // ---------------------------------------------------------- RULINGS: gaps
    r(
        "RULINGS G1",
        "Natural 1s and 6s",
        r#"Modifiers can push a to-hit number past 6 (smoke, Disorder and Hesitant on a 5+ give 8+) or below 2. dotc clamps to-hit to 2..6, so a natural 6 always hits and counts for Shock and leader triggers, and a natural 1 always misses. For discipline and rallies a 1 fails and a 6 passes; a cover save pushed to 7+ is lost and none is better than 2+."#,
        &["RULE-05-4.3", "Ch16 5.6"],
    ),
    r(
        "RULINGS G2",
        "Rolling 1D3",
        r#"A 1D3 is a d6 read 1-2 as 1, 3-4 as 2 and 5-6 as 3, and dotc logs both the die and the result; Timid halves it rounding up, giving 1, 1 or 2. Pips never fall below 0. Friction of War compares each side's senior brigadier's unmodified 1D3, since the rules are silent on several brigadiers."#,
        &["Ch16 2.1", "Ch13 3.0"],
    ),
    r(
        "RULINGS G3",
        "Engaged stands",
        r#"The rules never define them; dotc counts the stands in edge contact with an enemy stand of this melee. A column has 2 front stands (plus its +1); a line hit by a column counts only the stands touching the column's front, usually 2; a flank attack only the stands contacted; a battery 1 (Ch8 6.0). Melees between several units are resolved pair by pair."#,
        &["Ch16 7.3", "Ch8 6.0"],
    ),
    r(
        "RULINGS G4",
        "Measuring range",
        r#"dotc measures from the centre of the Color Stand's front edge (a battery: the midpoint of its guns) to the nearest point of the nearest target stand. One band covers the whole volley, and stands that cannot see drop out. Short is up to 6.0", medium over 6 up to 14", long over 14 up to 20", and every trigger distance uses the same "up to and including" convention."#,
        &["RULE-05-1.4", "Ch16 5.2", "RULE-05-4.1"],
    ),
    r(
        "RULINGS G5",
        "The brigade tally",
        r#"dotc counts every infantry stand removed: a shattered regiment's last stand (RULE-05-3.4, the Garnett example), micro-hit completions, overruns, routs, lost screens and units leaving the table. Artillery, horse holders and leaders do not count. The count is a plain integer, since the tally die stops at 6."#,
        &["RULE-07-2.2", "RULE-05-3.4", "Ch16 8.2"],
    ),
    r(
        "RULINGS G6",
        "Rounding the brigade thresholds",
        r#"Against the Ch16 8.2 rows, 30% rounds up for 16 and 32 stands (4.8 to 5, 9.6 to 10) but down for 24 and 28 (7.2 to 7, 8.4 to 8), while 20 gives 6 and 10 exactly; only round-to-nearest fits every row. dotc's default: Hesitant at 30% of the starting stands rounded half up, Broken at 50% rounded up. A strict ceiling would give 8 and 9 for 24 and 28 stands; the designer is asked to confirm."#,
        &["Ch16 8.2", "RULE-07-2.3", "RULINGS C11"],
    ),
    r(
        "RULINGS G7",
        "How long a turn is",
        r#"Ch16 1.0 advances the turn counter at every change of active side, which matters for consecutive turns, once-a-turn limits, pip banking, re-fought draws, Broken retreats and turn-3 fog. dotc counts a game turn as one side's active sequence, and a unit's streaks count its own side's active turns."#,
        &["Ch16 1.0"],
    ),
    r(
        "RULINGS G8",
        "Pips and command",
        r#"Both sides make pips every Phase 1, and Reserve for Reaction simply marks the one banked pip at no extra cost. The 12-24" tier doubles every special order (an assault 2, a Dress on the Colors assault 4), and the two nearer tiers play alike. A unit counts as in command for free moves within 24", and the undefined inertia advance means straight ahead or falling back."#,
        &["Ch16 2.2", "Ch16 2.3", "RULINGS C10"],
    ),
    r(
        "RULINGS G9",
        "Details of the Shock save",
        r#"Fresh, Spent and cover are judged before the volley's casualties, and crossfire applies from the second firing unit on. Iron Discipline passes the first Shock save each turn automatically but does not stop a Napoleon's canister Disorder, and Seen the Elephant is a separate roll. A Spent unit fired on tests once per volley even with no hits, and a failure there uses RULE-07-1.5."#,
        &["RULE-05-4.2", "Ch16 5.5", "RULINGS C3", "RULINGS C5"],
    ),
    r(
        "RULINGS G10",
        "Charges",
        r#"A charger that starts within 4" takes the closing volley before it moves, and a stalled charger is placed 2.0" from its target. A charger Disordered by the volley that still passes its check fights at -2. Momentum needs the last 3" to be open ground, and a stream stops the charge with no melee."#,
        &["Ch16 7.2", "RULINGS C7", "Ch16 7.3"],
    ),
    r(
        "RULINGS G11",
        "Reactions and smoke",
        r#"A closing volley places smoke and counts as firing. The "unless it left its smoke" clause of RULE-05-1.2 can never be met, because moving forward forbids firing. Smoke is removed in its owner's Phase 5 if the unit did not fire; a unit has one marker, the -1 does not stack, and "beyond 6 inches" is the firer-to-target range."#,
        &["RULE-05-1.2", "RULE-05-5.2", "Ch16 5.7"],
    ),
    r(
        "RULINGS G12",
        "Skirmish screens",
        r#"The rules leave open whether the screen still counts for its parent, whether it can be targeted, how its second hit arrives, its speed, the 4-stand minimum (only in Ch10) and the "Light cover" of Ch16 5.4. dotc's default: the screen belongs to its parent for health and tally, the parent rolls without it, it can be shot at directly, it is removed after 2 hits as a loss to the parent, and it gets no save."#,
        &["Ch16 3.4", "Ch10 1.0", "RULE-05-6.2"],
    ),
    r(
        "RULINGS G13",
        "Arcs",
        r#"The 45-degree front arc, the 45-90 degree flank zone and the 90-degree enfilade line are never tied together in the text. dotc: the front arc is bounded by rays 45 degrees outward from each front corner, and the flank zone runs from there to the 90-degree line."#,
        &["RULE-05-1.4", "RULE-05-1.5", "Ch16 4.5"],
    ),
    r(
        "RULINGS G14",
        "Overrun and rout",
        r#"A charged road column is removed; open order loses a stand, is Disordered and falls back 3"; a battery is captured; horse holders are destroyed with no remount; a Broken unit is removed on contact. A unit already Disordered when its brigade breaks takes a micro-hit (RULE-07-3.4 read literally), the Broken retreat is a flat 6", and a breakthrough needs the enemy removed."#,
        &["RULE-07-2.4", "Ch13 22.0", "RULINGS C23", "Ch16 7.4"],
    ),
    r(
        "RULINGS G15",
        "Cavalry",
        r#"The -2 for infantry that is Disordered or in column is not doubled. For regiment sizes the tables omit, horse holders are a quarter of the stands rounded up. Remounting restores only the stands that survive, not the full starting count that Ch13 6.0 prints."#,
        &["Ch16 10.1", "Ch16 10.2", "Ch13 6.0"],
    ),
    r(
        "RULINGS G16",
        "Bonus dice",
        r#"A breechloader adds one die per two stands rounded down, so 5 stands roll 7D6 as Ch12 says. The Friction of War squall halves the pool after the bonus dice are added."#,
        &["Ch16 5.2", "Ch13 3.0"],
    ),
    r(
        "RULINGS G17",
        "Terrain details",
        r#"Cover does not stack, and open order's +1 is the only bonus. Sunken tracks are Light and sunken roads Heavy (scenarios tag which), dense woods count as Light, Ch3's "no save on a crest against artillery" is not used, abatis -2 falls on the attacker, and a crest defender's +1 and an uphill attacker's -1 both apply. Every formed formation Disorders on entering dense woods, and hasty works on Heavy cover stay Heavy."#,
        &["RULE-05-3.2", "Ch16 4.1", "Ch16 4.4", "Ch13 14.0", "RULINGS C29"],
    ),
    r(
        "RULINGS G18",
        "Leaders",
        r#"One leader casualty roll per volley or melee, however many triggers; light wounds stack. The replacement colonel appears at the nearest Color Stand in the next Phase 1, and Ch7's "hesitant Colonel" means a Timid one."#,
        &["Ch16 2.4", "RULINGS C9"],
    ),
    r(
        "RULINGS G19",
        "Artillery losses",
        r#"Two unsaved hits remove one battery section, as they remove a stand. The shatter rule at one stand applies to infantry only."#,
        &["RULE-05-3.3", "RULE-05-3.4"],
    ),
    r(
        "RULINGS G20",
        "Campaign details",
        r#"The victor's +1 on the surgeon's roll also lifts a rolled 1. The experience table has no 3 XP row; dotc treats 3 XP as Veteran."#,
        &["Ch14 2.0"],
    ),
    r(
        "RULINGS G21",
        "Defects of the rule files",
        r#"RULE-05-2.5 is used twice, so dotc keys the two rules 2.5a and 2.5b. The tables of RULE-05-2.2, 2.3 and 7.0 (its header) and of RULE-07-1.2, 1.3, 2.5 and 4.4 are printed as captions only and are filled from Ch16 5.2, 5.3, 5.6, 8.1, 8.2 and 2.4. List numbering is broken, and the "(see )" cross-references are empty."#,
        &["RULE-05-2.5", "RULE-05-7.0", "RULE-07-4.4"],
    ),
    // ---------------------------------------------------------- RULINGS: worked examples
    r(
        "RULINGS E1",
        "Example 1: 5th Virginia against 19th Indiana",
        r#"Five smoothbore stands fire at 4" (short, 3+) at 5 stands in the open and roll 3, 5, 2, 6, 4: 4 hits, 2 stands lost, Fresh to Worn, smoke placed, all correct. The printed automatic Disorder is wrong: the 6 only forces a discipline save, which a Fresh Regular passes on 3+."#,
        &["RULINGS C3", "RULE-05-4.2", "RULE-05-3.3"],
    ),
    r(
        "RULINGS E2",
        "Example 2: 2nd Wisconsin against 4th Virginia",
        r#"Five rifled stands at 10" (medium, 4+, -1 for their own smoke, so 5+) roll 2, 5, 1, 6, 4 for 2 hits; behind a stone wall (4+) the saves 4 and 2 leave 1 unsaved hit, a micro-hit, and the single 1 causes no Low Ammo. The errors: one 6 at medium range is no trigger, so there is no Disorder (a save would have had +1 for cover), and the smoke carried over from the last turn conflicts with Ch16 1.0 (RULINGS C17)."#,
        &["RULINGS C3", "RULINGS C17", "RULE-05-4.1"],
    ),
    r(
        "RULINGS E3",
        "Example 3: Battery B against 28th North Carolina",
        r#"Two sections of 3-inch rifles (4D6) fire overhead, the friendly line 8" from the muzzles and 6" from the target, at an assault column in the open at 24" (long, 4+); the dice 4, 2, 5, 6 give 3 hits, 1 stand and 1 micro-hit. The clearances and losses are right (the rule says "at least"; the text prints "more than"). The error: one 6 at long range is no trigger, so there is no Disorder."#,
        &["RULINGS C3", "RULE-05-6.3", "RULE-05-2.5a"],
    ),
    r(
        "RULINGS E4",
        "Potts' brigade",
        r#"A 20-stand brigade loses 2+2+1+1 = 6 stands, 30%, and turns Hesitant: the 150th Pennsylvania may not assault and Phase 3 fire is at -1, and 10 losses would break it. All of that is correct; only the check being made in Phase 1 is at odds with the rules (RULINGS C12)."#,
        &["RULINGS C12", "RULE-07-2.3", "Ch16 8.2"],
    ),
    r(
        "RULINGS E5",
        "Garnett's charge",
        r#"The 33rd Virginia (2 stands, Spent, -1) charges with Garnett attached for 1 pip; at 4" a section's canister, 2D6 at 2+, rolls 2 and 6, one stand falls, the leader roll of 5 removes Garnett, the regiment shatters, 2 stands are tallied and a Timid colonel takes over. This is consistent with Ch16 2.4 and RULE-05-3.4. The errors: the Disorder needs a failed save unless the gun is a Napoleon, and the shatter comes from the stand count, before the leader roll, not from losing the general."#,
        &["RULINGS C9", "RULE-05-3.4", "Ch16 2.4", "RULINGS G5"],
    ),
    r(
        "RULINGS E6",
        "Smaller figures in the narrative",
        r#"Ch6 5.0 says Green troops fail 33% of the time, but passing only on 5+ they fail 67%; Ch6 3.0's "final 40 yards" at 4" is really 100 yards. Ch15's 3-4 volleys before a regiment is Spent should be 2 at one stand and a micro-hit per volley (simulated means: 2.2 volleys at 3+, 2.8 at 4+, 4.0 at 5+). Its "8-10 volleys" at 3-4 hits per stand should be about 3.6-4.8."#,
        &["Ch15 3.0", "Ch6 3.0"],
    ),
    r(
        "dotc D1",
        "A charger whose brigade breaks before contact",
        r#"dotc's own ruling (docs/rulings.md), for a question RULINGS.md leaves open. A closing volley can take the charger's brigade past its Broken threshold while the charge is under way; a Broken unit is disordered at once and may start no melee (RULE-07-2.4). By default the charge halts 2" short, like a stall, and no melee is fought (`ruling broken_during_charge = halts`); `goes_in` lets it go on to the pre-contact check and the melee, reading the charge as begun before the break."#,
        &["RULE-07-2.4", "Ch16 7.2", "RULINGS C7"],
    ),
    // ---------------------------------------------------------- dotc's own rulings (D ids)
    r(
        "dotc D2",
        "Firing through one's own screen (dotc's ruling)",
        r#"Not in RULINGS.md: dotc's own ruling where RULE-05-6.2 gives no geometry. A regiment may fire through its own detached skirmish screen at -1 to hit, and the screen is a single stand standing for skirmishers spread across the regiment's front, 2-3" ahead of it. By default every volley of the regiment while its screen is out takes the -1 (switch `own_screen = screen_out`); `in_the_line` gives it only to a volley whose range line or a firing stand's line crosses the screen's stand."#,
        &["RULE-05-6.2", "Ch16 3.4", "Ch16 5.6", "RULINGS G12"],
    ),
    r(
        "dotc D3",
        "What a hit on a solitary brigadier does (dotc's ruling)",
        r#"Not in RULINGS.md: RULE-07-4.5 says when a brigadier standing alone may be shot at (the nearest visible enemy, within 6") but not what a hit does to him. dotc sends him to the leader casualty table of Ch16 2.4, one roll for the volley as RULINGS G18 has it for an attached leader, written on the fire line as `leader_casualty [d]`. By default any hit calls the roll (`ruling solitary_brigadier_hit = any_hit`); `natural_six` calls it only when the volley rolls a natural 6, the trigger RULE-07-4.3 gives for an attached leader who loses no stand. He takes no cover save either way."#,
        &["RULE-07-4.5", "RULE-07-4.3", "Ch16 2.4", "RULINGS G18"],
    ),
    r(
        "dotc D5",
        "Which lines a Smoke Wall blocks (dotc's ruling)",
        r#"Not in RULINGS.md: RULE-05-5.5 blocks sight "through" a Smoke Wall beyond 8" but draws no line. dotc forms a wall from the markers of 3 or more regiments of one brigade (RULINGS C32), each within 1" of another (the widest lateral interval of Ch16 3.3; the gaps are part of the wall), and never blocks at 8" or nearer (beyond 6" a line through it costs the -1 of smoke, RULE-05-5.2). By default the wall blocks only a line that crosses it from one side to the other: a battery firing over it, fire at a unit behind it (`ruling smoke_wall_blocks = lines_across`); the wall's own regiments fire out of it and are fired at in it at -1. `any_line` blocks every line beyond 8" that meets it, theirs too."#,
        &["RULE-05-5.5", "RULE-05-5.2", "Ch16 5.7", "RULINGS C32", "Ch16 3.3"],
    ),
    r(
        "dotc D6",
        "Artillery demolition of a building (dotc's ruling)",
        r#"Not in RULINGS.md: Ch16 4.3 has each solid-shot hit roll 4+ for a structural hit and the building collapse at 4, but leaves open which fire that is and what a collapse does in detail. dotc reads: solid shot is a battery's fire at any band but canister; it strikes a building through its garrison, every hit before saves rolling its damage die (`structure [d, ...]` on the fire line), so an empty building takes none; the stand the collapse costs comes off the unit fired at, every unit inside is Disordered, and the survivors stay where they stood, in the rubble (its 5+ light cover, no sight block, no 360-degree arc) until they move off. A Parrott's "+1 damage vs. stone structures" (Ch16 5.3) is by default one structural hit more for each hit that damages (`ruling parrott_damage = extra_point`); `to_the_roll` makes it +1 to the damage die instead (3+)."#,
        &["Ch16 4.3", "Ch16 5.3", "RULE-05-1.1"],
    ),
    r(
        "dotc D7",
        "The brigadier's base (dotc's ruling)",
        r#"Not in RULINGS.md: Ch16 2.2 measures command range from any edge of the brigadier's base to the middle of the front edge of the regiment's Color Stand, but only a division or corps commander's base has a size (RULE-07-4.1). dotc gives the brigadier a 1" round base, the one the map draws, so every command range (the tiers of Ch16 2.2, the 12" of a command rally, an assault's tier) starts 0.5" out from where the log puts him (`ruling brigadier_base = round_1in`); `point` measures from his position itself."#,
        &["Ch16 2.2", "Ch16 8.3", "RULE-07-4.1"],
    ),
    r(
        "dotc D47",
        "Forming road column (dotc's ruling)",
        r#"Not in RULINGS.md: Ch16 3.2 prices line and assault column into each other (half the move) and road column into line (the whole move), but not line or assault column into road column, so a deployed regiment could never take the road again. dotc takes the whole move, the mirror of road column into line: the stdlib's `change road_column all` on line and assault column (`ruling road_column_change = whole_move`); `half_move` takes half the move, as line and assault column change; `unpriced` allows no such change, as printed."#,
        &["Ch16 3.2", "Ch16 2.3"],
    ),
    r(
        "dotc D48",
        "A retreat blocked by a friendly unit (dotc's ruling)",
        r#"Not in RULINGS.md: Ch16 7.4 retreats a melee's loser 6" directly backward but does not say what happens when a friendly unit stands on that spot or in the way. dotc sends it straight back through the friend, a passage of lines that both test (Ch16 3.3, RULINGS C8), to the first ground at or beyond its 6" clear of every friend (`ruling blocked_retreat = pass_through`); `sidestep` ends its 6" shifted sideways the least that clears, passing through no friend on that spot; `stop_short` stops it in contact with the first friend in its way, with no further consequence, since the rules give none."#,
        &["Ch16 7.4", "Ch16 3.3", "RULE-07-1.4", "RULINGS C8"],
    ),
    r(
        "dotc D8",
        "Army traits are a module (dotc's ruling)",
        r#"Not in RULINGS.md: Ch13 5.0 makes the six historical traits an optional module, while Ch16 9.0 prints them with the master mechanics. dotc plays them as the module: a trait a scenario gives a unit counts only with `module army_traits` on, in the scenario or the game log, and `dotc check` warns of a trait given without it. A trait that comes with a quality counts always: green troops have Seen the Elephant (RULINGS C28). Players who take Ch16 9.0 as core switch the module on."#,
        &["Ch13 5.0", "Ch16 9.0", "RULINGS C28"],
    ),
    r(
        "dotc D9",
        "The assault modules' checks (dotc's ruling)",
        r#"Not in RULINGS.md: when the optional assault modules of Chapter 13 roll their checks and what those checks count as. A column caught flat-footed (Ch13 18.0) tests when the charge goes in, after the closing volley and before the melee dice; a target whose brigade still has its banked pip, or that counter-charged, is not caught; a road column overrun under RULINGS C23 takes no check, and one that fights under `melee_minus_one` takes the module's -1 once, not twice. A Green regiment tests for premature fire (Ch13 10.0) only when it fires a closing volley, before that volley's dice."#,
        &["Ch13 18.0", "RULINGS C23", "Ch16 6.0", "Ch13 10.0"],
    ),
    r(
        "dotc D10",
        "Counter-battery fire's natural 6s (dotc's ruling)",
        r#"Not in RULINGS.md: Ch13 7.0 has a natural 6 of artillery firing at an enemy battery destroy a gun stand outright, "not just" a crew casualty, without saying whether the 6 is also a hit. dotc: each natural 6 that hits removes one gun stand at once with no save, and is not among the hits that go on to the cover saves; the other hits are saved and counted as usual. A 6 that does not hit (a to-hit past 6, RULINGS G1 unclamped) destroys nothing. No switch."#,
        &["Ch13 7.0", "RULINGS G1", "RULE-05-3.3"],
    ),
    r(
        "dotc D11",
        "The second line (dotc's ruling)",
        r#"Not in RULINGS.md: Ch13 19.0 gives +1 to a regiment's Discipline checks with a formed, steady friend "within 3.0 inches directly behind the center". dotc draws a line straight back from the centre of the tester's rear edge, 3" long: a friendly regiment (no battery) with a stand on that line, in a formation without gaps (not skirmish or open order) and not Disordered, supports it; a stand touching the line at exactly 3" counts, as ranges do (RULINGS G4). Every check that is a Discipline check takes it: the Shock save, the pre-contact check, the Rebel Yell, flat-footed and premature-fire tests, a passage of lines, a refused flank. A Natural Rally (Ch16 8.3) is a rally roll, not a Discipline check, and takes nothing. Support is judged as the table stands when the check is rolled; there is no switch."#,
        &["Ch13 19.0", "RULINGS G4", "Ch16 8.3", "RULE-07-1.4"],
    ),
    r(
        "dotc D12",
        "Hasty works (dotc's ruling)",
        r#"Not in RULINGS.md: Ch13 14.0 says what digging in costs and gives, not where the works lie afterwards. dotc prices the pip as an order, by command tier; the regiment may not move, fire or declare an assault that turn. The works go along its front edge at the turn's end and stay there: a unit that moves off them loses their cover, and any unit standing behind them later has it, against fire from its front arc only. Open ground becomes light cover, light cover heavy, and heavy stays heavy; none are dug in marsh, streams or buildings."#,
        &["Ch13 14.0", "Ch16 2.2", "RULINGS G17"],
    ),
    r(
        "dotc D13",
        "Refusing the flank (dotc's ruling)",
        r#"Not in RULINGS.md: Ch13 13.0 gives the pip, the 4+ check and its three results. dotc asks for them when an enemy within 12" sees the regiment (a plain wheel that takes a wing back is then an error), prices the pip as an order by command tier, applies the usual standing modifiers to the check, reads the "1" as a natural 1 (panic and Disorder) and any other failure as the men hesitating, and swings the wing back on the other flank's front corner as the turn's wheel."#,
        &["Ch13 13.0", "Ch16 2.2", "RULINGS G1"],
    ),
    r(
        "dotc D16",
        "Spiking the guns (dotc's ruling)",
        r#"Not in RULINGS.md: Ch13 15.0 says what a brigadier may do with guns his infantry took, not what happens around it. dotc has an infantry regiment that beats a battery occupy its guns (cavalry simply captures it); in the next Phase 1 of its side the brigadier spikes them for a pip or has them hauled off for none, each priced by command tier as an order, and saying nothing is an error. While hauling, the regiment's own moves are halved and it may not fire. Beaten in melee, or gone from the table any other way without hauling them off, it loses the guns back to their side, without crews."#,
        &["Ch13 15.0", "Ch8 6.0", "RULINGS G14", "Ch16 2.2"],
    ),
    r(
        "dotc D17",
        "Written orders (dotc's ruling)",
        r#"Not in RULINGS.md: Ch13 8.0 names four tokens and what each mandates, not what else a unit may do. dotc has the active side write one token per regiment and battery on the table in its own Phase 1; a move token allows an advance, wheel or about-face at the standard rate, a hold token no move at all, a formation token only a change of formation, an assault token only the charge at its named target. A token not carried out, or a unit without one, is an error at the turn; a token broken by an action is an error there only. The assault token's pip is the charge's own, paid on its assault line."#,
        &["Ch13 8.0", "Ch16 2.3", "Ch16 7.1"],
    ),
    r(
        "dotc D18",
        "The weather (dotc's ruling)",
        r#"Not in RULINGS.md: a file's ground, sky and heat are in force only with the weather module on (the wind, a core rule, always is), and writing one with the module off is warned. Fouled powder counts the volley's natural 1s as first rolled, for any firer: one Fouled marker, -1 to hit until a Phase 1 pip clears it as an order priced by command tier. Dense fog refuses an assault beyond 6" at its declaration and rolls once a game turn from turn 3, in Phase 1, thinning to light fog on a 5+. Severe heat's micro-hit on an assault falls when it is declared, before any die."#,
        &["Ch13 21.0", "RULE-05-5.4", "dotc D8", "RULINGS G7"],
    ),
    r(
        "dotc D25",
        "Elite sharpshooters (dotc's ruling)",
        r#"Not in RULINGS.md: the sharpshooters fight in the stdlib's `sharpshooter_order`, skirmish order with 1" gaps, which only a regiment with the trait may take, and only with the module on; forming it or leaving it for a line takes half the move. It moves 8" over any passable ground with no terrain or obstacle cost, counts as light cover in the open and blocks no friend's sight; its charge goes at 9". Enemies fire at it at -1 and may fire past it at a formed line or column behind. It may not charge a formed line or column, and when charged and caught in the melee its Shock score is at -2."#,
        &["Ch13 9.0", "RULINGS C16", "Ch16 6.0"],
    ),
    r(
        "dotc D27",
        "Hidden deployment's blinds (dotc's ruling)",
        r#"Not in RULINGS.md: a scenario writes its blinds in each side's block, `blind "B1" brigade "Name" at (x, y)` for a real brigade and `dummy "D1" at (x, y)` for a dummy, and only with the module on. With it on, every brigade of a side that starts on the table goes under exactly one blind and each side has exactly two dummies; units outside any brigade deploy in sight. A hidden brigade's regiments, batteries and brigadier have no position: they are off the table, like reinforcements not yet arrived, until the blind is revealed."#,
        &["Ch13 4.0"],
    ),
    r(
        "dotc D28",
        "Hidden deployment in play (dotc's ruling)",
        r#"Not in RULINGS.md: a blind moves with `move "B1" to (x, y)` in its side's Phase 2, with no order or pip, at most 9" in a turn however its moves are split, across anything but impassable ground. After every Phase 2 action a blind within 12" of an enemy unit (to its nearest stand) or an enemy blind (centre to centre) is unmasked, whoever moved, so two blinds spot each other; the log writes `reveal "B1"` before its next other action. A dummy is then removed; a real blind's units are placed with `enter "Unit" to (x, y) facing F`, colours within 6" of the blind's centre, and its brigadier with `move`, within the same 6". Placing is not moving. A unit still hidden neither fires nor charges."#,
        &["Ch13 4.0", "Ch16 1.0"],
    ),
    r(
        "dotc D31",
        "Who holds the field (dotc's ruling)",
        r#"Not in RULINGS.md: after a campaign battle the side holding the field is the winner the scenario's own victory conditions name when the log's replay ends (a major or minor win alike). A draw, or a game that ends with no condition met, leaves the field to nobody: neither side gets the surgeon's +1 and nobody takes prisoners."#,
        &["Ch14 1.0", "Ch14 2.0"],
    ),
    r(
        "dotc D32",
        "Prisoners after a campaign battle (dotc's ruling)",
        r#"Not in RULINGS.md: the side holding the field takes the other side's surviving casualties prisoner, which the table of the surgeon's roll does not show. By default (`surgeon_prisoners = returners`) the loser's stands whose roll would send them back to the ranks are captured instead and gone for the campaign, while its hospital cases still recover. `all` captures every surviving casualty, hospital cases too; `none` treats the note as colour. A captured stand is claimed as `captured N`."#,
        &["Ch14 2.0", "dotc D31"],
    ),
    r(
        "dotc D33",
        "A unit's campaign roster (dotc's ruling)",
        r#"Not in RULINGS.md: a regiment or battery is the same unit across a campaign's battles when its quoted name is the same; one that appears for the first time joins with the strength its scenario declares. The stands it lost in a battle are the replay's count, its stands at the start of the battle less those at the end, whatever the roster held; they leave the roster until the surgeon's roll sends some back."#,
        &["Ch14 1.0", "Ch14 2.0"],
    ),
    r(
        "dotc D34",
        "When hospital cases return (dotc's ruling)",
        r#"Not in RULINGS.md: campaign battles are counted in the order the campaign file lists them. A stand sent to hospital after battle N misses battle N+1 and is back on its regiment's roster before battle N+2, whether or not the regiment fights in battle N+1."#,
        &["Ch14 2.0"],
    ),
    r(
        "dotc D35",
        "The feats of regimental experience (dotc's ruling)",
        r#"Not in RULINGS.md: the replay of the battle finds each regiment's and cavalry battalion's feats; batteries have none. `charged`: its charge came home on an enemy formed unit (a line or column of foot or horse, not a battery, open or skirmish order) and the defender lost the melee or was routed or overrun on contact; a Bloody Draw breaks nobody (`xp_charge_breaks = removed`: only a defender that leaves the table). `held`: two enemy charges came home on it while it was Worn or Spent and after neither did it retreat, fall back or leave the table; a charge stopped short is no attack held (`xp_held_attacks = turn`: both in one turn). `inflicted`: its volleys and melees took two or more stands of enemy batteries and enemy units of the Elite quality."#,
        &["Ch14 3.0", "Ch16 7.4", "Ch16 8.1"],
    ),
    r(
        "dotc D36",
        "Experience points a battle (dotc's ruling)",
        r#"Not in RULINGS.md: each feat earns 1 XP once a battle however often it is done (`xp_repeat_feat = each`: every time), 2 at most a battle and 4 in all. A campaign writes the feats and the XP the unit now has, `experience "19th Maine" charged held => xp 3`, checked against the replay; a unit whose feats earn XP needs its line."#,
        &["Ch14 3.0", "dotc D35"],
    ),
    r(
        "dotc D37",
        "Grades and traits of experience (dotc's ruling)",
        r#"Not in RULINGS.md: the grades of the experience table are the troop qualities: Green, Regular, Veteran and Elite, with their own discipline and rally numbers; 3 XP is Veteran. A regiment joins a campaign with the XP of the quality its scenario gives it (Regular 1, Veteran 2, Elite 4). From Veteran on it may choose one Army Trait, Steady or Sharpshooters, once, written `trait "19th Maine" steady` after the experience line that made it Veteran; Elite gains Iron Discipline."#,
        &["Ch14 3.0", "RULINGS G20", "Ch16 9.0"],
    ),
    r(
        "dotc D38",
        "Who may be promoted after a campaign battle (dotc's ruling)",
        r#"Not in RULINGS.md: a brigadier rolls for promotion when his side won the battle by the scenario's victory conditions (the default `promotion_objective = side_won`; `unbroken` also asks that his brigade not end it Broken), he commanded in it and ended it still in command (unhurt or lightly wounded), and there is a rating above his. An Aggressive brigadier has nothing to rise to and rolls nothing."#,
        &["Ch14 4.0", "dotc D31"],
    ),
    r(
        "dotc D39",
        "A battle's leader casualties in a campaign (dotc's ruling)",
        r#"Not in RULINGS.md: the worst leader casualty result a brigadier took in the battle decides his campaign fate. A lost pip is a light wound: back next battle, nothing to roll. Being carried off or captured is a severe wound: a die read as 1D3 (1-2, 3-4, 5-6) gives the battles he misses, counted like hospital stays, while the brigade's senior colonel commands as Timid. Death calls a die for the new brigadier: 1-3 Timid, 4-6 Reliable; the roster keeps the command under the fallen man's name."#,
        &["Ch14 4.0", "Ch16 2.4", "RULINGS C9", "RULINGS G2"],
    ),
    r(
        "dotc D40",
        "When a campaign drafts replacements (dotc's ruling)",
        r#"Not in RULINGS.md: campaigns here have battles, not operational turns. By default (`replacements = written`) a draft happens after the battles whose post-battle sequence writes one, for every army at once. Under `every_battle` each played battle is followed by a draft for both armies."#,
        &["Ch14 5.0"],
    ),
    r(
        "dotc D41",
        "Who takes replacement stands (dotc's ruling)",
        r#"Not in RULINGS.md: any regiment or cavalry regiment below the strength it joined the campaign with may take recruits, whatever its grade; batteries take none. Stands in hospital or waiting for the surgeon hold their places, so only stands lost or captured make room, and nobody goes above his starting strength. All the die's stands must be handed out while some regiment of the side still has room."#,
        &["Ch14 5.0", "dotc D33"],
    ),
    r(
        "dotc D42",
        "The strength a unit takes a campaign battle with (dotc's ruling)",
        r#"Not in RULINGS.md: in a campaign a unit fights with its stands on the roster as the battle begins, however the scenario states its strength (stands, men, a battery's sections): stands in hospital, lost or captured are missing, replacements are there. A unit first met in the battle joins at the scenario's strength; one with no stands left stays off the table. The battle's losses are counted from the stands it began with, and check and audit note what the roster changed."#,
        &["Ch14 1.0", "Ch14 2.0", "Ch14 5.0", "dotc D33"],
    ),
    r(
        "dotc D43",
        "Health and the brigade clock in a campaign battle (dotc's ruling)",
        r#"Not in RULINGS.md: by default (`roster_health = fresh`) a campaign battle's starting stands, for a regiment's health and its brigade's clock, are the stands it takes the field with, so a regiment thinned in earlier battles begins Fresh. Under `depleted` they are the strength it joined the campaign with, the stands it is short counted as lost before the battle, so it may begin Worn; those are not losses of the battle for the Surgeon. A scenario's `lost` can still start it lower."#,
        &["Ch14 1.0", "Ch16 8.1", "Ch16 8.2", "dotc D42"],
    ),
    r(
        "dotc D44",
        "Grades, traits and commanders in a campaign battle (dotc's ruling)",
        r#"Not in RULINGS.md: a regiment fights at its experience grade instead of the scenario's quality, one grade lower in the battle it is diluted for; batteries keep the scenario's. The campaign's traits join the scenario's and need their module like any trait. A brigadier commands at his campaign rating; while he is out the senior colonel commands as Timid under his own name; a killed brigadier's successor commands at the rating rolled."#,
        &["Ch14 3.0", "Ch14 4.0", "Ch14 5.0", "dotc D8", "dotc D37", "dotc D39"],
    ),
    r(
        "dotc D49",
        "Battles of one day in a campaign (dotc's ruling)",
        r#"Not in RULINGS.md: Ch14 1.0 follows "any tabletop scenario" with the whole post-battle sequence, but its stragglers return "that evening" and its draft comes between operational turns. By default (`same_day = full`) every battle has the whole sequence, as printed. Under `same_day = field`, two battles whose scenarios give the same date are linked by `field` alone: the stands lost stay off the roster and a brigadier severely wounded or killed is out for the rest of the day under his senior colonel; after the day's last battle one sequence covers the whole day, a Surgeon's die for every stand lost that day with the field as that battle leaves it, the day's feats counted as one battle's, the officer rolls of every brigadier struck that day, and promotion for the day's brigadiers whose side holds the field at its end."#,
        &["Ch14 1.0", "Ch14 2.0", "Ch14 3.0", "Ch14 4.0", "Ch14 5.0", "dotc D31", "dotc D33"],
    ),
    r(
        "dotc D50",
        "Where a flank attacker must start (dotc's ruling)",
        r#"Not in RULINGS.md: Ch16 7.3 gives the attacker +2 for a flank or rear attack without saying where it must be. Ch16 6.0 sets the flank zone at 45 to 90 degrees off the front and lets a refused flank cancel the +2 there; Ch15 4.0 wants the attacker to start wholly behind the 90-degree line from the target's front edge. By default (`ruling flank_attack = flank_zone`) the charge is a flank attack when the charger's Color Stand starts outside the target's 45-degree front arc (RULINGS G13); under `behind_line` only when every one of its stands starts on or behind the 90-degree line, as enfilade fire is judged (RULE-05-1.5, RULINGS C15). Either way the charger is measured before its charge move, and a refused flank cancels the bonus."#,
        &["Ch16 7.3", "Ch16 6.0", "Ch15 4.0", "RULINGS G13", "RULINGS C15", "RULE-05-1.5"],
    ),
    r(
        "dotc D51",
        "When a melee written in Phase 2 takes effect (dotc's ruling)",
        r#"Not in RULINGS.md: Ch16 1.0 fights every melee in Phase 4, after all of Phase 2's declarations and Phase 3's volleys, but a log writes each assault's melee dice where the assault is. By default (`ruling melee_timing = phase_four`) such a melee's effects on its brigades wait for Phase 4: a later charge of the same phase is declared, a later order paid and a Phase 3 volley fired with the brigade as it stood before that phase's melees. A Hesitant or Broken state the melees brought on does not refuse them, the Disorder a break put on the brigade's other regiments does not stop their charges, and the pips the break forfeited can still be spent. The later melees themselves are fought with everything in force, as in Phase 4, so a charger whose brigade an earlier melee broke starts no melee (RULE-07-2.4, dotc D1). Under `at_contact` each melee is in force from its own line."#,
        &["Ch16 1.0", "Ch16 7.1", "Ch16 8.2", "RULE-07-2.3", "RULE-07-2.4", "RULINGS C12", "dotc D1"],
    ),
    r(
        "dotc D52",
        "Charges are declared one at a time (dotc's ruling)",
        r#"Not in RULINGS.md: Ch16 1.0 has Phase 2's charges declared by the active player but does not say whether all are declared before any is carried out. dotc declares each charge when its line is reached and carries it to its melee before the next: a closing volley that takes the brigade to Hesitant refuses the brigade's later charges of the phase (RULE-07-2.3), and one that breaks it halts them (dotc D1). Only a Dress on the Colors push declares several regiments at once (Ch16 2.3: they charge simultaneously), judged when its first regiment is; a break still stops its later regiments. No switch: write the charges as a push to have them declared together."#,
        &["Ch16 1.0", "Ch16 2.3", "Ch16 7.1", "RULE-07-2.3", "dotc D1", "dotc D51"],
    ),
    r(
        "dotc D53",
        "Which way dead ground blocks sight (dotc's ruling)",
        r#"Not in RULINGS.md: Ch16 4.4 hides a unit more than 1" behind a crest from the units at the foot of the hill, and forbids them to fire at or charge it until they reach the crest; it does not say whether the unit behind the crest sees them. By default (`ruling dead_ground_sight = both_ways`) the crest blocks the line from either end, the reverse slope being blind to the foot of the hill until the crest is crossed: neither unit may fire at or charge the other until one of them stands at the hill's level. Under `from_below` only the unit behind the crest is hidden, and it may fire and charge down at the foot."#,
        &["Ch16 4.4", "Ch16 7.1"],
    ),
    r(
        "dotc D54",
        "Which retreats a log may write (dotc's ruling)",
        r#"Not in RULINGS.md: the rules make a unit retreat only when it loses a melee (straight back, Ch16 7.4; 9" for mounted cavalry beaten by mounted cavalry, Ch16 10.1) and, each turn, when its brigade is Broken (6" toward its own table edge, RULE-07-2.4, Ch16 8.2, RULINGS G14), and name no phase for the Broken retreat. dotc judges each `retreat` line against the retreat owed where it stands: a melee's loser, once, in its melee's turn; a Broken brigade's unit, once in each of its own side's turns (RULINGS G7), in whichever phase the log writes it. A retreat no rule owes is refused and moves nothing: a step back by choice is a `fall_back` or a `move`. After an `assault` line that was refused, one retreat of the loser its `melee` step's claim names is judged as a melee loser's (9" if both were mounted cavalry), not refused again. No switch."#,
        &["Ch16 7.4", "Ch16 8.2", "Ch16 10.1", "RULE-07-2.4", "RULINGS G7", "RULINGS G14"],
    ),
    r(
        "dotc D26",
        "The wave attack (dotc's ruling)",
        r#"Not in RULINGS.md: a wave is authorised in its own Phase 1 for 2 pips, priced by the lead's command tier, naming two or more regiments of the brigade front to back, in one formation, each within 1" straight behind the one ahead. It stands through that turn and the enemy's next, and fires in neither Phase 3 of its own turn. When a charge of the wave ends short, the regiment behind completes it at once with `surge`: no pip, no closing volley, no check to close, reach judged from the stalled charge's distance. Each hit of a battery's solid shot or shell on a regiment of the wave is an unsaved stray hit on the one stacked behind."#,
        &["Ch13 23.0", "Ch16 7.2", "RULE-05-3.3", "RULINGS C7"],
    ),
    r(
        "dotc D24",
        "Horse holders (dotc's ruling)",
        r#"Not in RULINGS.md: a charge at dismounted cavalry's horse holders is written with `holders` after the regiment's name, declared and paid as any assault and measured to the holders' stand, which must lie in the charger's front arc. With no volley, check or melee the holders are captured; the stand is lost for good (the regiment's health counts it, the brigade tally does not, as RULINGS G5 keeps holders off the clock) and the regiment can never remount. The holders move with `lead_horses`: 4" once a turn, 8" along a road with the module, and with it they must end their side's maneuver phase within 4" of their line. Only the module makes them a target of fire (`at "Regiment" holders`): no save, and two hits take them as a charge would."#,
        &["Ch16 10.2", "Ch13 6.0", "RULINGS G5"],
    ),
    r(
        "dotc D21",
        "The frenzied pursuit (dotc's ruling)",
        r#"Not in RULINGS.md: Ch13 12.0 does not say when the frenzied 4" move is made or from where "nearest" is measured. dotc makes it at once, written `pursue "Unit" to (x, y)` on the line after the melee that caused it; left out, it is an error and the replay makes it. The nearest enemy unit's nearest point or objective, from the regiment's colours, wins (an enemy unit on a tie); the regiment turns to face it and its colours go straight at it 4", or up to it when nearer, nothing else stopping it. The Disorder comes after the move."#,
        &["Ch13 12.0", "RULE-05-1.4", "RULE-07-1.5", "RULINGS C5"],
    ),
    r(
        "dotc D19",
        "Panic in the Ranks (dotc's ruling)",
        r#"Not in RULINGS.md: Ch13 3.0's event 5 rolls for "a random active regiment" without saying how it is chosen. dotc leaves the drawing to the players, any fair way they like, and has the friction line name the regiment they drew, after the event's die and the regiment's own: `friction roll [5, 2] "Regiment" => 5, disordered`. The replay checks that it is a regiment (no battery) of the active side on the table; its die below the stdlib's 4+ (a 1, 2 or 3) gives it a Disorder marker. The other picks of the table name their unit the same way. No switch: every fair drawing gives the same log."#,
        &["Ch13 3.0", "RULINGS G2"],
    ),
    r(
        "dotc D20",
        "The General at the Front (dotc's ruling)",
        r#"Not in RULINGS.md: Ch13 3.0's event 4 gives "the Active Brigadier" 2 more pips and removes him if his brigade suffers a casualty, without saying which brigadier, or what a casualty is. dotc: the active player names the brigadier on the friction line (a side with one brigade need not); his brigade has 2 pips more this turn. The first unsaved hit or lost stand of any unit of his brigade before the turn ends, in any phase, wounds him out of the game as the leader casualty table's row that removes a leader without killing him: his colonel commands from the next turn. No switch."#,
        &["Ch13 3.0", "Ch16 2.4", "RULINGS G18", "RULINGS G2"],
    ),
    r(
        "dotc D22",
        "Scouting's terrain piece (dotc's ruling)",
        r#"Not in RULINGS.md: Ch13 1.0 lets the Scouting winner move or remove one non-river terrain piece up to 6", without saying what a piece is or how a move is measured. dotc moves a piece without turning it, every point by the same amount, at most 6"; a removal has no distance. A piece is any named terrain feature but a watercourse, a road that meets one (its crossing stays on the river) and an objective. The log writes `scouting SIDE "Piece" by (dx, dy)` or `remove`."#,
        &["Ch13 1.0"],
    ),
    r(
        "dotc D23",
        "Initiative and The March (dotc's ruling)",
        r#"Not in RULINGS.md: a tie gives a category of Ch13 1.0 to nobody, and dotc plays no deployment. dotc reads the standard first-turn roll as the scenario's first_side: with bids, turn 1 is the Initiative winner's, and on a tie (or bids that decide nothing) first_side's. The March's winner is said and the scenario's deployment stands. Logistics' battery must be an enemy battery; its Low Ammo marker is the ordinary one."#,
        &["Ch13 1.0", "RULE-05-2.5b"],
    ),
    r(
        "dotc D14",
        "Desperate valor (dotc's ruling)",
        r#"Not in RULINGS.md: Ch13 17.0 gives Advantage on "Discipline and Morale checks", and the rules name no Morale check. dotc gives it to every one-die test of the regiment's own charge against its Discipline number: the Shock save, Seen the Elephant and Spent-under-fire checks its closing volley calls for, the pre-contact check, and a pursuit check after the melee; never to the melee roll. The log writes both dice of such a check. The 2 pips are an order, priced by command tier; a regiment that does not charge has spent them for nothing."#,
        &["Ch13 17.0", "Ch16 2.2", "Ch16 7.2", "RULE-05-4.2", "RULINGS G1"],
    ),
    r(
        "dotc D15",
        "The battle cry (dotc's ruling)",
        r#"Not in RULINGS.md: Ch13 16.0 raises the cry at the start of Phase 4, but charges are declared and logged in Phase 2. dotc has the brigadier raise it in the maneuver phase before his brigade's first charge, once a game per side, for 2 pips with no command tier. Every enemy unit the brigade charges then takes -1 on every Discipline check it rolls for the rest of the phase, the Rebel Yell trait's check included. Each regiment of the brigade that declared a charge is Disordered at the turn's end, whatever came of it."#,
        &["Ch13 16.0", "Ch13 5.0", "Ch16 9.0", "Ch16 6.0", "RULE-07-3.4"],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(text: &str) -> Option<String> {
        canonical_id(text)
    }

    #[test]
    fn rule_ids_are_normalised() {
        for text in [
            "RULE-05-3.3",
            "rule-05-3.3",
            "RULE 05-3.3",
            "rule 5-3.3",
            "RULE-5-3.3",
            "r05 3.3",
            "R05-3.3",
            "05-3.3",
            "5-3.3",
            " RULE-05-3.3. ",
            "(RULE-05-3.3)",
        ] {
            assert_eq!(canonical(text).as_deref(), Some("RULE-05-3.3"), "{text}");
        }
        assert_eq!(canonical("rule-05-2.5A").as_deref(), Some("RULE-05-2.5a"));
        assert_eq!(canonical("RULE-07-4.4").as_deref(), Some("RULE-07-4.4"));
        // Only sections 05 and 07 have numbered rules.
        assert_eq!(canonical("RULE-06-1.1"), None);
        assert_eq!(canonical("RULE-05-3"), None);
        assert_eq!(canonical("RULE-05-3.3c"), None);
    }

    #[test]
    fn chapter_sections_are_normalised() {
        for text in [
            "Ch16 5.4",
            "ch16 5.4",
            "CH16 5.4",
            "Ch 16 5.4",
            "Ch.16 5.4",
            "ch16-5.4",
            "Ch16-5.4",
            "ch16.5.4",
            "Chapter 16 5.4",
            "chapter 16, 5.4",
            "Ch16 §5.4",
            "16.5.4",
            "16 5.4",
            "16-5.4",
        ] {
            assert_eq!(canonical(text).as_deref(), Some("Ch16 5.4"), "{text}");
        }
        assert_eq!(canonical("ch16 5").as_deref(), Some("Ch16 5.0"));
        assert_eq!(canonical("Ch13 03.0").as_deref(), Some("Ch13 3.0"));
        assert_eq!(canonical("13.22.0").as_deref(), Some("Ch13 22.0"));
        // A bare "7.3" is no chapter section, and there is no chapter 17.
        assert_eq!(canonical("7.3"), None);
        assert_eq!(canonical("Ch17 1.0"), None);
        assert_eq!(canonical("Ch16"), None);
    }

    #[test]
    fn ruling_ids_are_normalised() {
        for text in ["C3", "c3", "C03", "RULINGS C3", "rulings c3", "RULINGS-C3", "ruling C3", "RULINGS: C3"]
        {
            assert_eq!(canonical(text).as_deref(), Some("RULINGS C3"), "{text}");
        }
        assert_eq!(canonical("g10").as_deref(), Some("RULINGS G10"));
        assert_eq!(canonical("E5").as_deref(), Some("RULINGS E5"));
        assert_eq!(canonical("C0"), None);
        // dotc's own register (docs/rulings.md): D ids, cited `dotc D1`; never a C under dotc.
        for text in ["D1", "d1", "dotc D1", "dotc-d1", "RULINGS D1"] {
            assert_eq!(canonical(text).as_deref(), Some("dotc D1"), "{text}");
        }
        assert_eq!(canonical("dotc C3"), None);
        assert_eq!(canonical("F1"), None);
        assert_eq!(canonical("C3x"), None);
    }

    #[test]
    fn lookup_finds_entries_by_any_spelling() {
        assert_eq!(lookup("16.7.3").map(|r| r.id), Some("Ch16 7.3"));
        assert_eq!(lookup("rule-05-3.3").map(|r| r.id), Some("RULE-05-3.3"));
        assert_eq!(lookup("g9").map(|r| r.id), Some("RULINGS G9"));
        assert!(lookup("Ch16 5.9").is_none());
        assert!(lookup("nonsense").is_none());
    }

    #[test]
    fn nearest_suggests_within_the_family() {
        assert_eq!(nearest("RULE-05-3.9"), Some("RULE-05-3.4"));
        assert_eq!(nearest("Ch16 5.9"), Some("Ch16 5.7"));
        assert_eq!(nearest("C34"), Some("RULINGS C33"));
        assert_eq!(nearest("G22"), Some("RULINGS G21"));
        assert_eq!(nearest("RULE-05-3.3"), Some("RULE-05-3.3"));
        // A typo of a canonical id still finds it.
        assert_eq!(nearest("RULE-05-33"), Some("RULE-05-3.3"));
    }

    #[test]
    fn ids_are_canonical_and_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for reference in REFERENCES {
            assert_eq!(
                canonical(reference.id).as_deref(),
                Some(reference.id),
                "{} is not canonical",
                reference.id
            );
            assert!(seen.insert(reference.id), "{} is registered twice", reference.id);
        }
    }

    #[test]
    fn related_ids_are_registered_and_not_self() {
        for reference in REFERENCES {
            assert!(!reference.related.is_empty(), "{} relates to nothing", reference.id);
            for related in reference.related {
                assert!(
                    lookup(related).is_some_and(|r| r.id == *related),
                    "{}: unknown related {related}",
                    reference.id
                );
                assert_ne!(*related, reference.id, "{} relates to itself", reference.id);
            }
        }
    }

    /// Sentences end with `.`, `!` or `?` followed by a space or the end of the text; decimals
    /// such as 6.0 do not count.
    fn sentences(text: &str) -> usize {
        let bytes = text.as_bytes();
        (0..bytes.len())
            .filter(|&i| {
                matches!(bytes[i], b'.' | b'!' | b'?') && bytes.get(i + 1).is_none_or(|b| *b == b' ')
            })
            .count()
    }

    #[test]
    fn summaries_are_two_to_five_sentences() {
        for reference in REFERENCES {
            let n = sentences(reference.summary);
            assert!((2..=5).contains(&n), "{}: {n} sentences", reference.id);
            assert!(!reference.title.is_empty() && !reference.title.ends_with('.'), "{}", reference.id);
            assert!(!reference.summary.contains("e.g."), "{}: avoid abbreviations", reference.id);
        }
    }

    #[test]
    fn every_kind_is_complete() {
        assert_eq!(ids_of(ReferenceKind::Ruling).filter(|id| id.starts_with("RULINGS C")).count(), 33);
        assert_eq!(ids_of(ReferenceKind::Ruling).filter(|id| id.starts_with("RULINGS G")).count(), 21);
        assert_eq!(ids_of(ReferenceKind::Ruling).filter(|id| id.starts_with("RULINGS E")).count(), 6);
        assert_eq!(ids_of(ReferenceKind::Chapter).filter(|id| id.starts_with("Ch16 ")).count(), 42);
        assert_eq!(ids_of(ReferenceKind::Chapter).filter(|id| id.starts_with("Ch13 ")).count(), 23);
    }

    #[test]
    fn every_switchable_ruling_and_module_is_explained() {
        for ruling in crate::rulings::RULINGS {
            assert!(lookup(ruling.id).is_some(), "ruling {} ({}) has no entry", ruling.name, ruling.id);
        }
        for module in crate::rulings::Module::ALL {
            let (name, section) = (module.name(), module.section());
            let first = section.split([',', '(']).next().unwrap_or(section);
            assert!(lookup(first).is_some(), "module {name}: {first} has no entry");
        }
    }
}
