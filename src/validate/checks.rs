//! A user schema compiled into checks that run on a message's [`Tape`] (no `Value`
//! built): types, `enum`/`const`, number and length bounds, `properties`/`required`/
//! `additionalProperties`, `items`/`prefixItems`, `allOf`/`anyOf`/`oneOf`/`not`/`if`,
//! local `$ref`s. A union whose alternatives pin one property to distinct values
//! (`const`, `enum`, or `not: {enum}` for the open case) is dispatched on that tag: only
//! the alternatives that can take the message's tag are checked.
//!
//! A schema node with a keyword the checks do not cover (`pattern`, `format` where the
//! draft asserts it, `patternProperties`, `uniqueItems`, …) is left to the general engine
//! (the `jsonschema` crate): the value at that node is built and judged there. So the
//! verdict is the engine's by construction, keyword by keyword. A document the checks
//! cannot follow (`$id` below the root, anchors, dynamic references, drafts before 6)
//! gets no checks at all, and a check that cannot be sure (a budget spent, a number
//! beyond exact comparison) answers [`Verdict::Unsure`]: the caller then takes the
//! general path.
//!
//! Only a yes/no verdict comes from here. Why a message is rejected is still explained
//! by the general engine, from a `Value`.

use std::cmp::Ordering;
use std::rc::Rc;

use ahash::HashMap;

use serde_json::{Map, Number, Value};

use super::compiled::{SchemaOptions, build, rooted_at};
use super::discriminator;
use super::tape::{Tape, Token};
use crate::uri::{has_scheme, resolve as resolve_uri};

/// A check's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Yes,
    No,
    /// The checks cannot tell; the general engine must.
    Unsure,
}

type NodeId = u32;

/// The compiled checks of one document: one node per schema reached from a root.
pub struct Checks {
    nodes: Vec<Node>,
    /// Per root (in [`super::compiled::CompiledSchema`] order), its node; `None` when the
    /// root cannot be compiled.
    roots: Vec<Option<NodeId>>,
}

enum Node {
    Any,
    Never,
    /// A schema neither the checks nor an engine of its own could take.
    Unsure,
    /// Judged by the general engine on the built value.
    Engine(jsonschema::Validator),
    /// A schema that only refers to another (`{"$ref": …}` with annotations).
    Ref(NodeId),
    /// A schema that only asserts `type` (the bits of [`Assertions::types`]).
    Types(u8),
    Schema(Box<Assertions>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Draft {
    D7,
    D2019,
    D2020,
}

const NULL: u8 = 1;
const BOOLEAN: u8 = 2;
const INTEGER: u8 = 4;
const NUMBER: u8 = 8;
const STRING: u8 = 16;
const ARRAY: u8 = 32;
const OBJECT: u8 = 64;

const HAS_VALUES: u8 = 1;
const HAS_NUMBER: u8 = 2;
const HAS_LENGTH: u8 = 4;
const HAS_ITEMS: u8 = 8;
const HAS_MEMBERS: u8 = 16;
const HAS_APPLICATORS: u8 = 32;

#[derive(Default)]
struct Assertions {
    /// Allowed JSON types (bits above); 0 when `type` is absent.
    types: u8,
    /// Which groups of assertions below are present ([`HAS_VALUES`] …), so that a
    /// check skips the absent ones at once.
    has: u8,
    values: Option<Vec<Value>>,
    constant: Option<Value>,
    minimum: Option<Number>,
    maximum: Option<Number>,
    exclusive_minimum: Option<Number>,
    exclusive_maximum: Option<Number>,
    multiple_of: Option<u64>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    min_items: Option<u64>,
    max_items: Option<u64>,
    unique_items: bool,
    prefix_items: Vec<NodeId>,
    items: Option<NodeId>,
    /// `properties` (declared) and required names `properties` does not declare.
    properties: Vec<Property>,
    lookup: Option<HashMap<Box<str>, usize>>,
    required: u64,
    additional: Option<NodeId>,
    property_names: Option<NodeId>,
    min_properties: Option<u64>,
    max_properties: Option<u64>,
    all_of: Vec<NodeId>,
    any_of: Option<Union>,
    one_of: Option<Union>,
    not: Option<NodeId>,
    condition: Option<(NodeId, Option<NodeId>, Option<NodeId>)>,
}

struct Property {
    name: Box<str>,
    node: Option<NodeId>,
    declared: bool,
}

struct Union {
    alternatives: Vec<NodeId>,
    tag: Option<Tagging>,
}

/// Which alternatives of a union can take a string tag.
struct Tagging {
    key: Box<str>,
    by_tag: HashMap<Box<str>, Vec<NodeId>>,
    /// The alternatives that can take any other string.
    other: Vec<NodeId>,
    /// The alternatives that can take an object without the tag (those that do not
    /// require it).
    untagged: Vec<NodeId>,
}

/// How deep schemas nest (through `$ref`s too) before the rest is left to an engine.
const MAX_COMPILE_DEPTH: usize = 200;

/// See [`Compiler::engine`].
const MAX_REF_ENGINES: usize = 32;

/// The most items `uniqueItems` is checked for here (pairwise); longer arrays are left to
/// the engine.
const MAX_UNIQUE_ITEMS: usize = 32;
const MAX_COPIED_PER_NODE: usize = 4;

/// Why a node is left to the engine.
struct Uncovered;

/// Keywords that judge an instance in some draft (the rest are annotations).
const ASSERTING: &[&str] = &[
    "additionalItems",
    "contains",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "dependencies",
    "dependentRequired",
    "dependentSchemas",
    "format",
    "maxContains",
    "minContains",
    "pattern",
    "patternProperties",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// Keywords that make a document's references depend on more than JSON Pointers.
const SCOPED: &[&str] = &[
    "$anchor",
    "$dynamicAnchor",
    "$dynamicRef",
    "$recursiveAnchor",
    "$recursiveRef",
];

/// A schema document the checks read: the one given (index 0) or one its `$ref`s name.
struct Doc {
    /// Its base URI, without a fragment, that relative `$ref`s in it resolve against:
    /// its `$id`, else where it was read from (empty when neither is known).
    uri: String,
    /// The URI it was read by, when another document referred to it.
    loaded_as: String,
    value: Rc<Value>,
    /// Whether its schemas can be compiled (see [`follows_pointers`]); `$ref`s into one
    /// that cannot are left to the engine.
    follows: bool,
    /// Whether a node's value can be judged by an engine built from the document
    /// re-rooted at it (every local `$ref` points under `$defs` or `definitions`).
    rootable: bool,
}

impl Doc {
    /// `value`, read from `uri` (empty when not known).
    fn new(uri: String, value: Value) -> Self {
        let mut rootable = true;
        let follows = follows_pointers(&value, true, &mut rootable);
        let base = match value.get("$id").and_then(Value::as_str) {
            Some(id) if uri.is_empty() => id.split('#').next().unwrap_or(id).to_owned(),
            Some(id) => resolve_uri(&uri, id).unwrap_or_else(|| uri.clone()),
            None => uri.clone(),
        };
        Self {
            uri: base,
            loaded_as: uri,
            value: Rc::new(value),
            follows,
            rootable,
        }
    }
}

/// Where a schema is: a document (index into [`Compiler::docs`]) and a JSON Pointer.
type Place = (usize, String);

struct Compiler<'d> {
    options: &'d SchemaOptions,
    draft: Draft,
    /// The `$schema` of the document given; another document is read only when it
    /// says the same.
    dialect: Option<Value>,
    /// Whether the engine asserts `format` in this draft.
    formats: bool,
    docs: Vec<Doc>,
    nodes: Vec<Node>,
    by_place: HashMap<Place, NodeId>,
    /// How many nodes are being compiled, one inside the other.
    depth: usize,
    /// Engines built so far that follow references (see [`Self::engine`]).
    ref_engines: usize,
    /// Schema values copied for engines so far, and the most allowed.
    copied: usize,
    copy_limit: usize,
}

impl Checks {
    /// The checks of `document` for the roots at `pointers`. `None` when the document
    /// is beyond what the checks follow.
    pub fn compile(document: &Value, options: &SchemaOptions, pointers: &[&str]) -> Option<Self> {
        let draft = match document.get("$schema") {
            None => Draft::D2020,
            Some(Value::String(uri)) => {
                let uri = uri.trim_end_matches('#');
                let uri = uri
                    .strip_prefix("https://")
                    .or_else(|| uri.strip_prefix("http://"))?;
                match uri {
                    "json-schema.org/draft/2020-12/schema" => Draft::D2020,
                    "json-schema.org/draft/2019-09/schema" => Draft::D2019,
                    "json-schema.org/draft-07/schema" | "json-schema.org/draft-06/schema" => {
                        Draft::D7
                    }
                    // A custom meta-schema may turn vocabularies off.
                    _ => return None,
                }
            }
            Some(_) => return None,
        };
        let main = Doc::new(
            options.base_uri.clone().unwrap_or_default(),
            document.clone(),
        );
        if !main.follows {
            return None;
        }
        let dialect = document.get("$schema").cloned();
        let formats = {
            let mut probe = Map::new();
            if let Some(uri) = &dialect {
                probe.insert("$schema".into(), uri.clone());
            }
            probe.insert("format".into(), Value::from("ipv4"));
            build(options, &Value::Object(probe)).map_or(true, |e| !e.is_valid(&Value::from("x")))
        };
        let mut compiler = Compiler {
            options,
            draft,
            dialect,
            formats,
            docs: vec![main],
            nodes: Vec::new(),
            by_place: HashMap::default(),
            depth: 0,
            ref_engines: 0,
            copied: 0,
            copy_limit: MAX_COPIED_PER_NODE * value_count(document) + 4096,
        };
        let roots = pointers
            .iter()
            .map(|pointer| {
                let schema = document.pointer(pointer)?;
                compiler.node(0, pointer, schema).ok()
            })
            .collect();
        Some(Self {
            nodes: compiler.nodes,
            roots,
        })
    }

    /// The verdict of root `index` on the message on `tape`.
    pub fn check(&self, index: usize, tape: &Tape<'_>) -> Verdict {
        let Some(Some(node)) = self.roots.get(index) else {
            return Verdict::Unsure;
        };
        let mut run = Run {
            nodes: &self.nodes,
            tape,
            budget: 64 * tape.len() as u64 + 4096,
            depth: 0,
        };
        run.check(*node, 0)
    }
}

/// Whether every local `$ref` in `document` is a JSON Pointer fragment, and no scoped
/// keyword or `$id` below the root appears; `rootable` turns false on a local `$ref`
/// outside `$defs`/`definitions`. Iterative.
fn follows_pointers(document: &Value, at_root: bool, rootable: &mut bool) -> bool {
    let mut stack = vec![(document, at_root)];
    while let Some((node, root)) = stack.pop() {
        match node {
            Value::Object(map) => {
                if (!root && map.get("$id").is_some_and(Value::is_string))
                    || SCOPED.iter().any(|k| map.contains_key(*k))
                {
                    return false;
                }
                if let Some(Value::String(reference)) = map.get("$ref")
                    && reference.starts_with('#')
                {
                    if !reference.starts_with("#/") && reference != "#" {
                        return false;
                    }
                    if !(reference.starts_with("#/$defs/")
                        || reference.starts_with("#/definitions/"))
                    {
                        *rootable = false;
                    }
                }
                stack.extend(map.values().map(|v| (v, false)));
            }
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, false))),
            _ => {}
        }
    }
    true
}

/// How many JSON values `node` holds, itself included. Iterative.
fn value_count(node: &Value) -> usize {
    let mut count = 0;
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        count += 1;
        match node {
            Value::Object(map) => stack.extend(map.values()),
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    count
}

fn has_ref(node: &Value) -> bool {
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                if map.contains_key("$ref") {
                    return true;
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

fn type_bits(name: &str) -> Option<u8> {
    Some(match name {
        "null" => NULL,
        "boolean" => BOOLEAN,
        "integer" => INTEGER,
        "number" => NUMBER | INTEGER,
        "string" => STRING,
        "array" => ARRAY,
        "object" => OBJECT,
        _ => return None,
    })
}

fn count(value: &Value) -> Result<u64, Uncovered> {
    value.as_u64().ok_or(Uncovered)
}

fn bound(value: &Value) -> Result<Number, Uncovered> {
    match value {
        Value::Number(n) => Ok(n.clone()),
        _ => Err(Uncovered),
    }
}

impl Compiler<'_> {
    /// The node of the schema at `pointer` in document `doc`, compiled once (references
    /// may loop). A schema nested too deep to compile here is left to its parent's
    /// engine (`Err`).
    fn node(&mut self, doc: usize, pointer: &str, schema: &Value) -> Result<NodeId, Uncovered> {
        let place = (doc, pointer.to_owned());
        if let Some(&id) = self.by_place.get(&place) {
            return Ok(id);
        }
        if self.depth >= MAX_COMPILE_DEPTH {
            return Err(Uncovered);
        }
        let id = NodeId::try_from(self.nodes.len()).map_err(|_| Uncovered)?;
        self.nodes.push(Node::Unsure);
        self.by_place.insert(place, id);
        self.depth += 1;
        let node = match schema {
            Value::Bool(true) => Node::Any,
            Value::Bool(false) => Node::Never,
            Value::Object(map) => match self.assertions(doc, pointer, map) {
                Ok(assertions) => assertions.into_node(),
                Err(Uncovered) => self
                    .engine(doc, pointer, schema)
                    .map_or(Node::Unsure, Node::Engine),
            },
            _ => Node::Unsure,
        };
        self.depth -= 1;
        self.nodes[id as usize] = node;
        Ok(id)
    }

    /// An engine for the schema at `pointer` in document `doc`: the schema alone when it
    /// refers to nothing, else the document re-rooted there (or, for another document,
    /// a reference to it, which the engine resolves as it does for the roots).
    ///
    /// Engines cost schema copies and compilations, so a document gets a bounded number:
    /// at most [`MAX_REF_ENGINES`] that follow references, and copies of at most
    /// [`MAX_COPIED_PER_NODE`] schema values per value of the document (a schema with
    /// many uncovered nodes, one inside the other, would otherwise copy quadratically).
    /// Past that, nodes answer [`Verdict::Unsure`] and their messages take the general
    /// path.
    fn engine(
        &mut self,
        doc: usize,
        pointer: &str,
        schema: &Value,
    ) -> Result<jsonschema::Validator, Uncovered> {
        let follows_refs = has_ref(schema) && !(doc == 0 && pointer.is_empty());
        if follows_refs {
            if self.ref_engines >= MAX_REF_ENGINES {
                return Err(Uncovered);
            }
            self.ref_engines += 1;
        } else {
            self.copied += value_count(schema);
            if self.copied > self.copy_limit {
                return Err(Uncovered);
            }
        }
        let document = &self.docs[doc];
        let mut own = Map::new();
        if let Some(uri) = &self.dialect {
            own.insert("$schema".into(), uri.clone());
        }
        let source = if doc == 0 && pointer.is_empty() {
            (*document.value).clone()
        } else if !has_ref(schema) {
            let mut own = schema.as_object().cloned().unwrap_or_default();
            if let Some(uri) = &self.dialect {
                own.insert("$schema".into(), uri.clone());
            }
            Value::Object(own)
        } else if doc == 0
            && document.rootable
            && (pointer.starts_with("/$defs/") || pointer.starts_with("/definitions/"))
        {
            rooted_at(&document.value, pointer)
        } else if !document.loaded_as.is_empty() {
            // A reference to the node in its file, which the engine reads through the
            // same retriever.
            own.insert(
                "$ref".into(),
                Value::String(format!("{}#{}", document.loaded_as, fragment(pointer))),
            );
            Value::Object(own)
        } else {
            return Err(Uncovered);
        };
        build(self.options, &source).map_err(|_| Uncovered)
    }

    fn child(
        &mut self,
        doc: usize,
        pointer: &str,
        key: &str,
        schema: &Value,
    ) -> Result<NodeId, Uncovered> {
        self.node(doc, &crate::json_pointer::child(pointer, key), schema)
    }

    fn list(
        &mut self,
        doc: usize,
        pointer: &str,
        key: &str,
        schemas: &Value,
    ) -> Result<Vec<NodeId>, Uncovered> {
        let at = crate::json_pointer::child(pointer, key);
        let items = schemas
            .as_array()
            .filter(|a| !a.is_empty())
            .ok_or(Uncovered)?;
        items
            .iter()
            .enumerate()
            .map(|(i, schema)| self.child(doc, &at, &i.to_string(), schema))
            .collect()
    }

    /// The node a `$ref` in document `doc` names: a JSON Pointer fragment in the same
    /// document, or one in another document given by its absolute URI (read through the
    /// same retriever as the engine's, and only when it is in the same dialect).
    fn reference(&mut self, doc: usize, reference: &str) -> Result<NodeId, Uncovered> {
        let (base, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let target = discriminator::fragment_pointer(fragment);
        if !(target.is_empty() || target.starts_with('/')) {
            return Err(Uncovered);
        }
        let doc = if base.is_empty() {
            doc
        } else {
            let absolute = if has_scheme(base) {
                base.to_owned()
            } else {
                // Relative: against the referring document's base, as the engine does.
                let from = &self.docs[doc].uri;
                if from.is_empty() {
                    return Err(Uncovered);
                }
                resolve_uri(from, base).ok_or(Uncovered)?
            };
            self.document(&absolute).ok_or(Uncovered)?
        };
        let value = Rc::clone(&self.docs[doc].value);
        let schema = value.pointer(&target).ok_or(Uncovered)?;
        self.node(doc, &target, schema)
    }

    /// The index of the document at the absolute `uri`, read on first use.
    fn document(&mut self, uri: &str) -> Option<usize> {
        if let Some(index) = self
            .docs
            .iter()
            .position(|d| d.uri == uri || d.loaded_as == uri)
        {
            return self.docs[index].follows.then_some(index);
        }
        if !has_scheme(uri) {
            return None;
        }
        use jsonschema::Retrieve;
        let parsed = jsonschema::Uri::parse(uri.to_owned()).ok()?;
        let value = self.options.retriever.retrieve(&parsed).ok()?;
        let mut doc = Doc::new(uri.to_owned(), value);
        doc.follows &= doc.value.get("$schema") == self.dialect.as_ref();
        let follows = doc.follows;
        self.docs.push(doc);
        follows.then_some(self.docs.len() - 1)
    }

    fn assertions(
        &mut self,
        doc: usize,
        pointer: &str,
        map: &Map<String, Value>,
    ) -> Result<Assertions, Uncovered> {
        let mut a = Assertions::default();
        // Before 2019-09, `$ref` is the whole schema: its siblings are ignored.
        if self.draft == Draft::D7
            && let Some(reference) = map.get("$ref")
        {
            let reference = reference.as_str().ok_or(Uncovered)?;
            a.all_of.push(self.reference(doc, reference)?);
            return Ok(a);
        }
        for (key, value) in map {
            match key.as_str() {
                "type" => {
                    a.types = match value {
                        Value::String(name) => type_bits(name).ok_or(Uncovered)?,
                        Value::Array(names) if !names.is_empty() => {
                            names.iter().try_fold(0, |bits, name| {
                                Ok(bits | name.as_str().and_then(type_bits).ok_or(Uncovered)?)
                            })?
                        }
                        _ => return Err(Uncovered),
                    }
                }
                "enum" => a.values = Some(value.as_array().ok_or(Uncovered)?.clone()),
                "const" => a.constant = Some(value.clone()),
                "minimum" => a.minimum = Some(bound(value)?),
                "maximum" => a.maximum = Some(bound(value)?),
                "exclusiveMinimum" => a.exclusive_minimum = Some(bound(value)?),
                "exclusiveMaximum" => a.exclusive_maximum = Some(bound(value)?),
                "multipleOf" => a.multiple_of = Some(count(value)?).filter(|&m| m > 0),
                "minLength" => a.min_length = Some(count(value)?),
                "maxLength" => a.max_length = Some(count(value)?),
                "minItems" => a.min_items = Some(count(value)?),
                "maxItems" => a.max_items = Some(count(value)?),
                "minProperties" => a.min_properties = Some(count(value)?),
                "maxProperties" => a.max_properties = Some(count(value)?),
                "uniqueItems" => a.unique_items = value.as_bool().ok_or(Uncovered)?,
                "propertyNames" => a.property_names = Some(self.child(doc, pointer, key, value)?),
                "format" if !self.formats => {}
                "properties" => {
                    let at = crate::json_pointer::child(pointer, "properties");
                    for (name, schema) in value.as_object().ok_or(Uncovered)? {
                        let node = self.child(doc, &at, name, schema)?;
                        a.properties.push(Property {
                            name: name.as_str().into(),
                            node: Some(node),
                            declared: true,
                        });
                    }
                }
                "required" => {}
                "additionalProperties" => {
                    a.additional = Some(self.child(doc, pointer, key, value)?);
                }
                "items" if value.is_object() || value.is_boolean() => {
                    a.items = Some(self.child(doc, pointer, key, value)?);
                }
                "prefixItems" if self.draft == Draft::D2020 => {
                    a.prefix_items = self.list(doc, pointer, key, value)?;
                }
                "allOf" => a.all_of.extend(self.list(doc, pointer, key, value)?),
                "anyOf" | "oneOf" => {
                    let alternatives = self.list(doc, pointer, key, value)?;
                    let tag = self.tagging(doc, value.as_array().ok_or(Uncovered)?, &alternatives);
                    let union = Some(Union { alternatives, tag });
                    if key == "anyOf" {
                        a.any_of = union;
                    } else {
                        a.one_of = union;
                    }
                }
                "not" => a.not = Some(self.child(doc, pointer, key, value)?),
                "if" => {
                    let then = map
                        .get("then")
                        .map(|s| self.child(doc, pointer, "then", s))
                        .transpose()?;
                    let otherwise = map
                        .get("else")
                        .map(|s| self.child(doc, pointer, "else", s))
                        .transpose()?;
                    a.condition = Some((self.child(doc, pointer, key, value)?, then, otherwise));
                }
                "then" | "else" => {}
                "$ref" => {
                    let reference = value.as_str().ok_or(Uncovered)?;
                    a.all_of.push(self.reference(doc, reference)?);
                }
                other if ASSERTING.contains(&other) => return Err(Uncovered),
                "items" | "prefixItems" => return Err(Uncovered),
                _ => {}
            }
        }
        if let Some(required) = map.get("required") {
            for name in required.as_array().ok_or(Uncovered)? {
                let name = name.as_str().ok_or(Uncovered)?;
                let index = match a.properties.iter().position(|p| &*p.name == name) {
                    Some(index) => index,
                    None => {
                        a.properties.push(Property {
                            name: name.into(),
                            node: None,
                            declared: false,
                        });
                        a.properties.len() - 1
                    }
                };
                if index >= 64 {
                    return Err(Uncovered);
                }
                a.required |= 1 << index;
            }
        }
        if a.properties.len() > 8 {
            a.lookup = Some(
                a.properties
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (p.name.clone(), i))
                    .collect(),
            );
        }
        Ok(a)
    }

    /// How a union dispatches on a tag: the discriminator the generators find, when
    /// every alternative pins the tag (`const`/`enum`) or excludes values there
    /// (`not: {enum}`), so that an alternative refuses every tag it does not list.
    fn tagging(&self, doc: usize, schemas: &[Value], alternatives: &[NodeId]) -> Option<Tagging> {
        let document = &*self.docs[doc].value;
        let key = discriminator::discriminator(document, schemas)?.key;
        enum Pin {
            Only(Vec<Value>),
            Except(Vec<Value>),
        }
        let mut pins = Vec::new();
        let mut untagged = Vec::new();
        for (schema, &node) in schemas.iter().zip(alternatives) {
            let schema = discriminator::resolve(document, schema);
            let requires = schema
                .get("required")
                .and_then(Value::as_array)
                .is_some_and(|names| names.iter().any(|n| n.as_str() == Some(key.as_str())));
            if !requires {
                untagged.push(node);
            }
            if self.draft == Draft::D7 && schema.get("$ref").is_some() {
                return None;
            }
            let property = schema.get("properties")?.get(&key)?;
            if self.draft == Draft::D7 && property.get("$ref").is_some() {
                return None;
            }
            let pin = if let Some(values) = crate::tags::pinned_values(property) {
                Pin::Only(values)
            } else {
                let excluded = property.get("not")?.as_object().filter(|n| n.len() == 1)?;
                match (excluded.get("enum"), excluded.get("const")) {
                    (Some(Value::Array(values)), _) => Pin::Except(values.clone()),
                    (None, Some(value)) => Pin::Except(vec![value.clone()]),
                    _ => return None,
                }
            };
            pins.push(pin);
        }
        let mut by_tag: HashMap<Box<str>, Vec<NodeId>> = HashMap::default();
        for pin in &pins {
            let (Pin::Only(values) | Pin::Except(values)) = pin;
            for tag in values.iter().filter_map(Value::as_str) {
                by_tag.entry(tag.into()).or_default();
            }
        }
        for (tag, candidates) in &mut by_tag {
            let tag = Value::String(tag.to_string());
            for (pin, &node) in pins.iter().zip(alternatives) {
                let takes = match pin {
                    Pin::Only(values) => values.iter().any(|v| equal_values(v, &tag)),
                    Pin::Except(values) => !values.iter().any(|v| equal_values(v, &tag)),
                };
                if takes {
                    candidates.push(node);
                }
            }
        }
        let other = pins
            .iter()
            .zip(alternatives)
            .filter(|(pin, _)| matches!(pin, Pin::Except(_)))
            .map(|(_, &node)| node)
            .collect();
        Some(Tagging {
            key: key.into(),
            by_tag,
            other,
            untagged,
        })
    }
}

/// A JSON Pointer written as a URI fragment.
fn fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for byte in pointer.bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~$!&'()*+,;=:@".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

impl Assertions {
    /// The node for these assertions, with [`Self::has`] filled in.
    fn into_node(mut self) -> Node {
        let mut has = 0;
        if self.values.is_some() || self.constant.is_some() {
            has |= HAS_VALUES;
        }
        if self.minimum.is_some()
            || self.maximum.is_some()
            || self.exclusive_minimum.is_some()
            || self.exclusive_maximum.is_some()
            || self.multiple_of.is_some()
        {
            has |= HAS_NUMBER;
        }
        if self.min_length.is_some() || self.max_length.is_some() {
            has |= HAS_LENGTH;
        }
        if !self.prefix_items.is_empty()
            || self.items.is_some()
            || self.min_items.is_some()
            || self.max_items.is_some()
            || self.unique_items
        {
            has |= HAS_ITEMS;
        }
        if !self.properties.is_empty()
            || self.additional.is_some()
            || self.property_names.is_some()
            || self.min_properties.is_some()
            || self.max_properties.is_some()
        {
            has |= HAS_MEMBERS;
        }
        if !self.all_of.is_empty()
            || self.any_of.is_some()
            || self.one_of.is_some()
            || self.not.is_some()
            || self.condition.is_some()
        {
            has |= HAS_APPLICATORS;
        }
        if has == 0 && self.types != 0 {
            return Node::Types(self.types);
        }
        if has == HAS_APPLICATORS && self.types == 0 && self.all_of.len() == 1 {
            let only = self.all_of[0];
            if self.any_of.is_none()
                && self.one_of.is_none()
                && self.not.is_none()
                && self.condition.is_none()
            {
                return Node::Ref(only);
            }
        }
        self.has = has;
        Node::Schema(Box::new(self))
    }
}

/// A number on the tape or in a schema.
#[derive(Clone, Copy)]
enum Num {
    Int(i128),
    Float(f64),
}

fn num_of(number: &Number) -> Num {
    match (number.as_u64(), number.as_i64()) {
        (Some(n), _) => Num::Int(n.into()),
        (_, Some(n)) => Num::Int(n.into()),
        _ => Num::Float(number.as_f64().unwrap_or(f64::NAN)),
    }
}

/// `int` against `float`, exactly.
fn cmp_int_float(int: i128, float: f64) -> Option<Ordering> {
    if float.is_nan() {
        return None;
    }
    if float >= 1.7e38 {
        return Some(Ordering::Less);
    }
    if float <= -1.7e38 {
        return Some(Ordering::Greater);
    }
    let floor = float.floor();
    match int.cmp(&(floor as i128)) {
        Ordering::Equal if floor == float => Some(Ordering::Equal),
        Ordering::Equal => Some(Ordering::Less),
        other => Some(other),
    }
}

fn cmp_num(a: Num, b: Num) -> Option<Ordering> {
    match (a, b) {
        (Num::Int(a), Num::Int(b)) => Some(a.cmp(&b)),
        (Num::Float(a), Num::Float(b)) => a.partial_cmp(&b),
        (Num::Int(a), Num::Float(b)) => cmp_int_float(a, b),
        (Num::Float(a), Num::Int(b)) => cmp_int_float(b, a).map(Ordering::reverse),
    }
}

fn equal_values(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => {
            cmp_num(num_of(a), num_of(b)) == Some(Ordering::Equal)
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| equal_values(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(k, v)| b.get(k).is_some_and(|w| equal_values(v, w)))
        }
        _ => a == b,
    }
}

/// One message's run through the checks.
struct Run<'c, 'a, 't> {
    nodes: &'c [Node],
    tape: &'a Tape<'t>,
    /// Checks left before the run gives up (an `anyOf` of `anyOf`s can re-read a value
    /// many times).
    budget: u64,
    depth: u32,
}

/// Combines a verdict into a conjunction: `No` ends it.
macro_rules! all {
    ($sure:ident, $verdict:expr) => {
        match $verdict {
            Verdict::No => return Verdict::No,
            Verdict::Unsure => $sure = false,
            Verdict::Yes => {}
        }
    };
}

impl Run<'_, '_, '_> {
    fn check(&mut self, node: NodeId, at: usize) -> Verdict {
        if self.budget == 0 || self.depth > 512 {
            return Verdict::Unsure;
        }
        self.budget -= 1;
        self.depth += 1;
        let verdict = match &self.nodes[node as usize] {
            Node::Any => Verdict::Yes,
            Node::Never => Verdict::No,
            Node::Unsure => Verdict::Unsure,
            Node::Engine(engine) => {
                if engine.is_valid(&self.tape.to_value(at)) {
                    Verdict::Yes
                } else {
                    Verdict::No
                }
            }
            Node::Ref(target) => self.check(*target, at),
            Node::Types(types) => {
                if types & bits_of(self.tape.token(at)) == 0 {
                    Verdict::No
                } else {
                    Verdict::Yes
                }
            }
            Node::Schema(a) => self.assertions(a, at),
        };
        self.depth -= 1;
        verdict
    }

    fn assertions(&mut self, a: &Assertions, at: usize) -> Verdict {
        let tape = self.tape;
        let token = tape.token(at);
        if a.types != 0 && a.types & bits_of(token) == 0 {
            return Verdict::No;
        }
        let mut sure = true;
        if a.has & HAS_VALUES != 0 {
            if let Some(values) = &a.values
                && !values.iter().any(|v| self.equals(at, v))
            {
                return Verdict::No;
            }
            if let Some(constant) = &a.constant
                && !self.equals(at, constant)
            {
                return Verdict::No;
            }
        }
        match token {
            Token::UInt(_) | Token::Int(_) | Token::Float(_) if a.has & HAS_NUMBER != 0 => {
                all!(sure, number(a, token));
            }
            Token::Str(text) | Token::Key(text) if a.has & HAS_LENGTH != 0 => {
                let length = tape.text(*text).chars().count() as u64;
                if a.min_length.is_some_and(|min| length < min)
                    || a.max_length.is_some_and(|max| length > max)
                {
                    return Verdict::No;
                }
            }
            Token::Array { .. } if a.has & HAS_ITEMS != 0 => {
                let mut count = 0u64;
                let mut prefix = a.prefix_items.iter();
                for item in tape.items(at) {
                    count += 1;
                    match prefix.next() {
                        Some(&node) => all!(sure, self.check(node, item)),
                        None => {
                            if let Some(node) = a.items {
                                all!(sure, self.check(node, item));
                            }
                        }
                    }
                }
                if a.min_items.is_some_and(|min| count < min)
                    || a.max_items.is_some_and(|max| count > max)
                {
                    return Verdict::No;
                }
                if a.unique_items {
                    all!(sure, self.unique(at));
                }
            }
            Token::Object { .. } if a.has & HAS_MEMBERS != 0 => all!(sure, self.object(a, at)),
            _ => {}
        }
        if a.has & HAS_APPLICATORS != 0 {
            all!(sure, self.applicators(a, at));
        }
        if sure { Verdict::Yes } else { Verdict::Unsure }
    }

    /// `allOf`, `$ref`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`.
    fn applicators(&mut self, a: &Assertions, at: usize) -> Verdict {
        let mut sure = true;
        for &node in &a.all_of {
            all!(sure, self.check(node, at));
        }
        if let Some(union) = &a.any_of {
            all!(sure, self.union(union, at, false));
        }
        if let Some(union) = &a.one_of {
            all!(sure, self.union(union, at, true));
        }
        if let Some(node) = a.not {
            all!(
                sure,
                match self.check(node, at) {
                    Verdict::Yes => Verdict::No,
                    Verdict::No => Verdict::Yes,
                    Verdict::Unsure => Verdict::Unsure,
                }
            );
        }
        if let Some((condition, then, otherwise)) = a.condition {
            let branch = match self.check(condition, at) {
                Verdict::Yes => then,
                Verdict::No => otherwise,
                Verdict::Unsure => return Verdict::Unsure,
            };
            if let Some(node) = branch {
                all!(sure, self.check(node, at));
            }
        }
        if sure { Verdict::Yes } else { Verdict::Unsure }
    }

    fn object(&mut self, a: &Assertions, at: usize) -> Verdict {
        let mut sure = true;
        let mut seen = 0u64;
        let mut count = 0u64;
        // Messages usually list keys in the schema's order: look after the last match
        // first.
        let mut next = 0;
        for (key, value) in self.tape.members(at) {
            count += 1;
            if let Some(names) = a.property_names {
                all!(sure, self.check(names, value - 1));
            }
            let found = match &a.lookup {
                Some(lookup) => lookup.get(key).copied(),
                None => {
                    let (before, after) = a.properties.split_at(next.min(a.properties.len()));
                    after
                        .iter()
                        .position(|p| &*p.name == key)
                        .map(|i| i + next)
                        .or_else(|| before.iter().position(|p| &*p.name == key))
                }
            };
            if let Some(index) = found {
                next = index + 1;
            }
            let property = found.map(|index| {
                if index < 64 {
                    seen |= 1 << index;
                }
                &a.properties[index]
            });
            match property {
                Some(Property {
                    node: Some(node),
                    declared: true,
                    ..
                }) => all!(sure, self.check(*node, value)),
                Some(Property { declared: true, .. }) => {}
                _ => {
                    if let Some(node) = a.additional {
                        all!(sure, self.check(node, value));
                    }
                }
            }
        }
        if a.required & !seen != 0
            || a.min_properties.is_some_and(|min| count < min)
            || a.max_properties.is_some_and(|max| count > max)
        {
            return Verdict::No;
        }
        if sure { Verdict::Yes } else { Verdict::Unsure }
    }

    fn union(&mut self, union: &Union, at: usize, one: bool) -> Verdict {
        let object = matches!(self.tape.token(at), Token::Object { .. });
        let candidates: &[NodeId] = match &union.tag {
            Some(tagging) if object => match self.tape.member(at, &tagging.key) {
                Some(tag) => match self.tape.str_at(tag) {
                    Some(tag) => tagging.by_tag.get(tag).unwrap_or(&tagging.other),
                    None => &union.alternatives,
                },
                None => &tagging.untagged,
            },
            _ => &union.alternatives,
        };
        let mut yes = 0;
        let mut unsure = false;
        for &node in candidates {
            match self.check(node, at) {
                Verdict::Yes if !one => return Verdict::Yes,
                Verdict::Yes => {
                    yes += 1;
                    if yes > 1 {
                        return Verdict::No;
                    }
                }
                Verdict::No => {}
                Verdict::Unsure => unsure = true,
            }
        }
        match (yes, unsure) {
            (_, true) => Verdict::Unsure,
            (0, false) => Verdict::No,
            _ => Verdict::Yes,
        }
    }

    /// Whether the items of the array at `at` are distinct (JSON equality): pairwise for
    /// up to [`MAX_UNIQUE_ITEMS`] items; past that the engine decides.
    fn unique(&self, at: usize) -> Verdict {
        let items: Vec<usize> = self.tape.items(at).take(MAX_UNIQUE_ITEMS + 1).collect();
        if items.len() > MAX_UNIQUE_ITEMS {
            return Verdict::Unsure;
        }
        for (i, &a) in items.iter().enumerate() {
            for &b in &items[i + 1..] {
                match self.same(a, b) {
                    Some(true) => return Verdict::No,
                    Some(false) => {}
                    None => return Verdict::Unsure,
                }
            }
        }
        Verdict::Yes
    }

    /// Whether the values at `a` and `b` are equal (numbers by value, objects in any
    /// order); `None` when numbers cannot be compared exactly.
    fn same(&self, a: usize, b: usize) -> Option<bool> {
        let tape = self.tape;
        Some(match (tape.token(a), tape.token(b)) {
            (Token::Null, Token::Null) => true,
            (Token::Bool(x), Token::Bool(y)) => x == y,
            (Token::Str(x), Token::Str(y)) => tape.text(*x) == tape.text(*y),
            (x @ (Token::UInt(_) | Token::Int(_) | Token::Float(_)), y) => {
                match (token_num(x), token_num(y)) {
                    (Some(x), Some(y)) => cmp_num(x, y)?.is_eq(),
                    _ => false,
                }
            }
            (Token::Array { .. }, Token::Array { .. }) => {
                if tape.items(a).count() != tape.items(b).count() {
                    return Some(false);
                }
                for (x, y) in tape.items(a).zip(tape.items(b)) {
                    if !self.same(x, y)? {
                        return Some(false);
                    }
                }
                true
            }
            (Token::Object { .. }, Token::Object { .. }) => {
                if tape.members(a).count() != tape.members(b).count() {
                    return Some(false);
                }
                for (key, x) in tape.members(a) {
                    let Some(y) = tape.member(b, key) else {
                        return Some(false);
                    };
                    if !self.same(x, y)? {
                        return Some(false);
                    }
                }
                true
            }
            _ => false,
        })
    }

    /// Whether the value at `at` equals `value` (numbers by value, objects in any order).
    fn equals(&self, at: usize, value: &Value) -> bool {
        let tape = self.tape;
        match (tape.token(at), value) {
            (Token::Null, Value::Null) => true,
            (Token::Bool(a), Value::Bool(b)) => a == b,
            (Token::Str(a) | Token::Key(a), Value::String(b)) => tape.text(*a) == b,
            (number @ (Token::UInt(_) | Token::Int(_) | Token::Float(_)), Value::Number(b)) => {
                token_num(number)
                    .and_then(|a| cmp_num(a, num_of(b)))
                    .is_some_and(Ordering::is_eq)
            }
            (Token::Array { .. }, Value::Array(items)) => {
                tape.items(at).count() == items.len()
                    && tape
                        .items(at)
                        .zip(items)
                        .all(|(at, item)| self.equals(at, item))
            }
            (Token::Object { .. }, Value::Object(members)) => {
                tape.members(at).count() == members.len()
                    && tape
                        .members(at)
                        .all(|(key, at)| members.get(key).is_some_and(|v| self.equals(at, v)))
            }
            _ => false,
        }
    }
}

fn bits_of(token: &Token<'_>) -> u8 {
    match token {
        Token::Null => NULL,
        Token::Bool(_) => BOOLEAN,
        Token::UInt(_) | Token::Int(_) => INTEGER | NUMBER,
        Token::Float(f) if f.fract() == 0.0 => INTEGER | NUMBER,
        Token::Float(_) => NUMBER,
        Token::Str(_) | Token::Key(_) => STRING,
        Token::Array { .. } => ARRAY,
        Token::Object { .. } => OBJECT,
    }
}

fn token_num(token: &Token<'_>) -> Option<Num> {
    match token {
        Token::UInt(n) => Some(Num::Int((*n).into())),
        Token::Int(n) => Some(Num::Int((*n).into())),
        Token::Float(f) => Some(Num::Float(*f)),
        _ => None,
    }
}

/// The number checks of `a` on a number token.
fn number(a: &Assertions, token: &Token<'_>) -> Verdict {
    let Some(value) = token_num(token) else {
        return Verdict::Yes;
    };
    let mut sure = true;
    let mut against = |limit: &Option<Number>, holds: fn(Ordering) -> bool| match limit {
        None => true,
        Some(limit) => match cmp_num(value, num_of(limit)) {
            Some(order) => holds(order),
            None => {
                sure = false;
                true
            }
        },
    };
    let within = against(&a.minimum, Ordering::is_ge)
        && against(&a.maximum, Ordering::is_le)
        && against(&a.exclusive_minimum, Ordering::is_gt)
        && against(&a.exclusive_maximum, Ordering::is_lt);
    if !within {
        return Verdict::No;
    }
    if let Some(m) = a.multiple_of {
        match value {
            Num::Int(n) if n % i128::from(m) != 0 => return Verdict::No,
            Num::Int(_) => {}
            Num::Float(f) if f.fract() != 0.0 => return Verdict::No,
            Num::Float(_) => sure = false,
        }
    }
    if sure { Verdict::Yes } else { Verdict::Unsure }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::validate::tape;

    /// Each schema with messages: the checks must answer on their own (not `Unsure`)
    /// and give the engine's verdict.
    #[test]
    fn agree_with_the_engine_keyword_by_keyword() {
        let cases = [
            (
                json!({"type": "integer", "minimum": 1.5, "exclusiveMaximum": 18446744073709551615_u64}),
                vec![
                    "1",
                    "2",
                    "2.0",
                    "1.5",
                    "-3",
                    "18446744073709551614",
                    "18446744073709551615",
                    "1e300",
                ],
            ),
            (
                json!({"type": ["number", "null"], "maximum": -1e300, "multipleOf": 3}),
                vec!["null", "-3", "-6", "true"],
            ),
            (
                json!({"type": "integer", "multipleOf": 3, "minimum": -9223372036854775808_i64}),
                vec!["-9", "-9223372036854775808", "9", "10", "9.5"],
            ),
            (
                json!({"type": "string", "minLength": 2, "maxLength": 3}),
                vec![
                    r#""a""#,
                    r#""ab""#,
                    r#""🦀🦀""#,
                    r#""abcd""#,
                    r#""\u00e9\u00e9\u00e9""#,
                    "1",
                ],
            ),
            (
                json!({"enum": [1, "a", null, {"k": [1, 2.0]}, [true]]}),
                vec![
                    "1.0",
                    r#""a""#,
                    "null",
                    r#"{"k": [1.0, 2]}"#,
                    r#"{"k": [1, 2], "x": 1}"#,
                    "[true]",
                    "[false]",
                    "2",
                ],
            ),
            (
                json!({"const": {"a": 1, "b": "x"}}),
                vec![
                    r#"{"b": "x", "a": 1}"#,
                    r#"{"a": 1}"#,
                    r#"{"a": 1, "b": "y"}"#,
                ],
            ),
            (
                json!({
                    "type": "object",
                    "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
                    "required": ["a", "c"],
                    "additionalProperties": {"type": "boolean"},
                    "maxProperties": 3
                }),
                vec![
                    r#"{"a": "x", "c": true}"#,
                    r#"{"a": "x", "c": 1}"#,
                    r#"{"a": "x"}"#,
                    r#"{"a": "x", "c": false, "b": 1}"#,
                    r#"{"a": "x", "c": false, "b": 1, "d": true}"#,
                    r#"{"a": 1, "c": true}"#,
                    "[]",
                ],
            ),
            (
                json!({"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false, "minItems": 1}),
                vec![
                    r#"["a"]"#,
                    r#"["a", 1]"#,
                    r#"["a", 1, 2]"#,
                    "[]",
                    "[1]",
                    r#"{"a": 1}"#,
                ],
            ),
            (
                json!({
                    "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}, "v": {"type": "integer"}}, "additionalProperties": false}},
                    "$ref": "#/$defs/node"
                }),
                vec![
                    r#"{"v": 1, "next": {"next": {"v": 2}}}"#,
                    r#"{"next": {"next": {"v": "x"}}}"#,
                    r#"{"w": 1}"#,
                ],
            ),
            (
                json!({
                    "oneOf": [
                        {"type": "object", "properties": {"type": {"const": "a"}, "x": {"type": "integer"}}, "required": ["type", "x"]},
                        {"type": "object", "properties": {"type": {"enum": ["b", "B"]}}, "required": ["type"]},
                        {"type": "object", "properties": {"type": {"type": "string", "not": {"enum": ["a", "b", "B"]}}}, "required": ["type"]}
                    ]
                }),
                vec![
                    r#"{"type": "a", "x": 1}"#,
                    r#"{"type": "a", "x": "1"}"#,
                    r#"{"type": "B"}"#,
                    r#"{"type": "zzz"}"#,
                    r#"{"type": 1}"#,
                    r#"{"x": 1}"#,
                ],
            ),
            (
                json!({"anyOf": [
                    {"properties": {"t": {"const": "a"}}, "required": ["t"]},
                    {"properties": {"t": {"const": "b"}, "n": {"type": "integer"}}, "required": ["n"]}
                ]}),
                vec![
                    r#"{"t": "a"}"#,
                    r#"{"n": 1}"#,
                    r#"{"n": "x"}"#,
                    r#"{"t": "b", "n": 1}"#,
                    r#"{"t": "b"}"#,
                    "{}",
                    "3",
                ],
            ),
            (
                json!({"anyOf": [{"type": "integer"}, {"minimum": 2}], "not": {"const": 3}}),
                vec!["1", "2.5", "3", "-1.5", r#""s""#],
            ),
            (
                json!({"if": {"properties": {"k": {"const": 1}}}, "then": {"required": ["a"]}, "else": {"required": ["b"]}}),
                vec![
                    r#"{"k": 1, "a": 0}"#,
                    r#"{"k": 1, "b": 0}"#,
                    r#"{"k": 2, "b": 0}"#,
                    r#"{"k": 2}"#,
                    "7",
                ],
            ),
            (
                json!({"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "properties": {"s": {"pattern": "^[a-z]+$"}}}),
                vec![
                    r#"{"x-a": "y", "s": "abc"}"#,
                    r#"{"x-a": 1}"#,
                    r#"{"s": "ABC"}"#,
                ],
            ),
            (
                json!({"type": "array", "uniqueItems": true, "items": {"type": ["integer", "object", "array"]}}),
                vec![
                    "[1, 2]",
                    "[1, 1.0]",
                    "[1, \"a\"]",
                    r#"[{"a": 1, "b": [2]}, {"b": [2.0], "a": 1}]"#,
                    r#"[{"a": 1}, {"a": 2}, [1], [1, 2]]"#,
                    "[[1], [1]]",
                ],
            ),
            (
                json!({"type": "object", "propertyNames": {"maxLength": 3, "not": {"const": "bad"}}}),
                vec![
                    r#"{"abc": 1, "de": 2}"#,
                    r#"{"abcd": 1}"#,
                    r#"{"bad": 1}"#,
                    "{}",
                ],
            ),
            (
                json!({"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"s": {"type": "string"}},
                       "properties": {"a": {"$ref": "#/definitions/s", "type": "integer"}}, "items": [{"type": "integer"}]}),
                vec![r#"{"a": "x"}"#, r#"{"a": 1}"#, r#"["x"]"#, "[1, \"x\"]"],
            ),
            (json!(false), vec!["1", "{}"]),
            (json!({}), vec!["1", "{}"]),
        ];
        let options = SchemaOptions::default();
        for (schema, messages) in cases {
            let checks = Checks::compile(&schema, &options, &[""]).expect("compiled");
            let engine = build(&options, &schema).unwrap();
            for text in messages {
                let tape = tape::read(text, false).unwrap();
                let expected = engine.is_valid(&serde_json::from_str(text).unwrap());
                let verdict = checks.check(0, &tape);
                assert_eq!(
                    verdict,
                    if expected { Verdict::Yes } else { Verdict::No },
                    "{schema} on {text}"
                );
            }
        }
    }

    #[test]
    fn dispatch_on_the_tag_checks_only_the_alternatives_that_take_it() {
        let schema = json!({"anyOf": [
            {"properties": {"t": {"const": "a"}}, "required": ["t"]},
            {"properties": {"t": {"const": "b"}}, "required": ["t"]},
            {"properties": {"t": {"not": {"enum": ["a", "b"]}}}}
        ]});
        let options = SchemaOptions::default();
        let checks = Checks::compile(&schema, &options, &[""]).unwrap();
        let Node::Schema(root) = &checks.nodes[0] else {
            panic!("the root is compiled");
        };
        let tagging = root.any_of.as_ref().unwrap().tag.as_ref().unwrap();
        assert_eq!(&*tagging.key, "t");
        assert_eq!(tagging.by_tag[&Box::<str>::from("a")].len(), 1);
        assert_eq!(tagging.other.len(), 1);
    }

    #[test]
    fn leaves_documents_it_cannot_follow_to_the_engine() {
        let options = SchemaOptions::default();
        for schema in [
            json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer"}),
            json!({"$schema": "http://localhost:1234/draft2020-12/metaschema-no-validation.json"}),
            json!({"$defs": {"a": {"$id": "http://example.com/a", "type": "string"}}}),
            json!({"$defs": {"a": {"$anchor": "x"}}, "$ref": "#x"}),
            json!({"$dynamicAnchor": "node", "type": "object"}),
        ] {
            assert!(
                Checks::compile(&schema, &options, &[""]).is_none(),
                "{schema}"
            );
        }
        // Many uncovered nodes that follow references: a bounded number get engines of
        // their own, and messages reaching the rest take the general path.
        let mut defs = Map::new();
        for i in 0..200 {
            defs.insert(
                format!("d{i}"),
                json!({"pattern": "^a", "properties": {"next": {"$ref": format!("#/$defs/d{}", (i + 1) % 200)}}}),
            );
        }
        let many = json!({"$defs": defs, "$ref": "#/$defs/d0"});
        let checks = Checks::compile(&many, &options, &[""]).unwrap();
        let engines = checks
            .nodes
            .iter()
            .filter(|n| matches!(n, Node::Engine(_)))
            .count();
        assert!(engines <= MAX_REF_ENGINES, "{engines} engines");
        let deep = format!("{}\"a\"{}", r#"{"next": "#.repeat(100), "}".repeat(100));
        let tape = tape::read(&deep, false).unwrap();
        assert_ne!(checks.check(0, &tape), Verdict::No);
        // A loop of references that reads nothing gives up rather than recursing.
        let looping = json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"});
        if let Some(checks) = Checks::compile(&looping, &options, &[""]) {
            let tape = tape::read("1", false).unwrap();
            assert_eq!(checks.check(0, &tape), Verdict::Unsure);
        }
    }
}
