//! A user schema compiled into checks that run on a message's [`Tape`] (no `Value`
//! built): types, `enum`/`const`, number and length bounds, `properties`/`required`/
//! `additionalProperties`/`propertyNames`, `items`/`prefixItems`/`uniqueItems`,
//! `allOf`/`anyOf`/`oneOf`/`not`/`if`, and `$ref`s within the document and to other
//! schema files. A union whose alternatives pin one property to distinct values
//! (`const`, `enum`, or `not: {enum}` for the open case) is dispatched on that tag: only
//! the alternatives that can take the message's tag are checked.
//!
//! A schema node with a keyword the checks do not cover (`pattern`, `format` where the
//! draft asserts it, `patternProperties`, `contains`, …) is left to the general engine
//! (the `jsonschema` crate): the value at that node is built and judged there. So the
//! verdict is the engine's by construction, keyword by keyword. A document the checks
//! cannot follow (`$id` below the root, anchors, dynamic references, drafts before 6,
//! a custom meta-schema) gets no checks at all, and a check that cannot be sure (a
//! budget spent, a number beyond exact comparison) answers [`Verdict::Unsure`]: the
//! caller then takes the general path.
//!
//! Only a yes/no verdict comes from here. Why a message is rejected is still explained
//! by the general engine, from a `Value`.
//!
//! [`compile`] builds the checks, [`simplify`] makes them cheaper to run with the same
//! verdicts, [`run`] runs them, [`numbers`] compares numbers as JSON Schema does.
//!
//! [`Tape`]: super::tape::Tape

mod compile;
mod numbers;
mod run;
mod simplify;
#[cfg(test)]
mod tests;

use ahash::HashMap;

use super::few::Few;
use serde_json::{Number, Value};

/// A check's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Yes,
    No,
    /// The checks cannot tell; the general engine must.
    Unsure,
}

type NodeId = u32;

/// The compiled checks of one document: one node per schema reached from a root.
pub struct Checks {
    nodes: Vec<Node>,
    /// Per root (in [`super::compiled::CompiledSchema`] order), its node; `None` when the
    /// root cannot be compiled.
    roots: Vec<Option<NodeId>>,
}

enum Node {
    Any,
    Never,
    /// A schema neither the checks nor an engine of its own could take.
    Unsure,
    /// Judged by the general engine on the built value.
    Engine(jsonschema::Validator),
    /// A schema that only refers to another (`{"$ref": …}` with annotations).
    Ref(NodeId),
    /// A schema that only asserts `type` (the bits of [`Assertions::types`]).
    Types(u8),
    Schema(Box<Assertions>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Draft {
    D7,
    D2019,
    D2020,
}

const NULL: u8 = 1;
const BOOLEAN: u8 = 2;
const INTEGER: u8 = 4;
const NUMBER: u8 = 8;
const STRING: u8 = 16;
const ARRAY: u8 = 32;
const OBJECT: u8 = 64;

const HAS_VALUES: u8 = 1;
const HAS_NUMBER: u8 = 2;
const HAS_LENGTH: u8 = 4;
const HAS_ITEMS: u8 = 8;
const HAS_MEMBERS: u8 = 16;
const HAS_APPLICATORS: u8 = 32;
/// `minProperties`, `maxProperties` or [`Assertions::excluded`], checked after the
/// members are read (with [`HAS_MEMBERS`]).
const HAS_MEMBER_LIMITS: u8 = 64;

#[derive(Default, Clone)]
struct Assertions {
    /// Allowed JSON types (bits above); 0 when `type` is absent.
    types: u8,
    /// Which groups of assertions below are present ([`HAS_VALUES`] …), so that a
    /// check skips the absent ones at once.
    has: u8,
    values: Option<Vec<Value>>,
    constant: Option<Value>,
    minimum: Option<Number>,
    maximum: Option<Number>,
    exclusive_minimum: Option<Number>,
    exclusive_maximum: Option<Number>,
    multiple_of: Option<u64>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    min_items: Option<u64>,
    max_items: Option<u64>,
    unique_items: bool,
    prefix_items: Vec<NodeId>,
    items: Option<NodeId>,
    /// `properties` (declared) and required names `properties` does not declare.
    properties: Vec<Property>,
    lookup: Option<HashMap<Box<str>, usize>>,
    required: u64,
    /// Sets of [`Self::properties`] (bit masks, like `required`) that must not all be
    /// present: `not: {"required": [...]}` folded in by [`simplify`].
    excluded: Vec<u64>,
    additional: Option<NodeId>,
    property_names: Option<NodeId>,
    min_properties: Option<u64>,
    max_properties: Option<u64>,
    all_of: Vec<NodeId>,
    any_of: Option<Union>,
    one_of: Option<Union>,
    not: Option<NodeId>,
    condition: Option<(NodeId, Option<NodeId>, Option<NodeId>)>,
}

#[derive(Clone)]
struct Property {
    name: Box<str>,
    node: Option<NodeId>,
    declared: bool,
}

#[derive(Clone)]
struct Union {
    alternatives: Vec<NodeId>,
    tag: Option<Tagging>,
}

/// Which alternatives of a union can take a string tag.
#[derive(Clone)]
struct Tagging {
    key: Box<str>,
    by_tag: Few<Box<str>, Vec<NodeId>>,
    /// The alternatives that can take any other string.
    other: Vec<NodeId>,
    /// The alternatives that can take an object without the tag (those that do not
    /// require it).
    untagged: Vec<NodeId>,
}

impl Assertions {
    /// Which groups of assertions are present ([`Self::has`]).
    fn groups(&self) -> u8 {
        let mut has = 0;
        if self.values.is_some() || self.constant.is_some() {
            has |= HAS_VALUES;
        }
        if self.minimum.is_some()
            || self.maximum.is_some()
            || self.exclusive_minimum.is_some()
            || self.exclusive_maximum.is_some()
            || self.multiple_of.is_some()
        {
            has |= HAS_NUMBER;
        }
        if self.min_length.is_some() || self.max_length.is_some() {
            has |= HAS_LENGTH;
        }
        if !self.prefix_items.is_empty()
            || self.items.is_some()
            || self.min_items.is_some()
            || self.max_items.is_some()
            || self.unique_items
        {
            has |= HAS_ITEMS;
        }
        if !self.properties.is_empty()
            || !self.excluded.is_empty()
            || self.additional.is_some()
            || self.property_names.is_some()
            || self.min_properties.is_some()
            || self.max_properties.is_some()
        {
            has |= HAS_MEMBERS;
        }
        if !self.excluded.is_empty()
            || self.min_properties.is_some()
            || self.max_properties.is_some()
        {
            has |= HAS_MEMBER_LIMITS;
        }
        if !self.all_of.is_empty()
            || self.any_of.is_some()
            || self.one_of.is_some()
            || self.not.is_some()
            || self.condition.is_some()
        {
            has |= HAS_APPLICATORS;
        }
        has
    }

    /// The index of property `name` in [`Self::properties`], where it is added as one
    /// neither declared nor required when the node does not list it.
    fn property(&mut self, name: &str) -> usize {
        match self.properties.iter().position(|p| &*p.name == name) {
            Some(index) => index,
            None => {
                self.properties.push(Property {
                    name: name.into(),
                    node: None,
                    declared: false,
                });
                self.properties.len() - 1
            }
        }
    }

    /// Indexes [`Self::properties`] by name when a linear search would be long.
    fn index_properties(&mut self) {
        self.lookup = (self.properties.len() > 8).then(|| {
            self.properties
                .iter()
                .enumerate()
                .map(|(i, p)| (p.name.clone(), i))
                .collect()
        });
    }

    /// The node for these assertions, with [`Self::has`] filled in.
    fn into_node(mut self) -> Node {
        let has = self.groups();
        if has == 0 && self.types != 0 {
            return Node::Types(self.types);
        }
        if has == HAS_APPLICATORS && self.types == 0 && self.all_of.len() == 1 {
            let only = self.all_of[0];
            if self.any_of.is_none()
                && self.one_of.is_none()
                && self.not.is_none()
                && self.condition.is_none()
            {
                return Node::Ref(only);
            }
        }
        self.has = has;
        Node::Schema(Box::new(self))
    }
}
