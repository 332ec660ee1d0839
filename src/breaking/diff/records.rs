//! Objects: their fields (added, removed, renamed, now required or optional, aliases,
//! defaults), the keys they allow besides, and their cross-field rules.

use super::words::{peers_with, receivers, senders};
use super::{At, Differ};
use crate::breaking::flow::Flow;
use crate::breaking::rules::{self, Class};
use crate::model::{Additional, Field, Literal, Record};

impl Differ<'_> {
    pub(super) fn record(&mut self, old: &Record, new: &Record, flow: &Flow, at: &At) {
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

    pub(super) fn fields(
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
        self.acceptance(
            (!old_closed, !new_closed),
            flow,
            at,
            (rules::EXTRA_KEYS_REFUSED, "refuses unknown keys"),
            (rules::EXTRA_KEYS_ALLOWED, "accepts unknown keys", false),
        );
        if let (Additional::Typed(a), Additional::Typed(b)) = (old_extra, new_extra) {
            let inner = At {
                pointer: at.pointer,
                what: format!("the extra values of {}", at.what),
            };
            self.expr(a, b, flow, &inner);
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

    pub(super) fn field(&mut self, old: &Field, new: &Field, flow: &Flow, what: &str) {
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
}

/// A cross-field rule in words.
pub(super) fn constraint_text(constraint: &crate::model::Constraint) -> String {
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
pub(super) fn constraint_fields(constraint: &crate::model::Constraint) -> Vec<String> {
    match constraint {
        crate::model::Constraint::AtLeastOneOf(fields) => fields.clone(),
        crate::model::Constraint::RequiredWhen { field, .. } => vec![field.clone()],
    }
}
