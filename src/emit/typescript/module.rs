//! One model → the declarations of one TypeScript module (views the templates render):
//! every named type, the variant interfaces of unions, the unknown-tag guard and the
//! reply/content maps.

use std::collections::HashMap;

use super::codec::{self, Codec};
use super::layout::Ts;
use super::names::{Namespace, property_key};
use super::view::{ApiFunction, Decl, Doc, Import, Member, Param};
use crate::emit::Module;
use crate::emit::doc::DocBlock;
use crate::model::{
    Additional, Docs, Enum, Field, Literal, Model, NamedType, Payload, Record, Reply, Tagging,
    TypeExpr, TypeKind, Union, Variant,
};

const INT64_NOTE: &str =
    "64-bit integer, typed `number`: exact only up to `Number.MAX_SAFE_INTEGER` (2^53 − 1).";

/// What one module renders: its declarations, and the run-time decoders and encoders.
pub struct ModuleView {
    /// The declarations, in order.
    pub decls: Vec<Decl>,
    /// The readers and writers.
    pub codec: Codec,
    /// The exported run-time functions.
    pub api: Vec<ApiFunction>,
    /// The module's type names the API's signatures use (the JavaScript names them by
    /// typedef).
    pub api_types: Vec<String>,
    /// Types this module imports and exports again: the roots of a document whose root
    /// is an `anyOf` of other documents' types, which its decoders return.
    pub reexports: Vec<String>,
    /// The local names of the runtime's `Result` and `Json` types.
    pub result: String,
    /// See [`ModuleView::result`].
    pub json: String,
}

/// The declarations of `module`, in order: its doc, its imports from the other
/// modules of the package (`modules`, with the file stem each is written to), then its
/// types; then its decoders and encoders.
pub fn render_module(module: &Module, modules: &[(&Module, String)]) -> ModuleView {
    let model = &module.model;
    let mut emitter = Emitter::new(model);
    for ty in &model.types {
        if let TypeKind::Union(union) = &ty.kind
            && union.unknown.is_some()
            && union.tag_key().is_some()
            && module.renders(&ty.name)
        {
            let name = emitter.name(&ty.name);
            let or_unknown = emitter.types.claim(&format!("{name}OrUnknown"));
            emitter.or_unknown.insert(ty.name.clone(), or_unknown);
        }
    }
    emitter.module_doc();
    emitter.imports(module, modules);
    for ty in &model.types {
        if module.renders(&ty.name) {
            emitter.named(ty);
        }
    }
    emitter.shorthands();
    let (codec, names) = codec::build(model);
    let result = emitter.types.claim("Result");
    let json = emitter.types.claim("Json");
    let (api, api_types) = emitter.api(module, &names, &result, &json);
    let reexports = model
        .entry_points()
        .into_iter()
        .filter(|name| !module.renders(name) && names.reader(name).is_some())
        .map(|name| emitter.name(name))
        .collect();
    ModuleView {
        decls: emitter.items,
        codec,
        api,
        api_types,
        reexports,
        result,
        json,
    }
}

/// The TypeScript name of every type of `model`, and the namespace that holds them.
fn type_names(model: &Model) -> (HashMap<&str, String>, Namespace) {
    let mut types = Namespace::default();
    let mut names = HashMap::new();
    // Names that are usable as they are keep them; converted ones come second, so a
    // converted name never takes a name the schema spelled exactly.
    for ty in &model.types {
        if super::names::is_usable(&ty.name) && types.try_claim(&ty.name) {
            names.insert(ty.name.as_str(), ty.name.clone());
        }
    }
    for ty in &model.types {
        if !names.contains_key(ty.name.as_str()) {
            let name = types.claim(&ty.name);
            names.insert(ty.name.as_str(), name);
        }
    }
    (names, types)
}

struct Emitter<'m> {
    model: &'m Model,
    /// Model type name → TypeScript name.
    names: HashMap<&'m str, String>,
    types: Namespace,
    values: Namespace,
    items: Vec<Decl>,
    /// Unions with a reply map / content map: (map name, content key).
    reply_maps: Vec<String>,
    /// Model name of each union with a reply map → the map's name.
    replies: Vec<(String, String)>,
    /// Model name of each open tagged union this module renders → its `…OrUnknown`
    /// type, which is what a field of that type holds (claimed before any declaration
    /// refers to it).
    or_unknown: HashMap<String, String>,
    content_maps: Vec<(String, String)>,
}

/// The JSDoc lines of a declaration: its [`DocBlock`], the notes, then `@deprecated`.
fn doc_lines(docs: &Docs, notes: &[String]) -> Doc {
    let block = notes
        .iter()
        .fold(DocBlock::new(docs), |block, note| block.note(note));
    let mut lines = block.lines();
    if block.is_deprecated() {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push("@deprecated".to_owned());
    }
    Doc(lines)
}

fn literal(value: &Literal) -> String {
    value.to_json()
}

fn is_int64(expr: &TypeExpr) -> bool {
    expr.any(&mut |e| matches!(e, TypeExpr::Integer(int) if int.width.bits() == 64))
}

impl<'m> Emitter<'m> {
    fn new(model: &'m Model) -> Self {
        let (names, types) = type_names(model);
        Emitter {
            model,
            names,
            types,
            values: Namespace::default(),
            items: Vec::new(),
            reply_maps: Vec::new(),
            content_maps: Vec::new(),
            replies: Vec::new(),
            or_unknown: HashMap::new(),
        }
    }

    fn name(&self, model_name: &str) -> String {
        self.names
            .get(model_name)
            .cloned()
            .unwrap_or_else(|| super::names::type_ident(model_name))
    }

    fn module_doc(&mut self) {
        let mut docs = self.model.docs.clone();
        if let (Some(code), Some(title)) = (
            self.model.protocol.as_ref().and_then(|p| p.code.as_ref()),
            &docs.title,
        ) {
            docs.title = Some(format!("{title} ({code})."));
        }
        let Doc(mut lines) = doc_lines(&docs, &[]);
        if lines.is_empty() {
            return;
        }
        lines.push(String::new());
        lines.push("@module".to_owned());
        self.items.push(Decl::ModuleDoc(Doc(lines)));
    }

    /// `import type { Home as Local } from "./home.js"`, per module `module` uses types
    /// of (the template adds the extension).
    fn imports(&mut self, module: &Module, modules: &[(&Module, String)]) {
        let mut imports = Vec::new();
        for (stem, group) in module.imports_by_module() {
            let Some((home, file)) = modules.iter().find(|(m, _)| m.stem == stem) else {
                continue;
            };
            let (home_names, _) = type_names(&home.model);
            let names = group
                .into_iter()
                .map(|import| {
                    let exported = home_names
                        .get(import.home_name.as_str())
                        .cloned()
                        .unwrap_or_else(|| super::names::type_ident(&import.home_name));
                    (exported, self.name(&import.name))
                })
                .collect();
            imports.push(Import {
                names,
                file: file.clone(),
            });
        }
        if !imports.is_empty() {
            self.items.push(Decl::Imports(imports));
        }
    }

    fn ts(&self, expr: &TypeExpr) -> Ts {
        match expr {
            TypeExpr::Any => Ts::Atom("unknown".into()),
            TypeExpr::Null => Ts::Atom("null".into()),
            TypeExpr::Bool => Ts::Atom("boolean".into()),
            TypeExpr::Integer(_) | TypeExpr::Number(_) => Ts::Atom("number".into()),
            TypeExpr::String(_) => Ts::Atom("string".into()),
            TypeExpr::Literal(value) => Ts::Atom(literal(value)),
            TypeExpr::Array(item) => self.ts(item).array_of(),
            TypeExpr::Tuple(items) => Ts::Tuple(items.iter().map(|i| self.ts(i)).collect()),
            TypeExpr::Map(value) => Ts::Map(Box::new(self.ts(value))),
            // A value of an open union may be its unknown case (R4).
            TypeExpr::Ref(name) => Ts::Atom(
                self.or_unknown
                    .get(name.as_str())
                    .cloned()
                    .unwrap_or_else(|| self.name(name)),
            ),
            TypeExpr::Nullable(inner) => self.ts(inner).or_null(),
        }
    }

    /// `export type head = ty;`.
    fn push_alias(&mut self, doc: Doc, head: impl Into<String>, ty: Ts) {
        self.items.push(Decl::Alias {
            doc,
            head: head.into(),
            ty,
        });
    }

    fn push_interface(&mut self, doc: Doc, name: &str, extends: &[String], members: Vec<Member>) {
        self.items.push(Decl::Interface {
            doc,
            name: name.to_owned(),
            extends: extends.to_vec(),
            members,
        });
    }

    /// The properties of a field (plus its deprecated alias properties when the field
    /// is optional).
    fn field_members(&self, field: &Field, out: &mut Vec<Member>) {
        let mut notes = Vec::new();
        if is_int64(&field.ty) {
            notes.push(INT64_NOTE.to_owned());
        }
        if !field.aliases.is_empty() && !field.required {
            let aliases: Vec<String> = field.aliases.iter().map(|a| format!("`{a}`")).collect();
            notes.push(format!(
                "Also accepted on input as {} (never emitted).",
                aliases.join(", ")
            ));
        }
        if let Some(default) = &field.default {
            notes.push(format!("@defaultValue `{default}`"));
        }
        let ty = self.ts(&field.ty);
        let key = format!(
            "{}{}",
            property_key(&field.name),
            if field.required { "" } else { "?" }
        );
        out.push(Member {
            doc: doc_lines(&field.docs, &notes),
            key,
            ty: ty.clone(),
        });
        if !field.required {
            for alias in &field.aliases {
                out.push(Member {
                    doc: Doc(vec![
                        format!(
                            "Input alias of `{}`: accepted on receive, never emitted.",
                            field.name
                        ),
                        String::new(),
                        "@deprecated".to_owned(),
                    ]),
                    key: format!("{}?", property_key(alias)),
                    ty: ty.clone(),
                });
            }
        }
    }

    fn fields_members(&self, fields: &[Field]) -> Vec<Member> {
        let mut out = Vec::new();
        for field in fields {
            if field.aliases.is_empty() || !field.required {
                self.field_members(field, &mut out);
            }
        }
        out
    }

    /// Required fields with input aliases: emitted as `(A | B)` alternatives.
    fn alias_groups(&self, fields: &[Field]) -> Vec<Vec<String>> {
        fields
            .iter()
            .filter(|f| f.required && !f.aliases.is_empty())
            .map(|field| {
                let ty = self.ts(&field.ty).flat();
                std::iter::once(&field.name)
                    .chain(&field.aliases)
                    .map(|key| format!("{{ {}: {ty} }}", property_key(key)))
                    .collect()
            })
            .collect()
    }

    fn alias_notes(fields: &[Field]) -> Vec<String> {
        fields
            .iter()
            .filter(|f| f.required && !f.aliases.is_empty())
            .map(|field| {
                let aliases: Vec<String> = field.aliases.iter().map(|a| format!("`{a}`")).collect();
                let doc = field
                    .docs
                    .description
                    .as_deref()
                    .map(|d| format!("`{}`: {d}\n\n", field.name))
                    .unwrap_or_default();
                format!(
                    "{doc}Exactly one of `{}` and its input alias {} (deprecated: accepted on receive, never emitted) is present.",
                    field.name,
                    aliases.join(", ")
                )
            })
            .collect()
    }

    /// Whether a model type is emitted as an interface (so it can be extended).
    fn is_interface(&self, name: &str) -> bool {
        match self.model.get(name).map(|t| &t.kind) {
            Some(TypeKind::Record(record)) => !record
                .fields
                .iter()
                .any(|f| f.required && !f.aliases.is_empty()),
            _ => false,
        }
    }

    /// A record with no fields (its variant carries nothing beyond the tag).
    fn is_empty_record(&self, name: &str) -> bool {
        matches!(
            self.model.resolve(name).map(|t| &t.kind),
            Some(TypeKind::Record(record)) if record.fields.is_empty()
        )
    }

    fn named(&mut self, ty: &NamedType) {
        let name = self.name(&ty.name);
        match &ty.kind {
            TypeKind::Record(record) => self.record(ty, &name, record),
            TypeKind::Enum(values) => self.enumeration(ty, &name, values),
            TypeKind::Alias(expr) => {
                let notes = if is_int64(expr) {
                    vec![INT64_NOTE.to_owned()]
                } else {
                    Vec::new()
                };
                let ty_ts = self.ts(expr);
                self.push_alias(doc_lines(&ty.docs, &notes), name, ty_ts);
            }
            TypeKind::Union(union) => self.union(ty, &name, union),
        }
    }

    fn record_members(&self, record: &Record) -> Vec<Member> {
        let mut members = self.fields_members(&record.fields);
        let index = match &record.additional {
            Additional::Allowed if record.fields.is_empty() => Some(Ts::Atom("unknown".into())),
            Additional::Forbidden if record.fields.is_empty() => Some(Ts::Atom("never".into())),
            Additional::Allowed | Additional::Forbidden => None,
            // `unknown` already covers every field's type.
            Additional::Typed(TypeExpr::Any) => Some(Ts::Atom("unknown".into())),
            Additional::Typed(value) => {
                let mut parts = vec![self.ts(value)];
                for field in &record.fields {
                    parts.push(self.ts(&field.ty));
                    if !field.required {
                        parts.push(Ts::Atom("undefined".into()));
                    }
                }
                let mut flat: Vec<Ts> = Vec::new();
                for part in parts {
                    let members = match part {
                        Ts::Union(members) => members,
                        other => vec![other],
                    };
                    for member in members {
                        if !flat.contains(&member) {
                            flat.push(member);
                        }
                    }
                }
                Some(if flat.len() == 1 {
                    flat.remove(0)
                } else {
                    Ts::Union(flat)
                })
            }
        };
        if let Some(index) = index {
            members.push(Member::new("[key: string]", index));
        }
        members
    }

    fn record(&mut self, ty: &NamedType, name: &str, record: &Record) {
        let groups = self.alias_groups(&record.fields);
        if groups.is_empty() {
            let members = self.record_members(record);
            self.push_interface(doc_lines(&ty.docs, &[]), name, &[], members);
            return;
        }
        let fields_name = self.types.claim(&format!("{name}Fields"));
        self.items.push(Decl::Intersection {
            doc: doc_lines(&ty.docs, &Self::alias_notes(&record.fields)),
            name: name.to_owned(),
            first: fields_name.clone(),
            groups,
        });
        let members = self.record_members(record);
        let fields_doc = Doc(vec![format!(
            "The fields of `{name}` besides the ones that have input aliases."
        )]);
        self.push_interface(fields_doc, &fields_name, &[], members);
    }

    fn enumeration(&mut self, ty: &NamedType, name: &str, values: &Enum) {
        let documented = values
            .values
            .iter()
            .any(|v| v.docs.description.is_some() || !v.aliases.is_empty());
        let mut notes = Vec::new();
        if documented {
            let mut list = Vec::new();
            for value in &values.values {
                let doc = value
                    .docs
                    .description
                    .as_deref()
                    .unwrap_or("")
                    .replace('\n', " ");
                let sep = if doc.is_empty() { "" } else { ": " };
                list.push(format!("- `{}`{sep}{doc}", literal(&value.value)));
                for alias in &value.aliases {
                    list.push(format!(
                        "- `{}`: input alias of `{}` (deprecated: accepted on receive, never emitted).",
                        literal(alias),
                        literal(&value.value)
                    ));
                }
            }
            notes.push(list.join("\n"));
        }
        if values.open {
            notes.push(
                "Open: any other string is valid too, and a receiver keeps it (`string & {}` keeps the known values' completion)."
                    .to_owned(),
            );
        }
        // Canonical values first, then the input aliases (then any string, when open).
        let mut members: Vec<Ts> = values
            .values
            .iter()
            .map(|v| &v.value)
            .chain(values.values.iter().flat_map(|v| &v.aliases))
            .map(|v| Ts::Atom(literal(v)))
            .collect();
        if values.open {
            members.push(Ts::Atom("(string & {})".into()));
        }
        let ts = if members.len() == 1 {
            members[0].clone()
        } else {
            Ts::Union(members)
        };
        self.push_alias(doc_lines(&ty.docs, &notes), name, ts);
    }

    fn union(&mut self, ty: &NamedType, name: &str, union: &Union) {
        match &union.tagging {
            Tagging::Internal { tag } | Tagging::Adjacent { tag, .. } => {
                self.tagged_union(ty, name, union, tag);
            }
            Tagging::External | Tagging::Untagged => self.value_union(ty, name, union),
        }
    }

    fn tag_type(variant: &Variant) -> Ts {
        let tags: Vec<Ts> = variant
            .tag
            .iter()
            .chain(&variant.tag_aliases)
            .map(|t| Ts::Atom(literal(t)))
            .collect();
        if tags.len() == 1 {
            tags[0].clone()
        } else {
            Ts::Union(tags)
        }
    }

    fn tagged_union(&mut self, ty: &NamedType, name: &str, union: &Union, tag: &str) {
        let base = (!union.fields.is_empty()).then(|| self.types.claim(&format!("{name}Base")));
        let variant_names: Vec<String> = union
            .variants
            .iter()
            .map(|v| {
                self.types
                    .claim(&format!("{name}{}", crate::model::pascal_case(&v.name)))
            })
            .collect();
        let unknown = union.unknown.as_ref().map(|u| {
            (
                self.types
                    .claim(&format!("{name}{}", crate::model::pascal_case(&u.name))),
                self.or_unknown
                    .get(&ty.name)
                    .cloned()
                    .unwrap_or_else(|| self.types.claim(&format!("{name}OrUnknown"))),
            )
        });

        // The union of the known variants.
        let mut notes = Vec::new();
        let access = if super::names::is_identifier(tag) {
            format!("message.{tag}")
        } else {
            format!("message[{}]", property_key(tag))
        };
        if let Some((unknown_name, or_unknown)) = &unknown {
            let guard = format!("isKnown{name}");
            notes.push(format!(
                "Only the known variants: `switch ({access})` narrows each one and a `never` default checks exhaustiveness. A receiver types raw input as `{or_unknown}` and tests it with `{guard}` first; the other branch is the `{unknown_name}` case (rule R4)."
            ));
        }
        let members: Vec<Ts> = variant_names.iter().map(|n| Ts::Atom(n.clone())).collect();
        let union_ts = if members.len() == 1 {
            members[0].clone()
        } else {
            Ts::Union(members)
        };
        self.push_alias(doc_lines(&ty.docs, &notes), name, union_ts);

        if let Some(base) = &base {
            let members = self.fields_members(&union.fields);
            let doc = Doc(vec![format!(
                "The fields every `{name}` carries besides `{tag}`."
            )]);
            self.push_interface(doc, base, &[], members);
        }
        let tag_key = property_key(tag);
        for (variant, variant_name) in union.variants.iter().zip(&variant_names) {
            self.variant(union, variant, variant_name, base.as_deref(), &tag_key);
        }
        if let Some((unknown_name, or_unknown)) = unknown {
            self.unknown(
                union,
                name,
                &unknown_name,
                &or_unknown,
                base.as_deref(),
                tag,
            );
        }
        self.maps(&ty.name, name, union);
    }

    fn variant(
        &mut self,
        union: &Union,
        variant: &Variant,
        variant_name: &str,
        base: Option<&str>,
        tag_key: &str,
    ) {
        let mut extends: Vec<String> = base.map(str::to_owned).into_iter().collect();
        let mut members = vec![Member::new(tag_key, Self::tag_type(variant))];
        let mut intersect: Option<Ts> = None;
        match &variant.payload {
            Payload::Unit => {}
            Payload::Fields(fields) => members.extend(self.fields_members(fields)),
            Payload::Content(field) => self.field_members(field, &mut members),
            Payload::Type(TypeExpr::Ref(target)) if self.is_empty_record(target) => {}
            Payload::Type(TypeExpr::Ref(target)) if self.is_interface(target) => {
                extends.push(self.name(target));
            }
            Payload::Type(expr) => intersect = Some(self.ts(expr)),
        }
        let mut notes = Vec::new();
        match &variant.reply {
            Reply::Data(expr) => notes.push(format!("Reply data: `{}`.", self.ts(expr).flat())),
            Reply::None => notes.push("No reply.".to_owned()),
            Reply::IsReply => notes.push("Carries the reply to an earlier request.".to_owned()),
            Reply::Unspecified => {}
        }
        let _ = union;
        let doc = doc_lines(&variant.docs, &notes);
        match intersect {
            None => self.push_interface(doc, variant_name, &extends, members),
            Some(payload) => {
                // The payload is not an interface (a union or a map): intersect.
                let tag_object = Ts::Object(
                    members
                        .iter()
                        .map(|m| (m.key.clone(), m.ty.clone()))
                        .collect(),
                );
                let mut parts: Vec<Ts> = extends.into_iter().map(Ts::Atom).collect();
                parts.push(tag_object);
                parts.push(payload);
                self.push_alias(doc, variant_name, Ts::Intersection(parts));
            }
        }
    }

    fn unknown(
        &mut self,
        union: &Union,
        name: &str,
        unknown_name: &str,
        or_unknown: &str,
        base: Option<&str>,
        tag: &str,
    ) {
        let Some(unknown) = &union.unknown else {
            return;
        };
        let tag_key = property_key(tag);
        let mut members = vec![Member::new(tag_key, Ts::Atom("string".into()))];
        match &union.tagging {
            Tagging::Adjacent { content, .. } => members.push(Member::new(
                format!("{}?", property_key(content)),
                Ts::Atom("unknown".into()),
            )),
            _ => members.push(Member::new("[key: string]", Ts::Atom("unknown".into()))),
        }
        let extends: Vec<String> = base.map(str::to_owned).into_iter().collect();
        self.push_interface(
            doc_lines(&unknown.docs, &[]),
            unknown_name,
            &extends,
            members,
        );

        let doc = Doc(vec![format!(
            "`{name}` as received: a known variant, or one whose `{tag}` this schema does not know."
        )]);
        let ts = Ts::Union(vec![
            Ts::Atom(name.to_owned()),
            Ts::Atom(unknown_name.to_owned()),
        ]);
        self.push_alias(doc, or_unknown, ts);

        let tags_name = self.values.claim_value(&format!("{name}Tags"));
        let tags: Vec<String> = union
            .variants
            .iter()
            .flat_map(|v| v.tag.iter().chain(&v.tag_aliases))
            .map(literal)
            .collect();
        let doc = Doc(vec![format!(
            "Every `{tag}` value of the known `{name}` variants, input aliases included."
        )]);
        self.items.push(Decl::Tags {
            doc,
            name: tags_name.clone(),
            elements: tags,
        });

        let guard = self.values.claim_value(&format!("isKnown{name}"));
        let doc = Doc(vec![format!(
            "Whether `message` is a known `{name}` variant; narrows to `{name}` (then switch on `{tag}`) or to `{unknown_name}`."
        )]);
        self.items.push(Decl::Guard {
            doc,
            name: guard,
            param: or_unknown.to_owned(),
            known: name.to_owned(),
            tags: tags_name,
            tag: tag.to_owned(),
        });
    }

    /// The content map (adjacent tagging) and the reply map (when replies are known),
    /// keyed by string tags.
    fn maps(&mut self, model_name: &str, name: &str, union: &Union) {
        let string_tags = union
            .variants
            .iter()
            .all(|v| v.tag.as_ref().is_some_and(|t| t.as_str().is_some()));
        if !string_tags {
            return;
        }
        let keys = |variant: &Variant| -> Vec<String> {
            variant
                .tag
                .iter()
                .chain(&variant.tag_aliases)
                .filter_map(Literal::as_str)
                .map(property_key)
                .collect()
        };
        if let Tagging::Adjacent { tag, content } = &union.tagging {
            let mut members = Vec::new();
            for variant in &union.variants {
                if let Payload::Content(field) = &variant.payload {
                    let ty = self.ts(field.ty.non_null());
                    for key in keys(variant) {
                        members.push(Member::new(key, ty.clone()));
                    }
                }
            }
            if !members.is_empty() {
                let suffix = crate::model::pascal_case(content);
                let map = self.types.claim(&format!("{name}{suffix}Map"));
                let doc = Doc(vec![format!(
                    "The `{content}` type of each `{name}` variant, by `{tag}`."
                )]);
                self.push_interface(doc, &map, &[], members);
                let lookup = self.types.claim(&format!("{name}{suffix}For"));
                let doc = Doc(vec![format!("The `{content}` type for `{tag}` value `T`.")]);
                let ts = Ts::Atom(format!("{map}[T]"));
                self.push_alias(doc, format!("{lookup}<T extends keyof {map}>"), ts);
                self.content_maps.push((map, content.clone()));
            }
        }
        if union.has_replies() {
            let mut members = Vec::new();
            for variant in &union.variants {
                if let Reply::Data(expr) = &variant.reply {
                    let ty = self.ts(expr);
                    for key in keys(variant) {
                        members.push(Member::new(key, ty.clone()));
                    }
                }
            }
            let tag = union.tag_key().unwrap_or("tag");
            let map = self.types.claim(&format!("{name}ReplyMap"));
            let doc = Doc(vec![format!(
                "The reply data type of each `{name}` request that expects a reply, by `{tag}` (rule R8). Requests without a reply are absent."
            )]);
            self.push_interface(doc, &map, &[], members);
            let lookup = self.types.claim(&format!("{name}ReplyFor"));
            let doc = Doc(vec!["The reply data type of request `T`.".to_owned()]);
            let ts = Ts::Atom(format!("{map}[T]"));
            self.push_alias(doc, format!("{lookup}<T extends keyof {map}>"), ts);
            self.replies.push((model_name.to_owned(), map.clone()));
            self.reply_maps.push(map);
        }
    }

    fn value_union(&mut self, ty: &NamedType, name: &str, union: &Union) {
        let mut members = Vec::new();
        let mut extra = Vec::new();
        let mut list = Vec::new();
        for variant in &union.variants {
            let member = match (&union.tagging, &variant.payload) {
                (Tagging::External, Payload::Unit) => {
                    Ts::Atom(variant.tag.as_ref().map(literal).unwrap_or_default())
                }
                (Tagging::External, payload) => {
                    let key =
                        property_key(variant.tag.as_ref().and_then(Literal::as_str).unwrap_or(""));
                    let inner = match payload {
                        Payload::Fields(fields) => {
                            let inner = self.types.claim(&format!(
                                "{name}{}",
                                crate::model::pascal_case(&variant.name)
                            ));
                            extra.push((
                                inner.clone(),
                                variant.docs.clone(),
                                self.fields_members(fields),
                            ));
                            inner
                        }
                        Payload::Type(expr) => self.ts(expr).flat(),
                        Payload::Content(field) => self.ts(&field.ty).flat(),
                        Payload::Unit => String::new(),
                    };
                    Ts::Atom(format!("{{ {key}: {inner} }}"))
                }
                (_, Payload::Fields(fields)) => {
                    let inner = self.types.claim(&format!(
                        "{name}{}",
                        crate::model::pascal_case(&variant.name)
                    ));
                    extra.push((
                        inner.clone(),
                        variant.docs.clone(),
                        self.fields_members(fields),
                    ));
                    Ts::Atom(inner)
                }
                (_, Payload::Type(expr)) => self.ts(expr),
                (_, Payload::Content(field)) => self.ts(&field.ty),
                (_, Payload::Unit) => Ts::Atom("null".into()),
            };
            if let Some(doc) = &variant.docs.description {
                list.push(format!("- `{}`: {}", member.flat(), doc.replace('\n', " ")));
            }
            match member {
                Ts::Union(parts) => members.extend(parts),
                other => members.push(other),
            }
        }
        let mut notes = Vec::new();
        if !list.is_empty() {
            notes.push(list.join("\n"));
        }
        if union.variants.iter().any(|v| match &v.payload {
            Payload::Type(expr) => is_int64(expr),
            _ => false,
        }) {
            notes.push(INT64_NOTE.to_owned());
        }
        let doc = doc_lines(&ty.docs, &notes);
        let ts = if members.len() == 1 {
            members.remove(0)
        } else {
            Ts::Union(members)
        };
        if union.fields.is_empty() {
            self.push_alias(doc, name, ts);
        } else {
            let base = self.types.claim(&format!("{name}Base"));
            let group: Vec<String> = match &ts {
                Ts::Union(parts) => parts.iter().map(Ts::flat).collect(),
                other => vec![other.flat()],
            };
            self.items.push(Decl::Intersection {
                doc,
                name: name.to_owned(),
                first: base.clone(),
                groups: vec![group],
            });
            let members = self.fields_members(&union.fields);
            let doc = Doc(vec![format!("The fields every `{name}` carries.")]);
            self.push_interface(doc, &base, &[], members);
        }
        for (inner, docs, members) in extra {
            self.push_interface(doc_lines(&docs, &[]), &inner, &[], members);
        }
    }

    /// `ReplyFor<T>` (and `PayloadFor<T>`, `ParamsFor<T>` …) when one union of the
    /// module has such a map.
    fn shorthands(&mut self) {
        if let [map] = self.reply_maps.as_slice() {
            let map = map.clone();
            if self.types.try_claim("ReplyFor") {
                let doc = Doc(vec![format!(
                    "Shorthand: the reply data type of request `T` (see `{map}`)."
                )]);
                let ts = Ts::Atom(format!("{map}[T]"));
                self.push_alias(doc, format!("ReplyFor<T extends keyof {map}>"), ts);
            }
        }
        if let [(map, content)] = self.content_maps.as_slice() {
            let (map, content) = (map.clone(), content.clone());
            let short = format!("{}For", crate::model::pascal_case(&content));
            if super::names::is_usable(&short) && self.types.try_claim(&short) {
                let doc = Doc(vec![format!(
                    "Shorthand: the `{content}` type for tag `T` (see `{map}`)."
                )]);
                let ts = Ts::Atom(format!("{map}[T]"));
                self.push_alias(doc, format!("{short}<T extends keyof {map}>"), ts);
            }
        }
    }
    /// The exported decoders and encoders: `decodeX`, `parseX` and `encodeX` per named
    /// type this module renders, and `decodeXReply`/`encodeXReply` per union with a
    /// reply map. Also the type names their signatures use.
    fn api(
        &mut self,
        module: &Module,
        names: &codec::Names,
        result: &str,
        json: &str,
    ) -> (Vec<ApiFunction>, Vec<String>) {
        let mut api = Vec::new();
        let mut used = Vec::new();
        let param = |name: &str, ty: &str| Param {
            name: name.to_owned(),
            ty: ty.to_owned(),
        };
        let entry_points = self.model.entry_points();
        for ty in &self.model.types {
            // A root this module imports (a root `anyOf` of other documents' types)
            // still gets its codecs here: the document's messages are decoded from it.
            if !module.renders(&ty.name) && !entry_points.contains(&ty.name.as_str()) {
                continue;
            }
            let Some(reader) = names.reader(&ty.name) else {
                continue;
            };
            let name = self.name(&ty.name);
            // An open union's decoder returns its `…OrUnknown` type.
            let decoded = self
                .or_unknown
                .get(&ty.name)
                .cloned()
                .unwrap_or(name.clone());
            used.push(decoded.clone());
            let unknown = if decoded == name {
                String::new()
            } else {
                format!(" (or, for a tag this schema does not know, the `{decoded}` case: rule R4)")
            };
            let decode = self.values.claim_value(&format!("decode{name}"));
            api.push(ApiFunction {
                doc: Doc(vec![
                    format!("Decodes a `{name}` from a parsed JSON value{unknown}, checking every rule the schema states; input aliases come back in their canonical spelling. Never throws: a value that breaks a rule gives every violation, located by JSON Pointer."),
                ]),
                name: decode,
                generic: None,
                params: vec![param("value", "unknown")],
                returns: format!("{result}<{decoded}>"),
                body: vec![format!("  return $.decode(value, {reader});")],
            });
            let parse = self.values.claim_value(&format!("parse{name}"));
            api.push(ApiFunction {
                doc: Doc(vec![format!(
                    "Parses JSON text and decodes a `{name}` from it (see `decode{name}`); text that is not JSON is a `syntax` violation."
                )]),
                name: parse,
                generic: None,
                params: vec![param("text", "string")],
                returns: format!("{result}<{decoded}>"),
                body: vec![format!("  return $.parse(text, {reader});")],
            });
            let encode = self.values.claim_value(&format!("encode{name}"));
            let writer = names.writer(&ty.name).unwrap_or("$.copy");
            api.push(ApiFunction {
                doc: Doc(vec![format!(
                    "The wire JSON of a `{name}`: canonical spellings of tags, enum values and keys, no `undefined` members. `JSON.stringify` it to send it."
                )]),
                name: encode,
                generic: None,
                params: vec![param("value", &decoded)],
                returns: json.to_owned(),
                body: vec![format!("  return {writer}(value);")],
            });
        }
        let replies = self.replies.clone();
        for (model_name, map) in replies {
            if !module.renders(&model_name) {
                continue;
            }
            let Some(TypeKind::Union(union)) = self.model.get(&model_name).map(|t| &t.kind) else {
                continue;
            };
            let name = self.name(&model_name);
            used.push(map.clone());
            let mut decode_cases = vec!["  switch (tag) {".to_owned()];
            let mut encode_cases = decode_cases.clone();
            for variant in &union.variants {
                let Reply::Data(expr) = &variant.reply else {
                    continue;
                };
                let Some((reader, writer)) = names.reply(expr) else {
                    continue;
                };
                for tag in variant.tag.iter().chain(&variant.tag_aliases) {
                    let Some(tag) = tag.as_str() else { continue };
                    let case = format!("    case {}:", crate::model::json_string(tag));
                    decode_cases.push(case.clone());
                    encode_cases.push(case);
                }
                decode_cases.push(format!("      return $.decode(value, {reader});"));
                encode_cases.push(format!(
                    "      return {}(value);",
                    writer.unwrap_or("$.copy")
                ));
            }
            decode_cases.push("  }".to_owned());
            decode_cases.push("  return $.decode(value, $.noReply);".to_owned());
            encode_cases.push("  }".to_owned());
            encode_cases.push("  return $.copy(value);".to_owned());
            let decode = self.values.claim_value(&format!("decode{name}Reply"));
            api.push(ApiFunction {
                doc: Doc(vec![format!(
                    "Decodes the reply data to the `{name}` request tagged `tag` (rule R8), as `decode{name}` decodes a message; a tag whose request has no reply data is a violation."
                )]),
                name: decode,
                generic: Some(("T".to_owned(), format!("keyof {map}"))),
                params: vec![param("tag", "T"), param("value", "unknown")],
                returns: format!("{result}<{map}[T]>"),
                body: decode_cases,
            });
            let encode = self.values.claim_value(&format!("encode{name}Reply"));
            api.push(ApiFunction {
                doc: Doc(vec![format!(
                    "The wire JSON of the reply data to the `{name}` request tagged `tag` (see `encode{name}`)."
                )]),
                name: encode,
                generic: Some(("T".to_owned(), format!("keyof {map}"))),
                params: vec![param("tag", "T"), param("value", &format!("{map}[T]"))],
                returns: json.to_owned(),
                body: encode_cases,
            });
        }
        used.sort();
        used.dedup();
        (api, used)
    }
}
