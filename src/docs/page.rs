//! One protocol's reference page: the views the `docs/protocol.md` template lays out.
//! Every string here is Markdown already escaped for its position (see [`markdown`]).

use std::collections::BTreeSet;

use askama::Template;
use serde_json::Value;

use super::markdown::{anchor, cell, code, comment, fenced, prose};
use crate::emit::Module;
use crate::model::{
    Additional, Direction, Docs, Field, IntType, Literal, Model, NamedType, Payload, Presence,
    Reply, Tagging, TypeExpr, TypeKind, Union, Variant,
};

/// How many example messages a message type shows.
const EXAMPLES: usize = 2;

#[derive(Template)]
#[template(path = "docs/protocol.md")]
pub(super) struct Page {
    /// The page title (plain text; the template escapes it).
    pub title: String,
    heading: String,
    file: String,
    /// The schema's file name inside the header comment.
    source: String,
    description: String,
    parties: Vec<(String, String)>,
    /// One per root, in the schema's order: a union's section and its messages, or a
    /// plain root type as a message of its own.
    sections: Vec<Section>,
    types: Vec<TypeView>,
}

struct Section {
    root: Option<RootView>,
    messages: Vec<MessageView>,
}

struct RootView {
    anchor: String,
    heading: String,
    description: String,
    facts: Vec<String>,
    rows: Vec<Row>,
}

struct MessageView {
    anchor: String,
    heading: String,
    description: String,
    facts: Vec<String>,
    payload: Vec<Row>,
    examples: Vec<String>,
}

struct TypeView {
    anchor: String,
    heading: String,
    description: String,
    facts: Vec<String>,
    rows: Vec<Row>,
    columns: &'static str,
}

/// One table row, every cell escaped.
struct Row {
    cells: Vec<String>,
}

impl Row {
    fn line(&self) -> String {
        format!("| {} |", self.cells.join(" | "))
    }
}

const FIELD_COLUMNS: &str =
    "| field | type | required | values | description |\n|---|---|---|---|---|";

impl Page {
    pub(super) fn new(module: &Module, vectors: &[Value]) -> Self {
        let model = &module.model;
        let protocol = model.protocol.as_ref();
        let name = model
            .docs
            .title
            .clone()
            .or_else(|| protocol.map(|p| p.id.clone()))
            .unwrap_or_else(|| module.stem.clone());
        let title = match protocol.and_then(|p| p.code.as_ref()) {
            Some(code) => format!("{name} ({code})"),
            None => name,
        };
        let documented = documented_types(model);
        let links = Links {
            model,
            documented: &documented,
        };
        let mut sections = Vec::new();
        for root in &model.roots {
            let Some(named) = model.get(root) else {
                continue;
            };
            let root_direction = &named.docs.direction;
            sections.push(match &named.kind {
                TypeKind::Union(union) if !union.variants.is_empty() => Section {
                    root: Some(root_view(named, union, &links)),
                    messages: union
                        .variants
                        .iter()
                        .map(|variant| {
                            variant_message(named, union, variant, root_direction, &links, vectors)
                        })
                        .collect(),
                },
                _ => Section {
                    root: None,
                    messages: vec![plain_message(named, &links, vectors)],
                },
            });
        }
        let types = model
            .types
            .iter()
            .filter(|t| documented.contains(&t.name))
            .map(|t| type_view(t, &links))
            .collect();
        Page {
            heading: cell(&title),
            title,
            file: code(&module.file_name),
            source: comment(&module.file_name),
            description: about(&model.docs),
            parties: protocol
                .map(|p| {
                    p.parties
                        .iter()
                        .map(|party| (code(&party.name), cell(&party.description)))
                        .collect()
                })
                .unwrap_or_default(),
            sections,
            types,
        }
    }

    fn messages(&self) -> impl Iterator<Item = &MessageView> {
        self.sections.iter().flat_map(|s| &s.messages)
    }

    fn message_count(&self) -> usize {
        self.messages().count()
    }
}

/// The named types the page documents in their own section: every type the roots
/// reach, but the roots themselves.
fn documented_types(model: &Model) -> BTreeSet<String> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut stack: Vec<&str> = model.roots.iter().map(String::as_str).collect();
    while let Some(name) = stack.pop() {
        if !seen.insert(name.to_owned()) {
            continue;
        }
        if let Some(named) = model.get(name) {
            stack.extend(named.references());
        }
    }
    for root in &model.roots {
        seen.remove(root);
    }
    seen
}

struct Links<'a> {
    model: &'a Model,
    documented: &'a BTreeSet<String>,
}

impl Links<'_> {
    /// A link to the named type's section (a code span when it has none).
    fn named(&self, name: &str) -> String {
        if self.documented.contains(name) {
            format!("[{}](#{})", code(name), type_anchor(name))
        } else if self.model.roots.iter().any(|r| r == name) {
            format!("[{}](#{})", code(name), anchor(&["root", name]))
        } else {
            code(name)
        }
    }

    /// A type expression in words, with links.
    fn expr(&self, expr: &TypeExpr) -> String {
        match expr {
            TypeExpr::Any => "any JSON".into(),
            TypeExpr::Null => "null".into(),
            TypeExpr::Bool => "boolean".into(),
            TypeExpr::Integer(int) => format!("integer ({})", width(int)),
            TypeExpr::Number(number) => match &number.format {
                Some(format) => format!("number ({})", cell(format)),
                None => "number".into(),
            },
            TypeExpr::String(string) => match &string.format {
                Some(format) => format!("string ({})", cell(format)),
                None => "string".into(),
            },
            TypeExpr::Literal(literal) => code(&literal.to_json()),
            TypeExpr::Array(item) => format!("array of {}", self.expr(item)),
            TypeExpr::Tuple(items) => format!(
                "[{}]",
                items
                    .iter()
                    .map(|i| self.expr(i))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            TypeExpr::Map(value) => format!("map of {}", self.expr(value)),
            TypeExpr::Ref(name) => self.named(name),
            TypeExpr::Nullable(inner) => format!("{} or null", self.expr(inner)),
        }
    }

    /// The allowed values of a field's type: an integer's range, an enum's values, a
    /// constant; empty when any value of the type goes.
    fn values(&self, expr: &TypeExpr) -> String {
        match expr.non_null() {
            TypeExpr::Integer(int) => {
                let (low, high) = int.width.range();
                let low = int.minimum.unwrap_or(low).max(low);
                let high = int.maximum.unwrap_or(high).min(high);
                format!("{low} ..= {high}")
            }
            TypeExpr::Literal(literal) => code(&literal.to_json()),
            TypeExpr::Ref(name) => match self.model.resolve(name).map(|t| &t.kind) {
                Some(TypeKind::Enum(e)) => {
                    let mut values: Vec<String> =
                        e.values.iter().map(|v| code(&v.value.to_json())).collect();
                    if e.open {
                        values.push("or any other string".into());
                    }
                    values.join(", ")
                }
                Some(TypeKind::Alias(inner)) if !matches!(inner, TypeExpr::Ref(_)) => {
                    self.values(inner)
                }
                _ => String::new(),
            },
            _ => String::new(),
        }
    }

    fn field(&self, field: &Field) -> Row {
        let required = match field.presence() {
            Presence::Required => "yes",
            Presence::RequiredNullable => "yes, may be null",
            Presence::Optional => "no",
            Presence::OptionalNullable => "no (null = absent)",
        };
        let mut values = self.values(&field.ty);
        if let Some(default) = &field.default {
            if !values.is_empty() {
                values.push_str("; ");
            }
            values.push_str(&format!("default {}", code(&default.to_string())));
        }
        let mut description = describe(&field.docs);
        if !field.aliases.is_empty() {
            let aliases: Vec<String> = field.aliases.iter().map(|a| code(a)).collect();
            description.push_str(&format!(" (also read as {})", aliases.join(", ")));
        }
        Row {
            cells: vec![
                code(&field.name),
                self.expr(&field.ty),
                required.into(),
                values,
                description.trim().to_owned(),
            ],
        }
    }

    /// The rows of a payload: the fields of the record it is, else one row naming it.
    fn payload_rows(&self, expr: &TypeExpr) -> Vec<Row> {
        if let TypeExpr::Ref(name) = expr.non_null()
            && let Some(named) = self.model.resolve(name)
            && let TypeKind::Record(record) = &named.kind
        {
            return record.fields.iter().map(|f| self.field(f)).collect();
        }
        Vec::new()
    }
}

/// The description as a paragraph of prose (empty when there is none).
fn about(docs: &Docs) -> String {
    docs.description.as_deref().map(prose).unwrap_or_default()
}

fn describe(docs: &Docs) -> String {
    let mut text = docs.description.as_deref().map(cell).unwrap_or_default();
    if docs.deprecated {
        text = format!("**Deprecated.** {text}");
    }
    text
}

fn width(int: &IntType) -> String {
    format!(
        "{}{}",
        if int.width.signed() { "i" } else { "u" },
        int.width.bits()
    )
}

fn type_anchor(name: &str) -> String {
    anchor(&["type", name])
}

fn parties(list: &Option<Vec<String>>) -> String {
    match list {
        None => "not declared".into(),
        Some(list) if list.is_empty() => "nobody (no live program)".into(),
        Some(list) => list.iter().map(|p| code(p)).collect::<Vec<_>>().join(", "),
    }
}

fn direction_facts(direction: &Direction, facts: &mut Vec<String>) {
    facts.push(format!("**Sent by:** {}", parties(&direction.sent_by)));
    facts.push(format!(
        "**Received by:** {}",
        parties(&direction.received_by)
    ));
}

fn tagging_text(union: &Union) -> String {
    match &union.tagging {
        Tagging::Internal { tag } => format!("tagged by {} beside the fields", code(tag)),
        Tagging::Adjacent { tag, content } => {
            format!("tagged by {}, the payload in {}", code(tag), code(content))
        }
        Tagging::External => "externally tagged (`{\"tag\": payload}`)".into(),
        Tagging::Untagged => "untagged (the first variant that matches)".into(),
    }
}

fn root_view(named: &NamedType, union: &Union, links: &Links) -> RootView {
    let mut facts = vec![format!("**Shape:** {}", tagging_text(union))];
    facts.push(format!(
        "**Unknown tags:** {}",
        if union.unknown.is_some() {
            "kept, so a relay can forward them unchanged (R4)"
        } else {
            "refused"
        }
    ));
    if !named.docs.direction.is_unknown() {
        direction_facts(&named.docs.direction, &mut facts);
    }
    RootView {
        anchor: anchor(&["root", &named.name]),
        heading: code(&named.name),
        description: about(&named.docs),
        facts,
        rows: union.fields.iter().map(|f| links.field(f)).collect(),
    }
}

fn variant_message(
    root: &NamedType,
    union: &Union,
    variant: &Variant,
    root_direction: &Direction,
    links: &Links,
    vectors: &[Value],
) -> MessageView {
    let shown = match &variant.tag {
        Some(Literal::String(s)) => s.clone(),
        Some(other) => other.to_json(),
        None => variant.name.clone(),
    };
    let direction = Direction {
        sent_by: variant
            .docs
            .direction
            .sent_by
            .clone()
            .or_else(|| root_direction.sent_by.clone()),
        received_by: variant
            .docs
            .direction
            .received_by
            .clone()
            .or_else(|| root_direction.received_by.clone()),
    };
    let mut facts = vec![format!("**In:** {}", links.named(&root.name))];
    direction_facts(&direction, &mut facts);
    if variant.docs.deprecated {
        facts.push("**Status:** retired: kept for decoding, new code does not send it".into());
    }
    if !variant.tag_aliases.is_empty() {
        let aliases: Vec<String> = variant
            .tag_aliases
            .iter()
            .map(|a| code(&a.to_json()))
            .collect();
        facts.push(format!("**Also read as:** {}", aliases.join(", ")));
    }
    let (payload_fact, payload) = match &variant.payload {
        Payload::Unit => ("none".to_owned(), Vec::new()),
        Payload::Fields(fields) => (
            "the fields below, beside the tag".to_owned(),
            fields.iter().map(|f| links.field(f)).collect(),
        ),
        Payload::Type(expr) => (links.expr(expr), links.payload_rows(expr)),
        Payload::Content(field) => {
            let mut text = format!(
                "{} in {}",
                links.expr(field.ty.non_null()),
                code(&field.name)
            );
            if !field.required || field.ty.is_nullable() {
                text.push_str(" (absent or null reads as `{}`)");
            }
            (text, links.payload_rows(&field.ty))
        }
    };
    facts.push(format!("**Payload:** {payload_fact}"));
    facts.push(format!("**Reply:** {}", reply_text(&variant.reply, links)));
    let key = union.tag_key();
    let tag = variant.tag.as_ref();
    let examples = examples(vectors, &root.name, |message| match (key, tag) {
        (Some(key), Some(tag)) => message.get(key).is_some_and(|value| is_literal(value, tag)),
        (None, Some(Literal::String(tag))) => match (&union.tagging, message) {
            (Tagging::External, Value::Object(map)) => map.len() == 1 && map.contains_key(tag),
            (Tagging::External, Value::String(s)) => s == tag,
            _ => false,
        },
        _ => false,
    });
    MessageView {
        anchor: anchor(&["message", &root.name, &shown]),
        heading: code(&shown),
        description: about(&variant.docs),
        facts,
        payload,
        examples,
    }
}

fn plain_message(named: &NamedType, links: &Links, vectors: &[Value]) -> MessageView {
    let mut facts = Vec::new();
    direction_facts(&named.docs.direction, &mut facts);
    if named.docs.deprecated {
        facts.push("**Status:** deprecated".into());
    }
    let payload = match &named.kind {
        TypeKind::Record(record) => record.fields.iter().map(|f| links.field(f)).collect(),
        _ => Vec::new(),
    };
    if let TypeKind::Union(union) = &named.kind {
        facts.push(format!("**Shape:** {}", tagging_text(union)));
    }
    if let TypeKind::Alias(expr) = &named.kind {
        facts.push(format!("**Type:** {}", links.expr(expr)));
    }
    MessageView {
        anchor: anchor(&["root", &named.name]),
        heading: code(&named.name),
        description: about(&named.docs),
        facts,
        payload,
        examples: examples(vectors, &named.name, |_| true),
    }
}

/// Whether `value` is the JSON value `literal`.
fn is_literal(value: &Value, literal: &Literal) -> bool {
    match (value, literal) {
        (Value::String(a), Literal::String(b)) => a == b,
        (Value::Number(a), Literal::Number(b)) => a == b,
        (Value::Bool(a), Literal::Bool(b)) => a == b,
        (Value::Null, Literal::Null) => true,
        _ => false,
    }
}

fn reply_text(reply: &Reply, links: &Links) -> String {
    match reply {
        Reply::Unspecified => "not specified".into(),
        Reply::None => "none: the sender does not wait for one".into(),
        Reply::IsReply => "this message is itself the reply to a request".into(),
        Reply::Data(expr) => {
            let at = links
                .model
                .protocol
                .as_ref()
                .and_then(|p| p.reply_data.as_ref())
                .map(|pointer| format!(" at {}", code(pointer)))
                .unwrap_or_default();
            format!("a reply carrying {}{at}", links.expr(expr))
        }
    }
}

/// Up to [`EXAMPLES`] valid vectors of `root` whose message `matches`, pretty-printed.
fn examples(vectors: &[Value], root: &str, matches: impl Fn(&Value) -> bool) -> Vec<String> {
    vectors
        .iter()
        .filter(|v| v.get("root").and_then(Value::as_str) == Some(root))
        .filter_map(|v| v.get("message"))
        .filter(|m| matches(m))
        .take(EXAMPLES)
        .map(|m| {
            let text = serde_json::to_string_pretty(m).unwrap_or_default();
            fenced("json", &text)
        })
        .collect()
}

fn type_view(named: &NamedType, links: &Links) -> TypeView {
    let mut facts = Vec::new();
    let (rows, columns) = match &named.kind {
        TypeKind::Record(record) => {
            match &record.additional {
                Additional::Allowed => {}
                Additional::Forbidden => facts.push("**Other keys:** refused".into()),
                Additional::Typed(expr) => {
                    facts.push(format!("**Other keys:** each holds {}", links.expr(expr)))
                }
            }
            (
                record.fields.iter().map(|f| links.field(f)).collect(),
                FIELD_COLUMNS,
            )
        }
        TypeKind::Enum(e) => {
            if e.open {
                facts.push("**Open:** any other string is kept as received".into());
            }
            let rows = e
                .values
                .iter()
                .map(|v| {
                    let mut description = describe(&v.docs);
                    if !v.aliases.is_empty() {
                        let aliases: Vec<String> =
                            v.aliases.iter().map(|a| code(&a.to_json())).collect();
                        description.push_str(&format!(" (also read as {})", aliases.join(", ")));
                    }
                    Row {
                        cells: vec![code(&v.value.to_json()), description.trim().to_owned()],
                    }
                })
                .collect();
            (rows, "| value | description |\n|---|---|")
        }
        TypeKind::Union(union) => {
            facts.push(format!("**Shape:** {}", tagging_text(union)));
            let rows = union
                .variants
                .iter()
                .map(|v| {
                    let payload = match &v.payload {
                        Payload::Unit => "none".to_owned(),
                        Payload::Fields(fields) => fields
                            .iter()
                            .map(|f| code(&f.name))
                            .collect::<Vec<_>>()
                            .join(", "),
                        Payload::Type(expr) => links.expr(expr),
                        Payload::Content(field) => links.expr(&field.ty),
                    };
                    Row {
                        cells: vec![
                            v.tag
                                .as_ref()
                                .map(|t| code(&t.to_json()))
                                .unwrap_or_else(|| code(&v.name)),
                            payload,
                            describe(&v.docs),
                        ],
                    }
                })
                .collect();
            (rows, "| variant | payload | description |\n|---|---|---|")
        }
        TypeKind::Alias(expr) => {
            facts.push(format!("**Type:** {}", links.expr(expr)));
            let values = links.values(expr);
            if !values.is_empty() {
                facts.push(format!("**Values:** {values}"));
            }
            (Vec::new(), "")
        }
    };
    TypeView {
        anchor: type_anchor(&named.name),
        heading: code(&named.name),
        description: about(&named.docs),
        facts,
        rows,
        columns,
    }
}
