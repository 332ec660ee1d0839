//! A compact, line-per-item text rendering of a [`Model`], for reviewing what the model
//! made of a schema (and for snapshot tests). Docs are left out.

use std::fmt::Write as _;

use super::{
    Additional, Field, Literal, Model, NamedType, Origin, Payload, Reply, Tagging, TypeExpr,
    TypeKind,
};

/// One line per type, field, value and variant.
pub fn outline(model: &Model) -> String {
    let mut out = String::new();
    if let Some(protocol) = &model.protocol {
        match &protocol.code {
            Some(code) => {
                let _ = writeln!(out, "protocol {} ({code})", protocol.id);
            }
            None => {
                let _ = writeln!(out, "protocol {}", protocol.id);
            }
        }
    }
    let _ = writeln!(out, "roots: {}", model.roots.join(", "));
    for ty in &model.types {
        named(&mut out, ty);
    }
    out
}

fn named(out: &mut String, ty: &NamedType) {
    let origin = match &ty.origin {
        Origin::Defs => String::new(),
        Origin::Root => " [root]".to_owned(),
        Origin::Document { file, pointer } => {
            // The file name alone: where the document was found varies by machine.
            let name = file.rsplit(['/', '\\']).next().unwrap_or(file);
            format!(" [from {name}#{pointer}]")
        }
        Origin::Inline { parent } => format!(" [inline in {parent}]"),
    };
    let deprecated = if ty.docs.deprecated {
        " deprecated"
    } else {
        ""
    };
    match &ty.kind {
        TypeKind::Record(record) => {
            let _ = writeln!(
                out,
                "record {}{origin}{deprecated}{}",
                ty.name,
                additional(&record.additional)
            );
            for field in &record.fields {
                field_line(out, "  ", field);
            }
        }
        TypeKind::Enum(e) => {
            let _ = writeln!(out, "enum {}{origin}{deprecated}", ty.name);
            for value in &e.values {
                let aliases: Vec<String> = value.aliases.iter().map(Literal::to_json).collect();
                let aliases = if aliases.is_empty() {
                    String::new()
                } else {
                    format!(" aliases {}", aliases.join(" "))
                };
                let _ = writeln!(out, "  {}{aliases}", value.value.to_json());
            }
        }
        TypeKind::Alias(expr) => {
            let _ = writeln!(
                out,
                "alias {}{origin}{deprecated} = {}",
                ty.name,
                expr_text(expr)
            );
        }
        TypeKind::Union(union) => {
            let tagging = match &union.tagging {
                Tagging::Internal { tag } => format!("internal tag={tag}"),
                Tagging::Adjacent { tag, content } => {
                    format!("adjacent tag={tag} content={content}")
                }
                Tagging::External => "external".to_owned(),
                Tagging::Untagged => "untagged".to_owned(),
            };
            let _ = writeln!(out, "union {}{origin}{deprecated} ({tagging})", ty.name);
            for field in &union.fields {
                field_line(out, "  shared ", field);
            }
            for variant in &union.variants {
                let tag = variant
                    .tag
                    .as_ref()
                    .map(|t| format!(" {}", t.to_json()))
                    .unwrap_or_default();
                let aliases: Vec<String> =
                    variant.tag_aliases.iter().map(Literal::to_json).collect();
                let aliases = if aliases.is_empty() {
                    String::new()
                } else {
                    format!(" aliases {}", aliases.join(" "))
                };
                let reply = match &variant.reply {
                    Reply::Unspecified => String::new(),
                    Reply::None => " reply=none".to_owned(),
                    Reply::Data(expr) => format!(" reply={}", expr_text(expr)),
                    Reply::IsReply => " is-reply".to_owned(),
                };
                let deprecated = if variant.docs.deprecated {
                    " deprecated"
                } else {
                    ""
                };
                let payload = match &variant.payload {
                    Payload::Unit => " unit".to_owned(),
                    Payload::Type(expr) => format!(" = {}", expr_text(expr)),
                    Payload::Fields(_) => " fields".to_owned(),
                    Payload::Content(field) => format!(
                        " content {}{}",
                        expr_text(&field.ty),
                        if field.required { "" } else { " optional" }
                    ),
                };
                let _ = writeln!(
                    out,
                    "  variant {}{tag}{aliases}{payload}{reply}{deprecated}",
                    variant.name
                );
                if let Payload::Fields(fields) = &variant.payload {
                    for field in fields {
                        field_line(out, "    ", field);
                    }
                }
            }
            if let Some(unknown) = &union.unknown {
                let _ = writeln!(out, "  unknown {}", unknown.name);
            }
        }
    }
}

fn additional(additional: &Additional) -> String {
    match additional {
        Additional::Allowed => String::new(),
        Additional::Forbidden => " closed".to_owned(),
        Additional::Typed(expr) => format!(" extra={}", expr_text(expr)),
    }
}

fn field_line(out: &mut String, indent: &str, field: &Field) {
    let presence = if field.required { "" } else { "?" };
    let aliases = if field.aliases.is_empty() {
        String::new()
    } else {
        format!(" aliases {}", field.aliases.join(" "))
    };
    let default = field
        .default
        .as_ref()
        .map(|d| format!(" default {d}"))
        .unwrap_or_default();
    let deprecated = if field.docs.deprecated {
        " deprecated"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "{indent}{}{presence}: {}{aliases}{default}{deprecated}",
        field.name,
        expr_text(&field.ty)
    );
}

/// A type expression in a compact neutral notation (`[T]` arrays, `{T}` maps).
pub fn expr_text(expr: &TypeExpr) -> String {
    match expr {
        TypeExpr::Any => "any".to_owned(),
        TypeExpr::Null => "null".to_owned(),
        TypeExpr::Bool => "bool".to_owned(),
        TypeExpr::Integer(int) => {
            let mut text = format!(
                "{}{}",
                if int.width.signed() { "i" } else { "u" },
                int.width.bits()
            );
            if let Some(min) = int.minimum {
                let _ = write!(text, " >={min}");
            }
            text
        }
        TypeExpr::Number(n) => n
            .format
            .as_ref()
            .map_or_else(|| "number".to_owned(), |f| format!("number({f})")),
        TypeExpr::String(s) => s
            .format
            .as_ref()
            .map_or_else(|| "string".to_owned(), |f| format!("string({f})")),
        TypeExpr::Literal(literal) => literal.to_json(),
        TypeExpr::Array(item) => format!("[{}]", expr_text(item)),
        TypeExpr::Tuple(items) => format!(
            "({})",
            items.iter().map(expr_text).collect::<Vec<_>>().join(", ")
        ),
        TypeExpr::Map(value) => format!("{{{}}}", expr_text(value)),
        TypeExpr::Ref(name) => name.clone(),
        TypeExpr::Nullable(inner) => format!("{} | null", expr_text(inner)),
    }
}
