//! Compiled checks made cheaper to run, each verdict unchanged. Three rewrites:
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

use ahash::HashMap;

use super::run::verdict;
use super::{Assertions, HAS_MEMBERS, Node, NodeId, Property, Verdict};
use crate::validate::tape;

/// How many `$ref`s in a row are followed to find the schema an `allOf` member is.
const MAX_HOPS: usize = 16;

pub(super) fn simplify(nodes: &mut Vec<Node>) {
    // Later nodes are (mostly) the earlier ones' subschemas: folded first, they can
    // then be folded into their parents.
    for id in (0..nodes.len()).rev() {
        fold_all_of(nodes, id);
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
        let Node::Schema(a) = &mut nodes[id] else {
            return;
        };
        match folded {
            Some((types, properties, required)) if fold(a, types, &properties, required) => {
                a.all_of.remove(k);
                a.index_properties();
                a.has = a.groups();
            }
            _ => k += 1,
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
        if let Some(i) = a.properties.iter().position(|p| p.name == *key) {
            a.required &= !(1 << i);
        }
    }
    let old = std::mem::take(&mut a.properties);
    let mut required = 0;
    for (i, property) in old.into_iter().enumerate() {
        let was_required = a.required >> i & 1 == 1;
        if property.declared || was_required {
            if was_required {
                required |= 1 << a.properties.len();
            }
            a.properties.push(property);
        }
    }
    a.required = required;
    a.index_properties();
    a.has = a.groups();
}
