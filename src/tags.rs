//! Finding the tag of a union: the property whose `const` (or `enum`) tells the
//! alternatives of a `oneOf`/`anyOf` apart. One routine for the model (which names the
//! union's tagging) and the validator (which judges a message by the alternative its tag
//! selects, instead of "matched none of 24 alternatives").
//!
//! Works on any schema: symgen's envelopes and unions, serde-style internally tagged
//! enums, OpenAPI-style discriminated unions. symgen's `x-symgen-unknown` (or a tag
//! schema that only says `not: {enum: [...]}`) marks the open alternative that takes
//! every other tag (rule R4).

use serde_json::Value;

/// The tag property of a union and what each alternative accepts there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discriminator {
    /// The tag property, e.g. `type`.
    pub key: String,
    /// One entry per alternative, in order.
    pub branches: Vec<BranchTag>,
}

/// What one alternative of a union accepts as its tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BranchTag {
    /// These tag values (a canonical tag and its input aliases; strings, or booleans
    /// and numbers for tags like `{"active": true}`).
    Known(Vec<Value>),
    /// Every tag no other alternative has (the open, unknown case).
    Unknown,
}

impl Discriminator {
    /// The alternative that `tag` selects: a known one, else the open one.
    pub fn select(&self, tag: &Value) -> Option<usize> {
        self.branches
            .iter()
            .position(|b| matches!(b, BranchTag::Known(tags) if tags.contains(tag)))
            .or_else(|| self.branches.iter().position(|b| *b == BranchTag::Unknown))
    }

    /// Whether `tag` is one of the known tags.
    pub fn knows(&self, tag: &Value) -> bool {
        self.branches
            .iter()
            .any(|b| matches!(b, BranchTag::Known(tags) if tags.contains(tag)))
    }

    /// Whether an open alternative takes unknown tags.
    pub fn is_open(&self) -> bool {
        self.branches.contains(&BranchTag::Unknown)
    }

    /// Every known tag, in order (canonical tags and aliases).
    pub fn known_tags(&self) -> impl Iterator<Item = &Value> + Clone {
        self.branches.iter().flat_map(|b| match b {
            BranchTag::Known(tags) => tags.as_slice(),
            BranchTag::Unknown => &[],
        })
    }

    /// How many alternatives have known tags.
    pub fn known_count(&self) -> usize {
        self.branches
            .iter()
            .filter(|b| matches!(b, BranchTag::Known(_)))
            .count()
    }
}

/// One alternative of a union, as tag detection sees it.
pub trait Alternative {
    /// Its property names, in schema order.
    fn keys(&self) -> Vec<&str>;
    /// The schema of its property `key`, if it has one.
    fn property(&self, key: &str) -> Option<&Value>;
    /// Whether it requires `key`.
    fn requires(&self, key: &str) -> bool;
    /// Whether the schema marks it as the open alternative (`x-symgen-unknown`).
    fn is_marked_open(&self) -> bool;
}

/// How strict the search is.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// Every known alternative must require the tag (the model: a type needs it; the
    /// validator only needs to route).
    pub tag_required: bool,
    /// An alternative whose tag schema only excludes the known tags (`not: {enum}`)
    /// counts as the open one, as `x-symgen-unknown` does.
    pub excluding_is_open: bool,
    /// How many alternatives must have known tags (an open alternative plus one known
    /// one always do).
    pub min_known: usize,
}

/// The scalar values a property schema pins: its `const`, or its `enum` when every
/// value is a string, boolean or number.
pub fn pinned_values(property: &Value) -> Option<Vec<Value>> {
    let scalar = |v: &Value| !(v.is_object() || v.is_array() || v.is_null());
    if let Some(value) = property.get("const") {
        return scalar(value).then(|| vec![value.clone()]);
    }
    let values = property.get("enum")?.as_array()?;
    (!values.is_empty() && values.iter().all(scalar)).then(|| values.clone())
}

fn excludes(property: Option<&Value>) -> bool {
    property
        .and_then(|p| p.get("not"))
        .is_some_and(|not| not.get("enum").is_some() || not.get("const").is_some())
}

/// The discriminator of `alternatives`: the first property of the first known
/// alternative that every known alternative pins to distinct values (under `rules`),
/// with at most one open alternative.
pub fn find<A: Alternative + ?Sized>(alternatives: &[&A], rules: Rules) -> Option<Discriminator> {
    let first_known = alternatives.iter().find(|a| !a.is_marked_open())?;
    'keys: for key in first_known.keys() {
        if first_known.property(key).and_then(pinned_values).is_none() {
            continue;
        }
        let mut branches = Vec::with_capacity(alternatives.len());
        let mut seen: Vec<Value> = Vec::new();
        for alternative in alternatives {
            let open = alternative.is_marked_open()
                || (rules.excluding_is_open && excludes(alternative.property(key)));
            let pinned = alternative
                .property(key)
                .and_then(pinned_values)
                .filter(|_| !alternative.is_marked_open());
            match pinned {
                Some(values) if !rules.tag_required || alternative.requires(key) => {
                    if values.iter().any(|v| seen.contains(v)) {
                        continue 'keys;
                    }
                    seen.extend(values.iter().cloned());
                    branches.push(BranchTag::Known(values));
                }
                _ if open && !branches.contains(&BranchTag::Unknown) => {
                    branches.push(BranchTag::Unknown)
                }
                _ => continue 'keys,
            }
        }
        let known = branches
            .iter()
            .filter(|b| matches!(b, BranchTag::Known(_)))
            .count();
        let open = branches.contains(&BranchTag::Unknown);
        if known >= rules.min_known || (known >= 1 && open) {
            return Some(Discriminator {
                key: key.to_owned(),
                branches,
            });
        }
    }
    None
}

/// A schema object as an [`Alternative`]: its own `properties` and `required`.
impl Alternative for Value {
    fn keys(&self) -> Vec<&str> {
        self.get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    fn property(&self, key: &str) -> Option<&Value> {
        self.get("properties")?.get(key)
    }

    fn requires(&self, key: &str) -> bool {
        self.get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|k| k == key))
    }

    fn is_marked_open(&self) -> bool {
        self.get("x-symgen-unknown").and_then(Value::as_bool) == Some(true)
    }
}
