//! The comparison of two models of one schema: a walk from the roots that pairs the old
//! and the new shape of every value (by wire name, tag and position, so a renamed Rust
//! type is still the same value on the wire) and reports each difference with its
//! [`Class`], decided by which way the value travels ([`Flow`]).

use std::collections::{HashMap, HashSet};

use super::Change;
use super::flow::Flow;
use super::rules::{self, Class, Rule};
use crate::model::{
    Additional, Direction, Enum, Field, IntType, Literal, Model, NamedType, Origin, Payload,
    Record, Reply, Tagging, TypeExpr, TypeKind, Union, Variant,
};

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

    fn flow_of(&self, old: &str, new: &str) -> Flow {
        let mut flow = self.old_flows.get(old).cloned().unwrap_or_default();
        flow.merge(&self.new_flows.get(new).cloned().unwrap_or_default());
        if !self.old_flows.contains_key(old) && !self.new_flows.contains_key(new) {
            return Flow::unknown();
        }
        flow
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
        if old.docs.direction != new.docs.direction {
            self.report(
                rules::DIRECTION_CHANGED,
                Class::Compatible,
                &new.pointer,
                format!(
                    "`{new_name}` was {}, is {}",
                    direction_text(&old.docs.direction),
                    direction_text(&new.docs.direction)
                ),
            );
        }
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

    fn type_changed(&mut self, flow: &Flow, at: &At, old: &str, new: &str) {
        let class = Class::wire_if(flow.is_sent() || flow.is_received(), Class::Source);
        self.report(
            rules::TYPE_CHANGED,
            class,
            at.pointer,
            format!("{} was {old}, is {new}; {}", at.what, peers(flow)),
        );
    }

    fn record(&mut self, old: &Record, new: &Record, flow: &Flow, at: &At) {
        self.fields(
            &old.fields,
            &new.fields,
            (&old.additional, &new.additional),
            flow,
            at,
        );
        for constraint in &new.constraints {
            if !old.constraints.contains(constraint) {
                // A rule that a field old senders always wrote already satisfies.
                let implied = constraint_fields(constraint)
                    .iter()
                    .any(|name| old.fields.iter().any(|f| f.name == *name && f.required));
                self.report(
                    rules::CONSTRAINT_ADDED,
                    Class::wire_if(flow.is_sent() && !implied, Class::Compatible),
                    at.pointer,
                    format!(
                        "{} has a new rule ({}); {}",
                        at.what,
                        constraint_text(constraint),
                        senders(flow)
                    ),
                );
            }
        }
        for constraint in &old.constraints {
            if !new.constraints.contains(constraint) {
                self.report(
                    rules::CONSTRAINT_REMOVED,
                    Class::wire_if(flow.is_received(), Class::Compatible),
                    at.pointer,
                    format!(
                        "{} lost a rule ({}); {}",
                        at.what,
                        constraint_text(constraint),
                        receivers(flow)
                    ),
                );
            }
        }
    }

    fn fields(
        &mut self,
        old: &[Field],
        new: &[Field],
        additional: (&Additional, &Additional),
        flow: &Flow,
        at: &At,
    ) {
        let (old_extra, new_extra) = additional;
        let old_closed = matches!(old_extra, Additional::Forbidden);
        let new_closed = matches!(new_extra, Additional::Forbidden);
        match (old_extra, new_extra) {
            (Additional::Forbidden, Additional::Forbidden) => {}
            (_, Additional::Forbidden) => self.report(
                rules::EXTRA_KEYS_REFUSED,
                Class::wire_if(flow.is_sent(), Class::Compatible),
                at.pointer,
                format!("{} refuses unknown keys now; {}", at.what, senders(flow)),
            ),
            (Additional::Forbidden, _) => self.report(
                rules::EXTRA_KEYS_ALLOWED,
                Class::Compatible,
                at.pointer,
                format!("{} accepts unknown keys now", at.what),
            ),
            (Additional::Typed(a), Additional::Typed(b)) => {
                let inner = At {
                    pointer: at.pointer,
                    what: format!("the extra values of {}", at.what),
                };
                self.expr(a, b, flow, &inner);
            }
            _ => {}
        }
        for field in old {
            let same = new.iter().find(|f| f.name == field.name);
            let renamed = new.iter().find(|f| f.aliases.contains(&field.name));
            let what = format!("{}.{}", at.what.trim_end_matches('`'), field.name) + "`";
            match (same, renamed) {
                (Some(now), _) => self.field(field, now, flow, &what),
                (None, Some(now)) => {
                    self.report(
                        rules::FIELD_RENAMED,
                        Class::wire_if(flow.is_received(), Class::Source),
                        &now.pointer,
                        format!(
                            "{what} is written `{}` now (the old name is still read); {}",
                            now.name,
                            receivers(flow)
                        ),
                    );
                    self.field(field, now, flow, &what);
                }
                (None, None) => {
                    let breaks =
                        (field.required && flow.is_received()) || (new_closed && flow.is_sent());
                    let why = if field.required {
                        receivers(flow)
                    } else if new_closed {
                        senders(flow)
                    } else {
                        "receivers ignore the key; code that reads it no longer compiles".into()
                    };
                    self.report(
                        rules::FIELD_REMOVED,
                        Class::wire_if(breaks, Class::Source),
                        at.pointer,
                        format!(
                            "{what} ({}) is gone; {why}",
                            if field.required {
                                "required"
                            } else {
                                "optional"
                            }
                        ),
                    );
                }
            }
        }
        for field in new {
            let known = old
                .iter()
                .any(|f| f.name == field.name || field.aliases.contains(&f.name));
            if known {
                continue;
            }
            let what = format!("{}.{}", at.what.trim_end_matches('`'), field.name) + "`";
            if field.required {
                self.report(
                    rules::REQUIRED_FIELD_ADDED,
                    Class::wire_if(flow.is_sent(), Class::Source),
                    &field.pointer,
                    format!(
                        "new required field {what}; {}",
                        peers_with(flow, "old senders omit it", true)
                    ),
                );
            } else {
                let breaks = old_closed && flow.is_received();
                let why = if old_closed {
                    format!("old receivers refuse unknown keys; {}", receivers(flow))
                } else {
                    "old receivers ignore it".to_owned()
                };
                self.report(
                    rules::OPTIONAL_FIELD_ADDED,
                    Class::wire_if(breaks, Class::Compatible),
                    &field.pointer,
                    format!("new optional field {what}: {why}"),
                );
            }
        }
    }

    fn field(&mut self, old: &Field, new: &Field, flow: &Flow, what: &str) {
        let at = At {
            pointer: &new.pointer,
            what: what.to_owned(),
        };
        match (old.required, new.required) {
            (false, true) => self.report(
                rules::FIELD_NOW_REQUIRED,
                Class::wire_if(flow.is_sent(), Class::Source),
                &new.pointer,
                format!(
                    "{what} is required now; {}",
                    peers_with(flow, "old senders may omit it", true)
                ),
            ),
            (true, false) => self.report(
                rules::FIELD_NOW_OPTIONAL,
                Class::wire_if(flow.is_received(), Class::Source),
                &new.pointer,
                format!(
                    "{what} is optional now; {}",
                    peers_with(flow, "old receivers require it", false)
                ),
            ),
            _ => {}
        }
        for alias in &old.aliases {
            if !new.aliases.contains(alias) && *alias != new.name {
                self.report(
                    rules::FIELD_ALIAS_REMOVED,
                    Class::wire_if(flow.is_sent(), Class::Compatible),
                    &new.pointer,
                    format!("{what} no longer reads `{alias}`; {}", senders(flow)),
                );
            }
        }
        for alias in &new.aliases {
            if !old.aliases.contains(alias) && *alias != old.name {
                self.report(
                    rules::FIELD_ALIAS_ADDED,
                    Class::Compatible,
                    &new.pointer,
                    format!("{what} also reads `{alias}` now"),
                );
            }
        }
        if old.default != new.default && !old.required && !new.required {
            let shown = |v: &Option<serde_json::Value>| {
                v.as_ref().map_or("nothing".to_owned(), |v| v.to_string())
            };
            self.report(
                rules::DEFAULT_CHANGED,
                Class::wire_if(flow.is_sent() || flow.is_received(), Class::Compatible),
                &new.pointer,
                format!(
                    "an absent {what} meant {}, now means {}",
                    shown(&old.default),
                    shown(&new.default)
                ),
            );
        }
        self.expr(&old.ty, &new.ty, flow, &at);
    }

    fn expr(&mut self, old: &TypeExpr, new: &TypeExpr, flow: &Flow, at: &At) {
        use TypeExpr as T;
        match (old, new) {
            (T::Ref(a), T::Ref(b)) => return self.named(a, b),
            (T::Ref(a), _) if self.alias_target(self.old, a).is_some() => {
                let target = self.alias_target(self.old, a).cloned();
                return self.expr(&target.unwrap_or(T::Any), new, flow, at);
            }
            (_, T::Ref(b)) if self.alias_target(self.new, b).is_some() => {
                let target = self.alias_target(self.new, b).cloned();
                return self.expr(old, &target.unwrap_or(T::Any), flow, at);
            }
            _ => {}
        }
        if matches!(old, T::Any) || matches!(new, T::Any) {
            if old != new {
                let (rule, class, words) = if matches!(new, T::Any) {
                    (rules::RANGE_WIDENED, flow.is_received(), receivers(flow))
                } else {
                    (rules::RANGE_NARROWED, flow.is_sent(), senders(flow))
                };
                self.report(
                    rule,
                    Class::wire_if(class, Class::Compatible),
                    at.pointer,
                    format!(
                        "{} was {}, is {}; {words}",
                        at.what,
                        expr_name(old),
                        expr_name(new)
                    ),
                );
            }
            return;
        }
        match (old.is_nullable(), new.is_nullable()) {
            (true, false) => self.report(
                rules::NULL_REFUSED,
                Class::wire_if(flow.is_sent(), Class::Compatible),
                at.pointer,
                format!("{} refuses null now; {}", at.what, senders(flow)),
            ),
            (false, true) => self.report(
                rules::NULL_ALLOWED,
                Class::wire_if(flow.is_received(), Class::Compatible),
                at.pointer,
                format!("{} accepts null now; {}", at.what, receivers(flow)),
            ),
            _ => {}
        }
        let (old, new) = (old.non_null(), new.non_null());
        match (old, new) {
            (T::Null, T::Null) | (T::Bool, T::Bool) => {}
            (T::String(_), T::String(_)) | (T::Number(_), T::Number(_)) => {}
            (T::Integer(a), T::Integer(b)) => self.range(a, b, flow, at),
            (T::Integer(_), T::Number(_)) => self.report(
                rules::RANGE_WIDENED,
                Class::wire_if(flow.is_received(), Class::Compatible),
                at.pointer,
                format!(
                    "{} was an integer, is a number; {}",
                    at.what,
                    receivers(flow)
                ),
            ),
            (T::Number(_), T::Integer(_)) => self.report(
                rules::RANGE_NARROWED,
                Class::wire_if(flow.is_sent(), Class::Compatible),
                at.pointer,
                format!("{} was a number, is an integer; {}", at.what, senders(flow)),
            ),
            (T::Literal(a), T::Literal(b)) if a == b => {}
            (T::Array(a), T::Array(b)) => {
                let inner = At {
                    pointer: at.pointer,
                    what: format!("the items of {}", at.what),
                };
                self.expr(a, b, flow, &inner);
            }
            (T::Map(a), T::Map(b)) => {
                let inner = At {
                    pointer: at.pointer,
                    what: format!("the values of {}", at.what),
                };
                self.expr(a, b, flow, &inner);
            }
            (T::Tuple(a), T::Tuple(b)) if a.len() == b.len() => {
                for (i, (x, y)) in a.iter().zip(b).enumerate() {
                    let inner = At {
                        pointer: at.pointer,
                        what: format!("item {i} of {}", at.what),
                    };
                    self.expr(x, y, flow, &inner);
                }
            }
            (T::Ref(a), T::Ref(b)) => self.named(a, b),
            (T::String(_), T::Ref(name)) if is_string_enum(self.new, name) => self.report(
                rules::RANGE_NARROWED,
                Class::wire_if(flow.is_sent(), Class::Compatible),
                at.pointer,
                format!("{} was any string, is `{name}`; {}", at.what, senders(flow)),
            ),
            (T::Ref(name), T::String(_)) if is_string_enum(self.old, name) => self.report(
                rules::RANGE_WIDENED,
                Class::wire_if(flow.is_received(), Class::Compatible),
                at.pointer,
                format!(
                    "{} was `{name}`, is any string; {}",
                    at.what,
                    receivers(flow)
                ),
            ),
            _ => self.type_changed(flow, at, &expr_name(old), &expr_name(new)),
        }
    }

    /// The expression a named type is an alias of (not through further references).
    fn alias_target<'m>(&self, model: &'m Model, name: &str) -> Option<&'m TypeExpr> {
        match &model.get(name)?.kind {
            TypeKind::Alias(expr) if !matches!(expr, TypeExpr::Ref(_)) => Some(expr),
            _ => None,
        }
    }

    fn range(&mut self, old: &IntType, new: &IntType, flow: &Flow, at: &At) {
        let bounds = |t: &IntType| {
            let (low, high) = t.width.range();
            (
                t.minimum.unwrap_or(low).max(low),
                t.maximum.unwrap_or(high).min(high),
            )
        };
        let (old_low, old_high) = bounds(old);
        let (new_low, new_high) = bounds(new);
        let text = |low: i128, high: i128| format!("{low}..={high}");
        if new_low > old_low || new_high < old_high {
            self.report(
                rules::RANGE_NARROWED,
                Class::wire_if(flow.is_sent(), Class::Compatible),
                at.pointer,
                format!(
                    "{} was {}, is {}; {}",
                    at.what,
                    text(old_low, old_high),
                    text(new_low, new_high),
                    senders(flow)
                ),
            );
        }
        if new_low < old_low || new_high > old_high {
            self.report(
                rules::RANGE_WIDENED,
                Class::wire_if(flow.is_received(), Class::Compatible),
                at.pointer,
                format!(
                    "{} was {}, is {}; {}",
                    at.what,
                    text(old_low, old_high),
                    text(new_low, new_high),
                    receivers(flow)
                ),
            );
        }
    }

    fn enumeration(&mut self, old: &Enum, new: &Enum, flow: &Flow, at: &At) {
        for value in &old.values {
            let found = new.values.iter().find(|v| v.value == value.value);
            let respelled = new.values.iter().find(|v| v.aliases.contains(&value.value));
            let now = match (found, respelled) {
                (Some(now), _) => now,
                (None, Some(now)) => {
                    self.report(
                        rules::ENUM_VALUE_RENAMED,
                        Class::wire_if(flow.is_received() && !old.open, Class::Source),
                        at.pointer,
                        format!(
                            "{} writes {} for {} now (the old spelling is still read); {}",
                            at.what,
                            now.value.to_json(),
                            value.value.to_json(),
                            receivers(flow)
                        ),
                    );
                    now
                }
                (None, None) => {
                    let kept = if new.open {
                        " (new receivers keep it as an unknown string)"
                    } else {
                        ""
                    };
                    self.report(
                        rules::ENUM_VALUE_REMOVED,
                        Class::wire_if(flow.is_sent() && !new.open, Class::Source),
                        at.pointer,
                        format!(
                            "{} lost the value {}{kept}; {}",
                            at.what,
                            value.value.to_json(),
                            senders(flow)
                        ),
                    );
                    continue;
                }
            };
            for alias in &value.aliases {
                if !now.aliases.contains(alias) && *alias != now.value {
                    self.report(
                        rules::ENUM_ALIAS_REMOVED,
                        Class::wire_if(flow.is_sent(), Class::Compatible),
                        at.pointer,
                        format!(
                            "{} no longer reads {} as {}; {}",
                            at.what,
                            alias.to_json(),
                            value.value.to_json(),
                            senders(flow)
                        ),
                    );
                }
            }
            for alias in &now.aliases {
                if !value.aliases.contains(alias) && *alias != value.value {
                    self.report(
                        rules::ENUM_ALIAS_ADDED,
                        Class::Compatible,
                        at.pointer,
                        format!(
                            "{} also reads {} as {} now",
                            at.what,
                            alias.to_json(),
                            now.value.to_json()
                        ),
                    );
                }
            }
        }
        for value in &new.values {
            let known = old
                .values
                .iter()
                .any(|v| v.value == value.value || value.aliases.contains(&v.value));
            if known {
                continue;
            }
            let (class, why) = if old.open {
                (
                    Class::Compatible,
                    "old receivers keep it as an unknown string (open enum)".to_owned(),
                )
            } else {
                (
                    Class::wire_if(flow.is_received(), Class::Compatible),
                    format!("old receivers decode a closed set; {}", receivers(flow)),
                )
            };
            self.report(
                rules::ENUM_VALUE_ADDED,
                class,
                at.pointer,
                format!(
                    "{} has the new value {}: {why}",
                    at.what,
                    value.value.to_json()
                ),
            );
        }
        match (old.open, new.open) {
            (true, false) => self.report(
                rules::ENUM_CLOSED,
                Class::wire_if(flow.is_sent(), Class::Compatible),
                at.pointer,
                format!("{} refuses unknown values now; {}", at.what, senders(flow)),
            ),
            (false, true) => self.report(
                rules::ENUM_OPENED,
                Class::Compatible,
                at.pointer,
                format!("{} keeps unknown values now", at.what),
            ),
            _ => {}
        }
    }

    fn union(&mut self, old: &Union, new: &Union, flow: &Flow, at: &At) {
        if old.tagging != new.tagging {
            self.report(
                rules::UNION_TAGGING_CHANGED,
                Class::wire_if(flow.is_sent() || flow.is_received(), Class::Source),
                at.pointer,
                format!(
                    "{} was {}, is {}; {}",
                    at.what,
                    tagging_name(&old.tagging),
                    tagging_name(&new.tagging),
                    peers(flow)
                ),
            );
            return;
        }
        match (old.unknown.is_some(), new.unknown.is_some()) {
            (true, false) => self.report(
                rules::UNION_CLOSED,
                Class::wire_if(flow.is_sent(), Class::Compatible),
                at.pointer,
                format!("{} refuses unknown tags now; {}", at.what, senders(flow)),
            ),
            (false, true) => self.report(
                rules::UNION_OPENED,
                Class::Compatible,
                at.pointer,
                format!("{} keeps unknown tags now (R4)", at.what),
            ),
            _ => {}
        }
        let fields_flow = |union: &Union| {
            let mut merged = Flow::default();
            for v in &union.variants {
                merged.merge(&Flow::within(&v.docs.direction, flow));
            }
            if union.variants.is_empty() {
                flow.clone()
            } else {
                merged
            }
        };
        let mut shared = fields_flow(old);
        shared.merge(&fields_flow(new));
        self.fields(
            &old.fields,
            &new.fields,
            (&Additional::Allowed, &Additional::Allowed),
            &shared,
            at,
        );
        let tagged = !matches!(old.tagging, Tagging::Untagged);
        let same = |a: &Variant, b: &Variant| {
            if tagged {
                a.tag == b.tag
            } else {
                a.name == b.name
            }
        };
        let renamed_tag = |a: &Variant, b: &Variant| {
            tagged && a.tag.as_ref().is_some_and(|t| b.tag_aliases.contains(t))
        };
        for variant in &old.variants {
            let vflow_old = Flow::within(&variant.docs.direction, flow);
            let found = new
                .variants
                .iter()
                .find(|v| same(variant, v))
                .or_else(|| new.variants.iter().find(|v| renamed_tag(variant, v)));
            let Some(now) = found else {
                let kept = if new.unknown.is_some() {
                    " (new receivers keep it as unknown, R4, and no longer act on it)"
                } else {
                    ""
                };
                self.report(
                    rules::VARIANT_REMOVED,
                    Class::wire_if(vflow_old.is_sent(), Class::Source),
                    at.pointer,
                    format!(
                        "{} lost {}{kept}; {}",
                        at.what,
                        variant_name(variant),
                        senders(&vflow_old)
                    ),
                );
                continue;
            };
            let mut vflow = vflow_old.clone();
            vflow.merge(&Flow::within(&now.docs.direction, flow));
            self.variant(variant, now, &vflow, at);
        }
        for variant in &new.variants {
            let known = old
                .variants
                .iter()
                .any(|v| same(v, variant) || renamed_tag(v, variant));
            if known {
                continue;
            }
            let vflow = Flow::within(&variant.docs.direction, flow);
            let (class, why) = if old.unknown.is_some() {
                (
                    Class::Compatible,
                    "old receivers keep it as unknown (R4)".to_owned(),
                )
            } else {
                (
                    Class::wire_if(vflow.is_received(), Class::Compatible),
                    format!("old receivers decode a closed set; {}", receivers(&vflow)),
                )
            };
            self.report(
                rules::VARIANT_ADDED,
                class,
                &variant.pointer,
                format!("{} has the new {}: {why}", at.what, variant_name(variant)),
            );
        }
    }

    fn variant(&mut self, old: &Variant, new: &Variant, flow: &Flow, union: &At) {
        let what = format!("{} {}", union.what, variant_name(new));
        if old.name != new.name {
            self.report(
                rules::VARIANT_RENAMED,
                Class::Source,
                &new.pointer,
                format!("{what} was called `{}`, is `{}`", old.name, new.name),
            );
        }
        if old.tag != new.tag {
            self.report(
                rules::TAG_RENAMED,
                Class::wire_if(flow.is_received(), Class::Source),
                &new.pointer,
                format!(
                    "{what} was tagged {}, is tagged {} (the old tag is still read); {}",
                    old.tag.as_ref().map_or("-".into(), Literal::to_json),
                    new.tag.as_ref().map_or("-".into(), Literal::to_json),
                    receivers(flow)
                ),
            );
        }
        for alias in &old.tag_aliases {
            if !new.tag_aliases.contains(alias) && Some(alias) != new.tag.as_ref() {
                self.report(
                    rules::TAG_ALIAS_REMOVED,
                    Class::wire_if(flow.is_sent(), Class::Compatible),
                    &new.pointer,
                    format!(
                        "{what} no longer reads the tag {}; {}",
                        alias.to_json(),
                        senders(flow)
                    ),
                );
            }
        }
        for alias in &new.tag_aliases {
            if !old.tag_aliases.contains(alias) && Some(alias) != old.tag.as_ref() {
                self.report(
                    rules::TAG_ALIAS_ADDED,
                    Class::Compatible,
                    &new.pointer,
                    format!("{what} also reads the tag {} now", alias.to_json()),
                );
            }
        }
        if old.docs.direction != new.docs.direction {
            self.report(
                rules::DIRECTION_CHANGED,
                Class::Compatible,
                &new.pointer,
                format!(
                    "{what} was {}, is {}",
                    direction_text(&old.docs.direction),
                    direction_text(&new.docs.direction)
                ),
            );
        }
        let at = At {
            pointer: &new.pointer,
            what: what.clone(),
        };
        match (&old.payload, &new.payload) {
            (Payload::Unit, Payload::Unit) => {}
            (Payload::Type(a), Payload::Type(b)) => self.expr(a, b, flow, &at),
            (Payload::Content(a), Payload::Content(b)) => {
                let what = format!("the content of {what}");
                self.field(a, b, flow, &what);
            }
            (Payload::Fields(a), Payload::Fields(b)) => self.fields(
                a,
                b,
                (&Additional::Allowed, &Additional::Allowed),
                flow,
                &at,
            ),
            (a, b) => self.type_changed(flow, &at, payload_name(a), payload_name(b)),
        }
        match (&old.reply, &new.reply) {
            (Reply::Data(a), Reply::Data(b)) => {
                let reply = At {
                    pointer: &new.pointer,
                    what: format!("the reply to {what}"),
                };
                self.expr(a, b, &flow.reversed(), &reply);
            }
            (a, b) if reply_name(a) != reply_name(b) && !matches!(a, Reply::Unspecified) => {
                self.report(
                    rules::REPLY_CHANGED,
                    Class::wire_if(flow.is_sent() || flow.is_received(), Class::Source),
                    &new.pointer,
                    format!(
                        "{what} {} before, {} now; {}",
                        reply_name(a),
                        reply_name(b),
                        peers(flow)
                    ),
                );
            }
            _ => {}
        }
    }
}

/// A cross-field rule in words.
fn constraint_text(constraint: &crate::model::Constraint) -> String {
    let names = |fields: &[String]| {
        fields
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match constraint {
        crate::model::Constraint::AtLeastOneOf(fields) => {
            format!("at least one of {}", names(fields))
        }
        crate::model::Constraint::RequiredWhen {
            field,
            when,
            values,
        } => format!(
            "`{field}` is required when `{when}` is {}",
            values
                .iter()
                .map(Literal::to_json)
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    }
}

/// The fields whose presence satisfies a cross-field rule.
fn constraint_fields(constraint: &crate::model::Constraint) -> Vec<String> {
    match constraint {
        crate::model::Constraint::AtLeastOneOf(fields) => fields.clone(),
        crate::model::Constraint::RequiredWhen { field, .. } => vec![field.clone()],
    }
}

fn is_string_enum(model: &Model, name: &str) -> bool {
    matches!(model.resolve(name).map(|t| &t.kind), Some(TypeKind::Enum(e)) if e.is_string())
}

fn kind_name(kind: &TypeKind) -> &'static str {
    match kind {
        TypeKind::Record(_) => "an object",
        TypeKind::Enum(_) => "an enum",
        TypeKind::Union(_) => "a union",
        TypeKind::Alias(_) => "an alias",
    }
}

fn expr_name(expr: &TypeExpr) -> String {
    match expr {
        TypeExpr::Any => "any JSON value".into(),
        TypeExpr::Null => "null".into(),
        TypeExpr::Bool => "a boolean".into(),
        TypeExpr::Integer(_) => "an integer".into(),
        TypeExpr::Number(_) => "a number".into(),
        TypeExpr::String(_) => "a string".into(),
        TypeExpr::Literal(literal) => format!("the constant {}", literal.to_json()),
        TypeExpr::Array(_) => "an array".into(),
        TypeExpr::Tuple(items) => format!("a tuple of {}", items.len()),
        TypeExpr::Map(_) => "a map".into(),
        TypeExpr::Ref(name) => format!("`{name}`"),
        TypeExpr::Nullable(inner) => format!("{} or null", expr_name(inner)),
    }
}

fn tagging_name(tagging: &Tagging) -> String {
    match tagging {
        Tagging::Internal { tag } => format!("tagged by `{tag}`"),
        Tagging::Adjacent { tag, content } => format!("tagged by `{tag}` with `{content}`"),
        Tagging::External => "externally tagged".into(),
        Tagging::Untagged => "untagged".into(),
    }
}

fn payload_name(payload: &Payload) -> &'static str {
    match payload {
        Payload::Unit => "empty",
        Payload::Fields(_) => "fields beside the tag",
        Payload::Type(_) => "a value",
        Payload::Content(_) => "content",
    }
}

fn reply_name(reply: &Reply) -> &'static str {
    match reply {
        Reply::Unspecified => "said nothing of a reply",
        Reply::None => "expected no reply",
        Reply::Data(_) => "expected a reply",
        Reply::IsReply => "was a reply",
    }
}

fn variant_name(variant: &Variant) -> String {
    match &variant.tag {
        Some(tag) => format!("message {}", tag.to_json()),
        None => format!("variant `{}`", variant.name),
    }
}

fn direction_text(direction: &Direction) -> String {
    let side = |list: &Option<Vec<String>>| match list {
        None => "any party".to_owned(),
        Some(list) if list.is_empty() => "nobody".to_owned(),
        Some(list) => list.join(", "),
    };
    format!(
        "sent by {} to {}",
        side(&direction.sent_by),
        side(&direction.received_by)
    )
}

/// "old senders: a, b" — who still writes the value.
fn senders(flow: &Flow) -> String {
    if flow.is_sent() {
        format!("old senders: {}", flow.senders())
    } else {
        "no party sends it".to_owned()
    }
}

/// "old receivers: a, b" — who still decodes the value.
fn receivers(flow: &Flow) -> String {
    if flow.is_received() {
        format!("old receivers: {}", flow.receivers())
    } else {
        "no party decodes it".to_owned()
    }
}

/// "old senders may omit it: a, b", or why nobody is affected.
fn peers_with(flow: &Flow, words: &str, sending: bool) -> String {
    let (affected, names) = if sending {
        (flow.is_sent(), flow.senders())
    } else {
        (flow.is_received(), flow.receivers())
    };
    if affected {
        format!("{words}: {names}")
    } else if sending {
        "no party sends it".to_owned()
    } else {
        "no party decodes it".to_owned()
    }
}

/// "sent by a, decoded by b" — both sides.
fn peers(flow: &Flow) -> String {
    match (flow.is_sent(), flow.is_received()) {
        (false, false) => "no party sends or decodes it".to_owned(),
        (true, false) => format!("sent by {}, decoded by nobody", flow.senders()),
        (false, true) => format!("sent by nobody, decoded by {}", flow.receivers()),
        (true, true) => format!(
            "sent by {}, decoded by {}",
            flow.senders(),
            flow.receivers()
        ),
    }
}
