//! Campaign files (Ch14): the register of the post-battle sequence's steps and of the campaign
//! rulings, the typed reading of a step, and the language checks of a campaign against its
//! battles' scenarios and logs (loaded by [`crate::analysis`]). Playing the steps (who holds the
//! field, the Surgeon's roll) is the rules core's: `dotc_runtime::campaign`.

use std::collections::HashMap;

use crate::analysis::{Analysis, LoadedScenario};
use crate::ast::{Action, Arg, Battle, Campaign, Claim, Ident, Name, Roll, Span};
use crate::catalogue::campaign as cat;
use crate::check::NameKind;
use crate::diagnostic::Diagnostic;
use crate::rulings::RulingSpec;

/// One step word of the post-battle sequence.
#[derive(Clone, Copy, Debug)]
pub struct StepSpec {
    pub word: &'static str,
    /// How it is written.
    pub form: &'static str,
    /// The Ch14 section it plays.
    pub rule: &'static str,
    /// One line in our own words.
    pub summary: &'static str,
}

/// The steps of the post-battle sequence a campaign's `after` block takes, in their order
/// (Ch14 1.0). Experience (3.0) and the officers (4.0) come in later slices of issue 18.
pub const STEPS: &[StepSpec] = &[
    StepSpec {
        word: "field",
        form: "field SIDE | field none",
        rule: "Ch14 1.0",
        summary: "Step 1, objective verification: the side that holds the field at the battle's end (dotc D31), checked against the replay of the battle's log.",
    },
    StepSpec {
        word: "surgeon",
        form: "surgeon \"Unit\" roll [d6, ...] => returns N, hospital N, lost N, captured N",
        rule: "Ch14 2.0",
        summary: "Step 2, the Surgeon's roll: one die for every stand the unit lost in the battle; each returns, goes to hospital for the next battle, is lost for good or is captured (dotc D32).",
    },
    StepSpec {
        word: "experience",
        form: "experience \"Unit\" FEAT ... => xp N[, GRADE]",
        rule: "Ch14 3.0",
        summary: "Step 3, regimental experience: the feats the replay of the battle found for a regiment or cavalry battalion (charged, held, inflicted; dotc D35), then the XP it now has (at most 2 more a battle, 4 in all; dotc D36) and, if written, the grade that gives (dotc D37).",
    },
    StepSpec {
        word: "trait",
        form: "trait \"Unit\" TRAIT",
        rule: "Ch14 3.0",
        summary: "Step 3, regimental experience: a Veteran or better regiment chooses its one Army Trait, Steady or Sharpshooters (dotc D37).",
    },
    StepSpec {
        word: "promotion",
        form: "promotion \"Brigadier\" roll [d6] => promoted | not promoted",
        rule: "Ch14 4.0",
        summary: "Step 4, a brigadier's promotion: one die for a brigadier who came through the battle in command and whose brigade achieved its objective (dotc D38); on 5+ his rating rises one tier (Timid -> Reliable -> Aggressive).",
    },
    StepSpec {
        word: "officer",
        form: "officer \"Brigadier\" roll [d6] => out N | replaced RATING",
        rule: "Ch14 4.0",
        summary: "Step 4, an officer casualty: a brigadier the replay saw severely wounded misses 1D3 campaign battles (a d3 read off the d6) under a Timid senior colonel; one killed is replaced for good, 1-3 Timid, 4-6 Reliable (dotc D39).",
    },
    StepSpec {
        word: "replacements",
        form: "replacements SIDE roll [d6] \"Regiment\" N ... => N stands",
        rule: "Ch14 5.0",
        summary: "A draft between battles: the side's army receives 1D3 replacement stands (a d3 read off the d6) for its depleted regiments, up to each one's starting strength (dotc D40, D41); a Veteran or Elite regiment taking 2 or more fights its next battle one grade lower.",
    },
];

/// The results a Surgeon's roll claims, in the order they are written (Ch14 2.0, dotc D32).
pub const SURGEON_RESULTS: &[(&str, &str)] = &[
    ("returns", "stands back on the roster for the next battle (5-6, 4+ with the field's +1)"),
    ("hospital", "stands that miss the next battle and return for the one after it (2-4)"),
    ("lost", "stands lost for good (1)"),
    ("captured", "stands the side holding the field took prisoner (dotc D32): lost for good"),
];

/// The feats of Ch14 3.0 an `experience` step names, as the replay of the battle finds them
/// (dotc D35): the word and what it means.
pub const FEATS: &[(&str, &str)] = &[
    (
        "charged",
        "its charge came home on an enemy formed unit and broke it in the melee (or routed it on contact)",
    ),
    (
        "held",
        "it held its ground against two or more enemy charges that came home while it was Worn or Spent",
    ),
    ("inflicted", "its volleys and melees took two or more stands of enemy batteries or Elite regiments"),
];

/// The rulings a campaign's `rules` block may switch (`ruling surgeon_prisoners = none`); the
/// first value is the default. Apart from [`crate::rulings::RULINGS`], which a scenario or game
/// log switches: these act between battles only.
pub const CAMPAIGN_RULINGS: &[RulingSpec] = &[
    RulingSpec {
        name: "surgeon_prisoners",
        id: "D32",
        values: &["returners", "all", "none"],
        as_printed: "returners",
        summary: "Ch14 2.0's prisoners: the side not holding the field loses for good the stands its Surgeon's roll would have returned (default), or every surviving casualty (hospital too), or none (the note is colour only).",
    },
    XP_CHARGE_BREAKS,
    XP_HELD_ATTACKS,
    XP_REPEAT_FEAT,
    RulingSpec {
        name: "promotion_objective",
        id: "D38",
        values: &["side_won", "unbroken"],
        as_printed: "side_won",
        summary: "Ch14 4.0's \"his brigade achieved its primary scenario objective\": his side won the battle by the scenario's victory conditions (default), or won it with his brigade not Broken at the end.",
    },
    RulingSpec {
        name: "roster_health",
        id: "D43",
        values: &["fresh", "depleted"],
        as_printed: "fresh",
        summary: "What a regiment's health (Ch16 8.1) and its brigade's clock (8.2) count from in a campaign battle: the stands it takes the field with, so a thinned regiment begins Fresh (default), or the strength it joined the campaign with, the stands it is short of counted as lost before the battle (`depleted`).",
    },
    RulingSpec {
        name: "replacements",
        id: "D40",
        values: &["written", "every_battle"],
        as_printed: "written",
        summary: "When Ch14 5.0's draft happens (\"between major campaign operational turns\"): after the battles whose post-battle sequence writes a `replacements` line (default), or after every played battle, both armies.",
    },
    RulingSpec {
        name: "same_day",
        id: "D49",
        values: &["full", "field"],
        as_printed: "full",
        summary: "Ch14 1.0's sequence between two battles of one day (their scenarios give the same `date`): the whole sequence after each (default, as printed), or only `field` between them, the stands lost and the brigadiers struck carried to the next battle of the day, and the Surgeon, experience, officers and draft once after the day's last battle, for the whole day (`field`).",
    },
];

/// Ch14 3.0's "breaks an enemy formed unit in melee" (dotc D35).
pub const XP_CHARGE_BREAKS: RulingSpec = RulingSpec {
    name: "xp_charge_breaks",
    id: "D35",
    values: &["beaten", "removed"],
    as_printed: "beaten",
    summary: "Ch14 3.0's charge feat: the charge breaks the enemy when the defender loses the melee (it gives a stand and retreats, or is routed, overrun or destroyed; default), or only when it leaves the table (`removed`).",
};

/// Ch14 3.0's "two or more enemy attacks" held while Worn or Spent (dotc D35).
pub const XP_HELD_ATTACKS: RulingSpec = RulingSpec {
    name: "xp_held_attacks",
    id: "D35",
    values: &["battle", "turn"],
    as_printed: "battle",
    summary: "Ch14 3.0's holding feat: the two or more enemy charges held while Worn or Spent may come at any time of the battle (default), or must come in one enemy turn (`turn`).",
};

/// Whether one feat done twice in a battle earns twice (dotc D36).
pub const XP_REPEAT_FEAT: RulingSpec = RulingSpec {
    name: "xp_repeat_feat",
    id: "D36",
    values: &["once", "each"],
    as_printed: "once",
    summary: "Ch14 3.0's +1 XP a feat: each of the three feats earns once a battle (default), or each time it is done (`each`: two charges that break the enemy are 2 XP), at most 2 a battle either way.",
};

/// One step of the post-battle sequence, read from its line.
#[derive(Clone, Copy, Debug)]
pub enum Step<'a> {
    /// `field union`, `field none` (Ch14 1.0).
    Field { side: &'a Ident },
    /// `surgeon "Unit" roll [5, 2] => returns 1, hospital 1` (Ch14 2.0).
    Surgeon { unit: &'a Name, roll: Option<&'a Roll>, claim: Option<&'a Claim> },
    /// `experience "19th Maine" charged held => xp 3, veteran` (Ch14 3.0): the feats (words of
    /// [`FEATS`]), then the XP the unit now has.
    Experience { unit: &'a Name, feats: &'a [Arg], claim: Option<&'a Claim> },
    /// `trait "19th Maine" steady` (Ch14 3.0, dotc D37).
    Trait { unit: &'a Name, chosen: &'a Ident },
    /// `promotion "Brigadier" roll [5] => promoted` (Ch14 4.0).
    Promotion { leader: &'a Name, roll: Option<&'a Roll>, claim: Option<&'a Claim> },
    /// `officer "Brigadier" roll [4] => out 2`, `=> replaced timid` (Ch14 4.0).
    Officer { leader: &'a Name, roll: Option<&'a Roll>, claim: Option<&'a Claim> },
    /// `replacements union roll [5] "19th Maine" 2 "12th New Jersey" 1 => 3 stands` (Ch14 5.0);
    /// its allocation is [`draft_allocations`] of `action`.
    Replacements { side: &'a Ident, roll: Option<&'a Roll>, claim: Option<&'a Claim>, action: &'a Action },
}

/// An `experience` step's claim read (Ch14 3.0): the XP the unit now has and, if written, its
/// grade.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExperienceClaim {
    pub xp: Option<u32>,
    pub grade: Option<String>,
}

/// An `experience` claim read: `xp N` once, and at most one grade word.
pub fn experience_claim(claim: &Claim) -> Result<ExperienceClaim, Box<Diagnostic>> {
    let mut out = ExperienceClaim::default();
    let bad = |span: Span, message: &str| {
        Box::new(cat::malformed_step(
            span,
            message.to_string(),
            "experience \"19th Maine\" charged => xp 2, veteran",
            "Ch14 3.0",
        ))
    };
    for item in &claim.items {
        match (item.words.as_slice(), item.numbers.as_slice()) {
            ([word], [n]) if word.value == "xp" => {
                if out.xp.is_some() {
                    return Err(bad(item.span, "the XP is claimed once"));
                }
                if n.value < 0.0 || n.value.fract() != 0.0 {
                    return Err(bad(n.span, "XP is a whole number, 0 or more"));
                }
                out.xp = Some(n.value as u32);
            }
            ([word], []) => {
                if out.grade.is_some() {
                    return Err(bad(item.span, "the grade is claimed once"));
                }
                out.grade = Some(word.value.clone());
            }
            _ => return Err(bad(item.span, "an experience step claims `xp N` and, if you like, the grade")),
        }
    }
    if out.xp.is_none() {
        return Err(bad(claim.span, "an experience step claims the XP the unit now has, `xp N`"));
    }
    Ok(out)
}

/// A Surgeon's roll's claimed results; a result not written is None (claimed 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SurgeonClaim {
    pub returns: Option<u32>,
    pub hospital: Option<u32>,
    pub lost: Option<u32>,
    pub captured: Option<u32>,
}

impl<'a> Step<'a> {
    /// The step a line of an `after` block writes, or why it cannot be read.
    pub fn read(action: &'a Action) -> Result<Step<'a>, Box<Diagnostic>> {
        let word = action.verb.value.as_str();
        match word {
            "field" => match (action.args.as_slice(), &action.claim) {
                ([Arg::Word(side)], None) => Ok(Step::Field { side }),
                _ => Err(Box::new(cat::malformed_step(
                    action.span,
                    "a `field` step names one side, or `none`".to_string(),
                    "field union",
                    "Ch14 1.0",
                ))),
            },
            "surgeon" => {
                let mut unit = None;
                let mut roll = None;
                for arg in &action.args {
                    match arg {
                        Arg::Unit(n) if unit.is_none() => unit = Some(n),
                        Arg::Roll(r)
                            if roll.is_none() && r.label.as_ref().is_none_or(|l| l.value == "roll") =>
                        {
                            roll = Some(r)
                        }
                        _ => {
                            return Err(Box::new(cat::malformed_step(
                                action.span,
                                "a `surgeon` step names one unit and its dice".to_string(),
                                "surgeon \"5th Texas\" roll [5, 2] => returns 1, hospital 1",
                                "Ch14 2.0",
                            )));
                        }
                    }
                }
                match unit {
                    Some(unit) => Ok(Step::Surgeon { unit, roll, claim: action.claim.as_ref() }),
                    None => Err(Box::new(cat::malformed_step(
                        action.span,
                        "a `surgeon` step names the unit whose stands are rolled for".to_string(),
                        "surgeon \"5th Texas\" roll [5, 2] => returns 1, hospital 1",
                        "Ch14 2.0",
                    ))),
                }
            }
            "experience" => {
                let example = "experience \"19th Maine\" charged held => xp 3";
                let (Some(Arg::Unit(unit)), feats) =
                    (action.args.first(), action.args.get(1..).unwrap_or_default())
                else {
                    return Err(Box::new(cat::malformed_step(
                        action.span,
                        "an `experience` step names the unit, then its feats".to_string(),
                        example,
                        "Ch14 3.0",
                    )));
                };
                if let Some(odd) = feats.iter().find(|a| !matches!(a, Arg::Word(_))) {
                    let span = match odd {
                        Arg::Unit(n) => n.span,
                        Arg::Roll(r) => r.span,
                        _ => action.span,
                    };
                    return Err(Box::new(cat::malformed_step(
                        span,
                        "an `experience` step's feats are words: charged, held, inflicted".to_string(),
                        example,
                        "Ch14 3.0",
                    )));
                }
                Ok(Step::Experience { unit, feats, claim: action.claim.as_ref() })
            }
            "trait" => match (action.args.as_slice(), &action.claim) {
                ([Arg::Unit(unit), Arg::Word(chosen)], None) => Ok(Step::Trait { unit, chosen }),
                _ => Err(Box::new(cat::malformed_step(
                    action.span,
                    "a `trait` step names the unit and the one Army Trait it chooses".to_string(),
                    "trait \"19th Maine\" steady",
                    "Ch14 3.0",
                ))),
            },
            "promotion" | "officer" => read_leader_step(action, word),
            "replacements" => read_replacements(action),
            _ => {
                let known: Vec<&str> = STEPS.iter().map(|s| s.word).collect();
                Err(Box::new(cat::unknown_step(
                    action.verb.span,
                    word,
                    crate::names::suggest(word, known.iter().copied()),
                    &known.join(", "),
                )))
            }
        }
    }
}

/// A Surgeon's claim read: each result word once, with one whole number.
pub fn surgeon_claim(claim: &Claim) -> Result<SurgeonClaim, Box<Diagnostic>> {
    let mut out = SurgeonClaim::default();
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for item in &claim.items {
        let (Some(word), [n], 1) = (item.words.first(), item.numbers.as_slice(), item.words.len()) else {
            return Err(Box::new(cat::malformed_step(
                item.span,
                "each result of a Surgeon's roll is a word and a count".to_string(),
                "returns 1, hospital 2, lost 1",
                "Ch14 2.0",
            )));
        };
        if n.value < 0.0 || n.value.fract() != 0.0 {
            return Err(Box::new(cat::malformed_step(
                n.span,
                "a count of stands is a whole number, 0 or more".to_string(),
                "returns 1",
                "Ch14 2.0",
            )));
        }
        let slot = match word.value.as_str() {
            "returns" => &mut out.returns,
            "hospital" => &mut out.hospital,
            "lost" => &mut out.lost,
            "captured" => &mut out.captured,
            other => return Err(Box::new(cat::unknown_claim_word(word.span, other))),
        };
        if let Some(first) = seen.insert(word.value.as_str(), item.span) {
            return Err(Box::new(cat::repeated_step(item.span, first, &format!("`{}`", word.value))));
        }
        *slot = Some(n.value as u32);
    }
    Ok(out)
}

/// A battle as the analysis of a campaign loaded it: its scenario and its game log (analysed
/// whole, with the log's own scenario), each when it could be read.
#[derive(Debug, Default)]
pub struct LoadedBattle {
    pub scenario: Option<Box<LoadedScenario>>,
    pub log: Option<Box<Analysis>>,
}

/// The language checks of a campaign (Ch14 1.0, 2.0): each battle names a scenario; a sequence
/// only after a played battle; its steps readable, in order (`field` first, once), naming the
/// battle's sides and units, each unit's Surgeon line once; the campaign rulings known.
/// `battles` are the loaded battles, in the campaign's order (missing ones are None).
pub fn check_campaign(campaign: &Campaign, battles: &[LoadedBattle], diags: &mut Vec<Diagnostic>) {
    for block in &campaign.rules {
        check_rules(block, diags);
    }
    let days = day_starts(campaign, battles);
    for (i, battle) in campaign.battles.iter().enumerate() {
        let loaded = battles.get(i);
        if battle.scenario.is_none() {
            diags.push(cat::missing_scenario(battle.name.span));
        }
        let Some(after) = &battle.after else { continue };
        if battle.log.is_none() {
            diags.push(cat::after_without_log(after.span));
        }
        let scenario = loaded.and_then(|l| l.scenario.as_deref());
        // The day's sequence names the units and brigadiers of all its battles (dotc D49).
        let earlier: Vec<&LoadedScenario> =
            (days[i]..i).filter_map(|j| battles.get(j)?.scenario.as_deref()).collect();
        check_after(battle, BattleNames { scenario, earlier: &earlier }, diags);
    }
}

/// The value a campaign's `rules` blocks give the campaign ruling `name` (the last setting
/// counts); None when no block sets it (its default applies).
pub fn campaign_ruling<'a>(campaign: &'a Campaign, name: &str) -> Option<&'a str> {
    campaign
        .rules
        .iter()
        .flat_map(|r| &r.rulings)
        .rfind(|r| r.name.value == name)
        .map(|r| r.value.value.as_str())
}

/// The first battle (0-based) of each battle's day (dotc D49). Under the campaign ruling
/// `same_day = field` a battle whose scenario gives the same `date` as the battle before it is
/// of that battle's day; under `same_day = full` (the default) each battle is a day of its own.
pub fn day_starts(campaign: &Campaign, battles: &[LoadedBattle]) -> Vec<usize> {
    let field = campaign_ruling(campaign, "same_day") == Some("field");
    let date = |i: usize| {
        let loaded = battles.get(i)?.scenario.as_deref()?;
        loaded.document.scenario.as_ref()?.date.as_ref().map(|d| d.value)
    };
    let mut starts = Vec::with_capacity(campaign.battles.len());
    for i in 0..campaign.battles.len() {
        let linked = field && i > 0 && date(i).is_some() && date(i) == date(i - 1);
        starts.push(if linked { starts[i - 1] } else { i });
    }
    starts
}

/// Where a step's unit or brigadier may come from: the battle's scenario and, for the sequence
/// after the last battle of a day, the scenarios of the day's earlier battles (dotc D49).
#[derive(Clone, Copy)]
struct BattleNames<'a> {
    scenario: Option<&'a LoadedScenario>,
    earlier: &'a [&'a LoadedScenario],
}

impl BattleNames<'_> {
    /// Whether one of the scenarios declares the unit `name`.
    fn has_unit(&self, name: &str) -> bool {
        self.scenario
            .iter()
            .chain(self.earlier)
            .any(|s| matches!(s.names.get(name), Some((NameKind::Unit(_), _, _))))
    }

    /// Whether one of the scenarios has the brigadier `name`.
    fn has_brigadier(&self, name: &str) -> bool {
        self.earlier.iter().filter_map(|s| s.document.scenario.as_ref()).any(|s| {
            s.sides
                .iter()
                .flat_map(|side| side.brigades.iter())
                .flat_map(|b| b.brigadiers.iter())
                .any(|b| b.name.value == name)
        })
    }
}

fn check_rules(block: &crate::ast::RulesBlock, diags: &mut Vec<Diagnostic>) {
    for m in &block.modules {
        diags.push(cat::rules_not_in_campaign(m.span, "optional modules"));
    }
    for p in &block.presets {
        diags.push(cat::rules_not_in_campaign(p.span, "presets"));
    }
    for w in &block.weather {
        diags.push(cat::rules_not_in_campaign(w.span, "the weather"));
    }
    for o in &block.options {
        diags.push(cat::rules_not_in_campaign(o.span, "a scenario's options"));
    }
    for r in &block.rulings {
        match CAMPAIGN_RULINGS.iter().find(|s| s.name == r.name.value) {
            None => {
                let known: Vec<&str> = CAMPAIGN_RULINGS.iter().map(|s| s.name).collect();
                diags.push(cat::unknown_campaign_ruling(r.name.span, &r.name.value, &known.join(", ")));
            }
            Some(spec) if !spec.values.contains(&r.value.value.as_str()) => {
                diags.push(cat::bad_campaign_ruling_value(
                    r.value.span,
                    spec.name,
                    &r.value.value,
                    &spec.values.join(", "),
                ))
            }
            Some(_) => {}
        }
    }
}

fn check_after(battle: &Battle, names: BattleNames<'_>, diags: &mut Vec<Diagnostic>) {
    let Some(after) = &battle.after else { return };
    let scenario = names.scenario;
    let mut field: Option<Span> = None;
    let mut units: HashMap<&str, Span> = HashMap::new();
    let mut experienced: HashMap<&str, Span> = HashMap::new();
    let mut chose: HashMap<&str, Span> = HashMap::new();
    let mut staff_seen: HashMap<String, Span> = HashMap::new();
    let sides: Vec<&str> = scenario
        .and_then(|s| s.document.scenario.as_ref())
        .map(|s| s.sides.iter().map(|side| side.id.value.as_str()).collect())
        .unwrap_or_default();
    for (i, action) in after.steps.iter().enumerate() {
        let step = match Step::read(action) {
            Ok(step) => step,
            Err(d) => {
                diags.push(*d);
                continue;
            }
        };
        match step {
            Step::Field { side } => {
                if let Some(first) = field {
                    diags.push(cat::repeated_step(action.span, first, "`field`"));
                    continue;
                }
                field = Some(action.span);
                if i > 0 {
                    diags.push(cat::field_first(action.span, after.steps[0].span));
                }
                if side.value != "none" && scenario.is_some() && !sides.contains(&side.value.as_str()) {
                    diags.push(cat::unknown_field_side(side.span, &side.value, &sides.join(", ")));
                }
            }
            Step::Promotion { .. } | Step::Officer { .. } | Step::Replacements { .. } => {
                check_staff_step(battle, names, &step, action, &mut staff_seen, diags);
            }
            Step::Surgeon { unit, claim, .. } => {
                if let Some(first) = units.insert(unit.value.as_str(), action.span) {
                    diags.push(cat::repeated_step(
                        action.span,
                        first,
                        &format!("the Surgeon's roll of \"{}\"", unit.value),
                    ));
                }
                if let Some(claim) = claim
                    && let Err(d) = surgeon_claim(claim)
                {
                    diags.push(*d);
                }
                check_battle_unit(battle, names, unit, "Ch14 2.0", diags);
            }
            Step::Experience { unit, feats, claim } => {
                if let Some(first) = experienced.insert(unit.value.as_str(), action.span) {
                    let what = format!("the experience of \"{}\"", unit.value);
                    diags.push(cat::repeated_step(action.span, first, &what));
                }
                for feat in feat_words(feats) {
                    if !FEATS.iter().any(|(w, _)| *w == feat.value) {
                        let known = FEATS.iter().map(|(w, _)| *w);
                        let suggestion = crate::names::suggest(&feat.value, known);
                        diags.push(cat::unknown_feat(feat.span, &feat.value, suggestion));
                    }
                }
                if let Some(claim) = claim
                    && let Err(d) = experience_claim(claim)
                {
                    diags.push(*d);
                }
                if claim.is_none() {
                    diags.push(cat::malformed_step(
                        action.span,
                        "an experience step claims the XP the unit now has".to_string(),
                        "experience \"19th Maine\" charged => xp 2",
                        "Ch14 3.0",
                    ));
                }
                check_battle_unit(battle, names, unit, "Ch14 3.0", diags);
            }
            Step::Trait { unit, .. } => {
                if let Some(first) = chose.insert(unit.value.as_str(), action.span) {
                    let what = format!("the trait of \"{}\"", unit.value);
                    diags.push(cat::repeated_step(action.span, first, &what));
                }
                check_battle_unit(battle, names, unit, "Ch14 3.0", diags);
            }
        }
    }
    if field.is_none() && !after.steps.is_empty() {
        diags.push(cat::missing_field(after.span));
    }
}

/// The feat words of an `experience` step's arguments (Ch14 3.0).
pub fn feat_words(feats: &[Arg]) -> impl Iterator<Item = &Ident> {
    feats.iter().filter_map(|a| if let Arg::Word(w) = a { Some(w) } else { None })
}

/// A unit a step names must be one of the battle's scenario; `rule` is the step's section (the
/// Surgeon's roll Ch14 2.0, experience 3.0, a draft 5.0).
fn check_battle_unit(
    battle: &Battle,
    names: BattleNames<'_>,
    unit: &Name,
    rule: &str,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(s) = names.scenario else { return };
    if names.has_unit(&unit.value) {
        return;
    }
    let candidates = s
        .names
        .order
        .iter()
        .filter(|n| matches!(s.names.get(n), Some((NameKind::Unit(_), _, _))))
        .map(String::as_str);
    let suggestion = crate::names::suggest(&unit.value, candidates);
    diags.push(cat::unknown_battle_unit(unit.span, &unit.value, &battle.name.value, suggestion, rule));
}

// ------------------------------------------------------------------ staff and replacements
// (Ch14 4.0, 5.0)

/// What a `promotion` step claims (Ch14 4.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromotionClaim {
    Promoted,
    NotPromoted,
}

/// What an `officer` step claims (Ch14 4.0, dotc D39): a severely wounded brigadier is out N
/// battles; a killed one is replaced by a new brigadier of that rating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OfficerClaim {
    Out(u32),
    Replaced(String),
}

/// One regiment's share of a draft (Ch14 5.0): `"19th Maine" 2`.
#[derive(Clone, Copy, Debug)]
pub struct Allocation<'a> {
    pub unit: &'a Name,
    pub stands: u32,
    /// The name and its count.
    pub span: Span,
}

fn leader_example(word: &str) -> &'static str {
    match word {
        "promotion" => "promotion \"Brig. Ames\" roll [5] => promoted",
        _ => "officer \"Brig. Ames\" roll [4] => out 2",
    }
}

/// `promotion "Brigadier" roll [5] => promoted`, `officer "Brigadier" roll [4] => out 2`.
fn read_leader_step<'a>(action: &'a Action, word: &str) -> Result<Step<'a>, Box<Diagnostic>> {
    let mut leader = None;
    let mut roll = None;
    for arg in &action.args {
        match arg {
            Arg::Unit(n) if leader.is_none() => leader = Some(n),
            Arg::Roll(r) if roll.is_none() && r.label.as_ref().is_none_or(|l| l.value == "roll") => {
                roll = Some(r)
            }
            _ => {
                return Err(Box::new(cat::malformed_step(
                    action.span,
                    format!("a `{word}` step names one brigadier and his die"),
                    leader_example(word),
                    "Ch14 4.0",
                )));
            }
        }
    }
    let Some(leader) = leader else {
        return Err(Box::new(cat::malformed_step(
            action.span,
            format!("a `{word}` step names the brigadier it rolls for"),
            leader_example(word),
            "Ch14 4.0",
        )));
    };
    let claim = action.claim.as_ref();
    Ok(if word == "promotion" {
        Step::Promotion { leader, roll, claim }
    } else {
        Step::Officer { leader, roll, claim }
    })
}

const DRAFT_EXAMPLE: &str = "replacements union roll [5] \"19th Maine\" 2 \"12th New Jersey\" 1 => 3 stands";

/// `replacements union roll [5] "19th Maine" 2 "12th New Jersey" 1 => 3 stands`.
fn read_replacements(action: &Action) -> Result<Step<'_>, Box<Diagnostic>> {
    let mut side = None;
    let mut roll = None;
    for arg in &action.args {
        match arg {
            Arg::Word(w) if side.is_none() => side = Some(w),
            Arg::Roll(r) if roll.is_none() && r.label.as_ref().is_none_or(|l| l.value == "roll") => {
                roll = Some(r)
            }
            Arg::Unit(_) | Arg::Number(_) => {}
            _ => {
                return Err(Box::new(cat::malformed_step(
                    action.span,
                    "a `replacements` step names a side, its die, then each regiment and its stands"
                        .to_string(),
                    DRAFT_EXAMPLE,
                    "Ch14 5.0",
                )));
            }
        }
    }
    let Some(side) = side else {
        return Err(Box::new(cat::malformed_step(
            action.span,
            "a `replacements` step names the side whose army drafts".to_string(),
            DRAFT_EXAMPLE,
            "Ch14 5.0",
        )));
    };
    draft_allocations(action)?;
    Ok(Step::Replacements { side, roll, claim: action.claim.as_ref(), action })
}

/// A draft's allocation: each quoted regiment followed by its whole number of stands.
pub fn draft_allocations(action: &Action) -> Result<Vec<Allocation<'_>>, Box<Diagnostic>> {
    let mut out: Vec<Allocation<'_>> = Vec::new();
    let mut pending: Option<&Name> = None;
    let malformed = |span: Span, message: &str| {
        Box::new(cat::malformed_step(span, message.to_string(), DRAFT_EXAMPLE, "Ch14 5.0"))
    };
    for arg in &action.args {
        match arg {
            Arg::Unit(n) => {
                if let Some(p) = pending {
                    return Err(malformed(p.span, "each regiment of a draft is followed by its stands"));
                }
                pending = Some(n);
            }
            Arg::Number(n) => {
                let Some(unit) = pending.take() else {
                    return Err(malformed(n.span, "a count of stands follows the regiment it goes to"));
                };
                if n.value < 1.0 || n.value.fract() != 0.0 || n.value > 1_000.0 {
                    return Err(malformed(
                        n.span,
                        "a regiment's share is a whole number of stands, 1 or more",
                    ));
                }
                if let Some(first) = out.iter().find(|a| a.unit.value == unit.value) {
                    return Err(Box::new(cat::repeated_step(
                        unit.span,
                        first.span,
                        &format!("the share of \"{}\"", unit.value),
                    )));
                }
                out.push(Allocation { unit, stands: n.value as u32, span: unit.span.join(n.span) });
            }
            _ => {}
        }
    }
    if let Some(p) = pending {
        return Err(malformed(p.span, "each regiment of a draft is followed by its stands"));
    }
    Ok(out)
}

/// A promotion's claim: `promoted` or `not promoted`.
pub fn promotion_claim(claim: &Claim) -> Result<PromotionClaim, Box<Diagnostic>> {
    let words: Vec<&str> =
        claim.items.iter().flat_map(|i| i.words.iter().map(|w| w.value.as_str())).collect();
    let numbers = claim.items.iter().any(|i| !i.numbers.is_empty());
    match (words.as_slice(), numbers, claim.items.len()) {
        (["promoted"], false, 1) => Ok(PromotionClaim::Promoted),
        (["not", "promoted"], false, 1) => Ok(PromotionClaim::NotPromoted),
        _ => Err(Box::new(cat::malformed_step(
            claim.span,
            "a promotion claims `promoted` or `not promoted`".to_string(),
            "promotion \"Brig. Ames\" roll [5] => promoted",
            "Ch14 4.0",
        ))),
    }
}

/// An officer's claim: `out N` (battles) or `replaced RATING`.
pub fn officer_claim(claim: &Claim) -> Result<OfficerClaim, Box<Diagnostic>> {
    let bad = || {
        Box::new(cat::malformed_step(
            claim.span,
            "an officer's roll claims `out N` (battles missed) or `replaced RATING` (his successor)"
                .to_string(),
            "officer \"Brig. Ames\" roll [4] => out 2",
            "Ch14 4.0",
        ))
    };
    let [item] = claim.items.as_slice() else { return Err(bad()) };
    match (item.words.as_slice(), item.numbers.as_slice()) {
        ([w], [n]) if w.value == "out" && n.value >= 0.0 && n.value.fract() == 0.0 && n.value <= 100.0 => {
            Ok(OfficerClaim::Out(n.value as u32))
        }
        ([w, rating], []) if w.value == "replaced" => Ok(OfficerClaim::Replaced(rating.value.clone())),
        _ => Err(bad()),
    }
}

/// A draft's claim: `N stands` (or `N`), the stands the die gives.
pub fn draft_claim(claim: &Claim) -> Result<u32, Box<Diagnostic>> {
    let ok = match claim.items.as_slice() {
        [item] => match (item.words.as_slice(), item.numbers.as_slice()) {
            ([], [n]) => Some(n),
            ([w], [n]) if w.value == "stands" || w.value == "stand" => Some(n),
            _ => None,
        },
        _ => None,
    };
    match ok {
        Some(n) if n.value >= 0.0 && n.value.fract() == 0.0 && n.value <= 100.0 => Ok(n.value as u32),
        _ => Err(Box::new(cat::malformed_step(
            claim.span,
            "a draft claims the stands its die gives: `N stands`".to_string(),
            DRAFT_EXAMPLE,
            "Ch14 5.0",
        ))),
    }
}

/// The language checks of a `promotion`, `officer` or `replacements` step: its claim readable,
/// the brigadier one of the battle's (each step of a brigadier once), the side the battle's, the
/// regiments its units, one draft a side (Ch14 4.0, 5.0).
fn check_staff_step(
    battle: &Battle,
    names: BattleNames<'_>,
    step: &Step<'_>,
    action: &Action,
    seen: &mut HashMap<String, Span>,
    diags: &mut Vec<Diagnostic>,
) {
    let declared = names.scenario.and_then(|s| s.document.scenario.as_ref());
    match step {
        Step::Promotion { leader, claim, .. } | Step::Officer { leader, claim, .. } => {
            let (word, what) = match step {
                Step::Promotion { .. } => ("promotion", "the promotion roll"),
                _ => ("officer", "the officer roll"),
            };
            if let Some(first) = seen.insert(format!("{word} {}", leader.value), action.span) {
                diags.push(cat::repeated_step(
                    action.span,
                    first,
                    &format!("{what} of \"{}\"", leader.value),
                ));
            }
            if let Some(claim) = claim {
                let read = if word == "promotion" {
                    promotion_claim(claim).err()
                } else {
                    officer_claim(claim).err()
                };
                if let Some(d) = read {
                    diags.push(*d);
                }
            }
            if let Some(s) = declared {
                let brigadiers: Vec<&str> = s
                    .sides
                    .iter()
                    .flat_map(|side| side.brigades.iter())
                    .flat_map(|b| b.brigadiers.iter())
                    .map(|b| b.name.value.as_str())
                    .collect();
                if !brigadiers.contains(&leader.value.as_str()) && !names.has_brigadier(&leader.value) {
                    let suggestion = crate::names::suggest(&leader.value, brigadiers.iter().copied());
                    diags.push(cat::unknown_battle_brigadier(
                        leader.span,
                        &leader.value,
                        &battle.name.value,
                        suggestion,
                    ));
                }
            }
        }
        Step::Replacements { side, claim, action, .. } => {
            if let Some(first) = seen.insert(format!("replacements {}", side.value), action.span) {
                diags.push(cat::repeated_step(action.span, first, &format!("the draft of `{}`", side.value)));
            }
            if let Some(claim) = claim
                && let Err(d) = draft_claim(claim)
            {
                diags.push(*d);
            }
            let Some(s) = declared else { return };
            let sides: Vec<&str> = s.sides.iter().map(|side| side.id.value.as_str()).collect();
            if !sides.contains(&side.value.as_str()) {
                diags.push(cat::unknown_draft_side(side.span, &side.value, &sides.join(", ")));
            }
            for allocation in draft_allocations(action).unwrap_or_default() {
                check_battle_unit(battle, names, allocation.unit, "Ch14 5.0", diags);
            }
        }
        Step::Field { .. } | Step::Surgeon { .. } | Step::Experience { .. } | Step::Trait { .. } => {}
    }
}
