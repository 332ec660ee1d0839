//! Unions: how they are tagged, whether they are open, their shared fields and their
//! variants (messages added, removed, renamed, retagged; payloads, replies, direction).

use super::words::{peers, receivers, senders};
use super::{At, Differ};
use crate::breaking::flow::Flow;
use crate::breaking::rules::{self, Class};
use crate::model::{Additional, Literal, Payload, Reply, Tagging, Union, Variant};

impl Differ<'_> {
    pub(super) fn union(&mut self, old: &Union, new: &Union, flow: &Flow, at: &At) {
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
        self.acceptance(
            (old.unknown.is_some(), new.unknown.is_some()),
            flow,
            at,
            (rules::UNION_CLOSED, "refuses unknown tags"),
            (rules::UNION_OPENED, "keeps unknown tags (R4)", false),
        );
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

    pub(super) fn variant(&mut self, old: &Variant, new: &Variant, flow: &Flow, union: &At) {
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
        self.direction(
            (&old.docs.direction, &new.docs.direction),
            &new.pointer,
            &what,
        );
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

pub(super) fn tagging_name(tagging: &Tagging) -> String {
    match tagging {
        Tagging::Internal { tag } => format!("tagged by `{tag}`"),
        Tagging::Adjacent { tag, content } => format!("tagged by `{tag}` with `{content}`"),
        Tagging::External => "externally tagged".into(),
        Tagging::Untagged => "untagged".into(),
    }
}

pub(super) fn payload_name(payload: &Payload) -> &'static str {
    match payload {
        Payload::Unit => "empty",
        Payload::Fields(_) => "fields beside the tag",
        Payload::Type(_) => "a value",
        Payload::Content(_) => "content",
    }
}

pub(super) fn reply_name(reply: &Reply) -> &'static str {
    match reply {
        Reply::Unspecified => "said nothing of a reply",
        Reply::None => "expected no reply",
        Reply::Data(_) => "expected a reply",
        Reply::IsReply => "was a reply",
    }
}

pub(super) fn variant_name(variant: &Variant) -> String {
    match &variant.tag {
        Some(tag) => format!("message {}", tag.to_json()),
        None => format!("variant `{}`", variant.name),
    }
}
