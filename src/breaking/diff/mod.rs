//! The comparison of two models of one schema: a walk from the roots that pairs the old
//! and the new shape of every value (by wire name, tag and position, so a renamed Rust
//! type is still the same value on the wire) and reports each difference with its
//! [`Class`], decided by which way the value travels ([`Flow`]).
//!
//! This file holds the walk and the named types; [`records`] compares objects and their
//! fields, [`values`] type expressions, ranges and enums, [`unions`] unions and their
//! variants, and [`words`] says who is affected.

mod records;
mod unions;
mod values;
mod words;

use std::collections::{HashMap, HashSet};

use super::Change;
use super::flow::Flow;
use super::rules::{self, Class, Rule};
use crate::model::{Direction, Model, NamedType, Origin, TypeExpr, TypeKind};
use words::{direction_text, kind_name, peers, receivers, senders};

/// Compares the old and the new model of the schema file `file`, given the flow of
/// each named type in each (see [`super::flow::flows`]).
pub(super) fn compare(
    file: &str,
    (old, old_flows): (&Model, HashMap<String, Flow>),
    (new, new_flows): (&Model, HashMap<String, Flow>),
) -> Vec<Change> {
    let mut differ = Differ {
        file,
        old,
        new,
        old_flows,
        new_flows,
        seen: HashSet::new(),
        matched_old: HashSet::new(),
        matched_new: HashSet::new(),
        changes: Vec::new(),
    };
    differ.roots();
    differ.remaining_types();
    differ.changes
}

struct Differ<'a> {
    file: &'a str,
    old: &'a Model,
    new: &'a Model,
    old_flows: HashMap<String, Flow>,
    new_flows: HashMap<String, Flow>,
    seen: HashSet<(String, String)>,
    matched_old: HashSet<String>,
    matched_new: HashSet<String>,
    changes: Vec<Change>,
}

/// Where a change is: the schema pointer reported and the words that name the value.
#[derive(Clone)]
struct At<'p> {
    pointer: &'p str,
    what: String,
}

impl<'a> Differ<'a> {
    fn report(&mut self, rule: Rule, class: Class, pointer: &str, message: String) {
        self.changes.push(Change {
            file: self.file.to_owned(),
            pointer: pointer.to_owned(),
            rule: rule.id,
            class,
            message,
        });
    }

    fn roots(&mut self) {
        let old_roots = &self.old.roots;
        let new_roots = &self.new.roots;
        // One root on each side is the same message type, whatever its name.
        let single = old_roots.len() == 1 && new_roots.len() == 1;
        for name in old_roots {
            if new_roots.contains(name) {
                self.named(name, name);
            } else if single {
                self.named(name, &new_roots[0]);
            } else {
                self.matched_old.insert(name.clone());
                let flow = self
                    .old_flows
                    .get(name)
                    .cloned()
                    .unwrap_or_else(Flow::unknown);
                let class = Class::wire_if(flow.is_sent() || flow.is_received(), Class::Source);
                self.report(
                    rules::ROOT_REMOVED,
                    class,
                    "/x-symgen-protocol/roots",
                    format!("root message type `{name}` is gone; {}", peers(&flow)),
                );
            }
        }
        for name in new_roots {
            if !old_roots.contains(name) && !single {
                self.matched_new.insert(name.clone());
                self.report(
                    rules::ROOT_ADDED,
                    Class::Compatible,
                    "/x-symgen-protocol/roots",
                    format!("new root message type `{name}`"),
                );
            }
        }
    }

    /// Definitions the roots did not reach (or documents without roots), then the ones
    /// that are gone or new.
    fn remaining_types(&mut self) {
        let defs = |model: &'a Model| {
            model
                .types
                .iter()
                .filter(|t| matches!(t.origin, Origin::Defs | Origin::Root))
        };
        for named in defs(self.old) {
            if self.new.get(&named.name).is_some() && !self.matched_old.contains(&named.name) {
                self.named(&named.name, &named.name);
            }
        }
        for named in defs(self.old) {
            if !self.matched_old.contains(&named.name) && self.new.get(&named.name).is_none() {
                self.report(
                    rules::TYPE_REMOVED,
                    Class::Source,
                    "/$defs",
                    format!("type `{}` is gone", named.name),
                );
            }
        }
        for named in defs(self.new) {
            if !self.matched_new.contains(&named.name) && self.old.get(&named.name).is_none() {
                let pointer = named.pointer.clone();
                self.report(
                    rules::TYPE_ADDED,
                    Class::Compatible,
                    &pointer,
                    format!("new type `{}`", named.name),
                );
            }
        }
    }

    /// How the pair travels: both models' flows together; any way at all when neither
    /// model's roots reach it.
    fn flow_of(&self, old: &str, new: &str) -> Flow {
        match (self.old_flows.get(old), self.new_flows.get(new)) {
            (None, None) => Flow::unknown(),
            (a, b) => {
                let mut flow = a.cloned().unwrap_or_default();
                if let Some(b) = b {
                    flow.merge(b);
                }
                flow
            }
        }
    }

    /// Compares the named type `old` (old model) with `new` (new model), once per pair.
    fn named(&mut self, old_name: &str, new_name: &str) {
        if !self.seen.insert((old_name.to_owned(), new_name.to_owned())) {
            return;
        }
        let (Some(old), Some(new)) = (self.old.get(old_name), self.new.get(new_name)) else {
            return;
        };
        self.matched_old.insert(old_name.to_owned());
        self.matched_new.insert(new_name.to_owned());
        // A type of another schema file is compared with that file (which knows how
        // this one uses it, see `super::flows`).
        if matches!(new.origin, Origin::Document { .. }) {
            return;
        }
        let is_def = |t: &NamedType| matches!(t.origin, Origin::Defs);
        if old_name != new_name
            && is_def(old)
            && is_def(new)
            && self.new.get(old_name).is_none()
            && self.old.get(new_name).is_none()
        {
            self.report(
                rules::TYPE_RENAMED,
                Class::Source,
                &new.pointer,
                format!("type `{old_name}` is now called `{new_name}`"),
            );
        }
        self.direction(
            (&old.docs.direction, &new.docs.direction),
            &new.pointer,
            &format!("`{new_name}`"),
        );
        let flow = self.flow_of(old_name, new_name);
        let at = At {
            pointer: &new.pointer,
            what: format!("`{new_name}`"),
        };
        match (&old.kind, &new.kind) {
            (TypeKind::Record(a), TypeKind::Record(b)) => self.record(a, b, &flow, &at),
            (TypeKind::Enum(a), TypeKind::Enum(b)) => self.enumeration(a, b, &flow, &at),
            (TypeKind::Union(a), TypeKind::Union(b)) => self.union(a, b, &flow, &at),
            (TypeKind::Alias(a), TypeKind::Alias(b)) => self.expr(a, b, &flow, &at),
            (TypeKind::Alias(TypeExpr::Ref(target)), _) => self.named(target, new_name),
            (_, TypeKind::Alias(TypeExpr::Ref(target))) => self.named(old_name, target),
            _ => self.type_changed(&flow, &at, kind_name(&old.kind), kind_name(&new.kind)),
        }
    }

    /// `direction-changed`, when the declared parties differ.
    fn direction(&mut self, (old, new): (&Direction, &Direction), pointer: &str, what: &str) {
        if old != new {
            self.report(
                rules::DIRECTION_CHANGED,
                Class::Compatible,
                pointer,
                format!(
                    "{what} was {}, is {}",
                    direction_text(old),
                    direction_text(new)
                ),
            );
        }
    }

    /// A value that accepted something (`null`, unknown keys, values or tags) and no
    /// longer does, or the other way round. Refusing breaks old senders; accepting more
    /// breaks old receivers only when `allowed.2` says they decode a closed set.
    fn acceptance(
        &mut self,
        (before, now): (bool, bool),
        flow: &Flow,
        at: &At,
        refused: (Rule, &str),
        allowed: (Rule, &str, bool),
    ) {
        match (before, now) {
            (true, false) => self.report(
                refused.0,
                Class::wire_if(flow.is_sent(), Class::Compatible),
                at.pointer,
                format!("{} {} now; {}", at.what, refused.1, senders(flow)),
            ),
            (false, true) => {
                let (rule, words, closed) = allowed;
                let who = if closed {
                    format!("; {}", receivers(flow))
                } else {
                    String::new()
                };
                self.report(
                    rule,
                    Class::wire_if(closed && flow.is_received(), Class::Compatible),
                    at.pointer,
                    format!("{} {words} now{who}", at.what),
                );
            }
            _ => {}
        }
    }

    fn type_changed(&mut self, flow: &Flow, at: &At, old: &str, new: &str) {
        let class = Class::wire_if(flow.is_sent() || flow.is_received(), Class::Source);
        self.report(
            rules::TYPE_CHANGED,
            class,
            at.pointer,
            format!("{} was {old}, is {new}; {}", at.what, peers(flow)),
        );
    }
}
