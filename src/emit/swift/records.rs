//! Structs: records (objects with known fields), and the structs that hold a tagged
//! body (envelopes, records with a flattened tagged union).

use crate::emit::text::indented;
use askama::Template;

use crate::model::{self, Additional, Constraint, Field, NamedType, Record, TypeExpr};

use super::fields::{FieldPlan, plan_fields};
use super::layout::{self, Lines, doc_comment, string_literal};
use super::naming::Scope;
use super::templates::RecordTemplate;
use super::types::TypeContext;

/// Conformances of every generated value type.
pub const VALUE_CONFORMANCES: &str = "Codable, Hashable, Sendable";

/// A struct to render: where it comes from, its docs, name and fields.
pub struct StructSpec<'a> {
    /// JSON Pointer of its schema (for errors).
    pub pointer: &'a str,
    /// Its doc text.
    pub doc: Option<&'a str>,
    /// Its Swift name.
    pub name: &'a str,
    /// Its planned fields.
    pub plans: &'a [FieldPlan],
    /// What it does with other keys.
    pub additional: &'a Additional,
    /// The indentation of the declaration.
    pub base: usize,
}

/// What a struct has besides its fields (an envelope's body, a union's extras).
#[derive(Debug, Default)]
pub struct StructExtras {
    /// Extra protocols after the value conformances (e.g. `OpenUnion`).
    pub conformances: Vec<&'static str>,
    /// An extra stored property `(doc, name, type)` after the fields (e.g. `body`).
    pub body: Option<(String, String, String)>,
    /// Computed property declarations, at their final indentation (`base + 2`).
    pub computed: Vec<String>,
    /// Nested declarations, rendered at their final indentation (`base + 2`).
    pub nested: Vec<String>,
    /// Extra `CodingKeys` cases (e.g. the tag and content keys).
    pub coding_keys: Vec<String>,
    /// Statements decoding the extra property, at their final indentation (`base + 4`;
    /// the container `container` and the decoder `decoder` are in scope).
    pub decode: String,
    /// Statements encoding the extra property, at `base + 4` (`container`, `encoder`).
    pub encode: String,
}

/// Renders a record type.
pub fn render_record(
    ctx: &TypeContext<'_>,
    named: &NamedType,
    name: &str,
    record: &Record,
    base: usize,
) -> Result<String, model::Error> {
    let mut scope = Scope::default();
    let mut keys = Scope::default();
    let plans = plan_fields(ctx, &named.name, &record.fields, &mut scope, &mut keys)?;
    let extras = StructExtras {
        decode: constraint_checks(ctx, &named.pointer, &plans, &record.constraints, base + 4)?,
        ..StructExtras::default()
    };
    render_struct(
        ctx,
        StructSpec {
            pointer: &named.pointer,
            doc: layout::doc_text(&named.docs).as_deref(),
            name,
            plans: &plans,
            additional: &record.additional,
            base,
        },
        extras,
    )
}

/// Statements (at `indent`) that check an object's cross-field rules after its fields
/// are decoded.
fn constraint_checks(
    ctx: &TypeContext<'_>,
    pointer: &str,
    plans: &[FieldPlan],
    constraints: &[Constraint],
    indent: usize,
) -> Result<String, model::Error> {
    let plan = |wire: &str| {
        plans.iter().find(|p| p.wire == wire).ok_or_else(|| {
            ctx.error(
                pointer,
                format!("a constraint names `{wire}`, which is not a field"),
            )
        })
    };
    let mut lines = Lines::at(indent);
    for constraint in constraints {
        match constraint {
            Constraint::AtLeastOneOf(fields) => {
                let keys = fields
                    .iter()
                    .map(|f| plan(f).map(FieldPlan::key_ref))
                    .collect::<Result<Vec<_>, _>>()?;
                lines.array_call("try container.checkAtLeastOne(of: ", &keys, ")");
            }
            Constraint::RequiredWhen {
                field,
                when,
                values,
            } => {
                let target = plan(field)?;
                let decider = plan(when)?;
                let mut tests: Vec<String> = Vec::new();
                for value in values {
                    let swift = condition_value(ctx, decider, value);
                    let test = format!("self.{} == {swift}", decider.property());
                    if !tests.contains(&test) {
                        tests.push(test);
                    }
                }
                let shown: Vec<String> = values
                    .iter()
                    .filter(|v| is_canonical(ctx, decider, v))
                    .map(|v| v.to_json())
                    .collect();
                let reason = format!("when {when} is {}", shown.join(" or "));
                lines.call(
                    "try container.checkRequired(",
                    &[
                        target.key_ref(),
                        format!("when: {}", tests.join(" || ")),
                        format!("because: {}", string_literal(&reason)),
                    ],
                    ")",
                );
            }
        }
    }
    Ok(lines.finish())
}

/// The enum a field's type refers to, if any (a named constant is one).
fn enum_of<'a>(
    ctx: &TypeContext<'a>,
    plan: &FieldPlan,
) -> Option<std::borrow::Cow<'a, model::Enum>> {
    match plan.field.ty.non_null() {
        model::TypeExpr::Ref(name) => match &ctx.resolve(name)?.kind {
            model::TypeKind::Enum(e) => Some(std::borrow::Cow::Borrowed(e)),
            kind => super::enums::constant_enum(kind).map(std::borrow::Cow::Owned),
        },
        _ => None,
    }
}

/// A Swift expression comparing equal to the field's value `value`: the enum case it
/// decodes to (input aliases included), else the literal.
fn condition_value(ctx: &TypeContext<'_>, plan: &FieldPlan, value: &model::Literal) -> String {
    if let Some(e) = enum_of(ctx, plan) {
        let cases = super::enums::case_names(&e);
        if let Some(index) = e
            .values
            .iter()
            .position(|v| &v.value == value || v.aliases.contains(value))
        {
            return format!(".{}", cases[index]);
        }
    }
    super::types::literal_value(value)
}

/// Whether `value` is a canonical value of the field (not an input alias).
fn is_canonical(ctx: &TypeContext<'_>, plan: &FieldPlan, value: &model::Literal) -> bool {
    enum_of(ctx, plan).is_none_or(|e| e.values.iter().any(|v| &v.value == value))
}

/// Renders the struct of an inline variant's fields (nested in its union).
/// The struct of a variant's inline fields. In a schema symgen did not write it keeps
/// the keys it does not declare (`additionalProperties`), as that schema's open
/// objects do; a protocol's ignores them (R2).
pub fn render_fields_struct(
    ctx: &TypeContext<'_>,
    pointer: &str,
    doc: Option<&str>,
    name: &str,
    fields: &[Field],
    base: usize,
) -> Result<String, model::Error> {
    let additional = if ctx.model.protocol.is_none() {
        Additional::Typed(TypeExpr::Any)
    } else {
        Additional::Allowed
    };
    let mut scope = Scope::default();
    let mut keys = Scope::default();
    let plans = plan_fields(ctx, "", fields, &mut scope, &mut keys)?;
    render_struct(
        ctx,
        StructSpec {
            pointer,
            doc,
            name,
            plans: &plans,
            additional: &additional,
            base,
        },
        StructExtras::default(),
    )
}

/// Renders a struct from planned fields and extras, for a declaration at `base` spaces
/// of indentation (the result is indented accordingly, without a final newline).
pub fn render_struct(
    ctx: &TypeContext<'_>,
    spec: StructSpec<'_>,
    extras: StructExtras,
) -> Result<String, model::Error> {
    let StructSpec {
        pointer,
        doc,
        name,
        plans,
        additional,
        base,
    } = spec;
    // Typed extra keys beside the fields (`additionalProperties: {schema}`): kept in a
    // dictionary property.
    let others = match additional {
        Additional::Typed(value) => {
            let taken: Vec<&str> = plans.iter().map(|p| p.name.as_str()).collect();
            let mut scope = Scope::with_reserved(&taken);
            let name = scope.claim("additionalProperties".to_owned());
            let value_type = match value {
                model::TypeExpr::Any => "JSONValue".to_owned(),
                v => ctx.swift_type(v, pointer)?,
            };
            Some((name, value_type))
        }
        _ => None,
    };
    let known_keys: Vec<String> = {
        let mut keys: Vec<String> = plans
            .iter()
            .flat_map(|p| {
                std::iter::once(p.wire.clone()).chain(p.alias_keys.iter().map(|a| a.1.clone()))
            })
            .map(|w| string_literal(&w))
            .collect();
        keys.sort();
        keys
    };
    // Everything is laid out at its final indentation (so line lengths are right) and
    // dedented by `base` for the template; the rendered result is indented back.
    let at = |text: String| dedent(&text, base);
    let mut properties: Vec<String> = plans
        .iter()
        .filter(|p| p.stored())
        .map(|p| at(p.declaration(base + 2)))
        .collect();
    let mut computed: Vec<String> = plans
        .iter()
        .filter(|p| !p.stored())
        .map(|p| at(p.declaration(base + 2)))
        .collect();
    computed.extend(
        plans
            .iter()
            .filter_map(|p| p.or_default_declaration(base + 2))
            .map(at),
    );
    computed.extend(extras.computed.into_iter().map(at));
    let mut params: Vec<String> = plans
        .iter()
        .filter(|p| p.stored())
        .map(FieldPlan::init_parameter)
        .collect();
    let mut assigns: Vec<(String, String)> = plans
        .iter()
        .filter(|p| p.stored())
        .map(|p| (format!("self.{}", p.property()), p.property()))
        .collect();
    if let Some((prop, value_type)) = &others {
        properties.push(at(format!(
            "{}{}",
            doc_comment(Some("The object's other keys and their values."), base + 2),
            layout::typed_declaration(
                base + 2,
                &format!("public let {prop}: "),
                &format!("[String: {value_type}]"),
                ""
            )
            .trim_end()
        )));
        params.push(format!("{prop}: [String: {value_type}] = [:]"));
        assigns.push((format!("self.{prop}"), prop.clone()));
        computed.push(at(format!(
            "{}{}public var unknownKeyCount: Int {{ {prop}.count }}",
            doc_comment(
                Some("How many keys of the decoded object this type does not declare."),
                base + 2
            ),
            " ".repeat(base + 2)
        )));
    }
    if let Some((doc, prop, ty)) = &extras.body {
        properties.push(at(format!(
            "{}{}",
            doc_comment(Some(doc), base + 2),
            layout::typed_declaration(base + 2, &format!("public let {prop}: "), ty, "").trim_end()
        )));
        params.push(format!("{prop}: {ty}"));
        assigns.push((format!("self.{prop}"), prop.clone()));
    }
    let init = if params.is_empty() {
        "  /// Creates the value.\n  public init() {}".to_owned()
    } else {
        let mut lines = Lines::at(base + 2);
        lines.declaration("public init(", &params, ") {");
        lines.push();
        for (target, value) in &assigns {
            lines.assign(target, value);
        }
        lines.pop().line("}");
        format!(
            "  /// Creates a value from its fields.\n{}",
            at(lines.finish()).trim_end()
        )
    };

    let mut coding_keys: Vec<String> = plans.iter().flat_map(FieldPlan::coding_key_lines).collect();
    coding_keys.extend(extras.coding_keys);
    let keyed = !coding_keys.is_empty();

    let mut decode = Lines::at(base + 4);
    if let Additional::Forbidden = additional {
        decode.array_call("try decoder.checkNoOtherKeys(", &known_keys, ")");
    }
    if keyed {
        decode.line("let container = try decoder.container(keyedBy: CodingKeys.self)");
    } else {
        decode.line("_ = try decoder.container(keyedBy: AnyCodingKey.self)");
    }
    for plan in plans {
        decode.raw(plan.decode_statements(ctx, base + 4)?);
    }
    if let Some((prop, value_type)) = &others {
        let _ = value_type;
        // An integer of JSON Schema's own takes a whole number written as a float.
        let method = match additional {
            Additional::Typed(value) if ctx.takes_whole_floats(value) => {
                "decodeOtherKeysTakingWholeFloats"
            }
            _ => "decodeOtherKeys",
        };
        decode.array_call(
            &format!("self.{prop} = try decoder.{method}(known: "),
            &known_keys,
            ")",
        );
    }
    decode.raw(&extras.decode);

    let mut encode = Lines::at(base + 4);
    if keyed {
        encode.line("var container = encoder.container(keyedBy: CodingKeys.self)");
    } else {
        encode.line("_ = encoder.container(keyedBy: AnyCodingKey.self)");
    }
    for plan in plans {
        encode.raw(plan.encode_statement(base + 4));
    }
    if let Some((prop, _)) = &others {
        encode.line(format!("try encoder.encodeOtherKeys(self.{prop})"));
    }
    encode.raw(&extras.encode);

    let mut conformances: Vec<&str> = VALUE_CONFORMANCES.split(", ").collect();
    conformances.extend(extras.conformances);
    if others.is_some() {
        conformances.push("OpenObject");
    }
    let header = layout::type_header(base, &format!("public struct {name}: "), &conformances);
    let coding_keys = coding_keys
        .iter()
        .map(|k| {
            at(layout::guarded(
                format!("{}{k}\n", " ".repeat(base + 4)),
                base + 4,
            ))
        })
        .map(|k| k.trim_end().to_owned())
        .collect();
    let template = RecordTemplate {
        docs: at(doc_comment(doc, base)),
        header: at(header).trim_end().to_owned(),
        properties,
        computed,
        init,
        nested: extras.nested.into_iter().map(at).collect(),
        coding_keys,
        decode: at(decode.finish()),
        encode: at(encode.finish()),
    };
    let text = template
        .render()
        .map_err(|err| ctx.error(pointer, err.to_string()))?;
    Ok(indented(&text, base))
}

/// Removes `spaces` of indentation from every line (lines were laid out at their final
/// indentation so that line lengths are right; the template adds it back).
pub fn dedent(text: &str, spaces: usize) -> String {
    text.split('\n')
        .map(|line| {
            let strip = line.len() - line.trim_start_matches(' ').len();
            &line[strip.min(spaces)..]
        })
        .collect::<Vec<_>>()
        .join("\n")
}
