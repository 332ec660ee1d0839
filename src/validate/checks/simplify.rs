//! Compiled checks made cheaper to run, each verdict unchanged. Five rewrites:
//!
//! - **`allOf` members folded in.** A node whose `allOf` (or 2019-09+ sibling `$ref`)
//!   leads to a schema of only `type`, `properties` and `required` takes that schema's
//!   properties as its own, when the two declare different names and neither restricts
//!   other members (`additionalProperties`, `propertyNames`). A tagged union's
//!   alternative, `{"properties": {"type": {"const": …}}, "$ref": "#/$defs/Payload"}`,
//!   then reads the message's members once instead of twice.
//! - **`required` keys a union implies dropped.** When every alternative of a tagged
//!   union requires its tag, the union accepts no object without it, so the node's own
//!   `required` of the tag says nothing more; a name left neither declared nor required
//!   is dropped, and a node with nothing else to check of members no longer reads them.
//! - **A tag is not checked twice.** A union dispatches a message to the alternatives
//!   listed for its tag; where an alternative's own schema of the tag property accepts
//!   that tag (judged once, here, on the tag as a JSON string: a schema's verdict on a
//!   value depends on nothing else), the union dispatches to a copy of the alternative
//!   that does not check the tag property's value again.
//! - **A union of constants is an `enum`.** `oneOf`/`anyOf` whose alternatives each
//!   only pin the value to strings, booleans or `null` (`const`, `enum`; what schemars
//!   writes for a documented Rust enum) is the list of those values, when no value is
//!   in two alternatives of a `oneOf`: one comparison per value instead of a schema
//!   check per alternative.
//! - **`not: {"required": [...]}` is read with the members.** On a node that accepts
//!   only objects, the names that must not all be present become a set of its
//!   properties, checked against the members the node reads anyway, instead of a
//!   second pass over them.

use ahash::{HashMap, HashSet};

use super::run::verdict;
use serde_json::Value;

use super::{
    Assertions, BOOLEAN, HAS_APPLICATORS, HAS_MEMBERS, HAS_VALUES, NULL, Node, NodeId, OBJECT,
    Property, STRING, Verdict,
};
use crate::validate::tape;

/// How many `$ref`s in a row are followed to find the schema an `allOf` member is.
const MAX_HOPS: usize = 16;

pub(super) fn simplify(nodes: &mut Vec<Node>) {
    // Later nodes are (mostly) the earlier ones' subschemas: folded first, they can
    // then be folded into their parents.
    for id in (0..nodes.len()).rev() {
        constants_as_enum(nodes, id);
        fold_all_of(nodes, id);
        fold_not(nodes, id);
        if let Node::Schema(a) = &mut nodes[id] {
            drop_implied_required(a);
        }
    }
    for id in 0..nodes.len() {
        dispatch_past_the_tag(nodes, id);
    }
}

/// Points node `id`'s tagged unions, tag by tag, at copies of their alternatives that
/// do not check the tag again (see the module documentation).
fn dispatch_past_the_tag(nodes: &mut Vec<Node>, id: usize) {
    let Node::Schema(a) = &nodes[id] else { return };
    let mut unions = Vec::new();
    for (which, union) in [&a.any_of, &a.one_of].into_iter().enumerate() {
        if let Some(tagging) = union.as_ref().and_then(|u| u.tag.as_ref()) {
            unions.push((which, tagging.clone()));
        }
    }
    for (which, mut tagging) in unions {
        // Per alternative: its copy without the tag check, once made.
        let mut copies = HashMap::default();
        let key = tagging.key.clone();
        tagging.by_tag.for_each_mut(|tag, candidates| {
            // The tag as the message writes it: a JSON string.
            let text = serde_json::to_string(&**tag).unwrap_or_default();
            let Some(tape) = tape::read(&text, false) else {
                return;
            };
            for candidate in candidates.iter_mut() {
                if let Some(copy) = without_tag_check(nodes, &mut copies, *candidate, &key, &tape) {
                    *candidate = copy;
                }
            }
        });
        if let Node::Schema(a) = &mut nodes[id] {
            let union = if which == 0 {
                &mut a.any_of
            } else {
                &mut a.one_of
            };
            if let Some(union) = union {
                union.tag = Some(tagging);
            }
        }
    }
}

/// The assertions node `id` leads to, through `$ref`s.
fn schema_of(nodes: &[Node], id: NodeId) -> Option<&Assertions> {
    match &nodes[resolve(nodes, id) as usize] {
        Node::Schema(a) => Some(a),
        _ => None,
    }
}

fn resolve(nodes: &[Node], mut id: NodeId) -> NodeId {
    for _ in 0..MAX_HOPS {
        match nodes[id as usize] {
            Node::Ref(next) => id = next,
            _ => break,
        }
    }
    id
}

/// What an `allOf` member adds when it can be folded: its types and properties.
fn foldable(nodes: &[Node], id: NodeId) -> Option<(u8, Vec<Property>, u64)> {
    let b = match &nodes[resolve(nodes, id) as usize] {
        Node::Schema(b) => b,
        Node::Types(types) => return Some((*types, Vec::new(), 0)),
        _ => return None,
    };
    let only_members = b.has & !HAS_MEMBERS == 0
        && b.excluded.is_empty()
        && b.additional.is_none()
        && b.property_names.is_none()
        && b.min_properties.is_none()
        && b.max_properties.is_none();
    only_members.then(|| (b.types, b.properties.clone(), b.required))
}

fn fold_all_of(nodes: &mut [Node], id: usize) {
    let mut k = 0;
    loop {
        let Node::Schema(a) = &nodes[id] else { return };
        if a.additional.is_some() || a.property_names.is_some() {
            return;
        }
        let Some(&member) = a.all_of.get(k) else {
            return;
        };
        let folded = foldable(nodes, member);
        let excluded = not_required(nodes, member);
        let Node::Schema(a) = &mut nodes[id] else {
            return;
        };
        let done = match (folded, excluded) {
            (Some((types, properties, required)), _) => fold(a, types, &properties, required),
            (None, Some(names)) => exclude(a, &names),
            (None, None) => false,
        };
        if done {
            a.all_of.remove(k);
            a.index_properties();
            a.has = a.groups();
        } else {
            k += 1;
        }
    }
}

/// The copy of `candidate`'s schema without its check of the tag property `key`, made
/// once per alternative, when that check accepts the tag on `tape`.
fn without_tag_check(
    nodes: &mut Vec<Node>,
    copies: &mut HashMap<NodeId, NodeId>,
    candidate: NodeId,
    key: &str,
    tape: &tape::Tape<'_>,
) -> Option<NodeId> {
    let alternative = resolve(nodes, candidate);
    let Node::Schema(alt) = &nodes[alternative as usize] else {
        return None;
    };
    let at = alt.properties.iter().position(|p| &*p.name == key)?;
    let check = alt.properties[at].node?;
    if verdict(nodes, check, tape) != Verdict::Yes {
        return None;
    }
    if let Some(&copy) = copies.get(&alternative) {
        return Some(copy);
    }
    let copy = NodeId::try_from(nodes.len()).ok()?;
    let mut alt = alt.clone();
    alt.properties[at].node = None;
    nodes.push(Node::Schema(alt));
    copies.insert(alternative, copy);
    Some(copy)
}

/// Adds a member's `types`, `properties` and `required` to `a`, if they can be (at most
/// 64 names, none declared by both, some type allowed by both).
fn fold(a: &mut Assertions, types: u8, properties: &[Property], required: u64) -> bool {
    let offset = a.properties.len();
    if offset + properties.len() > 64
        || properties
            .iter()
            .any(|p| a.properties.iter().any(|q| q.name == p.name))
    {
        return false;
    }
    let both = match (a.types, types) {
        (mine, 0) => mine,
        (0, theirs) => theirs,
        (mine, theirs) => mine & theirs,
    };
    if both == 0 && (a.types | types) != 0 {
        return false;
    }
    a.types = both;
    a.required |= required.checked_shl(offset as u32).unwrap_or(0);
    a.properties.extend_from_slice(properties);
    true
}

/// Node `id`'s own `not: {"required": [...]}` folded into its members (see [`exclude`]).
fn fold_not(nodes: &mut [Node], id: usize) {
    let Node::Schema(a) = &nodes[id] else { return };
    let Some(names) = a.not.and_then(|not| required_only(nodes, not)) else {
        return;
    };
    let Node::Schema(a) = &mut nodes[id] else {
        return;
    };
    if exclude(a, &names) {
        a.not = None;
        a.index_properties();
        a.has = a.groups();
    }
}

/// The names of `{"not": {"required": [...]}}` (a schema of nothing else), as an
/// `allOf` member.
fn not_required(nodes: &[Node], id: NodeId) -> Option<Vec<Box<str>>> {
    let b = schema_of(nodes, id)?;
    let only_not = b.types == 0
        && b.has == HAS_APPLICATORS
        && b.all_of.is_empty()
        && b.any_of.is_none()
        && b.one_of.is_none()
        && b.condition.is_none();
    only_not
        .then_some(b.not?)
        .and_then(|not| required_only(nodes, not))
}

/// The names of `{"required": [...]}`, a schema of nothing else (`properties` of
/// schemas that accept anything aside).
fn required_only(nodes: &[Node], id: NodeId) -> Option<Vec<Box<str>>> {
    let c = schema_of(nodes, id)?;
    let only_required = c.types == 0
        && c.has == HAS_MEMBERS
        && c.excluded.is_empty()
        && c.additional.is_none()
        && c.property_names.is_none()
        && c.min_properties.is_none()
        && c.max_properties.is_none()
        && c.properties.iter().all(|p| {
            p.node
                .is_none_or(|node| matches!(nodes[resolve(nodes, node) as usize], Node::Any))
        });
    only_required.then(|| {
        c.properties
            .iter()
            .enumerate()
            .filter(|&(i, _)| has(c.required, i))
            .map(|(_, p)| p.name.clone())
            .collect()
    })
}

/// Adds to `a` the set of `names` that must not all be present, if `a` accepts only
/// objects (`not: {"required": …}` rejects every other value) and the set fits in 64
/// properties. A name `a` does not list is added as a property it neither declares nor
/// requires.
fn exclude(a: &mut Assertions, names: &[Box<str>]) -> bool {
    if a.types != OBJECT {
        return false;
    }
    // Every name must be, or become, one of the first 64 properties (a bit of the set).
    let mut next = a.properties.len();
    let fits = names.iter().all(
        |name| match a.properties.iter().position(|p| p.name == *name) {
            Some(at) => at < 64,
            None => {
                next += 1;
                next <= 64
            }
        },
    );
    if !fits {
        return false;
    }
    let set = names
        .iter()
        .fold(0u64, |set, name| set | 1 << a.property(name));
    a.excluded.push(set);
    true
}

/// Node `id`'s `oneOf`/`anyOf` of constants as its `enum` (see the module
/// documentation).
fn constants_as_enum(nodes: &mut [Node], id: usize) {
    let Node::Schema(a) = &nodes[id] else { return };
    if a.values.is_some() || a.constant.is_some() {
        return;
    }
    let mut found = None;
    for (which, union) in [&a.any_of, &a.one_of].into_iter().enumerate() {
        if let Some(values) = union
            .as_ref()
            .and_then(|u| constants(nodes, &u.alternatives, which == 1))
        {
            found = Some((which, values));
            break;
        }
    }
    let Some((which, values)) = found else { return };
    let Node::Schema(a) = &mut nodes[id] else {
        return;
    };
    if which == 0 {
        a.any_of = None;
    } else {
        a.one_of = None;
    }
    a.values = Some(values);
    a.has = a.groups();
}

/// The values the `alternatives` accept, when each accepts only strings, booleans or
/// `null` it lists; for a `oneOf` (`one`), only when no value is in two alternatives.
fn constants(nodes: &[Node], alternatives: &[NodeId], one: bool) -> Option<Vec<Value>> {
    /// A value as compared here (strings, booleans and `null` only): hashable, so that
    /// a union of many constants is read in linear time.
    #[derive(Clone, Copy, PartialEq, Eq, Hash)]
    enum Constant<'v> {
        Str(&'v str),
        Bool(bool),
        Null,
    }
    let mut all: Vec<Value> = Vec::new();
    let mut seen: HashSet<Constant<'_>> = HashSet::default();
    for &alternative in alternatives {
        let b = schema_of(nodes, alternative)?;
        if b.has != HAS_VALUES {
            return None;
        }
        let listed = match (&b.values, &b.constant) {
            (Some(values), None) => values.as_slice(),
            (None, Some(constant)) => std::slice::from_ref(constant),
            _ => return None,
        };
        // This alternative's values, each once (an `enum` may list one twice).
        let mut mine = HashSet::default();
        for value in listed {
            let (constant, bits) = match value {
                Value::String(s) => (Constant::Str(s), STRING),
                Value::Bool(b) => (Constant::Bool(*b), BOOLEAN),
                Value::Null => (Constant::Null, NULL),
                _ => return None,
            };
            if b.types != 0 && b.types & bits == 0 || !mine.insert(constant) {
                continue;
            }
            if seen.insert(constant) {
                all.push(value.clone());
            } else if one {
                return None;
            }
        }
    }
    (!all.is_empty()).then_some(all)
}

/// Whether the set of properties `set` (a bit per index, as `required`) holds index `i`;
/// an index past 64 is in no set.
fn has(set: u64, i: usize) -> bool {
    i < 64 && set >> i & 1 == 1
}

fn drop_implied_required(a: &mut Assertions) {
    let implied: Vec<Box<str>> = [&a.any_of, &a.one_of]
        .into_iter()
        .flatten()
        .filter_map(|union| union.tag.as_ref())
        .filter(|tagging| tagging.untagged.is_empty())
        .map(|tagging| tagging.key.clone())
        .collect();
    if implied.is_empty() {
        return;
    }
    for key in &implied {
        if let Some(i) = a.properties.iter().position(|p| p.name == *key)
            && i < 64
        {
            a.required &= !(1 << i);
        }
    }
    let in_excluded = a.excluded.iter().fold(0u64, |all, set| all | set);
    let old = std::mem::take(&mut a.properties);
    let mut required = 0;
    let mut moved = [None::<usize>; 64];
    for (i, property) in old.into_iter().enumerate() {
        let was_required = has(a.required, i);
        if property.declared || was_required || has(in_excluded, i) {
            if was_required {
                required |= 1 << a.properties.len();
            }
            if i < 64 {
                moved[i] = Some(a.properties.len());
            }
            a.properties.push(property);
        }
    }
    a.required = required;
    for set in &mut a.excluded {
        *set = (0..64)
            .filter(|&i| has(*set, i))
            .filter_map(|i| moved[i])
            .fold(0, |moved, at| moved | 1 << at);
    }
    a.index_properties();
    a.has = a.groups();
}
