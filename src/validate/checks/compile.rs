//! Compiling a schema document into [`Checks`]: which keywords become checks, which
//! nodes are left to an engine of their own, and the documents `$ref`s lead to.

use std::rc::Rc;

use ahash::HashMap;
use jsonschema::json::SerdeJson;
use serde_json::{Map, Number, Value};

use super::numbers::equal_values;
use super::simplify;
use super::{
    ARRAY, Assertions, BOOLEAN, Checks, Draft, INTEGER, NULL, NUMBER, Node, NodeId, OBJECT,
    Property, STRING, Tagging, Union,
};
use crate::uri::{fragment, has_scheme, resolve as resolve_uri};
use crate::validate::compiled::{SchemaOptions, build, rooted_at};
use crate::validate::discriminator;

/// How deep schemas nest (through `$ref`s too) before the rest is left to an engine.
const MAX_COMPILE_DEPTH: usize = 200;

/// See [`Compiler::engine`].
pub(super) const MAX_REF_ENGINES: usize = 32;

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
            build::<SerdeJson>(options, &Value::Object(probe))
                .map_or(true, |e| !e.is_valid(&Value::from("x")))
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
        let mut nodes = compiler.nodes;
        simplify::simplify(&mut nodes);
        Some(Self { nodes, roots })
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
        let whole = doc == 0 && pointer.is_empty();
        let refers = has_ref(schema);
        if refers && !whole {
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
        let in_dialect = |mut map: Map<String, Value>| {
            if let Some(uri) = &self.dialect {
                map.insert("$schema".into(), uri.clone());
            }
            Value::Object(map)
        };
        let document = &self.docs[doc];
        let source = if whole {
            (*document.value).clone()
        } else if !refers {
            in_dialect(schema.as_object().cloned().unwrap_or_default())
        } else if doc == 0
            && document.rootable
            && (pointer.starts_with("/$defs/") || pointer.starts_with("/definitions/"))
        {
            rooted_at(&document.value, pointer)
        } else if !document.loaded_as.is_empty() {
            // A reference to the node in its file, which the engine reads through the
            // same retriever.
            let reference = format!("{}#{}", document.loaded_as, fragment(pointer));
            in_dialect(Map::from_iter([(
                "$ref".to_owned(),
                Value::String(reference),
            )]))
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
                let index = a.property(name);
                if index >= 64 {
                    return Err(Uncovered);
                }
                a.required |= 1 << index;
            }
        }
        a.index_properties();
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
            by_tag: by_tag.into(),
            other,
            untagged,
        })
    }
}
