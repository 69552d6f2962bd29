//! The typed syntax tree of a `.dotc` file.
//!
//! Every node carries the byte span of its source text. The tree is what the source *says*:
//! rule-data words (a quality, a weapon, a formation) are kept as written, and
//! [`crate::model`] resolves them against the stdlib and the file's own library entries.
//! Lowering never fails: a statement it cannot read becomes a diagnostic and is left out.

use serde::Serialize;
use std::borrow::Cow;

/// A byte range into the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> miette::SourceSpan {
        (span.start, span.len()).into()
    }
}

/// A value with the span it was written at.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(value: T, span: Span) -> Spanned<T> {
        Spanned { value, span }
    }
}

/// A snake_case word: a rule-data id, a side id, a flag.
pub type Ident = Spanned<String>;
/// A quoted name of a unit, leader, feature or file, with its escapes resolved.
pub type Name = Spanned<String>;

/// What kind of file this is, told by its first item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    Scenario,
    Game,
    Library,
    /// A campaign (Ch14): battles linked by the post-battle sequence.
    Campaign,
}

/// A whole file.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Document {
    pub kind: Option<FileKind>,
    pub scenario: Option<Scenario>,
    pub libraries: Vec<Library>,
    pub game: Option<GameHeader>,
    pub turns: Vec<Turn>,
    /// A campaign file's one `campaign` block (Ch14).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub campaign: Option<Campaign>,
    /// Names of units whose declaration did not parse. References to them are not reported as
    /// unknown: the syntax error already covers them.
    #[serde(skip)]
    pub broken_names: Vec<String>,
    /// Leading words of statements that did not parse (`turns`, `table`...), so a check for a
    /// missing statement does not repeat the syntax error.
    #[serde(skip)]
    pub broken_words: Vec<String>,
    /// Every word of the statements that did not parse: an unknown id that is one of them was
    /// probably declared there.
    #[serde(skip)]
    pub broken_idents: Vec<String>,
}

// ------------------------------------------------------------------ scenario

#[derive(Clone, Debug, Default, Serialize)]
pub struct Scenario {
    pub span: Span,
    pub name: Name,
    pub date: Option<Spanned<Date>>,
    pub start: Option<Spanned<ClockTime>>,
    /// Minutes of game time per turn.
    pub turn_length: Option<Spanned<u32>>,
    pub turns: Option<Spanned<u32>>,
    pub first_side: Option<Ident>,
    pub table: Option<Spanned<TableSize>>,
    pub men_per_stand: Option<Spanned<u32>>,
    pub rules: Vec<RulesBlock>,
    pub terrain: Vec<Feature>,
    pub sides: Vec<Side>,
    pub reinforcements: Vec<Reinforcement>,
    pub victory: Vec<VictoryCondition>,
    pub libraries: Vec<Library>,
    pub scripts: Vec<Script>,
    /// `script_limits operations 50000, ...`: limits the scripts run under, lowered.
    pub script_limits: Vec<ScriptLimitSetting>,
    pub triggers: Vec<Trigger>,
    pub notes: Vec<Spanned<String>>,
    /// Statements given twice (`turns 8` and `turns 10`): the first span and the repeat.
    #[serde(skip)]
    pub repeated: Vec<(Span, Span)>,
}

impl Scenario {
    /// The turn a reinforcement is due (RULINGS G7 turns): `turn N` itself, or the turn whose
    /// half-open span of `turn_length` minutes from `start` holds the clock time. None when the
    /// scenario gives no start or turn length, or the time is before the start.
    pub fn arrival_turn(&self, arrival: Arrival) -> Option<u32> {
        match arrival {
            Arrival::Turn(n) => Some(n),
            Arrival::Clock(t) => {
                let (start, length) =
                    (self.start.as_ref()?.value.minutes(), self.turn_length.as_ref()?.value);
                (length > 0 && t.minutes() >= start).then(|| (t.minutes() - start) / length + 1)
            }
        }
    }

    /// The clock time turn `turn` begins at (`start` plus `turn_length` a turn), wrapping at
    /// midnight; None without a start or a turn length of at least a minute.
    pub fn clock_of_turn(&self, turn: u32) -> Option<ClockTime> {
        let (start, length) = (self.start.as_ref()?.value.minutes(), self.turn_length.as_ref()?.value);
        if length == 0 {
            return None;
        }
        let m = start + turn.saturating_sub(1) * length;
        Some(ClockTime { hour: (m / 60) % 24, minute: m % 60 })
    }
}

/// One setting of `script_limits`: a limit of [`crate::script_limits::LIMITS`] and its value,
/// None when the name is unknown or the value outside 1 to the default (both reported).
#[derive(Clone, Debug, Serialize)]
pub struct ScriptLimitSetting {
    pub span: Span,
    pub name: Ident,
    pub value: Option<Spanned<u64>>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Date {
    pub year: u32,
    pub month: u32,
    pub day: u32,
}

impl Date {
    /// `9 July 1863`; `1863-13-01` as written when the month is not one.
    pub fn long(self) -> String {
        const MONTHS: [&str; 12] = [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ];
        match MONTHS.get((self.month as usize).wrapping_sub(1)) {
            Some(month) => format!("{} {month} {}", self.day, self.year),
            None => format!("{}-{:02}-{:02}", self.year, self.month, self.day),
        }
    }
}

/// A time of day in minutes after midnight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct ClockTime {
    pub hour: u32,
    pub minute: u32,
}

impl ClockTime {
    pub fn minutes(self) -> u32 {
        self.hour * 60 + self.minute
    }
}

impl std::fmt::Display for ClockTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{:02}", self.hour, self.minute)
    }
}

/// Table size in inches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct TableSize {
    pub width: f64,
    pub depth: f64,
}

/// A table position in inches from the south-west corner: x east, y north.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// A facing as written: degrees, or a compass word still to be resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Facing {
    Degrees(f64),
    Word(String),
}

impl Facing {
    /// The facing as a bearing in degrees (0 = north, 90 = east); None for an unknown word.
    pub fn degrees(&self) -> Option<f64> {
        match self {
            Facing::Degrees(d) => Some(*d),
            Facing::Word(w) => crate::names::compass_bearing(w),
        }
    }
}

/// `rules { ... }`: optional modules, named rulings, presets and weather.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RulesBlock {
    pub span: Span,
    pub modules: Vec<Ident>,
    pub rulings: Vec<RulingSetting>,
    pub presets: Vec<Ident>,
    pub weather: Vec<WeatherSetting>,
    /// `option reynolds_falls = off`: a scenario's optional trigger switched by name.
    pub options: Vec<OptionSetting>,
}

/// `option reynolds_falls = off` (in a scenario's or a game log's `rules` block).
#[derive(Clone, Debug, Serialize)]
pub struct OptionSetting {
    pub span: Span,
    pub name: Ident,
    /// `on` or `off` as written (anything else is reported by the checks).
    pub value: Ident,
}

impl OptionSetting {
    /// The switch this setting gives: `on` true, `off` false, anything else None.
    pub fn on(&self) -> Option<bool> {
        switch_word(&self.value.value)
    }
}

/// `on` and `off`, the two words of an option switch.
pub fn switch_word(word: &str) -> Option<bool> {
    match word {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    }
}

/// `ruling suppression = numbered`.
#[derive(Clone, Debug, Serialize)]
pub struct RulingSetting {
    pub span: Span,
    pub name: Ident,
    pub value: Ident,
}

/// `weather ground firm` (one pair of a `weather` statement).
#[derive(Clone, Debug, Serialize)]
pub struct WeatherSetting {
    pub span: Span,
    pub aspect: Ident,
    pub condition: Ident,
}

/// A terrain feature: an area, a line, a building, a hill or an objective.
#[derive(Clone, Debug, Serialize)]
pub struct Feature {
    pub span: Span,
    /// The terrain kind (`dense_woods`, `stone_wall`, `hill`, `objective`, ...).
    pub kind: Ident,
    pub name: Option<Name>,
    pub attrs: Vec<FeatureAttr>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FeatureAttr {
    Polygon(Spanned<Vec<Point>>),
    Line(Spanned<Vec<Point>>),
    At(Spanned<Point>),
    Size(Spanned<(f64, f64)>),
    Level(Spanned<f64>),
    Crest(Spanned<Vec<Point>>),
    Ford(Spanned<Point>),
    Bridge(Spanned<Point>),
    Capacity(Spanned<f64>),
    Vp(Spanned<f64>),
    /// `within 4`: how close an objective is held from (inches).
    Within(Spanned<f64>),
    Flag(Ident),
}

/// `side union "Army of the Potomac" { ... }`
#[derive(Clone, Debug, Serialize)]
pub struct Side {
    pub span: Span,
    pub id: Ident,
    pub name: Option<Name>,
    pub edge: Option<Ident>,
    pub commanders: Vec<Commander>,
    pub brigades: Vec<Brigade>,
    /// Units directly under the side (corps artillery, independent cavalry).
    pub units: Vec<Unit>,
    /// Blinds deployed instead of the miniatures (Ch13 4.0, module hidden_deployment).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blinds: Vec<BlindDecl>,
}

/// `blind "B1" brigade "Ames" at (30, 20)` or `dummy "D1" at (40, 20)`: a blind token of a
/// side (Ch13 4.0).
#[derive(Clone, Debug, Serialize)]
pub struct BlindDecl {
    pub span: Span,
    pub name: Name,
    /// The brigade hidden under it; None for a dummy.
    pub brigade: Option<Name>,
    pub position: Spanned<Point>,
}

/// `commander "John F. Reynolds" corps at (10, 24)`
#[derive(Clone, Debug, Serialize)]
pub struct Commander {
    pub span: Span,
    pub name: Name,
    /// `army`, `corps` or `division`.
    pub level: Ident,
    pub rating: Option<Ident>,
    pub position: Option<Spanned<Point>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Brigade {
    pub span: Span,
    pub name: Name,
    pub brigadiers: Vec<Brigadier>,
    pub units: Vec<Unit>,
    /// `losses 3`: stands lost before the scenario beyond its units' own `lost` (RULE-07-2.2).
    pub losses: Option<Spanned<f64>>,
}

/// `brigadier "Solomon Meredith" reliable at (22, 24)`
#[derive(Clone, Debug, Serialize)]
pub struct Brigadier {
    pub span: Span,
    pub name: Name,
    pub rating: Option<Ident>,
    pub position: Option<Spanned<Point>>,
    /// `attached "19th Maine"`: starts attached to that regiment (Ch16 2.4).
    pub attached: Option<Name>,
    /// `wounded 1`: light wounds he already carries, a pip less each every turn (Ch16 2.4,
    /// RULINGS G18).
    pub wounded: Option<Spanned<f64>>,
    /// `replacement "Col. ..."`: the colonel who takes over when he falls (Ch16 2.4).
    pub replacement: Option<Name>,
}

impl Brigadier {
    /// The name of the colonel who takes over the brigade when this brigadier falls (Ch16 2.4,
    /// RULINGS C9): the scenario's `replacement`, or "Col. replacing" and his name.
    pub fn replacement_name(&self) -> String {
        self.replacement
            .as_ref()
            .map_or_else(|| crate::names::replacing(&self.name.value), |n| n.value.clone())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    Regiment,
    Battery,
    Cavalry,
}

impl UnitKind {
    pub fn word(self) -> &'static str {
        match self {
            UnitKind::Regiment => "regiment",
            UnitKind::Battery => "battery",
            UnitKind::Cavalry => "cavalry",
        }
    }
}

/// A regiment, battery or cavalry regiment with its attributes as written.
#[derive(Clone, Debug, Serialize)]
pub struct Unit {
    pub span: Span,
    pub kind: UnitKind,
    pub name: Name,
    pub stands: Option<Spanned<f64>>,
    pub men: Option<Spanned<f64>>,
    pub sections: Option<Spanned<f64>>,
    pub position: Option<Spanned<Point>>,
    pub facing: Option<Spanned<Facing>>,
    pub traits: Vec<Ident>,
    pub markers: Vec<Ident>,
    /// Where dismounted cavalry left its horse holders (Ch16 10.2).
    pub holders: Option<Spanned<Point>>,
    /// A skirmish stand detached ahead of the regiment (Ch16 3.4).
    pub screen: Option<Spanned<Point>>,
    /// The building the unit garrisons (Ch16 4.3).
    pub garrison: Option<Name>,
    /// `lost 2`: stands lost before the scenario begins (Ch16 8.1, RULE-07-2.2).
    pub lost: Option<Spanned<f64>>,
    /// Bare words: quality, weapon or piece, formation, and flags such as `limbered`.
    pub words: Vec<Ident>,
    /// Attributes given twice (`stands 4 ... stands 5`): the first span and the repeat.
    #[serde(skip)]
    pub repeated: Vec<(Span, Span)>,
}

/// `at 10:30 union brigade "Cutler" enters at (0, 20) road_column facing east`
#[derive(Clone, Debug, Serialize)]
pub struct Reinforcement {
    pub span: Span,
    pub arrival: Spanned<Arrival>,
    pub side: Option<Ident>,
    /// `brigade`, `regiment`, `battery`, `cavalry`, or `commander` for a senior commander who
    /// rides on at that time and place (dotc D45).
    pub kind: Ident,
    pub name: Name,
    pub position: Spanned<Point>,
    pub facing: Option<Spanned<Facing>>,
    pub words: Vec<Ident>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Arrival {
    Clock(ClockTime),
    Turn(u32),
}

impl std::fmt::Display for Arrival {
    /// As the scenario writes it: `10:30` or `turn 4`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Arrival::Clock(t) => write!(f, "{t}"),
            Arrival::Turn(n) => write!(f, "turn {n}"),
        }
    }
}

/// One line of `victory { ... }`: a condition and the outcome it gives.
#[derive(Clone, Debug, Serialize)]
pub struct VictoryCondition {
    pub span: Span,
    pub condition: Condition,
    /// The winning side and the level of the result (`confederate major`), or `draw`.
    pub winner: Ident,
    pub level: Option<Ident>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// `objective "Seminary" held_by confederate at_end` or `... for 2 turns`.
    Held { objective: Name, side: Ident, for_turns: Option<Spanned<f64>> },
    /// `vp confederate >= 5`
    VictoryPoints { side: Ident, compare: Spanned<Compare>, value: Spanned<f64> },
    /// `broken union >= 3`: brigades Broken.
    BrigadesBroken { side: Ident, compare: Spanned<Compare>, value: Spanned<f64> },
    /// `when `expr``: a script expression.
    Script(Script),
    /// `otherwise`
    Otherwise,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Compare {
    AtLeast,
    AtMost,
    More,
    Less,
    Equal,
}

/// Embedded rhai source, kept verbatim with the span of the code itself.
#[derive(Clone, Debug, Serialize)]
pub struct Script {
    pub span: Span,
    pub language: Option<String>,
    pub code: String,
    /// Where `code` starts in the file, for mapping script errors back to lines.
    pub code_span: Span,
}

/// `trigger "Reynolds falls" when `expr` ```rhai ... ``` `
#[derive(Clone, Debug, Serialize)]
pub struct Trigger {
    pub span: Span,
    pub name: Name,
    /// `option NAME default on|off`: the trigger is optional, switched by this name.
    pub option: Option<TriggerOption>,
    pub condition: Script,
    pub body: Script,
}

/// `option reynolds_falls default on` on a trigger: its switch's name and default.
#[derive(Clone, Debug, Serialize)]
pub struct TriggerOption {
    pub span: Span,
    pub name: Ident,
    /// `on` or `off` as written; no `default` means on.
    pub default: Option<Ident>,
}

impl TriggerOption {
    /// The default: on unless `default off` is written (a word other than on/off is reported by
    /// the checks and read as on).
    pub fn default_on(&self) -> bool {
        self.default.as_ref().and_then(|d| switch_word(&d.value)).unwrap_or(true)
    }
}

// ------------------------------------------------------------------ library

/// `library "Name" { entries }`: rule data.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Library {
    pub span: Span,
    pub name: Option<Name>,
    pub entries: Vec<Entry>,
    /// `script` blocks: rhai functions every script of a scenario using this library may call.
    pub scripts: Vec<Script>,
}

/// One rule-data entry: `weapon rifled_musket "Rifled Musket" { short to 6 hits 4+ ... }`.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    pub span: Span,
    pub kind: Ident,
    pub id: Ident,
    pub name: Option<Name>,
    pub props: Vec<Prop>,
    /// A property line of this entry did not parse (its syntax error is reported).
    #[serde(skip)]
    pub broken: bool,
}

/// A property line of an entry: its key and values.
#[derive(Clone, Debug, Serialize)]
pub struct Prop {
    pub span: Span,
    pub key: Ident,
    pub values: Vec<Spanned<Value>>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Value {
    Number(f64),
    /// `+1`, `-2`
    Signed(f64),
    /// `4+`
    Target(u32),
    Word(String),
    Text(String),
    Point(Point),
    Dice(Vec<i64>),
}

// ------------------------------------------------------------------ game log

/// `game "Title" { scenario "path"; players ...; played ...; rules { ... }; seed 42 }`
#[derive(Clone, Debug, Default, Serialize)]
pub struct GameHeader {
    pub span: Span,
    pub name: Name,
    pub scenario: Option<Name>,
    /// `campaign "road.dotc" battle "Name"`: the campaign (its path) and battle the log is of
    /// (Ch14 1.0): its audit fights the battle with the campaign's roster.
    pub campaign: Option<(Name, Name)>,
    pub players: Vec<Player>,
    pub played: Option<Spanned<Date>>,
    pub seed: Option<Spanned<u64>>,
    pub rules: Vec<RulesBlock>,
    /// Pre-game command bidding (Ch13 1.0): the `bids { }` blocks, in order.
    pub bids: Vec<BidsBlock>,
    pub notes: Vec<Spanned<String>>,
}

/// `bids { bid union scouting 5 march 3 ...; scouting union "Woods" by (3, -4); logistics union "Battery" }`:
/// the staff points each side bid per category and the winners' choices (Ch13 1.0).
#[derive(Clone, Debug, Default, Serialize)]
pub struct BidsBlock {
    pub span: Span,
    pub bids: Vec<Bid>,
    pub scouting: Vec<ScoutingChoice>,
    pub logistics: Vec<LogisticsChoice>,
}

/// `bid union scouting 5 march 3 initiative 4 logistics 3`: one side's split.
#[derive(Clone, Debug, Serialize)]
pub struct Bid {
    pub span: Span,
    pub side: Ident,
    /// Each category and the points on it, as written (the rules core judges the numbers).
    pub points: Vec<(Ident, Spanned<f64>)>,
}

/// `scouting union "Herbst Woods" by (3, -4)` or `... remove`: the Scouting winner's choice.
#[derive(Clone, Debug, Serialize)]
pub struct ScoutingChoice {
    pub span: Span,
    pub side: Ident,
    pub piece: Name,
    /// How far it is moved (east, north), in inches; None: it is removed.
    pub by: Option<Spanned<Point>>,
}

/// `logistics union "Cooper's Battery"`: the enemy battery the Logistics winner picks.
#[derive(Clone, Debug, Serialize)]
pub struct LogisticsChoice {
    pub span: Span,
    pub side: Ident,
    pub battery: Name,
}

#[derive(Clone, Debug, Serialize)]
pub struct Player {
    pub span: Span,
    pub side: Ident,
    pub name: Name,
}

/// `turn 3 union { phases }`
///
/// An edit before a turn moves every span in it. The turn's own span, number and side move at
/// once; its phases, which hold nearly all of its spans, keep a count of the bytes they lag
/// behind instead (`lag`), so that a keystroke mid-log moves each later turn in O(1), not every
/// span of half the log (issue 16: that was 80% of a keystroke's work on a 100k-line log). Their
/// spans are read through [`Turn::phases`], which gives them where the text has them.
#[derive(Clone)]
pub struct Turn {
    pub span: Span,
    pub number: Spanned<u32>,
    pub side: Ident,
    phases: Vec<Phase>,
    /// The bytes the spans stored in `phases` are behind the text.
    lag: isize,
}

impl Turn {
    pub fn new(span: Span, number: Spanned<u32>, side: Ident, phases: Vec<Phase>) -> Turn {
        Turn { span, number, side, phases, lag: 0 }
    }

    /// The phases, with their spans where the text has them: borrowed when the turn is settled,
    /// a moved copy while an edit before it has not been applied to them yet.
    pub fn phases(&self) -> Cow<'_, [Phase]> {
        if self.lag == 0 {
            Cow::Borrowed(&self.phases)
        } else {
            let mut phases = self.phases.clone();
            crate::incremental::Shift::shift(&mut phases, self.lag);
            Cow::Owned(phases)
        }
    }

    /// The phases as stored, and how many bytes their spans are behind the text: for a scan
    /// that reads names and words, or moves the few spans it keeps itself, without the copy
    /// [`Turn::phases`] makes of a turn that lags.
    pub fn stored_phases(&self) -> (&[Phase], isize) {
        (&self.phases, self.lag)
    }

    /// The phases, to change, settled first.
    pub fn phases_mut(&mut self) -> &mut Vec<Phase> {
        self.settle();
        &mut self.phases
    }

    /// The phases, taken out (settled), leaving none.
    pub fn into_phases(mut self) -> Vec<Phase> {
        self.settle();
        self.phases
    }

    /// Apply the edits made before the turn to its phases' spans.
    pub fn settle(&mut self) {
        if self.lag != 0 {
            crate::incremental::Shift::shift(&mut self.phases, self.lag);
            self.lag = 0;
        }
    }

    /// Whether the phases' stored spans are where the text has them.
    pub fn is_settled(&self) -> bool {
        self.lag == 0
    }

    /// Move the turn by `delta` bytes: its header at once, its phases on demand.
    pub(crate) fn shift_lazily(&mut self, delta: isize) {
        crate::incremental::Shift::shift(&mut self.span, delta);
        crate::incremental::Shift::shift(&mut self.number, delta);
        crate::incremental::Shift::shift(&mut self.side, delta);
        self.lag += delta;
    }
}

/// Written out as it reads: the phases where the text has them, the lag not shown.
impl std::fmt::Debug for Turn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Turn")
            .field("span", &self.span)
            .field("number", &self.number)
            .field("side", &self.side)
            .field("phases", &self.phases())
            .finish()
    }
}

impl Serialize for Turn {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("Turn", 4)?;
        out.serialize_field("span", &self.span)?;
        out.serialize_field("number", &self.number)?;
        out.serialize_field("side", &self.side)?;
        out.serialize_field("phases", &*self.phases())?;
        out.end()
    }
}

/// The five phases of a turn, Ch16 1.0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseKind {
    Command,
    Maneuver,
    Fire,
    Melee,
    Status,
}

impl PhaseKind {
    pub fn word(self) -> &'static str {
        match self {
            PhaseKind::Command => "command",
            PhaseKind::Maneuver => "maneuver",
            PhaseKind::Fire => "fire",
            PhaseKind::Melee => "melee",
            PhaseKind::Status => "status",
        }
    }

    /// The phase a word names (`fire`), as [`PhaseKind::word`] writes it.
    pub fn from_word(word: &str) -> Option<PhaseKind> {
        [PhaseKind::Command, PhaseKind::Maneuver, PhaseKind::Fire, PhaseKind::Melee, PhaseKind::Status]
            .into_iter()
            .find(|p| p.word() == word)
    }

    /// The phase number of Ch16 1.0.
    pub fn number(self) -> u32 {
        self as u32 + 1
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Phase {
    pub span: Span,
    pub kind: Spanned<PhaseKind>,
    pub actions: Vec<Action>,
}

/// One logged action. The verb decides which arguments it needs; see [`crate::model::ActionVerb`].
#[derive(Clone, Debug, Serialize)]
pub struct Action {
    pub span: Span,
    pub allows: Vec<Allow>,
    pub verb: Ident,
    pub args: Vec<Arg>,
    pub claim: Option<Claim>,
    /// The nested steps of an assault.
    pub steps: Vec<Action>,
}

/// `@allow(dotc::replay-disagrees, "umpire measured 14 inches")`
#[derive(Clone, Debug, Serialize)]
pub struct Allow {
    pub span: Span,
    pub code: Spanned<String>,
    pub reason: Name,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Arg {
    /// A quoted unit or leader name.
    Unit(Name),
    /// `to (x, y)`
    To(Spanned<Point>),
    /// `facing east`
    Facing(Spanned<Facing>),
    /// `at "Target"`
    At(Name),
    /// `-> "Target"`
    Against(Name),
    /// `via (x, y) (x, y)`
    Via(Spanned<Vec<Point>>),
    /// `pip "Brigadier"`
    Pip(Name),
    /// `roll [4, 2]`, `discipline [5]`, `[3]`
    Roll(Roll),
    Number(Spanned<f64>),
    Point(Spanned<Point>),
    Word(Ident),
}

/// A labelled dice list.
#[derive(Clone, Debug, Serialize)]
pub struct Roll {
    pub span: Span,
    pub label: Option<Ident>,
    pub dice: Spanned<Vec<Spanned<i64>>>,
}

/// `=> hits 4, lost 2, disordered`
#[derive(Clone, Debug, Serialize)]
pub struct Claim {
    pub span: Span,
    pub items: Vec<ClaimItem>,
}

/// One comma-separated part of a claim: words and numbers, e.g. `hits 4` or `attacker wins`.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimItem {
    pub span: Span,
    pub words: Vec<Ident>,
    pub numbers: Vec<Spanned<f64>>,
}

// ------------------------------------------------------------------ campaign (Ch14)

/// `campaign "Name" { rules { ... } battle "Name" { ... } ... }`: battles in the order they are
/// fought, each with the post-battle sequence played after it (Ch14 1.0).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Campaign {
    pub span: Span,
    pub name: Name,
    /// The campaign's rulings (`ruling surgeon_prisoners = ...`, see `crate::campaign`).
    pub rules: Vec<RulesBlock>,
    pub battles: Vec<Battle>,
    pub notes: Vec<Spanned<String>>,
}

/// `battle "Name" { scenario "x.dotc"; log "x-game.dotc"; after { ... } }`: paths relative to
/// the campaign file; no `log` while the battle is not played yet.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Battle {
    pub span: Span,
    pub name: Name,
    pub scenario: Option<Name>,
    pub log: Option<Name>,
    /// The post-battle sequence (Ch14 1.0); None while it is not recorded.
    pub after: Option<After>,
}

/// `after { field union; surgeon "Unit" roll [5, 2] => returns 1, hospital 1 }`: the steps of
/// the post-battle sequence (Ch14 1.0), each written as a log's action; the step words are
/// read by `crate::campaign::Step::read`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct After {
    pub span: Span,
    pub steps: Vec<Action>,
}
