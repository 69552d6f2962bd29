//! Command radius tiers (Ch16 2.2).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

word_enum! {
    /// What an order costs at a command tier (Ch16 2.2, RULINGS G8).
    pub enum OrderCost {
        Standard = "standard",
        Double = "double",
        /// The regiment cannot receive pips at all.
        Prohibited = "prohibited",
    }
}

impl OrderCost {
    /// The factor on an order's pip price, or None where no order can be given.
    pub fn factor(self) -> Option<u32> {
        match self {
            OrderCost::Standard => Some(1),
            OrderCost::Double => Some(2),
            OrderCost::Prohibited => None,
        }
    }
}

pub const TIER_PROPS: &[PropSpec] = &[
    req("level", "level <count>", "The tier number (Ch16 2.2)."),
    opt("within", "within <inches>", "Upper limit of the tier's distance band."),
    opt("beyond", "beyond <inches>", "For the last tier: everything past this distance."),
    req("order_cost", "order_cost standard|double|prohibited", "What special orders cost here (RULINGS G8)."),
    opt("discipline", "discipline <+n|-n>", "Modifier to Discipline checks at this distance."),
    flag("restricted_moves", "Free moves limited to an inertia advance or falling back."),
];

/// A command radius tier (Ch16 2.2).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Tier {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub level: u32,
    pub reach: Reach,
    /// RULINGS G8: tier 3 doubles every order; RULINGS C10: tier 4 takes no pips.
    pub order_cost: OrderCost,
    pub discipline: i32,
    /// Free moves limited to an inertia advance or falling back (RULINGS G8).
    pub restricted_moves: bool,
}

pub(super) fn read_tier(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Tier {
    let within = r.read("within", |c| c.inches());
    let beyond = r.read("beyond", |c| c.inches());
    let reach = match (within, beyond) {
        (Some(d), None) => Reach::Within(d),
        (None, Some(d)) => Reach::Beyond(d),
        (None, None) => {
            if r.first("within").is_none() && r.first("beyond").is_none() {
                r.missing("within");
            }
            Reach::Within(0.0)
        }
        (Some(d), Some(_)) => {
            if let Some(prop) = r.first("beyond") {
                r.inconsistent(
                    prop.span,
                    "beyond",
                    "a tier has `within` or `beyond`, not both",
                    "keep `within` for a band that ends, `beyond` for the last tier",
                );
            }
            Reach::Within(d)
        }
    };
    Tier {
        meta,
        level: r.read("level", |c| c.count("a tier number")).unwrap_or(0),
        reach,
        order_cost: r.read("order_cost", |c| c.choice::<OrderCost>()).unwrap_or(OrderCost::Standard),
        discipline: r.read("discipline", |c| c.modifier()).unwrap_or(0),
        restricted_moves: r.flag("restricted_moves"),
    }
}

impl Describe for Tier {
    fn parts(&self) -> Vec<String> {
        let mut parts = vec![match self.reach {
            Reach::Within(d) => format!("tier {} up to {}\"", self.level, fmt_num(d)),
            Reach::Beyond(d) => format!("tier {} beyond {}\"", self.level, fmt_num(d)),
        }];
        parts.push(match self.order_cost {
            OrderCost::Standard => String::from("orders at standard cost"),
            OrderCost::Double => String::from("orders cost double"),
            OrderCost::Prohibited => String::from("no orders"),
        });
        if self.discipline != 0 {
            parts.push(format!("Discipline {}", fmt_mod(self.discipline)));
        }
        parts
    }
}
