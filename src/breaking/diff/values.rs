//! Values: type expressions (kinds, `null`, arrays, maps, tuples, references), integer
//! ranges and enums.

use super::words::{expr_name, receivers, senders};
use super::{At, Differ};
use crate::breaking::flow::Flow;
use crate::breaking::rules::{self, Class};
use crate::model::{Enum, IntType, Model, TypeExpr, TypeKind};

impl Differ<'_> {
    /// `range-narrowed` (fewer values: breaks old senders) or `range-widened` (more
    /// values: breaks old receivers); the value was `was` and is `is`.
    fn resized(&mut self, narrowed: bool, flow: &Flow, at: &At, was: &str, is: &str) {
        let (rule, breaks, who) = if narrowed {
            (rules::RANGE_NARROWED, flow.is_sent(), senders(flow))
        } else {
            (rules::RANGE_WIDENED, flow.is_received(), receivers(flow))
        };
        self.report(
            rule,
            Class::wire_if(breaks, Class::Compatible),
            at.pointer,
            format!("{} was {was}, is {is}; {who}", at.what),
        );
    }

    pub(super) fn expr(&mut self, old: &TypeExpr, new: &TypeExpr, flow: &Flow, at: &At) {
        use TypeExpr as T;
        if let (T::Ref(a), T::Ref(b)) = (old, new) {
            return self.named(a, b);
        }
        // An alias of an expression compares as that expression.
        if let T::Ref(a) = old
            && let Some(target) = alias_target(self.old, a)
        {
            return self.expr(target, new, flow, at);
        }
        if let T::Ref(b) = new
            && let Some(target) = alias_target(self.new, b)
        {
            return self.expr(old, target, flow, at);
        }
        if matches!(old, T::Any) || matches!(new, T::Any) {
            if old != new {
                let narrowed = !matches!(new, T::Any);
                self.resized(narrowed, flow, at, &expr_name(old), &expr_name(new));
            }
            return;
        }
        self.acceptance(
            (old.is_nullable(), new.is_nullable()),
            flow,
            at,
            (rules::NULL_REFUSED, "refuses null"),
            (rules::NULL_ALLOWED, "accepts null", true),
        );
        let (old, new) = (old.non_null(), new.non_null());
        match (old, new) {
            (T::Null, T::Null) | (T::Bool, T::Bool) => {}
            (T::String(_), T::String(_)) | (T::Number(_), T::Number(_)) => {}
            (T::Integer(a), T::Integer(b)) => self.range(a, b, flow, at),
            (T::Integer(_), T::Number(_)) => {
                self.resized(false, flow, at, "an integer", "a number");
            }
            (T::Number(_), T::Integer(_)) => {
                self.resized(true, flow, at, "a number", "an integer");
            }
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
            (T::String(_), T::Ref(name)) if is_string_enum(self.new, name) => {
                self.resized(true, flow, at, "any string", &format!("`{name}`"));
            }
            (T::Ref(name), T::String(_)) if is_string_enum(self.old, name) => {
                self.resized(false, flow, at, &format!("`{name}`"), "any string");
            }
            _ => self.type_changed(flow, at, &expr_name(old), &expr_name(new)),
        }
    }

    pub(super) fn range(&mut self, old: &IntType, new: &IntType, flow: &Flow, at: &At) {
        let bounds = |t: &IntType| {
            let (low, high) = t.width.range();
            (
                t.minimum.unwrap_or(low).max(low),
                t.maximum.unwrap_or(high).min(high),
            )
        };
        let (old_low, old_high) = bounds(old);
        let (new_low, new_high) = bounds(new);
        let (was, is) = (
            format!("{old_low}..={old_high}"),
            format!("{new_low}..={new_high}"),
        );
        if new_low > old_low || new_high < old_high {
            self.resized(true, flow, at, &was, &is);
        }
        if new_low < old_low || new_high > old_high {
            self.resized(false, flow, at, &was, &is);
        }
    }

    pub(super) fn enumeration(&mut self, old: &Enum, new: &Enum, flow: &Flow, at: &At) {
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
        self.acceptance(
            (old.open, new.open),
            flow,
            at,
            (rules::ENUM_CLOSED, "refuses unknown values"),
            (rules::ENUM_OPENED, "keeps unknown values", false),
        );
    }
}

/// The expression a named type is an alias of (not through further references).
fn alias_target<'m>(model: &'m Model, name: &str) -> Option<&'m TypeExpr> {
    match &model.get(name)?.kind {
        TypeKind::Alias(expr) if !matches!(expr, TypeExpr::Ref(_)) => Some(expr),
        _ => None,
    }
}

pub(super) fn is_string_enum(model: &Model, name: &str) -> bool {
    matches!(model.resolve(name).map(|t| &t.kind), Some(TypeKind::Enum(e)) if e.is_string())
}
