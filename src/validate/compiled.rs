//! A schema document compiled for validation: one `jsonschema` validator per root (the
//! `$defs` entries listed in `x-symgen-protocol.roots`, or the whole document for a plain
//! schema), the tag of each root union, and reply schemas on demand.

use std::path::PathBuf;
use std::sync::OnceLock;

use jsonschema::Validator as Engine;
use jsonschema::json::{Json, SerdeJson};

use super::narrow::{Narrow, Route, Walked};
use serde_json::{Map, Value};

use super::checks::{Checks, Verdict};
use super::const_unions;
use super::discriminator::{self, Discriminator};
use super::explain::{EXPLAIN_POINTER_BYTES, Explainer, best_alternative, unexplained};
use super::faults::{self, Fault};
use super::few::{Few, same};
use super::message::{Member, Message};
use super::ref_chains;
use super::report::{Name, Violation, copied, interned};
use super::retrieve::LocalRetriever;
use super::tape::{self, json::TapeJson, json::TapeNode};
use crate::{Error, Result};

/// How user schemas are compiled.
#[derive(Debug, Clone, Default)]
pub struct SchemaOptions {
    /// Where `$ref`s to other documents are read from (never the network).
    pub retriever: LocalRetriever,
    /// The document's own location, so relative `$ref`s resolve against it
    /// (`file:///abs/path/schema.json`).
    pub base_uri: Option<String>,
}

impl SchemaOptions {
    /// Options for a schema file at `path`: relative references resolve next to it.
    pub fn for_file(path: &std::path::Path) -> Self {
        let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| PathBuf::from(path));
        let mut retriever = LocalRetriever::new();
        if let Some(dir) = absolute.parent() {
            retriever = retriever.allow(dir);
        }
        Self {
            retriever,
            base_uri: Some(format!("file://{}", absolute.display())),
        }
    }
}

/// One root of a compiled document.
pub struct CompiledRoot {
    /// The root's name (`$defs` key, or the document's title).
    pub name: String,
    /// The compiled validator.
    pub engine: Engine,
    /// The tag of the root when it is a tagged union.
    pub union: Option<Discriminator>,
    /// The content key when the root is a symgen envelope (`payload`, `params`).
    pub content_key: Option<String>,
    /// The schema `engine` was built from.
    source: Value,
    /// Where the root's schema is in the document (`""` for the whole document).
    pointer: String,
    /// The known string tags of `union`, as the reports name them.
    known_strings: Few<Name, ()>,
    /// Whether `union` is open (takes unknown tags).
    open: bool,
    /// Built from [`faults::visible`] of `source` when a message with faults comes.
    visible: OnceLock<Option<Engine>>,
    /// `engine` for messages on their tape, built when the first such message is
    /// explained by the whole root (`None`: it did not compile).
    on_tape: OnceLock<Option<jsonschema::Validator<TapeJson>>>,
    /// The root split into its union's alternatives, to explain a rejected message by
    /// the alternative its tag selects (`None`: not such a union).
    narrow: Option<Narrow>,
}

impl CompiledRoot {
    fn new(
        name: String,
        engine: Engine,
        union: Option<Discriminator>,
        content_key: Option<String>,
        source: Value,
        (document, pointer): (&Value, String),
    ) -> Self {
        let known_strings = union
            .iter()
            .flat_map(Discriminator::known_tags)
            .filter_map(Value::as_str)
            .map(|tag| (interned(tag), ()))
            .collect();
        Self {
            name,
            engine,
            open: union.as_ref().is_some_and(Discriminator::is_open),
            union,
            content_key,
            source,
            narrow: Narrow::new(document, &pointer),
            pointer,
            known_strings,
            visible: OnceLock::new(),
            on_tape: OnceLock::new(),
        }
    }

    /// The root's engine for a message on its tape: the same schema, read the same way.
    fn engine_on_tape(&self, options: &SchemaOptions) -> Option<&jsonschema::Validator<TapeJson>> {
        self.on_tape
            .get_or_init(|| build(options, &self.source).ok())
            .as_ref()
    }

    /// The tag the message carries, when this root is a tagged union and the tag is a
    /// string.
    pub fn tag_of<'v>(&self, value: &'v Value) -> Option<&'v str> {
        self.tag_member(value)?.as_str()
    }

    /// Whether an accepted message is this open union's unknown case (R4): it has a
    /// tag, and the root does not know it.
    pub fn takes_as_unknown(&self, value: &Value) -> bool {
        let tag = self.tag_member(value).map(Member::of);
        self.union.as_ref().is_some_and(|d| d.is_open())
            && tag.as_ref().is_some_and(|tag| tag.as_str().is_some())
            && !self.knows_tag(tag.as_ref())
    }

    /// Whether this root knows `tag`, the value of the message's tag member (see
    /// [`Self::tag_member`]).
    pub fn knows_tag(&self, tag: Option<&Member<'_>>) -> bool {
        match (&self.union, tag) {
            (Some(_), Some(Member::Str(tag))) => self.known_strings.get(tag).is_some(),
            (Some(d), Some(tag)) => d.knows(&tag.to_value()),
            _ => false,
        }
    }

    /// How a report names tag `tag`: the root's own (interned) name for a tag it knows,
    /// a copy otherwise.
    pub fn tag_name(&self, tag: &str) -> Name {
        named(tag, self.known_strings.entry(tag).map(|(name, _)| name))
    }

    /// The value of the message's tag member, if this root is a union with a tag.
    pub fn tag_member<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        member(value, &self.union.as_ref()?.key)
    }

    /// [`Self::tag_member`] of `message`.
    pub fn tag_in<'m>(&self, message: &'m Message<'_>) -> Option<Member<'m>> {
        message.member(&self.union.as_ref()?.key)
    }
}

/// The roots' known string tags by tag key, for [`CompiledSchema::quick_accepts`] and
/// the typed path's router: one lookup of a message's tag tells every root tagged by
/// that key (of the first 64) whether it knows the tag, and gives the name reports use
/// for it.
pub(super) struct TagKeys {
    /// Per root, the index of its tag key in `keys` (`None`: no tagged union, or past
    /// the 64th root, which looks the tag up in its own known tags).
    pub(super) slots: Vec<Option<usize>>,
    pub(super) keys: Vec<TagKey>,
}

/// The roots (of the first 64) that are unions tagged by one key.
pub(super) struct TagKey {
    /// The tag key, e.g. `type`.
    pub(super) key: Box<str>,
    /// Its known string tags and the roots that know each (bit `i`: root `i`).
    pub(super) known: Few<Name, u64>,
    /// Every root tagged by this key.
    pub(super) roots: u64,
}

impl TagKeys {
    fn new(roots: &[CompiledRoot]) -> Self {
        let mut keys: Vec<(Box<str>, ahash::HashMap<Name, u64>, u64)> = Vec::new();
        let mut slots = Vec::with_capacity(roots.len());
        for (index, root) in roots.iter().enumerate() {
            let Some(union) = root.union.as_ref().filter(|_| index < 64) else {
                slots.push(None);
                continue;
            };
            let slot = match keys.iter().position(|(key, ..)| **key == *union.key) {
                Some(slot) => slot,
                None => {
                    keys.push((union.key.as_str().into(), ahash::HashMap::default(), 0));
                    keys.len() - 1
                }
            };
            keys[slot].2 |= 1 << index;
            for tag in union.known_tags().filter_map(Value::as_str) {
                *keys[slot].1.entry(interned(tag)).or_insert(0) |= 1 << index;
            }
            slots.push(Some(slot));
        }
        TagKeys {
            slots,
            keys: keys
                .into_iter()
                .map(|(key, known, roots)| TagKey {
                    key,
                    known: known.into(),
                    roots,
                })
                .collect(),
        }
    }
}

/// A schema document with its compiled roots.
pub struct CompiledSchema {
    /// The document as given.
    pub document: Value,
    /// The roots, in document order.
    pub roots: Vec<CompiledRoot>,
    options: SchemaOptions,
    /// At most this many violations are reported per message.
    pub(crate) max_errors: usize,
    /// Whether the document gives any schema a Rust integer `format`: only then can an
    /// integral float (`1.0`) be refused, and only then is it looked for.
    pub(crate) rust_integers: bool,
    /// The roots compiled into checks on a message's tape, on first use.
    checks: OnceLock<Option<Checks>>,
    /// The roots' known string tags by tag key, on first use.
    tag_keys: OnceLock<TagKeys>,
    /// The tags of the document's unions, as the explainer finds them.
    unions: discriminator::Memo,
    /// The document with its unions of constants written as enums, for the engines of
    /// narrowed explanations ([`Narrow`]), on first need.
    explaining: OnceLock<Value>,
}

/// How many violations a message gets at most, unless set otherwise
/// ([`crate::validate::Validator::with_max_errors`], `--max-errors`).
pub const DEFAULT_MAX_ERRORS: usize = 100;

/// How a report names `tag`: `known`, a root's interned name for it, or else a copy.
fn named(tag: &str, known: Option<&Name>) -> Name {
    known.map_or_else(|| Name::Owned(tag.to_owned()), copied)
}

/// `value[key]` for an object. A message's objects are small: up to 8 members, comparing
/// the keys one by one is cheaper than hashing `key` (serde_json's map hashes with
/// SipHash).
pub(super) fn member<'v>(value: &'v Value, key: &str) -> Option<&'v Value> {
    match value {
        Value::Object(map) if map.len() <= 8 => {
            map.iter().find_map(|(k, v)| (k == key).then_some(v))
        }
        _ => value.get(key),
    }
}

fn reply_error(request: &str, message: &str) -> Error {
    Error::Reply {
        request: request.to_owned(),
        message: message.to_owned(),
    }
}

fn unusable(pointer: &str, message: impl Into<String>) -> Error {
    Error::UnusableSchema {
        file: None,
        pointer: pointer.to_owned(),
        message: message.into(),
    }
}

pub(super) fn build<F: Json>(
    options: &SchemaOptions,
    schema: &Value,
) -> Result<jsonschema::Validator<F>> {
    build_with(options.retriever.clone(), options, schema)
}

/// [`build`] for an engine that only explains: the documents `$ref`s lead to are read
/// with their unions of constants written as enums, as `schema` should be
/// ([`const_unions`]). Not under a draft-04 `schema`, as a precaution: a referenced
/// document without a `$schema` of its own may be read as draft 4 there (no `const`).
/// It walks messages in representation `F` (a tape, [`TapeJson`], or a `Value`).
pub(super) fn build_explaining<F: Json>(
    options: &SchemaOptions,
    schema: &Value,
) -> Result<jsonschema::Validator<F>> {
    if jsonschema::Draft::default().detect(schema) == jsonschema::Draft::Draft4 {
        return build_with(options.retriever.clone(), options, schema);
    }
    build_with(
        const_unions::WithEnums(options.retriever.clone()),
        options,
        schema,
    )
}

fn build_with<F: Json>(
    retriever: impl jsonschema::Retrieve + 'static,
    options: &SchemaOptions,
    schema: &Value,
) -> Result<jsonschema::Validator<F>> {
    let mut builder = jsonschema::options_for::<F>().with_retriever(retriever);
    if let Some(base) = &options.base_uri {
        builder = builder.with_base_uri(base.clone());
    }
    builder
        .build(&ref_chains::shortcut(schema))
        .map_err(|err| Error::UnusableSchema {
            file: None,
            pointer: err.instance_path().to_string(),
            message: err.to_string(),
        })
}

/// The schema node a root stands for, with a lone `$ref` (or a single-alternative
/// `anyOf`/`oneOf` of one) followed.
fn root_node<'a>(document: &'a Value, node: &'a Value) -> &'a Value {
    let mut node = discriminator::resolve(document, node);
    for key in ["anyOf", "oneOf"] {
        if let Some([single]) = node.get(key).and_then(Value::as_array).map(Vec::as_slice) {
            node = discriminator::resolve(document, single);
        }
    }
    node
}

fn union_of(document: &Value, node: &Value) -> Option<Discriminator> {
    let node = root_node(document, node);
    ["oneOf", "anyOf"].iter().find_map(|key| {
        let alternatives = node.get(*key)?.as_array()?;
        discriminator::discriminator(document, alternatives)
    })
}

/// A copy of `document` whose root is `$ref: pointer` (all `$defs` kept, so every
/// reference inside still resolves).
pub(super) fn rooted_at(document: &Value, pointer: &str) -> Value {
    let mut copy = Map::new();
    if let Some(object) = document.as_object() {
        for (key, value) in object {
            if matches!(key.as_str(), "$schema" | "$id" | "$defs" | "definitions") {
                copy.insert(key.clone(), value.clone());
            }
        }
    }
    copy.insert(
        "$ref".into(),
        Value::String(format!("#{}", crate::uri::fragment(pointer))),
    );
    Value::Object(copy)
}

/// The `$id` of the copy [`rooted_anywhere`] wraps a document in.
const WRAPPER_ID: &str = "urn:symgen:validate:rooted-document";

/// A schema whose root is `$ref: pointer` into `document`, for any pointer. Under
/// `$defs` (or `definitions`) that is [`rooted_at`]. Elsewhere the document is embedded
/// whole as a resource of its own (keeping its `$id`, else taking `base`, the URI it
/// was read from, so its references resolve as in the document) and referred to by
/// that URI: the embedding's own keywords do not apply to the root.
pub(super) fn rooted_anywhere(document: &Value, pointer: &str, base: Option<&str>) -> Value {
    if pointer.starts_with("/$defs/") || pointer.starts_with("/definitions/") {
        return rooted_at(document, pointer);
    }
    // The draft the engine will apply, as it reads `$schema`.
    let older = match jsonschema::Draft::default().detect(document) {
        jsonschema::Draft::Draft4 => return rooted_at(document, pointer),
        jsonschema::Draft::Draft6 | jsonschema::Draft::Draft7 => true,
        _ => false,
    };
    let id = match document.get("$id").and_then(Value::as_str) {
        Some(id) => id.trim_end_matches('#').to_owned(),
        None => base.unwrap_or("urn:symgen:validate:document").to_owned(),
    };
    let mut embedded = document.clone();
    if let Some(object) = embedded.as_object_mut() {
        object.insert("$id".into(), Value::String(id.clone()));
    }
    let mut wrapper = Map::new();
    if let Some(dialect) = document.get("$schema") {
        wrapper.insert("$schema".into(), dialect.clone());
    }
    wrapper.insert("$id".into(), Value::String(WRAPPER_ID.into()));
    let reference = Value::String(format!("{id}#{}", crate::uri::fragment(pointer)));
    if older {
        // Before 2019-09 a `$ref` hides its siblings, the embedded document among them.
        wrapper.insert(
            "definitions".into(),
            serde_json::json!({ "document": embedded }),
        );
        wrapper.insert("allOf".into(), serde_json::json!([{ "$ref": reference }]));
    } else {
        wrapper.insert("$defs".into(), serde_json::json!({ "document": embedded }));
        wrapper.insert("$ref".into(), reference);
    }
    Value::Object(wrapper)
}

/// The schema at `pointer` as a document of its own (with the document's `$schema`,
/// so the same draft applies), when nothing in it refers elsewhere or names a resource
/// (no `$ref`, `$dynamicRef`, `$recursiveRef`, `$id` or anchor; never in draft 4, whose
/// `id` could be any property's name). Compiling it then costs its own size, where
/// [`rooted_anywhere`] costs the whole document's: explaining a rejection by each of n
/// alternatives is O(n) in all, not O(n²).
pub(super) fn standalone(document: &Value, pointer: &str) -> Option<Value> {
    if matches!(
        jsonschema::Draft::default().detect(document),
        jsonschema::Draft::Draft4
    ) {
        return None;
    }
    let node = document.pointer(pointer)?;
    let mut stack = vec![node];
    while let Some(inner) = stack.pop() {
        match inner {
            Value::Object(map) => {
                if map.keys().any(|key| REFERRING.contains(&key.as_str())) {
                    return None;
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    let mut copy = node.as_object()?.clone();
    if let Some(dialect) = document.get("$schema") {
        copy.insert("$schema".into(), dialect.clone());
    }
    Some(Value::Object(copy))
}

/// The keywords by which a schema refers to another or names itself as a target.
/// (A property of that name makes [`standalone`] decline too: never wrong, only slower.)
const REFERRING: [&str; 7] = [
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$recursiveAnchor",
];

/// At most `shown` of `names`, comma-separated, with the count when some are left out.
pub fn list(names: &[String], shown: usize) -> String {
    if names.len() <= shown {
        names.join(", ")
    } else {
        format!("{}, … ({} in all)", names[..shown].join(", "), names.len())
    }
}

impl CompiledSchema {
    /// Compiles `document`. A symgen document (with `x-symgen-protocol.roots`) gets one
    /// validator per root; any other schema is one root.
    pub fn compile(mut document: Value, options: SchemaOptions) -> Result<Self> {
        if !(document.is_object() || document.is_boolean()) {
            return Err(unusable("", "a JSON Schema is an object or a boolean"));
        }
        super::patterns::check(&document)
            .map_err(|refused| unusable(&refused.pointer, refused.message))?;
        // A reference written as an IRI is read as the URI it stands for.
        crate::uri::iris_as_uris(&mut document);
        super::widths::integer_formats_as_bounds(&mut document);
        let declared: Vec<String> = document
            .pointer("/x-symgen-protocol/roots")
            .and_then(Value::as_array)
            .map(|roots| {
                roots
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let mut roots = Vec::new();
        if declared.is_empty() {
            let name = document
                .get("title")
                .and_then(Value::as_str)
                .unwrap_or("schema")
                .to_owned();
            roots.push(CompiledRoot::new(
                name,
                build(&options, &document)?,
                union_of(&document, &document),
                None,
                document.clone(),
                (&document, String::new()),
            ));
        } else {
            for name in declared {
                let pointer = crate::json_pointer::def(&name);
                let node = document.pointer(&pointer).ok_or_else(|| {
                    unusable(
                        "/x-symgen-protocol/roots",
                        format!("root `{name}` is not in $defs"),
                    )
                })?;
                let content_key = node
                    .pointer("/x-symgen-envelope/content")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                let source = rooted_at(&document, &pointer);
                roots.push(CompiledRoot::new(
                    name,
                    build(&options, &source)?,
                    union_of(&document, node),
                    content_key,
                    source,
                    (&document, pointer),
                ));
            }
        }
        Ok(Self {
            rust_integers: faults::has_rust_integers(&document),
            document,
            roots,
            options,
            max_errors: DEFAULT_MAX_ERRORS,
            checks: OnceLock::new(),
            tag_keys: OnceLock::new(),
            unions: discriminator::Memo::default(),
            explaining: OnceLock::new(),
        })
    }

    /// Adds a root for `selector` and returns its index: a definition's name (under
    /// `$defs` or `definitions`) or a JSON Pointer into the document as a URI fragment
    /// (`#/$defs/CallToolRequest`). The root is named `selector`. Bags of definitions
    /// (many real schemas) are validated this way, a tagged union of definitions
    /// included: it is dispatched on its tag like a built-in root.
    pub fn add_root(&mut self, selector: &str) -> Result<usize> {
        let pointer = match selector.strip_prefix('#') {
            Some(fragment) => super::discriminator::fragment_pointer(fragment),
            None => ["/$defs", "/definitions"]
                .iter()
                .map(|defs| crate::json_pointer::child(defs, selector))
                .find(|pointer| self.document.pointer(pointer).is_some())
                .ok_or_else(|| Error::Usage(format!("no root or definition `{selector}`")))?,
        };
        let node = self.document.pointer(&pointer).ok_or_else(|| {
            Error::Usage(format!("`{selector}`: the schema has nothing at {pointer}"))
        })?;
        let content_key = node
            .pointer("/x-symgen-envelope/content")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let union = union_of(&self.document, node);
        let source = rooted_anywhere(&self.document, &pointer, self.options.base_uri.as_deref());
        self.roots.push(CompiledRoot::new(
            selector.to_owned(),
            build(&self.options, &source)?,
            union,
            content_key,
            source,
            (&self.document, pointer),
        ));
        self.checks = OnceLock::new();
        self.tag_keys = OnceLock::new();
        Ok(self.roots.len() - 1)
    }

    /// Which keywords `value` breaks as an instance of root `index`, by their location
    /// in the schema (see [`super::keywords`]); empty when it is valid.
    pub fn keyword_failures(&self, index: usize, value: &Value) -> Vec<super::keywords::Failure> {
        super::keywords::failures(self.roots[index].engine.iter_errors(value))
    }

    /// The names under the document's `$defs` (or `definitions`), in document order.
    pub fn definitions(&self) -> Vec<String> {
        ["$defs", "definitions"]
            .iter()
            .filter_map(|key| self.document.get(*key)?.as_object())
            .flat_map(|defs| defs.keys().cloned())
            .collect()
    }

    /// Whether root `index` takes a value of every JSON type (`null`, `true`, `0`, `""`,
    /// `[]`, `{}` all pass): the mark of a root that accepts any message, such as a bag
    /// of definitions whose root asserts nothing.
    pub fn accepts_anything(&self, index: usize) -> bool {
        let probes = [
            Value::Null,
            Value::Bool(true),
            Value::from(0),
            Value::from(""),
            Value::Array(Vec::new()),
            Value::Object(Map::new()),
        ];
        let engine = &self.roots[index].engine;
        probes.iter().all(|probe| engine.is_valid(probe))
    }

    /// The index of the root called `name`.
    pub fn root_index(&self, name: &str) -> Option<usize> {
        self.roots.iter().position(|r| r.name == name)
    }

    /// Every violation of `message` against root `index` (empty when it is valid). An
    /// envelope whose content is absent or `null` is explained as if the content were
    /// `{}` (rule R3), so the violations name the keys the content lacks.
    pub fn violations(&self, index: usize, message: &Message<'_>) -> Vec<Violation> {
        let violations = self.raw_violations(index, message);
        let Some(key) = self.roots[index]
            .content_key
            .as_ref()
            .filter(|_| !violations.is_empty() && message.is_object())
        else {
            return violations;
        };
        let explained = match message.member(key) {
            Some(content) if !content.is_null() => return violations,
            // On the tape, an absent content is written in (last, where a `Value` takes
            // a new key) and the text read again; a `null` one takes the `Value`.
            None if let Some(explained) = message
                .tape()
                .and_then(|tape| self.filled_on_tape(index, tape, key)) =>
            {
                explained
            }
            _ => {
                let Value::Object(map) = message.value() else {
                    return violations;
                };
                let mut filled = map.clone();
                filled.insert(key.clone(), Value::Object(Default::default()));
                self.raw_violations(index, &Message::Value(&Value::Object(filled)))
            }
        };
        if explained.is_empty() {
            violations
        } else {
            explained
        }
    }

    /// Root `index`'s violations of `tape`'s object with member `key` added last,
    /// holding `{}` (`None` when that text does not read onto a tape).
    fn filled_on_tape(
        &self,
        index: usize,
        tape: &tape::Tape<'_>,
        key: &str,
    ) -> Option<Vec<Violation>> {
        let filled = with_empty_member(tape, key)?;
        let tape = tape::read(&filled, self.rust_integers)?;
        Some(self.raw_violations(index, &Message::on_tape(&tape)))
    }

    /// Whether root `index` is a tagged union that `message`, an object, fails on its tag
    /// alone, the tag being absent or `null`: then its violations hold that required key
    /// at the top level, unless others fill [`Self::max_errors`] first.
    pub fn lacks_tag(&self, index: usize, message: &Message<'_>) -> bool {
        let tagged = self.roots[index]
            .narrow
            .as_ref()
            .and_then(|n| n.tagged.as_ref());
        tagged.is_some_and(|tagged| {
            message.is_object()
                && message
                    .member(&tagged.union.key)
                    .is_none_or(|m| m.is_null())
                && tagged.route(message) == Route::Tag
        })
    }

    /// The faults of a message root `index` accepted that sit where the message is
    /// decoded (see [`faults`]). When that cannot be told, every fault counts.
    ///
    /// A message with a tag the root does not know (`unknown`) is kept raw so that it can
    /// be forwarded (R4): its content, for an envelope; the whole object, for an
    /// internally tagged union. Faults there count too.
    pub fn kept_faults(
        &self,
        index: usize,
        text: &str,
        value: &Value,
        found: &[Fault],
        unknown: bool,
    ) -> Vec<Violation> {
        let root = &self.roots[index];
        // Where the raw part starts: the content, or the whole message.
        let raw_at = match (&root.content_key, unknown) {
            (_, false) => None,
            (Some(key), true) => Some(crate::json_pointer::child("", key)),
            (None, true) => Some(String::new()),
        };
        let (raw, found): (Vec<Fault>, Vec<Fault>) = found.iter().cloned().partition(|fault| {
            raw_at.as_deref().is_some_and(|at| {
                fault
                    .pointer
                    .strip_prefix(at)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
        });
        let tag_at = root
            .union
            .as_ref()
            .map(|d| crate::json_pointer::child("", &d.key));
        let own_keys: Vec<&str> = raw_at.iter().chain(&tag_at).map(String::as_str).collect();
        let mut violations: Vec<Violation> = raw
            .iter()
            .filter(|fault| faults::counts_raw(fault, &own_keys))
            .map(|fault| faults::violation(text, fault))
            .collect();
        violations.extend(self.decoded_faults(root, text, value, &found));
        violations.sort_by_key(|v| v.position);
        violations
    }

    fn decoded_faults(
        &self,
        root: &CompiledRoot,
        text: &str,
        value: &Value,
        found: &[Fault],
    ) -> Vec<Violation> {
        if found.is_empty() {
            return Vec::new();
        }
        let engine = root
            .visible
            .get_or_init(|| build(&self.options, &faults::visible(&root.source)).ok());
        let evaluation = engine.as_ref().map(|engine| engine.evaluate(value));
        match evaluation
            .filter(|evaluation| evaluation.flag().valid)
            .and_then(|evaluation| serde_json::to_value(evaluation.hierarchical()).ok())
        {
            Some(output) => faults::kept(
                text,
                value,
                found,
                &output,
                &root.source,
                &|uri| self.document_at(uri),
                self.keeps_unknown_keys(),
            ),
            None => found
                .iter()
                .map(|fault| faults::violation(text, fault))
                .collect(),
        }
    }

    /// Whether the generated types keep the keys a schema does not declare: those of a
    /// schema symgen did not write do (as free-form JSON); a protocol's ignore them
    /// (rule R2), as serde does.
    fn keeps_unknown_keys(&self) -> bool {
        self.document.get("x-symgen-protocol").is_none()
    }

    /// The roots' known string tags by tag key (on first use).
    pub(super) fn tag_keys(&self) -> &TagKeys {
        self.tag_keys.get_or_init(|| TagKeys::new(&self.roots))
    }

    /// The roots compiled into checks (on first use; `None` for a document the checks
    /// do not follow).
    fn checks(&self) -> Option<&Checks> {
        self.checks
            .get_or_init(|| {
                let pointers: Vec<&str> = self.roots.iter().map(|r| r.pointer.as_str()).collect();
                Checks::compile(&self.document, &self.options, &pointers)
            })
            .as_ref()
    }

    /// The compiled checks' own verdict on `text` for root `index`: `None` when they
    /// cannot tell (see [`Self::quick_accepts`]).
    pub fn checks_verdict(&self, index: usize, text: &str) -> Option<bool> {
        let tape = tape::read(text, self.rust_integers)?;
        match self.checks()?.check(index, &tape, None) {
            Verdict::Yes => Some(true),
            Verdict::No => Some(false),
            Verdict::Unsure => None,
        }
    }

    /// The first root (of `range`) whose schema accepts `text` as a known message, with
    /// its tag, judged by the compiled checks on the message's tape, without building a
    /// `Value`: what [`Self::accepts`] root by root would find. `None` when the checks
    /// cannot tell (the message holds a value [`faults`] deals with, a check is unsure)
    /// or no root accepts it: the general path then judges it.
    pub fn quick_accepts(
        &self,
        text: &str,
        range: std::ops::Range<usize>,
    ) -> Option<(usize, Option<Name>)> {
        let checks = self.checks()?;
        let tape = tape::read(text, self.rust_integers)?;
        let tag_keys = self.tag_keys();
        // The message's tag, read and looked up once for the roots tagged by the same
        // key (and handed to their unions, which the checks are told of).
        type Read<'k, 'm> = (
            &'k str,
            Option<usize>,
            Option<&'m str>,
            Option<(&'k Name, u64)>,
        );
        let mut last: Option<Read<'_, '_>> = None;
        for index in range {
            let root = &self.roots[index];
            let slot = tag_keys.slots.get(index).copied().flatten();
            let (member, tag, known) = match &root.union {
                None => (None, None, None),
                Some(union) => {
                    let (key, at, tag, found) = match last {
                        Some(read) if same(read.0, &union.key) => read,
                        _ => {
                            let at = tape.member(0, &union.key);
                            let tag = at.and_then(|at| tape.str_at(at));
                            let found = tag
                                .zip(slot)
                                .and_then(|(tag, slot)| tag_keys.keys[slot].known.entry(tag))
                                .map(|(name, roots)| (name, *roots));
                            let read = (&*union.key, at, tag, found);
                            last = Some(read);
                            read
                        }
                    };
                    // The tag's name, when this root knows it.
                    let known = match slot {
                        Some(_) => found
                            .and_then(|(name, roots)| (roots >> index & 1 == 1).then_some(name)),
                        None => tag.and_then(|tag| root.known_strings.entry(tag).map(|(n, _)| n)),
                    };
                    (Some((key, at)), tag, known)
                }
            };
            // An open union takes a tag it does not know as unknown at best, which is
            // not what is asked: no need to check.
            if root.open && tag.is_some() && known.is_none() {
                continue;
            }
            match checks.check(index, &tape, member) {
                Verdict::No => continue,
                Verdict::Unsure => return None,
                Verdict::Yes => return Some((index, tag.map(|tag| named(tag, known)))),
            }
        }
        None
    }

    /// Whether root `index` accepts `value`: the yes/no check, without the error walk.
    pub fn accepts(&self, index: usize, value: &Value) -> bool {
        self.roots[index].engine.is_valid(value)
    }

    /// Every violation of `message` against root `index`. A message of a tagged union is
    /// explained by the rest of the root and what its tag decides (see [`Narrow`]), not
    /// by the whole union, where that gives the same violations.
    fn raw_violations(&self, index: usize, message: &Message<'_>) -> Vec<Violation> {
        let root = &self.roots[index];
        // The engine builds every error's location, a copy of the keys above it, before
        // the first is read: a long key over many rejected values would cost their
        // product in memory. Past `EXPLAIN_POINTER_BYTES`, the verdict alone.
        let pointer_bytes = message.pointer_bytes();
        if pointer_bytes > EXPLAIN_POINTER_BYTES {
            let valid = match message
                .tape()
                .and_then(|tape| Some((root.engine_on_tape(&self.options)?, tape)))
            {
                Some((engine, tape)) => engine.is_valid(TapeNode::root(tape)),
                None => root.engine.is_valid(message.value()),
            };
            return if valid {
                Vec::new()
            } else {
                vec![unexplained(pointer_bytes)]
            };
        }
        let explainer = Explainer::new(&self.document, message).with_unions(&self.unions);
        if let Some(violations) = root
            .narrow
            .as_ref()
            .and_then(|narrow| self.narrowed(narrow, &explainer, message))
            .filter(|violations| !violations.is_empty())
        {
            return violations;
        }
        // The whole root walks the message's tape where it has one.
        match message
            .tape()
            .and_then(|tape| Some((root.engine_on_tape(&self.options)?, tape)))
        {
            Some((engine, tape)) => {
                explainer.explain_at_most(engine.iter_errors(TapeNode::root(tape)), self.max_errors)
            }
            None => {
                explainer.explain_at_most(root.engine.iter_errors(message.value()), self.max_errors)
            }
        }
    }

    /// Root `index`'s violations of a message as [`Self::raw_violations`] finds them, and
    /// as the whole root's errors give them (for the tests that hold the two equal).
    /// The message is `text`, on its tape where it has one.
    pub fn explanations(
        &self,
        index: usize,
        text: &str,
    ) -> Option<(Vec<Violation>, Vec<Violation>)> {
        let read = faults::read(text, self.rust_integers).ok()?;
        let message = read.message();
        let engine = &self.roots[index].engine;
        let whole = Explainer::new(&self.document, &message)
            .with_unions(&self.unions)
            .explain_at_most(engine.iter_errors(message.value()), self.max_errors);
        Some((self.raw_violations(index, &message), whole))
    }

    /// [`Self::raw_violations`] through `narrow`; `None` when it cannot tell.
    fn narrowed(
        &self,
        narrow: &Narrow,
        explainer: &Explainer<'_>,
        message: &Message<'_>,
    ) -> Option<Vec<Violation>> {
        let route = narrow.route(message);
        if route == Route::Whole {
            return None;
        }
        // The engines walk the message's tape, or else its `Value`.
        match message.tape() {
            Some(tape) => self.narrowed_in::<TapeJson>(
                narrow,
                explainer,
                message,
                route,
                TapeNode::root(tape),
            ),
            None => {
                self.narrowed_in::<SerdeJson>(narrow, explainer, message, route, message.value())
            }
        }
    }

    /// [`Self::narrowed`] on `value`, `message` in representation `F`.
    fn narrowed_in<'v, F: Walked>(
        &'v self,
        narrow: &'v Narrow,
        explainer: &Explainer<'_>,
        message: &Message<'_>,
        route: Route,
        value: F::Node<'v>,
    ) -> Option<Vec<Violation>> {
        let document = self
            .explaining
            .get_or_init(|| const_unions::with_enums(self.document.clone()));
        let rest = narrow.rest::<F>(document, &self.options)?;
        match route {
            Route::Branch(index) => {
                let branch = narrow.branch::<F>(document, &self.options, index)?;
                // The root rejects the message: when the rest finds nothing wrong, the
                // alternative is what fails. Otherwise the alternative's errors only
                // when it has any. Asking whether a part is valid costs less than
                // walking a valid part for errors, and the fault is often in one part
                // only.
                let rest_errors: Vec<_> = if rest.is_valid(value.clone()) {
                    Vec::new()
                } else {
                    rest.iter_errors(value.clone()).collect()
                };
                let branch_fails = rest_errors.is_empty() || !branch.is_valid(value.clone());
                let errors = rest_errors.into_iter().chain(
                    branch_fails
                        .then(|| branch.iter_errors(value))
                        .into_iter()
                        .flatten(),
                );
                Some(explainer.explain_at_most(errors, self.max_errors))
            }
            Route::Closest => {
                let rest_errors = rest.iter_errors(value.clone());
                let mut closest = Vec::with_capacity(narrow.alternatives());
                for index in 0..narrow.alternatives() {
                    let branch = narrow.branch::<F>(document, &self.options, index)?;
                    closest.push(branch.iter_errors(value.clone()).collect::<Vec<_>>());
                }
                let taking = closest.iter().filter(|errors| errors.is_empty()).count();
                if narrow.is_one_of() && taking > 1 {
                    // Several alternatives take it: the whole root words that.
                    return None;
                }
                let chosen = if taking > 0 {
                    Vec::new()
                } else {
                    closest.swap_remove(best_alternative("", &closest)?)
                };
                Some(explainer.explain_at_most(rest_errors.chain(chosen), self.max_errors))
            }
            _ => {
                let mut violations =
                    explainer.explain_at_most(rest.iter_errors(value), self.max_errors);
                let tagged = narrow.tagged.as_ref()?;
                // The route is the tag's only for an object.
                let tag = message.member(&tagged.union.key).map(|m| m.to_value());
                let fault = explainer.member_fault(&tagged.union, "", tag.as_deref())?;
                if violations.len() < self.max_errors
                    && !violations
                        .iter()
                        .any(|v| v.kind == fault.kind && v.pointer == fault.pointer)
                {
                    violations.push(fault);
                }
                Some(violations)
            }
        }
    }

    /// The schema of the reply to requests tagged `request_tag` (`x-symgen-reply` of the
    /// union variant with that tag in any root), compiled.
    pub fn reply(&self, request_tag: &str) -> Result<CompiledReply> {
        for root in &self.roots {
            let Some(d) = &root.union else { continue };
            let tag = Value::String(request_tag.to_owned());
            let Some(index) = d.select(&tag).filter(|_| d.knows(&tag)) else {
                continue;
            };
            // The root's own schema (a `--root` may be a `definitions` entry or a
            // pointer), the one its union and so `index` came from.
            let Some(schema) = self.document.pointer(&root.pointer) else {
                continue;
            };
            let node = root_node(&self.document, schema);
            let variant = ["oneOf", "anyOf"]
                .iter()
                .find_map(|key| node.get(*key)?.as_array()?.get(index))
                .map(|v| discriminator::resolve(&self.document, v));
            let Some(variant) = variant else { continue };
            if variant.get("x-symgen-is-reply").and_then(Value::as_bool) == Some(true) {
                return Err(reply_error(
                    request_tag,
                    "it is itself a reply; give the tag of the request it answers",
                ));
            }
            return match variant.get("x-symgen-reply") {
                None => Err(reply_error(
                    request_tag,
                    "the schema declares no reply for it (no x-symgen-reply)",
                )),
                Some(Value::Null) => Err(reply_error(request_tag, "it expects no reply")),
                Some(reply) => {
                    let mut document = match reply {
                        Value::Object(map) => map.clone(),
                        Value::Bool(true) => Map::new(),
                        other => {
                            let mut map = Map::new();
                            map.insert("allOf".into(), Value::Array(vec![other.clone()]));
                            map
                        }
                    };
                    for key in ["$schema", "$id", "$defs"] {
                        if let Some(value) = self.document.get(key) {
                            document.insert(key.into(), value.clone());
                        }
                    }
                    let document = Value::Object(document);
                    Ok(CompiledReply {
                        engine: build(&self.options, &document)?,
                        document,
                        request_tag: request_tag.to_owned(),
                        max_errors: self.max_errors,
                    })
                }
            };
        }
        Err(reply_error(
            request_tag,
            "no request has this tag in the schema",
        ))
    }
}

/// The compiled schema of the reply data to one request type.
pub struct CompiledReply {
    /// The reply schema as a standalone document.
    pub document: Value,
    /// Its validator.
    pub engine: Engine,
    /// The request's tag.
    pub request_tag: String,
    /// At most this many violations are reported.
    pub(crate) max_errors: usize,
}

impl CompiledReply {
    /// Every violation of reply data `value` (pointers relative to the data).
    pub fn violations(&self, value: &Value) -> Vec<Violation> {
        Explainer::new(&self.document, &Message::Value(value))
            .explain_at_most(self.engine.iter_errors(value), self.max_errors)
    }
}

impl CompiledSchema {
    /// The schema document at `uri`, as a `$ref` reads it: this document for its own
    /// `$id` or location, else another file the retriever allows.
    fn document_at(&self, uri: &str) -> Option<Value> {
        let own = |id: Option<&str>| id.is_some_and(|id| id.trim_end_matches('#') == uri);
        if own(self.document.get("$id").and_then(Value::as_str))
            || own(self.options.base_uri.as_deref())
        {
            return Some(self.document.clone());
        }
        let uri = jsonschema::Uri::parse(uri.to_owned()).ok()?;
        jsonschema::Retrieve::retrieve(&self.options.retriever, &uri).ok()
    }

    /// Of the integral floats (`1.0`) in reply data `value` (fault pointers relative to
    /// the data), those its reply type decodes as a Rust integer: what serde refuses
    /// when it decodes the data (a key given twice is not among them: the data reaches
    /// the reply type as a parsed value, which keeps the last one).
    pub fn reply_faults(
        &self,
        reply: &CompiledReply,
        text: &str,
        value: &Value,
        found: &[Fault],
    ) -> Vec<Violation> {
        let found: Vec<Fault> = found
            .iter()
            .filter(|f| f.what == faults::FaultKind::FloatInteger)
            .cloned()
            .collect();
        if found.is_empty() {
            return Vec::new();
        }
        let engine: Option<Engine> = build(&self.options, &faults::visible(&reply.document)).ok();
        let evaluation = engine.as_ref().map(|engine| engine.evaluate(value));
        match evaluation
            .filter(|evaluation| evaluation.flag().valid)
            .and_then(|evaluation| serde_json::to_value(evaluation.hierarchical()).ok())
        {
            Some(output) => faults::kept(
                text,
                value,
                &found,
                &output,
                &reply.document,
                &|uri| self.document_at(uri),
                self.keeps_unknown_keys(),
            ),
            None => found
                .iter()
                .map(|fault| faults::violation(text, fault))
                .collect(),
        }
    }
}

/// The text of `tape`'s root object with member `key` added last, holding `{}`.
fn with_empty_member(tape: &tape::Tape<'_>, key: &str) -> Option<String> {
    let source = tape.source(0)?;
    let open = source.strip_suffix('}')?;
    let mut filled = String::with_capacity(source.len() + key.len() + 8);
    filled.push_str(open);
    if tape.members(0).next().is_some() {
        filled.push(',');
    }
    filled.push_str(&serde_json::to_string(key).ok()?);
    filled.push_str(":{}}");
    Some(filled)
}

#[cfg(test)]
mod tests {
    use super::{CompiledSchema, SchemaOptions, standalone};
    use crate::Error;
    use serde_json::json;

    #[test]
    fn a_pattern_outside_ecma_262_is_refused_before_the_engine_reads_it() {
        // fancy-regex read `\g<2>` as a call of group 2 and took "xxaa" (calls nested
        // 14 deep, each twice: 7 s and 4 GB to compile a 284-byte schema); ECMA-262 has
        // no `\g`, and ajv refuses the pattern.
        let schema = json!({"properties": {"p": {"pattern": r"^(x)\1(a)\g<2>$"}}});
        match CompiledSchema::compile(schema, SchemaOptions::default()) {
            Err(Error::UnusableSchema {
                pointer, message, ..
            }) => {
                assert_eq!(pointer, "/properties/p/pattern");
                assert!(
                    message.contains("not an ECMA-262 regular expression"),
                    "{message}"
                );
            }
            other => panic!("compiled: {:?}", other.map(|_| ())),
        }
        // A backreference is ECMA-262: still compiled, and enforced.
        let schema = json!({"properties": {"p": {"pattern": r"^(x)\1$"}}});
        let compiled = CompiledSchema::compile(schema, SchemaOptions::default()).unwrap();
        assert!(compiled.accepts(0, &json!({"p": "xx"})));
        assert!(!compiled.accepts(0, &json!({"p": "xy"})));
    }

    #[test]
    fn an_alternative_that_refers_nowhere_stands_alone_with_the_documents_draft() {
        let document = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "oneOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}},
                {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
                {"type": "object", "properties": {"$id": {"type": "string"}}},
                true
            ],
            "$defs": {"B": {"type": "string"}}
        });
        assert_eq!(
            standalone(&document, "/oneOf/0"),
            Some(json!({
                "type": "object",
                "properties": {"a": {"type": "integer"}},
                "$schema": "https://json-schema.org/draft/2020-12/schema"
            }))
        );
        // A reference needs the document; a property named like a keyword declines
        // too (slower, never wrong); a boolean schema is left to the document.
        assert_eq!(standalone(&document, "/oneOf/1"), None);
        assert_eq!(standalone(&document, "/oneOf/2"), None);
        assert_eq!(standalone(&document, "/oneOf/3"), None);
        // Draft 4's `id` may be any property's name: never alone there.
        let draft4 = json!({
            "$schema": "http://json-schema.org/draft-04/schema#",
            "oneOf": [{"type": "string"}]
        });
        assert_eq!(standalone(&draft4, "/oneOf/0"), None);
    }
}
