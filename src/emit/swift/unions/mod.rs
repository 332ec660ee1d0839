//! Tagged and untagged unions as enums with associated values, and the structs that
//! carry a tagged body beside shared fields (envelopes such as P1's
//! `{type, id, sender, payload}`, records with a flattened internally tagged union).

use crate::emit::text::indented;
use askama::Template;

use crate::model::{
    self, Additional, Literal, NamedType, Payload, Reply, Tagging, TypeExpr, Union,
};

use super::fields::plan_fields;
use super::layout::{self, Lines, doc_comment, string_literal};
use super::naming::{self, Scope};
use super::records::{self, StructExtras, VALUE_CONFORMANCES, dedent};
use super::templates::{Marker, MarkersTemplate, UnionTemplate};
use super::types::{self, TypeContext};

mod adjacent;
mod external;
mod internal;
mod markers;
mod tagged_struct;
mod untagged;

use adjacent::{
    ADJACENT_UNKNOWN_DOC, adjacent_decode_switch, adjacent_encode_switch, adjacent_enum,
};
use external::external_enum;
use internal::internal_enum;
use markers::markers;
pub use markers::{has_markers, marker_names};
use tagged_struct::tagged_struct;
use untagged::untagged_enum;

/// Members every union enum declares itself; variant cases avoid these names.
pub(super) const ENUM_RESERVED: &[&str] = &["unknown", "tag", "isUnknown", "init", "encode"];

/// Nested type names a union's declarations use themselves.
pub(super) const NESTED_RESERVED: &[&str] = &["CodingKeys", "Messages", "Body"];

/// One variant, planned.
pub(super) struct Case {
    /// The case name, unescaped.
    pub(super) name: String,
    /// The canonical tag.
    pub(super) tag: Option<Literal>,
    /// Canonical tag and aliases, as Swift string literals.
    pub(super) spellings: Vec<String>,
    /// The associated value's Swift type, if any.
    pub(super) value: Option<String>,
    /// The variant.
    pub(super) variant: model::Variant,
    /// The nested struct of an inline-fields variant, rendered.
    pub(super) nested: Option<String>,
}

impl Case {
    pub(super) fn escaped(&self) -> String {
        naming::escaped(&self.name)
    }

    /// Appends `let payload = try Value(from: decoder)` for the case's value `value`,
    /// from the object that holds the union's tag `tag_key` beside the variant's
    /// fields: a record that refuses, types or keeps other keys is told to leave the
    /// tag alone (the runtime's `init(from:besides:)`).
    pub(super) fn decode_payload(
        &self,
        ctx: &TypeContext<'_>,
        value: &str,
        tag_key: &str,
        out: &mut Lines,
    ) {
        let closed = match &self.variant.payload {
            Payload::Type(TypeExpr::Ref(name)) => ctx.model.resolve(name).is_some_and(|t| {
                matches!(&t.kind, model::TypeKind::Record(r) if r.additional != Additional::Allowed)
            }),
            // Inline fields keep other keys in a schema symgen did not write.
            Payload::Fields(_) => ctx.model.protocol.is_none(),
            _ => false,
        };
        if closed {
            out.call(
                &format!("let payload = try {value}("),
                &[
                    "from: decoder".to_owned(),
                    format!("besides: {}", string_literal(tag_key)),
                ],
                ")",
            );
        } else {
            out.line(format!("let payload = try {value}(from: decoder)"));
        }
    }
}

/// The rendered declarations of a union: the type itself and, when it pairs requests
/// with replies, the extension holding its marker types.
pub struct RenderedUnion {
    /// The type declaration.
    pub declaration: String,
    /// The marker extension, if any.
    pub markers: Option<String>,
}

/// Renders a union type.
pub fn render_union(
    ctx: &TypeContext<'_>,
    named: &NamedType,
    name: &str,
    union: &Union,
) -> Result<RenderedUnion, model::Error> {
    let doc = layout::doc_text(&named.docs);
    let doc = doc.as_deref();
    let with_fields = !union.fields.is_empty();
    match (&union.tagging, with_fields) {
        (Tagging::Internal { tag }, false) => {
            let body = BodyPlan::new(ctx, named, name, union, name, 2)?;
            let declaration = internal_enum(ctx, &body, doc, tag, 0)?;
            finish(ctx, named, name, &body, declaration)
        }
        (Tagging::Adjacent { tag, content }, false) => {
            let body = BodyPlan::new(ctx, named, name, union, name, 2)?;
            let declaration = adjacent_enum(ctx, &body, doc, tag, content)?;
            finish(ctx, named, name, &body, declaration)
        }
        (Tagging::External, false) => {
            let body = BodyPlan::new(ctx, named, name, union, name, 2)?;
            let declaration = external_enum(ctx, &body, doc)?;
            finish(ctx, named, name, &body, declaration)
        }
        (Tagging::Untagged, false) => {
            let body = BodyPlan::new(ctx, named, name, union, name, 2)?;
            let declaration = untagged_enum(ctx, &body, doc, union.first_match)?;
            finish(ctx, named, name, &body, declaration)
        }
        (Tagging::Internal { tag }, true) | (Tagging::Adjacent { tag, .. }, true) => {
            tagged_struct(ctx, named, name, union, tag)
        }
        (Tagging::External | Tagging::Untagged, true) => Err(ctx.error(
            &named.pointer,
            "the Swift generator supports shared fields only on internally or adjacently \
             tagged unions",
        )),
    }
}

pub(super) fn finish(
    ctx: &TypeContext<'_>,
    named: &NamedType,
    owner: &str,
    body: &BodyPlan,
    declaration: String,
) -> Result<RenderedUnion, model::Error> {
    Ok(RenderedUnion {
        declaration,
        markers: markers(ctx, named, owner, owner, body)?,
    })
}

/// The cases of a union, planned once for every tagging style.
pub(super) struct BodyPlan {
    /// The enum's name.
    pub(super) name: String,
    cases: Vec<Case>,
    open: bool,
    indirect: bool,
    /// The Swift type of the tag (`String`, `Bool` or `Int64`); empty when untagged.
    pub(super) tag_type: &'static str,
}

impl BodyPlan {
    /// Plans the cases of `union` for an enum called `enum_name` inside `owner` (itself
    /// when top-level) whose nested declarations sit at `nested_base` spaces.
    pub(super) fn new(
        ctx: &TypeContext<'_>,
        named: &NamedType,
        enum_name: &str,
        union: &Union,
        owner: &str,
        nested_base: usize,
    ) -> Result<Self, model::Error> {
        let mut cases_scope = Scope::with_reserved(ENUM_RESERVED);
        let mut nested_scope = Scope::with_reserved(NESTED_RESERVED);
        nested_scope.claim(enum_name.to_owned());
        nested_scope.claim(owner.to_owned());
        // Names first, so that payload types can be qualified where nested structs
        // shadow top-level types.
        let mut planned = Vec::new();
        for variant in &union.variants {
            let case = cases_scope.claim(naming::member_name(&variant.name));
            let nested = match &variant.payload {
                Payload::Fields(_) => Some(nested_scope.claim(naming::type_name(&variant.name))),
                _ => None,
            };
            planned.push((case, nested));
        }
        let nested_names: Vec<String> = planned.iter().filter_map(|p| p.1.clone()).collect();
        let inner = ctx.nested(nested_names);
        let mut cases = Vec::new();
        for (variant, (case, nested_name)) in union.variants.iter().zip(planned) {
            let (tag, spellings) = match &variant.tag {
                None => (None, Vec::new()),
                Some(tag) => {
                    let mut spellings = vec![types::literal_value(tag)];
                    spellings.extend(variant.tag_aliases.iter().map(types::literal_value));
                    (Some(tag.clone()), spellings)
                }
            };
            let (value, nested) = match &variant.payload {
                Payload::Unit => (None, None),
                Payload::Type(expr) => (Some(inner.swift_type(expr, &variant.pointer)?), None),
                Payload::Content(field) => (Some(content_type(&inner, field)?), None),
                Payload::Fields(fields) => {
                    let nested_name = nested_name.unwrap_or_default();
                    let text = records::render_fields_struct(
                        &inner,
                        &variant.pointer,
                        layout::doc_text(&variant.docs).as_deref(),
                        &nested_name,
                        fields,
                        nested_base,
                    )?;
                    (Some(nested_name), Some(text))
                }
            };
            cases.push(Case {
                name: case,
                tag,
                spellings,
                value,
                variant: variant.clone(),
                nested,
            });
        }
        let tag_type = tag_type(ctx, union, &named.pointer)?;
        Ok(Self {
            name: enum_name.to_owned(),
            cases,
            open: union.unknown.is_some(),
            indirect: refers_to(ctx, union, &named.name) || ctx.large.contains(&named.name),
            tag_type,
        })
    }

    /// Whether the cases cover every value of the tag's type (both booleans), so that a
    /// `default:` arm would never run.
    pub(super) fn exhaustive(&self) -> bool {
        let spellings: Vec<&str> = self
            .cases
            .iter()
            .flat_map(|c| c.spellings.iter().map(String::as_str))
            .collect();
        self.tag_type == "Bool" && spellings.contains(&"true") && spellings.contains(&"false")
    }

    /// Case declarations at `indent`, including the `unknown` case.
    pub(super) fn case_declarations(
        &self,
        indent: usize,
        unknown_payload: &str,
        unknown_doc: &str,
    ) -> Vec<String> {
        let pad = " ".repeat(indent);
        let mut out: Vec<String> = self
            .cases
            .iter()
            .map(|case| {
                let doc = doc_comment(case_doc(&case.variant).as_deref(), indent);
                let text = match &case.value {
                    Some(value) => layout::typed_declaration(
                        indent,
                        &format!("case {}(", case.escaped()),
                        value,
                        ")",
                    ),
                    None => layout::guarded(format!("{pad}case {}\n", case.escaped()), indent),
                };
                format!("{doc}{}", text.trim_end())
            })
            .collect();
        if self.open {
            out.push(format!(
                "{}{pad}case unknown(tag: {}, payload: {unknown_payload})",
                doc_comment(Some(unknown_doc), indent),
                self.tag_type
            ));
        }
        out
    }

    /// The arms of the `tag` property, at `indent`, without final newlines.
    pub(super) fn tag_arms(&self, indent: usize) -> Vec<String> {
        let pad = " ".repeat(indent);
        let mut arms: Vec<String> = self
            .cases
            .iter()
            .filter_map(|case| {
                let tag = case.tag.as_ref()?;
                let value = types::literal_value(tag);
                let line = format!("{pad}case .{}: {value}\n", case.escaped());
                // swift-format breaks a long arm after the colon.
                let broken = format!("{pad}case .{}:\n{pad}  {value}\n", case.escaped());
                let text = if !layout::fits(&line) && layout::fits(&broken) {
                    broken
                } else {
                    layout::guarded(line, indent)
                };
                Some(text.trim_end().to_owned())
            })
            .collect();
        if self.open {
            arms.push(format!("{pad}case .unknown(let tag, _): tag"));
        }
        arms
    }

    /// The declaration line(s) of the enum, at `indent`.
    pub(super) fn header(&self, indent: usize, codable: bool) -> String {
        let mut conformances: Vec<&str> = if codable {
            VALUE_CONFORMANCES.split(", ").collect()
        } else {
            vec!["Hashable", "Sendable"]
        };
        if self.open && codable {
            conformances.push("OpenUnion");
        }
        let indirect = if self.indirect { "indirect " } else { "" };
        layout::type_header(
            indent,
            &format!("public {indirect}enum {}: ", self.name),
            &conformances,
        )
    }

    /// The nested declarations, at their final indentation.
    pub(super) fn nested(&self) -> Vec<String> {
        self.cases.iter().filter_map(|c| c.nested.clone()).collect()
    }
}

/// The Swift type of a union's tags: every tag must have the same JSON type.
pub(super) fn tag_type(
    ctx: &TypeContext<'_>,
    union: &Union,
    pointer: &str,
) -> Result<&'static str, model::Error> {
    let mut found: Option<&'static str> = None;
    for variant in &union.variants {
        for tag in variant.tag.iter().chain(&variant.tag_aliases) {
            let ty = match tag {
                Literal::String(_) => "String",
                Literal::Bool(_) => "Bool",
                Literal::Number(n) if n.is_i64() => "Int64",
                _ => {
                    return Err(ctx.error(
                        &variant.pointer,
                        "the Swift generator supports string, boolean and integer tags only",
                    ));
                }
            };
            if found.is_some_and(|f| f != ty) {
                return Err(ctx.error(pointer, "the Swift generator needs tags of one JSON type"));
            }
            found = Some(ty);
        }
    }
    Ok(found.unwrap_or(if union.tagging == Tagging::Untagged {
        ""
    } else {
        "String"
    }))
}

/// The doc comment of a variant: its description, marked when the variant is retired.
pub(super) fn case_doc(variant: &model::Variant) -> Option<String> {
    layout::doc_text(&variant.docs)
}

/// The Swift type of an adjacent variant's content.
pub(super) fn content_type(
    ctx: &TypeContext<'_>,
    field: &model::Field,
) -> Result<String, model::Error> {
    match &field.ty {
        TypeExpr::Any => Ok("JSONValue".to_owned()),
        ty => ctx.swift_type(ty.non_null(), &field.pointer),
    }
}

/// Whether a union's payloads refer (through any chain of types) to the type `name`.
pub(super) fn refers_to(ctx: &TypeContext<'_>, union: &Union, name: &str) -> bool {
    let mut seen = std::collections::BTreeSet::new();
    let mut exprs: Vec<TypeExpr> = Vec::new();
    for variant in &union.variants {
        match &variant.payload {
            Payload::Unit => {}
            Payload::Type(expr) => exprs.push(expr.clone()),
            Payload::Content(field) => exprs.push(field.ty.clone()),
            Payload::Fields(fields) => exprs.extend(fields.iter().map(|f| f.ty.clone())),
        }
    }
    exprs.extend(union.fields.iter().map(|f| f.ty.clone()));
    while let Some(expr) = exprs.pop() {
        match expr {
            TypeExpr::Ref(target) => {
                if target == name {
                    return true;
                }
                if !seen.insert(target.clone()) {
                    continue;
                }
                if let Some(found) = ctx.model.get(&target) {
                    match &found.kind {
                        model::TypeKind::Record(r) => {
                            exprs.extend(r.fields.iter().map(|f| f.ty.clone()))
                        }
                        model::TypeKind::Alias(e) => exprs.push(e.clone()),
                        model::TypeKind::Enum(_) => {}
                        model::TypeKind::Union(u) => {
                            exprs.extend(u.fields.iter().map(|f| f.ty.clone()));
                            for v in &u.variants {
                                match &v.payload {
                                    Payload::Unit => {}
                                    Payload::Type(e) => exprs.push(e.clone()),
                                    Payload::Content(f) => exprs.push(f.ty.clone()),
                                    Payload::Fields(fs) => {
                                        exprs.extend(fs.iter().map(|f| f.ty.clone()))
                                    }
                                }
                            }
                        }
                    }
                }
            }
            TypeExpr::Array(inner) | TypeExpr::Map(inner) | TypeExpr::Nullable(inner) => {
                exprs.push(*inner)
            }
            TypeExpr::Tuple(items) => exprs.extend(items),
            _ => {}
        }
    }
    false
}

/// The `default:` arm for a tag no case knows: the unknown case, or an error.
pub(super) fn unknown_tag_error(lines: &mut Lines, key: &str, tag_key: &str) {
    lines.call(
        "throw DecodingError.dataCorruptedError(",
        &[
            format!("forKey: {key}"),
            "in: container".to_owned(),
            format!(
                "debugDescription: \"unknown {} \\\"\\(tag)\\\"\"",
                escape_in_literal(tag_key)
            ),
        ],
        ")",
    );
}

/// Text to place inside a Swift string literal.
pub(super) fn escape_in_literal(text: &str) -> String {
    let literal = string_literal(text);
    literal[1..literal.len() - 1].to_owned()
}

pub(super) fn coding_key(case: &str, wire: &str) -> String {
    if case == wire {
        format!("case {}", naming::escaped(case))
    } else {
        format!("case {} = {}", naming::escaped(case), string_literal(wire))
    }
}

/// What a union enum has besides its cases: docs, the unknown case's payload type and
/// docs, and (when it codes itself) its coding keys and coding bodies.
pub(super) struct EnumParts<'a> {
    /// The doc comment text.
    pub doc: Option<&'a str>,
    /// The unknown case's payload type.
    pub unknown_payload: &'a str,
    /// The unknown case's doc text.
    pub unknown_doc: &'a str,
    /// Whether the enum is `Codable` itself.
    pub codable: bool,
    /// `CodingKeys` cases.
    pub coding_keys: Vec<String>,
    /// Body of `init(from:)`.
    pub decode: String,
    /// Body of `encode(to:)`.
    pub encode: String,
    /// Indentation of the declaration.
    pub base: usize,
}

pub(super) fn render_enum(
    ctx: &TypeContext<'_>,
    body: &BodyPlan,
    parts: EnumParts<'_>,
) -> Result<String, model::Error> {
    let EnumParts {
        doc,
        unknown_payload,
        unknown_doc,
        codable,
        coding_keys,
        decode,
        encode,
        base,
    } = parts;
    let at = |text: String| dedent(&text, base);
    let template = UnionTemplate {
        docs: at(doc_comment(doc, base)),
        header: at(body.header(base, codable)).trim_end().to_owned(),
        cases: body
            .case_declarations(base + 2, unknown_payload, unknown_doc)
            .into_iter()
            .map(at)
            .collect(),
        tag_arms: body.tag_arms(base + 4).into_iter().map(at).collect(),
        tag_type: body.tag_type.to_owned(),
        open: body.open,
        nested: body.nested().into_iter().map(at).collect(),
        codable,
        coding_keys: coding_keys
            .iter()
            .map(|k| {
                let line = format!("{}{k}\n", " ".repeat(base + 4));
                at(layout::guarded(line, base + 4)).trim_end().to_owned()
            })
            .collect(),
        decode: at(decode),
        encode: at(encode),
    };
    let text = template
        .render()
        .map_err(|err| ctx.error("", err.to_string()))?;
    Ok(indented(&text, base))
}
