//! The schema model: a language-neutral description of the types a JSON Schema
//! (draft 2020-12) document defines, built from the schema alone. Every code generator
//! (TypeScript, Swift) renders this model; none of them reads JSON Schema itself.
//!
//! # Entry points
//!
//! * [`parse_file`] reads and parses one schema file; [`parse_str`] parses text and
//!   [`from_value`] an already parsed document. `file` is only used in errors.
//! * Every failure is an [`Error`] `{ file, pointer, message }`, displayed as
//!   `file:json-pointer: message`. Unsupported constructs are errors, never silently
//!   dropped; hostile input (deep nesting, `$ref` loops, remote `$ref`s, huge documents)
//!   gives an error, never a panic or a hang.
//!
//! # What the model holds
//!
//! A [`Model`] is a list of [`NamedType`]s (unique names, deterministic order) plus the
//! names of the document's root types. A named type is one of ([`TypeKind`]):
//!
//! * [`Record`]: an object with [`Field`]s. Each field has its exact wire name, a
//!   [`TypeExpr`], `required`, docs, an optional `default` and its input `aliases` (other
//!   wire names a receiver accepts for it; see [`Field::aliases`]).
//! * [`Enum`]: a closed set of literal values, each with docs and input aliases. Almost
//!   always strings ([`Enum::is_string`]); hand-written schemas may mix literal types.
//! * [`Union`]: a choice between [`Variant`]s, with a [`Tagging`] style:
//!   [`Tagging::Internal`] (`{"type": "a", ...fields}`), [`Tagging::Adjacent`]
//!   (`{"type": "a", "payload": ...}`), [`Tagging::External`] (`{"a": ...}` or `"a"`) or
//!   [`Tagging::Untagged`]. A union may have shared [`Union::fields`] that every variant
//!   carries beside the tag: an *envelope* is an adjacently tagged union with shared
//!   fields (`{type, id, sender, payload}`); a struct with a flattened internally tagged
//!   enum is an internally tagged union with shared fields. An open union has an
//!   [`Union::unknown`] case for tags it does not know (rule R4).
//! * an alias of a [`TypeExpr`] (`$ref` chains, a def that is just `string`, ...).
//!
//! Type expressions ([`TypeExpr`]) are anonymous: primitives (sized integers with
//! [`IntWidth`], numbers and strings with their `format`), literals, arrays, tuples,
//! maps (`additionalProperties`), arbitrary JSON, nullable types and references to named
//! types by name (recursion is just a reference). Composite types written inline in the
//! schema (an object, an enum or a union inside a property) are hoisted into named
//! types: their name is the parent's name followed by the property name in PascalCase
//! (`Parent` + `topErrorFiles` → `ParentTopErrorFiles`; array items add `Item`, map
//! values `Value`), made unique with a numeric suffix; [`NamedType::origin`] tells such
//! types apart from `$defs` entries.
//!
//! # Presence and null
//!
//! A field is required or optional ([`Field::required`]); its type may be
//! [`TypeExpr::Nullable`]. [`Field::presence`] combines both. Under the catalog's rule R3
//! an optional nullable field treats `null` like absence.
//!
//! # Request/reply pairing
//!
//! Each union variant has a [`Reply`]: the data type its reply carries, "no reply", "this
//! variant carries replies", or unspecified (hand-written schemas). It comes from the
//! `x-symgen-reply` / `x-symgen-is-reply` keywords that `symgen schema` exports.
//!
//! # How shapes are recognised
//!
//! Structurally, so that hand-written schemas work: a `oneOf`/`anyOf` whose members all
//! have a required property with a distinct constant value is internally tagged by that
//! property (adjacently tagged when every variant has at most one other property, always
//! the same one, and at least two variants have it); members that are single-key objects
//! (and string constants) are externally tagged; anything else is untagged. `anyOf`/`oneOf`/`type` lists with `null` make the
//! rest nullable; `$ref` beside other keywords and `allOf` merge objects; `allOf` members
//! that only add validation (required sets, `not`, `if`/`then`) are ignored. The
//! `x-symgen-*` keywords of symgen's own schemas are hints: the tag and content keys, the
//! unknown variant, aliases and the reply pairing.
//!
//! Nothing here is specific to a target language: names are the schema's own (`$defs`
//! keys, variant `title`s or tag values); emitters convert case, escape reserved words
//! and resolve collisions.

pub mod conform;
mod error;
mod outline;
mod parse;
mod walk;

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

pub use error::{Error, Reach, Warning};
pub use outline::{expr_text, outline};
pub(crate) use parse::{
    INSTANCE_VALUED, MAX_DEPTH as MAX_SCHEMA_DEPTH, META_SCHEMA_POINTER, SCHEMA_MAPS,
    is_meta_schema, percent_decode, subschemas_mut,
};
pub use parse::{Sources, explicit_reading, pascal_case};

/// A parsed schema document.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// The file the model was read from, as given by the caller (used in errors).
    pub file: String,
    /// `$id` of the document, if any.
    pub id: Option<String>,
    /// The document's `title` and `description`.
    pub docs: Docs,
    /// `x-symgen-protocol`: set for symgen's own protocol schemas.
    pub protocol: Option<ProtocolInfo>,
    /// Names of the root types: the message types of the protocol (from
    /// `x-symgen-protocol.roots`, the root `anyOf` of `$ref`s, or the document itself
    /// when its root is a type). Empty when the document only has `$defs`.
    pub roots: Vec<String>,
    /// Every named type: `$defs` entries in document order, then the root type (when the
    /// root is a type itself), then hoisted inline types in discovery order.
    pub types: Vec<NamedType>,
    /// What the schema says that the model does not represent (validation keywords the
    /// generated types do not enforce): generation goes on, the CLI prints them.
    pub warnings: Vec<Warning>,
    index: HashMap<String, usize>,
    /// What [`Model::resolve`] gives for each type (by position in `types`), computed
    /// once the model is complete; empty while it is being built.
    resolved: Vec<Option<usize>>,
}

impl Model {
    /// The named type called `name`.
    pub fn get(&self, name: &str) -> Option<&NamedType> {
        self.index.get(name).map(|&i| &self.types[i])
    }

    /// The names of the types a message is decoded as: the roots, or, in a document
    /// of definitions only, every `$defs` entry (in document order). Each language's
    /// codecs and the conformance vectors cover exactly these.
    pub fn entry_points(&self) -> Vec<&str> {
        if !self.roots.is_empty() {
            return self.roots.iter().map(String::as_str).collect();
        }
        self.types
            .iter()
            .filter(|t| matches!(t.origin, Origin::Defs))
            .map(|t| t.name.as_str())
            .collect()
    }

    /// Indexes the finished `types`: by name, and where each one's aliases lead.
    fn reindex(&mut self) {
        self.index = self
            .types
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), i))
            .collect();
        self.resolved = resolutions(&self.types, &self.index);
    }

    /// Follows aliases (`A = B`, `B = C`) from `name` to the first type that is not an
    /// alias of a plain reference. Returns `None` for unknown names.
    pub fn resolve<'a>(&'a self, name: &str) -> Option<&'a NamedType> {
        let &at = self.index.get(name)?;
        if self.resolved.len() == self.types.len() {
            return self.resolved[at].map(|i| &self.types[i]);
        }
        let mut current = self.get(name)?;
        for _ in 0..=self.types.len() {
            match &current.kind {
                TypeKind::Alias(TypeExpr::Ref(next)) => current = self.get(next)?,
                _ => return Some(current),
            }
        }
        Some(current)
    }
}

/// Where each type's chain of plain aliases (`A = B`, `B = C`) ends, by position in
/// `types` (`None`: at a name no type has). Every chain is followed once, its steps
/// remembered, so a chain of n aliases costs O(n) for all of them, not O(n²).
fn resolutions(types: &[NamedType], index: &HashMap<String, usize>) -> Vec<Option<usize>> {
    let mut resolved: Vec<Option<Option<usize>>> = vec![None; types.len()];
    let mut on_path = vec![false; types.len()];
    for start in 0..types.len() {
        let mut path = Vec::new();
        let mut current = start;
        let end = loop {
            if let Some(end) = resolved[current] {
                break end;
            }
            // A chain that comes back to itself (the parser refuses one) ends there.
            if on_path[current] {
                break Some(current);
            }
            on_path[current] = true;
            path.push(current);
            match &types[current].kind {
                TypeKind::Alias(TypeExpr::Ref(next)) => match index.get(next) {
                    Some(&next) => current = next,
                    None => break None,
                },
                _ => break Some(current),
            }
        };
        for step in path {
            on_path[step] = false;
            resolved[step] = Some(end);
        }
    }
    resolved.into_iter().map(Option::flatten).collect()
}

/// `x-symgen-protocol`: identifies one of symgen's protocols.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtocolInfo {
    /// The protocol id (also the schema file stem), e.g. `chat`.
    pub id: String,
    /// A short code, e.g. `P1`, when the protocol has one.
    pub code: Option<String>,
    /// `replyData`: JSON pointer, in a reply message, of the typed reply data
    /// (`/payload/data` on the P1 bus, `/result` for JSON-RPC), when replies carry it.
    pub reply_data: Option<String>,
    /// `parties`: the programs that send and receive the messages, in declaration order.
    pub parties: Vec<Party>,
}

/// Documentation carried over from the schema.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Docs {
    /// `title`, when it is not used as a name.
    pub title: Option<String>,
    /// `description`.
    pub description: Option<String>,
    /// `deprecated: true`.
    pub deprecated: bool,
    /// Who sends and who receives the message (`x-symgen-sent-by` /
    /// `x-symgen-received-by` on a union variant or a root definition), when declared.
    pub direction: Direction,
}

/// Who sends and who receives a message type, by party name (see
/// [`ProtocolInfo::parties`]). `None` means the schema does not say; an empty list says
/// that no live program sends (or receives) it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Direction {
    /// `x-symgen-sent-by`.
    pub sent_by: Option<Vec<String>>,
    /// `x-symgen-received-by`.
    pub received_by: Option<Vec<String>>,
}

impl Direction {
    /// Whether neither side is declared.
    pub fn is_unknown(&self) -> bool {
        self.sent_by.is_none() && self.received_by.is_none()
    }
}

/// A program that takes part in a protocol (`x-symgen-protocol.parties`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Party {
    /// Its name, as message types use it.
    pub name: String,
    /// What it is.
    pub description: String,
}

/// Where a named type comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A `$defs` (or `definitions`) entry; the name is its key.
    Defs,
    /// The document root, which is a type itself; named from `title` or the file stem.
    Root,
    /// A schema of another document, named by a `$ref`: at `pointer` of the document
    /// messages call `file` (the caller's name for it when it is one of its inputs).
    /// A package generated from both documents renders it once, in the module of
    /// `file` (see [`crate::emit::Module::imports`]).
    Document {
        /// The document, as the caller named it.
        file: String,
        /// JSON Pointer of the schema in that document.
        pointer: String,
    },
    /// A composite type written inline, hoisted out of the named type `parent`.
    Inline {
        /// The named type it was found in.
        parent: String,
    },
}

/// A type with a name.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedType {
    /// The unique name: the `$defs` key, or a composed name for hoisted types.
    pub name: String,
    /// JSON pointer of its schema in the document.
    pub pointer: String,
    /// Its documentation.
    pub docs: Docs,
    /// What it is.
    pub kind: TypeKind,
    /// Where it comes from.
    pub origin: Origin,
}

/// The kinds of named types.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeKind {
    /// An object with known fields.
    Record(Record),
    /// A closed set of literal values.
    Enum(Enum),
    /// A tagged or untagged choice.
    Union(Union),
    /// Another name for a type expression.
    Alias(TypeExpr),
}

/// An object type with known fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The fields, in schema order. Input-alias properties are folded into their
    /// canonical field ([`Field::aliases`]), not listed separately.
    pub fields: Vec<Field>,
    /// What other keys may appear.
    pub additional: Additional,
    /// Cross-field rules the object's `allOf` states beyond each field's own type (only
    /// the shapes [`Constraint`] lists; alias rules are covered by [`Field::aliases`]).
    pub constraints: Vec<Constraint>,
}

/// A cross-field rule of an object, recognised from validation-only `allOf` members.
#[derive(Debug, Clone, PartialEq)]
pub enum Constraint {
    /// At least one of these fields is present and not `null`: `anyOf` of single-field
    /// `required` sets (each optionally saying the field is `not` `null`).
    AtLeastOneOf(Vec<String>),
    /// `field` is present and not `null` when field `when` has one of `values`:
    /// `if: {properties: {when: {const | enum}}, required: [when]}, then: {required:
    /// [field]}`.
    RequiredWhen {
        /// The field that becomes required.
        field: String,
        /// The field whose value decides.
        when: String,
        /// The values of `when` that make `field` required (input aliases included).
        values: Vec<Literal>,
    },
}

/// What an object allows besides its known fields.
#[derive(Debug, Clone, PartialEq)]
pub enum Additional {
    /// Other keys may appear and are ignored (the JSON Schema default; rule R2).
    Allowed,
    /// No other keys (`additionalProperties: false`).
    Forbidden,
    /// Other keys map to values of this type.
    Typed(TypeExpr),
}

/// A field of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The exact wire name (the property key).
    pub name: String,
    /// The value's type; [`TypeExpr::Nullable`] when `null` is allowed.
    pub ty: TypeExpr,
    /// Whether the key must be present. For a field with [`Field::aliases`], it means
    /// "exactly one of the wire name and its aliases must be present".
    pub required: bool,
    /// Its documentation.
    pub docs: Docs,
    /// The schema's `default`, when given: the value a receiver assumes when absent.
    pub default: Option<Value>,
    /// Other wire names accepted on input for this field, never emitted
    /// (`x-symgen-aliases` / `x-symgen-alias-of`).
    pub aliases: Vec<String>,
    /// JSON pointer of the property schema.
    pub pointer: String,
}

/// Required/optional combined with nullability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// The key must be present and not null.
    Required,
    /// The key must be present; the value may be null.
    RequiredNullable,
    /// The key may be absent; when present it is not null.
    Optional,
    /// The key may be absent or null; both mean "no value" (rule R3).
    OptionalNullable,
}

impl Field {
    /// The field's presence.
    pub fn presence(&self) -> Presence {
        match (self.required, self.ty.is_nullable()) {
            (true, false) => Presence::Required,
            (true, true) => Presence::RequiredNullable,
            (false, false) => Presence::Optional,
            (false, true) => Presence::OptionalNullable,
        }
    }
}

/// A set of literal values: closed, or open to other strings.
#[derive(Debug, Clone, PartialEq)]
pub struct Enum {
    /// The canonical values, in schema order.
    pub values: Vec<EnumValue>,
    /// Whether any other string is accepted too (`x-symgen-unknown` beside the values,
    /// as `symgen schema` writes for an enum with `#[serde(other)]`). Receivers keep the
    /// string they got.
    pub open: bool,
}

impl Enum {
    /// Whether every value (and alias) is a string.
    pub fn is_string(&self) -> bool {
        self.values.iter().all(|v| {
            matches!(v.value, Literal::String(_))
                && v.aliases.iter().all(|a| matches!(a, Literal::String(_)))
        })
    }
}

/// One value of an [`Enum`].
#[derive(Debug, Clone, PartialEq)]
pub struct EnumValue {
    /// The canonical value.
    pub value: Literal,
    /// Its documentation (from `oneOf: [{const, description}]`).
    pub docs: Docs,
    /// Values accepted on input as this one and never emitted.
    pub aliases: Vec<Literal>,
}

/// A JSON literal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Literal {
    /// A string.
    String(String),
    /// A number, exactly as written in the schema.
    Number(serde_json::Number),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

impl Literal {
    /// The string, for string literals.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Literal::String(s) => Some(s),
            _ => None,
        }
    }

    /// The literal as JSON text (`"a"`, `1`, `true`, `null`).
    pub fn to_json(&self) -> String {
        match self {
            Literal::String(s) => json_string(s),
            Literal::Number(n) => n.to_string(),
            Literal::Bool(b) => b.to_string(),
            Literal::Null => "null".to_owned(),
        }
    }
}

/// `text` as a JSON string literal that the string syntax of every target language
/// reads the same (JavaScript, Python): JSON's escapes, and also the line terminators
/// JSON lets through raw (U+0085, U+2028, U+2029), so no reader can end a line in it,
/// and the invisible and reordering characters (zero widths, bidirectional controls,
/// the byte-order mark), so a reader of the code sees what the literal holds.
pub fn json_string(text: &str) -> String {
    let json = Value::from(text).to_string();
    let escaped = |c: char| {
        matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}') || crate::emit::text::is_invisible(c)
    };
    if !json.contains(escaped) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        if escaped(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// A choice between variants.
#[derive(Debug, Clone, PartialEq)]
pub struct Union {
    /// How the variant is told apart on the wire.
    pub tagging: Tagging,
    /// Fields every variant carries beside the tag (envelope fields, the fields of a
    /// struct a tagged enum is flattened into). Empty for plain unions.
    pub fields: Vec<Field>,
    /// The known variants, in schema order.
    pub variants: Vec<Variant>,
    /// The open case for unknown tags, when the union is open (rule R4).
    pub unknown: Option<UnknownVariant>,
    /// How an untagged union picks among variants that all accept a value: the first
    /// (serde's `untagged`, for symgen's own schemas), or else the one that leaves the
    /// fewest keys unknown (so a variant with few required fields cannot swallow a
    /// richer value).
    pub first_match: bool,
}

impl Union {
    /// The tag key (internal and adjacent tagging).
    pub fn tag_key(&self) -> Option<&str> {
        match &self.tagging {
            Tagging::Internal { tag } | Tagging::Adjacent { tag, .. } => Some(tag),
            Tagging::External | Tagging::Untagged => None,
        }
    }

    /// Whether any variant has reply information (`x-symgen-reply`/`x-symgen-is-reply`).
    pub fn has_replies(&self) -> bool {
        self.variants
            .iter()
            .any(|v| !matches!(v.reply, Reply::Unspecified))
    }
}

/// How a union's variants are told apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tagging {
    /// The tag is a property beside the variant's fields: `{"type": "a", "x": 1}`.
    Internal {
        /// The tag key.
        tag: String,
    },
    /// The tag and the content are two properties: `{"type": "a", "payload": {...}}`.
    Adjacent {
        /// The tag key.
        tag: String,
        /// The content key.
        content: String,
    },
    /// The variant name is the only key (`{"a": {...}}`), or the whole value is the
    /// name (`"a"`) for variants without content.
    External,
    /// No tag: the first variant whose shape matches.
    Untagged,
}

/// One known case of a [`Union`].
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// Its name: the schema's `title`, else the tag value, else (untagged) the
    /// referenced type's name or the kind of value (`String`, `Integer`, ...).
    pub name: String,
    /// The tag value (`None` for untagged unions). External tags are strings.
    pub tag: Option<Literal>,
    /// Other tag values accepted on input as this variant, never emitted.
    pub tag_aliases: Vec<Literal>,
    /// Its documentation.
    pub docs: Docs,
    /// What it carries.
    pub payload: Payload,
    /// The reply pairing (R8).
    pub reply: Reply,
    /// JSON pointer of the variant's schema.
    pub pointer: String,
}

/// What a variant carries besides its tag.
#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    /// Nothing (internal: only the tag; adjacent: no content key; external: the bare
    /// string).
    Unit,
    /// Fields written inline in the variant: beside the tag (internal), or the whole
    /// object (untagged, external content).
    Fields(Vec<Field>),
    /// The variant's value is this type: internal tagging puts the fields of this
    /// (object) type beside the tag, the schemars "newtype variant" shape; untagged and
    /// external variants hold a value of this type.
    Type(TypeExpr),
    /// Adjacent tagging: the content property (its name is the union's content key).
    /// When not `required`, or nullable, absent/`null` content stands for an empty
    /// object (R3).
    Content(Box<Field>),
}

/// The reply pairing of a request variant (R8).
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// The schema says nothing (hand-written schemas).
    Unspecified,
    /// The sender expects no reply (`x-symgen-reply: null`).
    None,
    /// The reply carries data of this type (`x-symgen-reply: <schema>`).
    Data(TypeExpr),
    /// This variant is the reply message that carries other requests' reply data
    /// (`x-symgen-is-reply: true`).
    IsReply,
}

/// The open case of a union: a tag this schema does not know.
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownVariant {
    /// Its name (the schema's `title`, else `Unknown`).
    pub name: String,
    /// Its documentation.
    pub docs: Docs,
    /// JSON pointer of its schema.
    pub pointer: String,
}

/// An anonymous type.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeExpr {
    /// Any JSON value (`true`, `{}`).
    Any,
    /// Only `null` (`{"type": "null"}`).
    Null,
    /// `true` or `false`.
    Bool,
    /// An integer.
    Integer(IntType),
    /// A number.
    Number(NumberType),
    /// A string.
    String(StringType),
    /// Exactly this value (`const`, or a one-value `enum`).
    Literal(Literal),
    /// An array of this type.
    Array(Box<TypeExpr>),
    /// A fixed-length array (`prefixItems`).
    Tuple(Vec<TypeExpr>),
    /// An object used as a string-keyed map of this type (`additionalProperties`).
    Map(Box<TypeExpr>),
    /// The named type of this name.
    Ref(String),
    /// The inner type or `null`. Never nested, never around [`TypeExpr::Any`] or
    /// [`TypeExpr::Null`].
    Nullable(Box<TypeExpr>),
}

impl TypeExpr {
    /// Whether `null` is allowed.
    pub fn is_nullable(&self) -> bool {
        matches!(self, TypeExpr::Nullable(_) | TypeExpr::Any | TypeExpr::Null)
    }

    /// The type without `null` (itself for non-nullable types).
    pub fn non_null(&self) -> &TypeExpr {
        match self {
            TypeExpr::Nullable(inner) => inner,
            other => other,
        }
    }

    /// Makes the type nullable, keeping the invariants of [`TypeExpr::Nullable`].
    pub fn nullable(self) -> TypeExpr {
        match self {
            TypeExpr::Nullable(_) | TypeExpr::Any | TypeExpr::Null => self,
            TypeExpr::Literal(Literal::Null) => TypeExpr::Null,
            other => TypeExpr::Nullable(Box::new(other)),
        }
    }
}

/// An integer type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntType {
    /// The storage width: from `format` (`int8` … `uint64`; `int`/`uint` are 64-bit),
    /// else the smallest of 8/16/32/64 bits holding `minimum..=maximum` when both are
    /// given, else [`IntWidth::I64`].
    pub width: IntWidth,
    /// `format`, as written.
    pub format: Option<String>,
    /// The smallest allowed value (`minimum`, or `exclusiveMinimum` + 1).
    pub minimum: Option<i128>,
    /// The largest allowed value (`maximum`, or `exclusiveMaximum` − 1).
    pub maximum: Option<i128>,
    /// Whether a value must be written as an integer literal (`1.0` and `-0` are not
    /// values): a Rust integer `format`, which serde reads so, or an `integer` of a
    /// draft-04 document, which that draft defines so. Otherwise JSON Schema's
    /// `integer` takes any number whose fraction is zero.
    pub literal_only: bool,
}

/// The `format`s schemars writes for Rust's integer types: serde reads such an integer
/// from an integer literal only (`1.0` and `-0` are floats to it).
pub const RUST_INTEGER_FORMATS: [&str; 12] = [
    "int8", "int16", "int32", "int64", "int128", "int", "uint8", "uint16", "uint32", "uint64",
    "uint128", "uint",
];

/// Sized integer widths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IntWidth {
    /// Signed 8-bit.
    I8,
    /// Signed 16-bit.
    I16,
    /// Signed 32-bit.
    I32,
    /// Signed 64-bit.
    I64,
    /// Unsigned 8-bit.
    U8,
    /// Unsigned 16-bit.
    U16,
    /// Unsigned 32-bit.
    U32,
    /// Unsigned 64-bit.
    U64,
}

impl IntWidth {
    /// Number of bits.
    pub fn bits(self) -> u32 {
        match self {
            IntWidth::I8 | IntWidth::U8 => 8,
            IntWidth::I16 | IntWidth::U16 => 16,
            IntWidth::I32 | IntWidth::U32 => 32,
            IntWidth::I64 | IntWidth::U64 => 64,
        }
    }

    /// Whether negative values are allowed.
    pub fn signed(self) -> bool {
        matches!(
            self,
            IntWidth::I8 | IntWidth::I16 | IntWidth::I32 | IntWidth::I64
        )
    }

    /// The natural range of the width: `(lowest, highest)`.
    pub fn range(self) -> (i128, i128) {
        let bits = self.bits();
        if self.signed() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        }
    }
}

/// A floating-point number type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberType {
    /// `format` (`float`, `double`), as written.
    pub format: Option<String>,
}

/// A string type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringType {
    /// `format` (`uuid`, `date-time`, `uri`, ...), as written.
    pub format: Option<String>,
}

/// Reads and parses one schema file. The path, as given, names the file in errors.
/// Its `$ref`s may name the schema files beside it (by relative path or `$id`).
pub fn parse_file(path: &Path) -> Result<Model, Error> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|err| Error::new(&file, "", format!("cannot read file: {err}")))?;
    let value =
        crate::schema_file::parse(&file, &text).map_err(|err| Error::new(&file, "", err))?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    from_document(&file, Some(path), &value, &Sources::none().with_root(dir))
}

/// Parses schema text (YAML when `file` ends in `.yaml` or `.yml`, JSON otherwise);
/// `file` names it in errors and sets [`Model::file`].
pub fn parse_str(file: &str, text: &str) -> Result<Model, Error> {
    let value = crate::schema_file::parse(file, text).map_err(|err| Error::new(file, "", err))?;
    from_value(file, &value)
}

/// Builds the model of an already parsed schema document; its `$ref`s stay inside it.
pub fn from_value(file: &str, document: &Value) -> Result<Model, Error> {
    parse::build(file, None, document, &Sources::none())
}

/// Builds the model of a schema document that may `$ref` other documents: the inputs
/// and directories `sources` allows (see [`Sources`]). `path` is where the document
/// lives, for resolving relative references.
pub fn from_document(
    file: &str,
    path: Option<&Path>,
    document: &Value,
    sources: &Sources,
) -> Result<Model, Error> {
    parse::build(file, path, document, sources)
}
