//! Which way each type travels: the parties that send values of a named type and the
//! parties that decode them, from the direction the schema declares on its message
//! types (`x-symgen-sent-by` / `x-symgen-received-by`, see [`crate::model::Direction`]).
//!
//! A message type's payload travels from its senders to its receivers; the data of its
//! reply travels back. A named type used by several messages travels every way they do.
//! Where the schema says nothing, any party may send and decode it.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::model::{Direction, Model, Payload, Reply, TypeKind};

/// The parties that send a type and the parties that decode it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Flow {
    senders: Side,
    receivers: Side,
}

/// One side of a [`Flow`]: named parties, or any party (the schema does not say).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Side {
    any: bool,
    parties: BTreeSet<String>,
}

impl Side {
    fn any() -> Self {
        Side {
            any: true,
            parties: BTreeSet::new(),
        }
    }

    fn declared(list: &Option<Vec<String>>, fallback: &Side) -> Side {
        match list {
            Some(parties) => Side {
                any: false,
                parties: parties.iter().cloned().collect(),
            },
            None => fallback.clone(),
        }
    }

    fn merge(&mut self, other: &Side) -> bool {
        let before = (self.any, self.parties.len());
        self.any |= other.any;
        self.parties.extend(other.parties.iter().cloned());
        before != (self.any, self.parties.len())
    }

    fn is_empty(&self) -> bool {
        !self.any && self.parties.is_empty()
    }

    fn text(&self) -> String {
        if self.any {
            "any party".to_owned()
        } else {
            self.parties.iter().cloned().collect::<Vec<_>>().join(", ")
        }
    }
}

impl Flow {
    /// Sent and decoded by any party: what a type without declared direction gets.
    pub fn unknown() -> Self {
        Flow {
            senders: Side::any(),
            receivers: Side::any(),
        }
    }

    /// The flow of a message type that declares `direction`, inside `outer` (the flow
    /// of the type around it): each side declared replaces the outer one.
    pub fn within(direction: &Direction, outer: &Flow) -> Self {
        Flow {
            senders: Side::declared(&direction.sent_by, &outer.senders),
            receivers: Side::declared(&direction.received_by, &outer.receivers),
        }
    }

    /// The flow of a reply to a message that flows this way.
    pub fn reversed(&self) -> Self {
        Flow {
            senders: self.receivers.clone(),
            receivers: self.senders.clone(),
        }
    }

    /// Adds the parties of `other`; whether anything was added.
    pub fn merge(&mut self, other: &Flow) -> bool {
        let senders = self.senders.merge(&other.senders);
        let receivers = self.receivers.merge(&other.receivers);
        senders || receivers
    }

    /// Whether some deployed party sends values of the type (then a new receiver must
    /// still accept what an old sender writes).
    pub fn is_sent(&self) -> bool {
        !self.senders.is_empty()
    }

    /// Whether some deployed party decodes values of the type (then an old receiver
    /// must still accept what a new sender writes).
    pub fn is_received(&self) -> bool {
        !self.receivers.is_empty()
    }

    /// The senders, for messages: `mcp_server, extension` or `any party`.
    pub fn senders(&self) -> String {
        self.senders.text()
    }

    /// The receivers, for messages.
    pub fn receivers(&self) -> String {
        self.receivers.text()
    }
}

/// The flow of every named type of `model` that its roots reach (every type, when the
/// document has no roots).
pub fn flows(model: &Model) -> HashMap<String, Flow> {
    let mut flows: HashMap<String, Flow> = HashMap::new();
    let mut queue: Vec<(String, Flow)> = Vec::new();
    if model.roots.is_empty() {
        for named in &model.types {
            queue.push((named.name.clone(), Flow::unknown()));
        }
    }
    for root in &model.roots {
        let direction = model
            .get(root)
            .map(|t| t.docs.direction.clone())
            .unwrap_or_default();
        queue.push((root.clone(), Flow::within(&direction, &Flow::unknown())));
    }
    let mut seen = HashSet::new();
    while let Some((name, flow)) = queue.pop() {
        let entry = flows.entry(name.clone()).or_default();
        let grew = entry.merge(&flow);
        if !seen.insert(name.clone()) && !grew {
            continue;
        }
        let Some(named) = model.get(&name) else {
            continue;
        };
        let mut push = |exprs: Vec<&crate::model::TypeExpr>, flow: &Flow| {
            for expr in exprs {
                for target in expr.references() {
                    queue.push((target.to_owned(), flow.clone()));
                }
            }
        };
        match &named.kind {
            TypeKind::Union(union) => {
                let mut fields_flow = Flow::default();
                for variant in &union.variants {
                    let inner = Flow::within(&variant.docs.direction, &flow);
                    fields_flow.merge(&inner);
                    let payload = match &variant.payload {
                        Payload::Unit => Vec::new(),
                        Payload::Fields(fields) => fields.iter().map(|f| &f.ty).collect(),
                        Payload::Type(expr) => vec![expr],
                        Payload::Content(field) => vec![&field.ty],
                    };
                    push(payload, &inner);
                    if let Reply::Data(expr) = &variant.reply {
                        push(vec![expr], &inner.reversed());
                    }
                }
                if union.variants.is_empty() {
                    fields_flow = flow.clone();
                }
                push(union.fields.iter().map(|f| &f.ty).collect(), &fields_flow);
            }
            _ => push(named.exprs(), &flow),
        }
    }
    flows
}
