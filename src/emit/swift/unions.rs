//! Tagged and untagged unions as enums with associated values, and the structs that
//! carry a tagged body beside shared fields (envelopes such as P1's
//! `{type, id, sender, payload}`, records with a flattened internally tagged union).

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

/// Members every union enum declares itself; variant cases avoid these names.
const ENUM_RESERVED: &[&str] = &["unknown", "tag", "isUnknown", "init", "encode"];

/// Nested type names a union's declarations use themselves.
const NESTED_RESERVED: &[&str] = &["CodingKeys", "Messages", "Body"];

/// One variant, planned.
struct Case {
    /// The case name, unescaped.
    name: String,
    /// The canonical tag.
    tag: Option<Literal>,
    /// Canonical tag and aliases, as Swift string literals.
    spellings: Vec<String>,
    /// The associated value's Swift type, if any.
    value: Option<String>,
    /// The variant.
    variant: model::Variant,
    /// The nested struct of an inline-fields variant, rendered.
    nested: Option<String>,
}

impl Case {
    fn escaped(&self) -> String {
        naming::escaped(&self.name)
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
    let doc = named.docs.description.as_deref();
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
            let declaration = untagged_enum(ctx, &body, doc)?;
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

fn finish(
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
struct BodyPlan {
    /// The enum's name.
    name: String,
    cases: Vec<Case>,
    open: bool,
    indirect: bool,
    /// The Swift type of the tag (`String`, `Bool` or `Int64`); empty when untagged.
    tag_type: &'static str,
}

impl BodyPlan {
    /// Plans the cases of `union` for an enum called `enum_name` inside `owner` (itself
    /// when top-level) whose nested declarations sit at `nested_base` spaces.
    fn new(
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
                        variant.docs.description.as_deref(),
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
            indirect: refers_to(ctx, union, &named.name),
            tag_type,
        })
    }

    /// Whether the cases cover every value of the tag's type (both booleans), so that a
    /// `default:` arm would never run.
    fn exhaustive(&self) -> bool {
        let spellings: Vec<&str> = self
            .cases
            .iter()
            .flat_map(|c| c.spellings.iter().map(String::as_str))
            .collect();
        self.tag_type == "Bool" && spellings.contains(&"true") && spellings.contains(&"false")
    }

    /// Case declarations at `indent`, including the `unknown` case.
    fn case_declarations(
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
    fn tag_arms(&self, indent: usize) -> Vec<String> {
        let pad = " ".repeat(indent);
        let mut arms: Vec<String> = self
            .cases
            .iter()
            .filter_map(|case| {
                let tag = case.tag.as_ref()?;
                let line = format!(
                    "{pad}case .{}: {}\n",
                    case.escaped(),
                    types::literal_value(tag)
                );
                Some(layout::guarded(line, indent).trim_end().to_owned())
            })
            .collect();
        if self.open {
            arms.push(format!("{pad}case .unknown(let tag, _): tag"));
        }
        arms
    }

    /// The declaration line(s) of the enum, at `indent`.
    fn header(&self, indent: usize, codable: bool) -> String {
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
    fn nested(&self) -> Vec<String> {
        self.cases.iter().filter_map(|c| c.nested.clone()).collect()
    }
}

/// The Swift type of a union's tags: every tag must have the same JSON type.
fn tag_type(
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
fn case_doc(variant: &model::Variant) -> Option<String> {
    let description = variant.docs.description.clone();
    if variant.docs.deprecated
        && !description
            .as_deref()
            .unwrap_or("")
            .starts_with("Deprecated")
    {
        Some(
            format!("Deprecated. {}", description.unwrap_or_default())
                .trim()
                .to_owned(),
        )
    } else {
        description
    }
}

/// The Swift type of an adjacent variant's content.
fn content_type(ctx: &TypeContext<'_>, field: &model::Field) -> Result<String, model::Error> {
    match &field.ty {
        TypeExpr::Any => Ok("JSONValue".to_owned()),
        ty => ctx.swift_type(ty.non_null(), &field.pointer),
    }
}

/// Whether a union's payloads refer (through any chain of types) to the type `name`.
fn refers_to(ctx: &TypeContext<'_>, union: &Union, name: &str) -> bool {
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
fn unknown_tag_error(lines: &mut Lines, key: &str, tag_key: &str) {
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
fn escape_in_literal(text: &str) -> String {
    let literal = string_literal(text);
    literal[1..literal.len() - 1].to_owned()
}

/// An internally tagged union without shared fields: `{"type": "a", ...fields}`.
fn internal_enum(
    ctx: &TypeContext<'_>,
    body: &BodyPlan,
    doc: Option<&str>,
    tag_key: &str,
    base: usize,
) -> Result<String, model::Error> {
    let key = format!("AnyCodingKey({})", string_literal(tag_key));
    let mut decode = Lines::at(base + 4);
    decode.line("let container = try decoder.container(keyedBy: AnyCodingKey.self)");
    decode.call(
        "let tag = try container.decodeRequired(",
        &[format!("{}.self", body.tag_type), format!("forKey: {key}")],
        ")",
    );
    decode.line("switch tag {");
    for case in &body.cases {
        decode.guarded_line(format!("case {}:", case.spellings.join(", ")));
        decode.push();
        match &case.value {
            None => decode.line(format!("self = .{}", case.escaped())),
            Some(value) => decode
                .line(format!("let payload = try {value}(from: decoder)"))
                .line(format!("self = .{}(payload)", case.escaped())),
        };
        decode.pop();
    }
    if !body.exhaustive() {
        decode.line("default:").push();
        if body.open {
            decode
                .line("var payload = try [String: JSONValue](from: decoder)")
                .line(format!("payload[{}] = nil", string_literal(tag_key)))
                .line("self = .unknown(tag: tag, payload: payload)");
        } else {
            unknown_tag_error(&mut decode, &key, tag_key);
        }
        decode.pop();
    }
    decode.line("}");

    let mut encode = Lines::at(base + 4);
    encode.line("var container = encoder.container(keyedBy: AnyCodingKey.self)");
    encode.call(
        "try container.encode(",
        &["tag".into(), format!("forKey: {key}")],
        ")",
    );
    let payload_cases = body.cases.iter().any(|c| c.value.is_some());
    if payload_cases || body.open {
        encode.line("switch self {");
        for case in &body.cases {
            match &case.value {
                Some(_) => encode
                    .line(format!("case .{}(let payload):", case.escaped()))
                    .push()
                    .line("try payload.encode(to: encoder)")
                    .pop(),
                None => encode
                    .line(format!("case .{}:", case.escaped()))
                    .push()
                    .line("break")
                    .pop(),
            };
        }
        if body.open {
            encode
                .line("case .unknown(_, let payload):")
                .push()
                .line("for (key, value) in payload {")
                .push()
                .line("try container.encode(value, forKey: AnyCodingKey(key))")
                .pop()
                .line("}")
                .pop();
        }
        encode.line("}");
    }
    render_enum(
        ctx,
        body,
        doc,
        "[String: JSONValue]",
        "A message whose tag this protocol does not know (rule R4): the raw tag and the \
         object's other keys, re-encoded unchanged.",
        true,
        Vec::new(),
        decode.finish(),
        encode.finish(),
        base,
    )
}

/// An adjacently tagged union without shared fields: `{"t": "a", "c": {...}}`.
fn adjacent_enum(
    ctx: &TypeContext<'_>,
    body: &BodyPlan,
    doc: Option<&str>,
    tag_key: &str,
    content_key: &str,
) -> Result<String, model::Error> {
    let mut keys = Scope::default();
    let tag_case = keys.claim(naming::member_name(tag_key));
    let content_case = keys.claim(naming::member_name(content_key));
    let coding_keys = vec![
        coding_key(&tag_case, tag_key),
        coding_key(&content_case, content_key),
    ];
    let tag_ref = format!(".{}", naming::escaped(&tag_case));
    let content_ref = format!(".{}", naming::escaped(&content_case));
    let mut decode = Lines::at(4);
    decode.line("let container = try decoder.container(keyedBy: CodingKeys.self)");
    decode.call(
        "let tag = try container.decodeRequired(",
        &[
            format!("{}.self", body.tag_type),
            format!("forKey: {tag_ref}"),
        ],
        ")",
    );
    adjacent_decode_switch(&mut decode, body, "self", &tag_ref, &content_ref, tag_key);
    let mut encode = Lines::at(4);
    encode.line("var container = encoder.container(keyedBy: CodingKeys.self)");
    encode.line(format!("try container.encode(tag, forKey: {tag_ref})"));
    adjacent_encode_switch(&mut encode, body, "self", &content_ref);
    render_enum(
        ctx,
        body,
        doc,
        "JSONValue?",
        ADJACENT_UNKNOWN_DOC,
        true,
        coding_keys,
        decode.finish(),
        encode.finish(),
        0,
    )
}

const ADJACENT_UNKNOWN_DOC: &str = "A message whose tag this protocol does not know (rule R4): the raw tag and \
     content (`nil` when the content key was absent), re-encoded unchanged.";

fn coding_key(case: &str, wire: &str) -> String {
    if case == wire {
        format!("case {}", naming::escaped(case))
    } else {
        format!("case {} = {}", naming::escaped(case), string_literal(wire))
    }
}

/// `switch tag { ... }` assigning `target` (`self` or `self.body`) from the content.
fn adjacent_decode_switch(
    lines: &mut Lines,
    body: &BodyPlan,
    target: &str,
    tag_ref: &str,
    content_ref: &str,
    tag_key: &str,
) {
    lines.line("switch tag {");
    for case in &body.cases {
        lines.guarded_line(format!("case {}:", case.spellings.join(", ")));
        lines.push();
        match (&case.value, &case.variant.payload) {
            (Some(value), Payload::Content(field)) => {
                let method = if field.required && !field.ty.is_nullable() {
                    "decodeRequiredContent"
                } else {
                    "decodeContent"
                };
                lines.call(
                    &format!("let payload = try container.{method}("),
                    &[format!("{value}.self"), format!("forKey: {content_ref}")],
                    ")",
                );
                lines.line(format!("{target} = .{}(payload)", case.escaped()));
            }
            (Some(value), _) => {
                lines.call(
                    "let payload = try container.decodeRequired(",
                    &[format!("{value}.self"), format!("forKey: {content_ref}")],
                    ")",
                );
                lines.line(format!("{target} = .{}(payload)", case.escaped()));
            }
            (None, _) => {
                lines.line(format!("{target} = .{}", case.escaped()));
            }
        }
        lines.pop();
    }
    if !body.exhaustive() {
        lines.line("default:").push();
        if body.open {
            lines.call(
                "let payload = try container.decodeIfKeyPresent(",
                &["JSONValue.self".into(), format!("forKey: {content_ref}")],
                ")",
            );
            lines.line(format!("{target} = .unknown(tag: tag, payload: payload)"));
        } else {
            unknown_tag_error(lines, tag_ref, tag_key);
        }
        lines.pop();
    }
    lines.line("}");
}

/// `switch value { ... }` encoding the content of `value` (`self` or `self.body`).
fn adjacent_encode_switch(lines: &mut Lines, body: &BodyPlan, value: &str, content_ref: &str) {
    let payload_cases = body.cases.iter().any(|c| c.value.is_some());
    if !payload_cases && !body.open {
        return;
    }
    lines.line(format!("switch {value} {{"));
    for case in &body.cases {
        match &case.value {
            Some(_) => lines
                .line(format!("case .{}(let payload):", case.escaped()))
                .push()
                .line(format!(
                    "try container.encode(payload, forKey: {content_ref})"
                ))
                .pop(),
            None => lines
                .line(format!("case .{}:", case.escaped()))
                .push()
                .line("break")
                .pop(),
        };
    }
    if body.open {
        lines
            .line("case .unknown(_, let payload):")
            .push()
            .line(format!(
                "try container.encodeIfPresent(payload, forKey: {content_ref})"
            ))
            .pop();
    }
    lines.line("}");
}

/// An externally tagged union: `{"a": {...}}`, or `"a"` for a variant without content.
fn external_enum(
    ctx: &TypeContext<'_>,
    body: &BodyPlan,
    doc: Option<&str>,
) -> Result<String, model::Error> {
    let mut decode = Lines::at(4);
    let units: Vec<&Case> = body.cases.iter().filter(|c| c.value.is_none()).collect();
    if !units.is_empty() || body.open {
        decode.line("if let single = try? decoder.singleValueContainer(),");
        decode.line("  let tag = try? single.decode(String.self)");
        decode.line("{").push();
        decode.line("switch tag {");
        for case in &units {
            decode.guarded_line(format!("case {}:", case.spellings.join(", ")));
            decode
                .push()
                .line(format!("self = .{}", case.escaped()))
                .pop();
        }
        decode.line("default:").push();
        if body.open {
            decode.line("self = .unknown(tag: tag, payload: nil)");
        } else {
            decode.call(
                "throw DecodingError.dataCorruptedError(",
                &[
                    "in: single".into(),
                    "debugDescription: \"unknown tag \\\"\\(tag)\\\"\"".into(),
                ],
                ")",
            );
        }
        decode.pop().line("}").line("return");
        decode.pop().line("}");
    }
    decode.line("let container = try decoder.container(keyedBy: AnyCodingKey.self)");
    decode.line("guard container.allKeys.count == 1, let key = container.allKeys.first else {");
    decode.push();
    decode.line("throw DecodingError.notSingleKeyObject(in: decoder)");
    decode.pop().line("}");
    decode.line("switch key.stringValue {");
    for case in body.cases.iter().filter(|c| c.value.is_some()) {
        let value = case.value.as_deref().unwrap_or_default();
        decode.guarded_line(format!("case {}:", case.spellings.join(", ")));
        decode
            .push()
            .line(format!(
                "let payload = try container.decodeRequired({value}.self, forKey: key)"
            ))
            .line(format!("self = .{}(payload)", case.escaped()))
            .pop();
    }
    decode.line("default:").push();
    if body.open {
        decode
            .line("let payload = try container.decodeRequired(JSONValue.self, forKey: key)")
            .line("self = .unknown(tag: key.stringValue, payload: payload)");
    } else {
        decode.call(
            "throw DecodingError.dataCorruptedError(",
            &[
                "forKey: key".into(),
                "in: container".into(),
                "debugDescription: \"unknown tag \\\"\\(key.stringValue)\\\"\"".into(),
            ],
            ")",
        );
    }
    decode.pop().line("}");

    let mut encode = Lines::at(4);
    encode.line("switch self {");
    for case in &body.cases {
        match &case.value {
            None => encode
                .line(format!("case .{}:", case.escaped()))
                .push()
                .line("var container = encoder.singleValueContainer()")
                .line(format!(
                    "try container.encode({})",
                    case.tag
                        .as_ref()
                        .map(types::literal_value)
                        .unwrap_or_default()
                ))
                .pop(),
            Some(_) => encode
                .line(format!("case .{}(let payload):", case.escaped()))
                .push()
                .line("var container = encoder.container(keyedBy: AnyCodingKey.self)")
                .call(
                    "try container.encode(",
                    &[
                        "payload".into(),
                        format!(
                            "forKey: AnyCodingKey({})",
                            case.tag
                                .as_ref()
                                .map(types::literal_value)
                                .unwrap_or_default()
                        ),
                    ],
                    ")",
                )
                .pop(),
        };
    }
    if body.open {
        encode
            .line("case .unknown(let tag, let payload):")
            .push()
            .line("if let payload {")
            .push()
            .line("var container = encoder.container(keyedBy: AnyCodingKey.self)")
            .line("try container.encode(payload, forKey: AnyCodingKey(tag))")
            .pop()
            .line("} else {")
            .push()
            .line("var container = encoder.singleValueContainer()")
            .line("try container.encode(tag)")
            .pop()
            .line("}")
            .pop();
    }
    encode.line("}");
    render_enum(
        ctx,
        body,
        doc,
        "JSONValue?",
        "A value whose tag this schema does not know (rule R4): the raw tag and content \
         (`nil` for a bare string), re-encoded unchanged.",
        true,
        Vec::new(),
        decode.finish(),
        encode.finish(),
        0,
    )
}

/// An untagged union: the first variant that decodes wins.
fn untagged_enum(
    ctx: &TypeContext<'_>,
    body: &BodyPlan,
    doc: Option<&str>,
) -> Result<String, model::Error> {
    let mut decode = Lines::at(4);
    decode.line("var errors: [any Error] = []");
    for case in &body.cases {
        let Some(value) = &case.value else {
            return Err(ctx.error(
                &case.variant.pointer,
                "the Swift generator needs a value for every variant of an untagged union",
            ));
        };
        decode
            .line("do {")
            .push()
            .line(format!(
                "self = .{}(try {value}(from: decoder))",
                case.escaped()
            ))
            .line("return")
            .pop()
            .line("} catch {")
            .push()
            .line("errors.append(error)")
            .pop()
            .line("}");
    }
    decode.call(
        "throw DecodingError.noMatchingVariant(",
        &[
            format!("of: {}", string_literal(&body.name)),
            "in: decoder".to_owned(),
            "errors: errors".to_owned(),
        ],
        ")",
    );
    let mut encode = Lines::at(4);
    encode.line("switch self {");
    for case in &body.cases {
        encode
            .line(format!("case .{}(let value):", case.escaped()))
            .push()
            .line("try value.encode(to: encoder)")
            .pop();
    }
    encode.line("}");
    render_enum(
        ctx,
        body,
        doc,
        "JSONValue?",
        "",
        true,
        Vec::new(),
        decode.finish(),
        encode.finish(),
        0,
    )
}

#[allow(clippy::too_many_arguments)]
fn render_enum(
    ctx: &TypeContext<'_>,
    body: &BodyPlan,
    doc: Option<&str>,
    unknown_payload: &str,
    unknown_doc: &str,
    codable: bool,
    coding_keys: Vec<String>,
    decode: String,
    encode: String,
    base: usize,
) -> Result<String, model::Error> {
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
    Ok(layout::indented(&text, base))
}

/// A union with shared fields, as a struct holding the fields and the tagged body: an
/// envelope (adjacent) or a record with a flattened internally tagged union.
fn tagged_struct(
    ctx: &TypeContext<'_>,
    named: &NamedType,
    name: &str,
    union: &Union,
    tag_key: &str,
) -> Result<RenderedUnion, model::Error> {
    let adjacent = matches!(union.tagging, Tagging::Adjacent { .. });
    let body_type = if adjacent {
        "Body".to_owned()
    } else {
        naming::type_name(tag_key)
    };
    let body_type = if body_type == name || ["CodingKeys", "Messages"].contains(&body_type.as_str())
    {
        format!("{body_type}Kind")
    } else {
        body_type
    };
    // The nested body type shadows a top-level type of the same name in the struct.
    let struct_ctx = ctx.nested([body_type.clone()]);
    let mut scope = Scope::with_reserved(&["isUnknown"]);
    let mut keys = Scope::default();
    let plans = plan_fields(
        &struct_ctx,
        &named.name,
        &union.fields,
        &mut scope,
        &mut keys,
    )?;
    let body_prop = if adjacent {
        scope.claim("body".to_owned())
    } else {
        scope.claim(naming::member_name(tag_key))
    };
    let body = BodyPlan::new(ctx, named, &body_type, union, name, 4)?;
    let tag_case = keys.claim(naming::member_name(tag_key));
    let tag_ref = format!(".{}", naming::escaped(&tag_case));
    let mut coding_keys = vec![coding_key(&tag_case, tag_key)];
    let mut decode = Lines::at(4);
    let mut encode = Lines::at(4);
    let target = format!("self.{}", naming::escaped(&body_prop));
    decode.call(
        "let tag = try container.decodeRequired(",
        &[
            format!("{}.self", body.tag_type),
            format!("forKey: {tag_ref}"),
        ],
        ")",
    );
    encode.line(format!(
        "try container.encode({target}.tag, forKey: {tag_ref})"
    ));
    if let Tagging::Adjacent { content, .. } = &union.tagging {
        let content_case = keys.claim(naming::member_name(content));
        let content_ref = format!(".{}", naming::escaped(&content_case));
        coding_keys.push(coding_key(&content_case, content));
        adjacent_decode_switch(&mut decode, &body, &target, &tag_ref, &content_ref, tag_key);
        adjacent_encode_switch(&mut encode, &body, &target, &content_ref);
    } else {
        decode.line("switch tag {");
        for case in &body.cases {
            decode.guarded_line(format!("case {}:", case.spellings.join(", ")));
            decode.push();
            match &case.value {
                None => decode.line(format!("{target} = .{}", case.escaped())),
                Some(value) => {
                    let qualified = if case.nested.is_some() {
                        format!("{body_type}.{value}")
                    } else {
                        value.clone()
                    };
                    decode
                        .line(format!("let payload = try {qualified}(from: decoder)"))
                        .line(format!("{target} = .{}(payload)", case.escaped()))
                }
            };
            decode.pop();
        }
        let exhaustive = body.exhaustive();
        if !exhaustive {
            decode.line("default:").push();
        }
        if exhaustive {
        } else if body.open {
            let mut known: Vec<String> = plans
                .iter()
                .flat_map(|p| {
                    std::iter::once(p.wire.clone()).chain(p.alias_keys.iter().map(|a| a.1.clone()))
                })
                .collect();
            known.push(tag_key.to_owned());
            decode.line("var payload = try [String: JSONValue](from: decoder)");
            for wire in known {
                decode.line(format!("payload[{}] = nil", string_literal(&wire)));
            }
            decode.line(format!("{target} = .unknown(tag: tag, payload: payload)"));
        } else {
            unknown_tag_error(&mut decode, &tag_ref, tag_key);
        }
        if !exhaustive {
            decode.pop();
        }
        decode.line("}");
        let payload_cases = body.cases.iter().any(|c| c.value.is_some());
        if payload_cases || body.open {
            encode.line(format!("switch {target} {{"));
            for case in &body.cases {
                match &case.value {
                    Some(_) => encode
                        .line(format!("case .{}(let payload):", case.escaped()))
                        .push()
                        .line("try payload.encode(to: encoder)")
                        .pop(),
                    None => encode
                        .line(format!("case .{}:", case.escaped()))
                        .push()
                        .line("break")
                        .pop(),
                };
            }
            if body.open {
                encode
                    .line("case .unknown(_, let payload):")
                    .push()
                    .line("var extra = encoder.container(keyedBy: AnyCodingKey.self)")
                    .line("for (key, value) in payload {")
                    .push()
                    .line("try extra.encode(value, forKey: AnyCodingKey(key))")
                    .pop()
                    .line("}")
                    .pop();
            }
            encode.line("}");
        }
    }
    let unknown_payload = if adjacent {
        "JSONValue?"
    } else {
        "[String: JSONValue]"
    };
    let unknown_doc = if adjacent {
        ADJACENT_UNKNOWN_DOC
    } else {
        "A value whose tag this schema does not know (rule R4): the raw tag and the \
         object's other keys, re-encoded unchanged."
    };
    let body_doc = format!("The tagged part of `{name}`: one case per `{tag_key}`.");
    let nested_body = render_enum(
        ctx,
        &body,
        Some(&body_doc),
        unknown_payload,
        unknown_doc,
        false,
        Vec::new(),
        String::new(),
        String::new(),
        2,
    )?;
    let mut extras = StructExtras {
        body: Some((
            if adjacent {
                "The message: its tag and its content.".to_owned()
            } else {
                format!("The `{tag_key}` and what it carries.")
            },
            naming::escaped(&body_prop),
            body_type.clone(),
        )),
        nested: vec![nested_body],
        coding_keys,
        decode: decode.finish(),
        encode: encode.finish(),
        ..StructExtras::default()
    };
    if body.open {
        extras.conformances.push("OpenUnion");
        extras.computed.push(format!(
            "  /// Whether the {body_prop} is the `unknown` case (rule R4).\n  public var isUnknown: Bool {{\n    if case .unknown = {target} {{ true }} else {{ false }}\n  }}"
        ));
    }
    let declaration = records::render_struct(
        &struct_ctx,
        &named.pointer,
        named.docs.description.as_deref(),
        name,
        &plans,
        &Additional::Allowed,
        extras,
        0,
    )?;
    Ok(RenderedUnion {
        declaration,
        markers: markers(ctx, named, name, &format!("{name}.{body_type}"), &body)?,
    })
}

/// The marker extension of a union that pairs requests with replies (rule R8).
fn markers(
    ctx: &TypeContext<'_>,
    named: &NamedType,
    owner: &str,
    nested_owner: &str,
    body: &BodyPlan,
) -> Result<Option<String>, model::Error> {
    let pairs = body
        .cases
        .iter()
        .any(|c| !matches!(c.variant.reply, Reply::Unspecified));
    if !pairs || body.cases.iter().any(|c| c.tag.is_none()) {
        return Ok(None);
    }
    // Inside the namespace the marker names shadow everything: qualify all types.
    let all: Vec<String> = ctx.names.values().cloned().collect();
    let qualified = ctx.nested(all);
    let names = marker_names(
        &body
            .cases
            .iter()
            .map(|c| c.variant.clone())
            .collect::<Vec<_>>(),
    );
    let mut markers = Vec::new();
    for (case, marker_name) in body.cases.iter().zip(names) {
        let payload = match (&case.variant.payload, &case.value) {
            (Payload::Unit, _) => "NoContent".to_owned(),
            (Payload::Fields(_), Some(value)) => format!("{}.{nested_owner}.{value}", ctx.module),
            (Payload::Type(expr), _) => qualified.swift_type(expr, &case.variant.pointer)?,
            (Payload::Content(field), _) => content_type(&qualified, field)?,
            (Payload::Fields(_), None) => "NoContent".to_owned(),
        };
        let (protocol, reply) = match &case.variant.reply {
            Reply::Data(expr) => (
                "WireRequest",
                Some(match expr {
                    TypeExpr::Any => "JSONValue".to_owned(),
                    e => qualified.swift_type(e, &case.variant.pointer)?,
                }),
            ),
            _ => ("WireMessage", None),
        };
        let pad = " ".repeat(6);
        let mut lines = vec![format!("{pad}public typealias Payload = {payload}\n")];
        if let Some(reply) = reply {
            lines.push(format!("{pad}public typealias Reply = {reply}\n"));
        }
        lines.push(format!(
            "{pad}public static let tag = {}\n",
            case.tag
                .as_ref()
                .map(types::literal_value)
                .unwrap_or_default()
        ));
        markers.push(Marker {
            docs: doc_comment(case_doc(&case.variant).as_deref(), 4),
            name: marker_name,
            protocol,
            lines: lines
                .into_iter()
                .map(|l| layout::guarded(l, 6).trim_end().to_owned())
                .collect(),
        });
    }
    let template = MarkersTemplate {
        owner: owner.to_owned(),
        docs: doc_comment(
            Some(&format!(
                "One marker type per message of `{owner}`, with its tag, payload type and, \
                 for requests, reply type (rule R8)."
            )),
            2,
        ),
        name: "Messages".to_owned(),
        markers,
    };
    template
        .render()
        .map(Some)
        .map_err(|err| ctx.error(&named.pointer, err.to_string()))
}

/// Runtime names marker types must not shadow (they are used inside the namespace).
const MARKER_RESERVED: &[&str] = &["JSONValue", "NoContent", "WireMessage", "WireRequest"];

/// The marker type names of a union's variants, in variant order.
pub fn marker_names(variants: &[model::Variant]) -> Vec<String> {
    let mut scope = Scope::with_reserved(MARKER_RESERVED);
    variants
        .iter()
        .map(|v| scope.claim(naming::type_name(&v.name)))
        .collect()
}

/// Whether a union gets marker types (rule R8): it has reply information and string
/// tags.
pub fn has_markers(union: &Union) -> bool {
    union.has_replies()
        && union
            .variants
            .iter()
            .all(|v| matches!(v.tag, Some(Literal::String(_))))
}
