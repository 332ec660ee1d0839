//! Values JSON's grammar allows but a decoder may not take: numbers beyond what a 64-bit
//! float holds (`1e400`), strings with a lone surrogate escape (`"\ud800"`) and nesting
//! deeper than [`MAX_DEPTH`] levels.
//!
//! serde's rule, which the schema walk follows so that both paths give one verdict:
//! - what a type *skips* is checked for syntax only, so it may hold either: the value of
//!   a key a struct does not declare (serde's `IgnoredAny`), and so everything under
//!   that key;
//! - what a type *keeps* is decoded and must be representable: a declared field, a
//!   map's values, array items, every key of an object it decodes, and everything
//!   inside a free-form value (`serde_json::Value`, symgen's `RawJson`).
//!
//! From a schema, "kept" reads as: the location is reached from the root through keys
//! that the evaluating schemas name (`properties`, `patternProperties`,
//! `additionalProperties`, `unevaluatedProperties`, in the branches that matched) or
//! through array items; below a free-form schema (one that asserts no `type`),
//! everything is kept; an object schema that names no keys (`{"type":"object"}`, a
//! struct with no fields) skips the values of all its keys.
//!
//! serde_json refuses such a message outright, so [`parse`] reads it again without
//! refusing: each fault gets a stand-in value of the same JSON type (the largest finite
//! number of its sign; the string with U+FFFD for each lone surrogate; an empty array or
//! object for one nested too deep) and a [`Fault`]
//! saying where it was. After the schema walk has judged the stand-in message,
//! [`kept`] says which faults sit where the message is decoded.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::model::RUST_INTEGER_FORMATS;

use super::locate::{position_of, skip_value, skip_ws, string_end};
use super::message::Message;
use super::report::{Violation, ViolationKind};
use super::tape::Tape;
use super::text::{MAX_DEPTH, beyond_64_bits, is_number_byte};
use crate::json_pointer;

/// A value serde_json could not take, where it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// The value's JSON Pointer; for a key, the pointer of the object that holds it.
    pub pointer: String,
    /// Byte offset of the token in the text.
    pub offset: usize,
    /// What is wrong with it.
    pub what: FaultKind,
}

/// What a [`Fault`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// A number beyond the range of a 64-bit float.
    Number,
    /// A string value with a lone surrogate escape.
    String,
    /// An object key with a lone surrogate escape.
    Key,
    /// An array or object nested deeper than [`MAX_DEPTH`] levels.
    TooDeep,
    /// A number with an integral value that serde_json reads as a float: written with
    /// a fraction or an exponent (`1.0`, `1e2`), `-0`, or an integer literal beyond 64
    /// bits. JSON Schema calls it an integer; a Rust integer type refuses it.
    FloatInteger,
    /// A key an object already had (the pointer is the member's, the offset the second
    /// key's). serde_json keeps the last value; a struct refuses a field given twice.
    Duplicate,
}

/// Whether serde_json refused a text for a value fault (as opposed to its syntax).
pub fn is_value_fault(err: &serde_json::Error) -> bool {
    let message = err.to_string();
    message.starts_with("number out of range")
        || super::text::is_recursion_limit(&message)
        || message.contains("surrogate")
        || message.starts_with("unexpected end of hex escape")
        || message.starts_with("invalid unicode code point")
}

/// The message with each fault replaced by a stand-in, and the faults in text order.
/// `None` when the text is not JSON for another reason: the strict parse's error then
/// stands.
pub fn parse(text: &str) -> Option<(Value, Vec<Fault>)> {
    serde_json::from_str::<IgnoredAny>(text).ok()?;
    Reader {
        text,
        bytes: text.as_bytes(),
        faults: Vec::new(),
    }
    .document()
}

/// How [`read`] read a text.
pub enum Read<'t> {
    /// A text without faults, on its tape (see `tape::read`): it reads as serde_json
    /// reads it, and its `Value` is built only if asked.
    Tape(Tape<'t>),
    /// A text the tape does not read, as serde_json reads it into a [`Value`], with the
    /// faults it holds (none, when serde_json reads it as it is).
    Value(Value, Vec<Fault>),
}

impl Read<'_> {
    /// The message read, to judge.
    pub fn message(&self) -> Message<'_> {
        match self {
            Read::Tape(tape) => Message::on_tape(tape),
            Read::Value(value, _) => Message::Value(value),
        }
    }

    /// The faults the text holds, in text order.
    pub fn faults(&self) -> &[Fault] {
        match self {
            Read::Tape(_) => &[],
            Read::Value(_, found) => found,
        }
    }
}

/// `text` read as serde_json reads it: on a tape, for most messages (the tape refuses a
/// text with any fault, and its syntax pass costs less than serde's visitor calls);
/// when the text has a value fault, a key given twice or an integral float, serde reads
/// it into a [`Value`], then [`parse`] reads it again to place them.
/// The error is serde_json's, for a text that is not JSON.
/// Integral floats are looked for only when `integers` (the schema has a Rust integer
/// `format`, see [`has_rust_integers`]).
pub fn read(text: &str, integers: bool) -> Result<Read<'_>, serde_json::Error> {
    match super::tape::read(text, integers) {
        Some(tape) => Ok(Read::Tape(tape)),
        None => read_by_serde(text, integers).map(|(value, found)| Read::Value(value, found)),
    }
}

/// [`read`] through serde_json's visitor, for a text the tape does not read.
fn read_by_serde(text: &str, integers: bool) -> Result<(Value, Vec<Fault>), serde_json::Error> {
    thread_local! {
        /// The members of the objects being read (see [`Tracked`]), kept from one
        /// message to the next so that the stack does not grow again each time.
        static MEMBERS: RefCell<Vec<(String, Value)>> = const { RefCell::new(Vec::new()) };
    }
    /// Past this many members the stack is not kept for the next message.
    const KEPT: usize = 1024;
    let twice = Cell::new(false);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let read = MEMBERS.with(|members| {
        let read = Tracked(&twice, integers, members)
            .deserialize(&mut deserializer)
            .and_then(|value| deserializer.end().map(|()| value));
        let mut members = members.borrow_mut();
        members.clear();
        if members.capacity() > KEPT {
            *members = Vec::new();
        }
        read
    });
    match read {
        Ok(value) if twice.get() => Ok(parse(text).unwrap_or((value, Vec::new()))),
        Ok(value) => Ok((value, Vec::new())),
        Err(err) if is_value_fault(&err) => parse(text).ok_or(err),
        Err(err) => Err(err),
    }
}

/// Reads a [`Value`] as serde_json's own visitor does, and sets the flag when an object
/// has a key twice or a float has an integral value. An object's members are gathered
/// on a stack shared by the whole read (the third field) and moved into a map of the
/// right size once the object ends, so a map is never grown and rehashed member by
/// member.
#[derive(Clone, Copy)]
struct Tracked<'f>(&'f Cell<bool>, bool, &'f RefCell<Vec<(String, Value)>>);

impl<'de> DeserializeSeed<'de> for Tracked<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Tracked<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        if self.1 && value.fract() == 0.0 {
            self.0.set(true);
        }
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        // An object inside takes the stack above `base` and leaves it as it found it.
        let base = self.2.borrow().len();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(self)?;
            self.2.borrow_mut().push((key, value));
        }
        let mut stack = self.2.borrow_mut();
        let mut members = Map::with_capacity(stack.len() - base);
        for (key, value) in stack.drain(base..) {
            if members.insert(key, value).is_some() {
                self.0.set(true);
            }
        }
        Ok(Value::Object(members))
    }
}

/// A container being read, with its own pointer.
enum Frame {
    Array(Vec<Value>, String),
    /// The members so far, the object's pointer, the current key and its offset.
    Object(Map<String, Value>, String, String, usize),
}

impl Frame {
    /// The pointer of the next value this container receives.
    fn child(&self) -> String {
        match self {
            Frame::Array(items, pointer) => json_pointer::child(pointer, &items.len().to_string()),
            Frame::Object(_, pointer, key, _) => json_pointer::child(pointer, key),
        }
    }
}

/// Whether some schema in `document` has a Rust integer `format` (schemars writes one
/// for every Rust integer type), or may through a `$ref` to another document.
pub fn has_rust_integers(document: &Value) -> bool {
    let mut stack = vec![document];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                if map
                    .get("format")
                    .and_then(Value::as_str)
                    .is_some_and(|f| RUST_INTEGER_FORMATS.contains(&f))
                    || map
                        .get("$ref")
                        .and_then(Value::as_str)
                        .is_some_and(|r| !r.starts_with('#'))
                {
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

/// Reads a text that is known to be JSON (syntax checked by serde_json), iteratively.
struct Reader<'t> {
    text: &'t str,
    bytes: &'t [u8],
    faults: Vec<Fault>,
}

impl Reader<'_> {
    fn document(mut self) -> Option<(Value, Vec<Fault>)> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut pos = skip_ws(self.bytes, 0);
        loop {
            let pointer = || stack.last().map(Frame::child).unwrap_or_default();
            let mut value = match self.bytes.get(pos)? {
                open @ (b'{' | b'[') if stack.len() >= MAX_DEPTH => {
                    self.fault(pointer(), pos, FaultKind::TooDeep);
                    pos = skip_value(self.bytes, pos);
                    match open {
                        b'{' => Value::Object(Map::new()),
                        _ => Value::Array(Vec::new()),
                    }
                }
                b'{' => {
                    pos = skip_ws(self.bytes, pos + 1);
                    if self.bytes.get(pos) == Some(&b'}') {
                        pos += 1;
                        Value::Object(Map::new())
                    } else {
                        let own = pointer();
                        let (key, next) = self.key(pos, &own)?;
                        stack.push(Frame::Object(Map::new(), own, key, pos));
                        pos = next;
                        continue;
                    }
                }
                b'[' => {
                    pos = skip_ws(self.bytes, pos + 1);
                    if self.bytes.get(pos) == Some(&b']') {
                        pos += 1;
                        Value::Array(Vec::new())
                    } else {
                        stack.push(Frame::Array(Vec::new(), pointer()));
                        continue;
                    }
                }
                b'"' => {
                    let end = string_end(self.bytes, pos)?;
                    let (string, lone) = decode_string(&self.text[pos..end])?;
                    if lone {
                        self.fault(pointer(), pos, FaultKind::String);
                    }
                    pos = end;
                    Value::String(string)
                }
                b't' => self.word(&mut pos, "true", Value::Bool(true))?,
                b'f' => self.word(&mut pos, "false", Value::Bool(false))?,
                b'n' => self.word(&mut pos, "null", Value::Null)?,
                _ => {
                    let start = pos;
                    let token = number_token(self.text, start);
                    pos += token.len();
                    match token.parse::<Number>() {
                        Ok(number) => {
                            if number.as_f64().is_some_and(|f| f.fract() == 0.0) && number.is_f64()
                            {
                                self.fault(pointer(), start, FaultKind::FloatInteger);
                            }
                            Value::Number(number)
                        }
                        Err(_) => {
                            self.fault(pointer(), start, FaultKind::Number);
                            let largest = if token.starts_with('-') {
                                f64::MIN
                            } else {
                                f64::MAX
                            };
                            Value::Number(Number::from_f64(largest)?)
                        }
                    }
                }
            };
            // Hand the value to its container, closing containers as they end.
            loop {
                pos = skip_ws(self.bytes, pos);
                let Some(frame) = stack.last_mut() else {
                    return Some((value, self.faults));
                };
                let more = self.bytes.get(pos) == Some(&b',');
                pos = skip_ws(self.bytes, pos + 1);
                match frame {
                    Frame::Array(items, _) => items.push(value),
                    Frame::Object(map, own, key, at) => {
                        let member = std::mem::take(key);
                        if map.contains_key(&member) {
                            let pointer = json_pointer::child(own, &member);
                            self.fault(pointer, *at, FaultKind::Duplicate);
                        }
                        map.insert(member, value);
                        if more {
                            let (next_key, next) = self.key(pos, own)?;
                            *key = next_key;
                            *at = pos;
                            pos = next;
                        }
                    }
                }
                if more {
                    break;
                }
                value = match stack.pop()? {
                    Frame::Array(items, _) => Value::Array(items),
                    Frame::Object(map, ..) => Value::Object(map),
                };
            }
        }
    }

    /// Reads the key at `pos` (and its colon): the key and the offset of its value.
    fn key(&mut self, pos: usize, object: &str) -> Option<(String, usize)> {
        let end = string_end(self.bytes, pos)?;
        let (key, lone) = decode_string(&self.text[pos..end])?;
        if lone {
            self.fault(object.to_owned(), pos, FaultKind::Key);
        }
        let colon = skip_ws(self.bytes, end);
        Some((key, skip_ws(self.bytes, colon + 1)))
    }

    fn word(&self, pos: &mut usize, word: &str, value: Value) -> Option<Value> {
        self.text[*pos..].starts_with(word).then(|| {
            *pos += word.len();
            value
        })
    }

    fn fault(&mut self, pointer: String, offset: usize, what: FaultKind) {
        self.faults.push(Fault {
            pointer,
            offset,
            what,
        });
    }
}

/// A quoted JSON string's value, and whether a lone surrogate in it had to become
/// U+FFFD.
fn decode_string(quoted: &str) -> Option<(String, bool)> {
    if let Ok(string) = serde_json::from_str::<String>(quoted) {
        return Some((string, false));
    }
    serde_json::from_str::<String>(&without_lone_surrogates(quoted))
        .ok()
        .map(|s| (s, true))
}

/// `quoted` with every `\uXXXX` escape of a lone surrogate replaced by `\ufffd`.
fn without_lone_surrogates(quoted: &str) -> String {
    let escape_at = |at: usize| -> Option<u16> {
        let hex = quoted.get(at..at + 6)?.strip_prefix("\\u")?;
        u16::from_str_radix(hex, 16).ok()
    };
    let mut out = String::with_capacity(quoted.len());
    let mut copied = 0;
    let mut at = 0;
    let bytes = quoted.as_bytes();
    while at < bytes.len() {
        if bytes[at] != b'\\' {
            at += 1;
            continue;
        }
        match escape_at(at) {
            Some(0xD800..=0xDBFF)
                if escape_at(at + 6).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low)) =>
            {
                at += 12;
            }
            Some(0xD800..=0xDFFF) => {
                out.push_str(&quoted[copied..at]);
                out.push_str("\\ufffd");
                at += 6;
                copied = at;
            }
            _ => at += 2,
        }
    }
    out.push_str(&quoted[copied..]);
    out
}

/// What the schema walk that accepted a message says about its locations: per object
/// location, the keys a subschema evaluated, and the locations where a keyword that makes
/// an object typed (`type`, `properties`, `required`) was evaluated.
#[derive(Default)]
struct Evaluated {
    keys: HashMap<String, HashSet<String>>,
    /// Per object location, the keys a matching `properties` names: a struct's fields,
    /// which serde refuses twice (a map's keys and a free-form value's are last-wins).
    declared: HashMap<String, HashSet<String>>,
    typed: HashSet<String>,
    /// The locations a matching schema gives a Rust integer `format` (what schemars
    /// writes for `u32`, `i64`, …): serde reads them from integer literals only.
    integers: HashSet<String>,
}

const TYPED_KEYWORDS: [&str; 3] = ["type", "properties", "required"];

impl Evaluated {
    /// From `jsonschema`'s hierarchical output; subtrees that failed (branches that did
    /// not match) say nothing. A node at another location than its parent's is a
    /// subschema applied to a member; one at the same location is a keyword.
    /// `documents` reads the other documents a `$ref` led the walk to, by URI.
    fn from_output(
        output: &Value,
        schema: &Value,
        documents: &dyn Fn(&str) -> Option<Value>,
    ) -> Self {
        let mut read: HashMap<String, Option<Value>> = HashMap::new();
        let mut evaluated = Self::default();
        let mut stack = vec![(output, None::<&str>)];
        while let Some((node, parent)) = stack.pop() {
            if node.get("valid") != Some(&Value::Bool(true)) {
                continue;
            }
            let location = node
                .get("instanceLocation")
                .and_then(Value::as_str)
                .unwrap_or("");
            match parent {
                Some(parent) if parent == location => {
                    let path = node
                        .get("evaluationPath")
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    let keyword = path.rsplit('/').next().unwrap_or("");
                    if TYPED_KEYWORDS.contains(&keyword) {
                        evaluated.typed.insert(location.to_owned());
                    }
                    // The keyword's place in the schema: a pointer, or a URI (the
                    // document's `$id` or file) with a pointer as its fragment.
                    // Found from the `format` keyword's node or, where the draft's
                    // output has none for an unknown format (draft-07), from the `type`
                    // keyword's, whose sibling it is.
                    let mut rust_integer = || {
                        let at = node.get("schemaLocation").and_then(Value::as_str)?;
                        let (base, fragment) = at.split_once('#').unwrap_or(("", at));
                        let at = super::discriminator::fragment_pointer(fragment);
                        let at = match at.strip_suffix("/type") {
                            Some(schema) => format!("{schema}/format"),
                            None => at,
                        };
                        let is_rust = |schema: &Value| {
                            schema
                                .pointer(&at)
                                .and_then(Value::as_str)
                                .is_some_and(|f| RUST_INTEGER_FORMATS.contains(&f))
                        };
                        if is_rust(schema) {
                            return Some(());
                        }
                        // The keyword may be in another document a `$ref` led to.
                        let other = read.entry(base.to_owned()).or_insert_with(|| {
                            (!base.is_empty()).then(|| documents(base)).flatten()
                        });
                        other.as_ref().filter(|d| is_rust(d)).map(|_| ())
                    };
                    if (keyword == "format" || keyword == "type") && rust_integer().is_some() {
                        evaluated.integers.insert(location.to_owned());
                    }
                }
                Some(parent) => {
                    if let Some(token) = location
                        .strip_prefix(parent)
                        .and_then(|rest| rest.strip_prefix('/'))
                        .filter(|token| !token.contains('/'))
                    {
                        let key = json_pointer::unescape(token).into_owned();
                        let mut path = node
                            .get("evaluationPath")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .rsplit('/');
                        if path.nth(1) == Some("properties") {
                            evaluated
                                .declared
                                .entry(parent.to_owned())
                                .or_default()
                                .insert(key.clone());
                        }
                        evaluated
                            .keys
                            .entry(parent.to_owned())
                            .or_default()
                            .insert(key);
                    }
                }
                None => {}
            }
            if let Some(details) = node.get("details").and_then(Value::as_array) {
                stack.extend(details.iter().map(|child| (child, Some(location))));
            }
        }
        evaluated
    }

    /// Whether a fault is one serde refuses: a value or key where the message is
    /// decoded; an integral float where it is decoded as a Rust integer; a key given
    /// twice where a decoded object declares it.
    /// With `all_decoded` (a schema symgen did not write, whose generated types keep
    /// every key they do not declare), a value fault counts wherever it is.
    fn counts(&self, message: &Value, fault: &Fault, all_decoded: bool) -> bool {
        match fault.what {
            FaultKind::Duplicate => {}
            FaultKind::FloatInteger => {
                return self.integers.contains(&fault.pointer)
                    && self.kept(message, &fault.pointer);
            }
            _ => return all_decoded || self.kept(message, &fault.pointer),
        }
        let (object, token) = fault
            .pointer
            .rsplit_once('/')
            .unwrap_or((fault.pointer.as_str(), ""));
        let key = json_pointer::unescape(token);
        self.kept(message, object)
            && self
                .declared
                .get(object)
                .is_some_and(|keys| keys.contains(key.as_ref()))
    }

    /// Whether the value at `pointer` (in `message`) is decoded, not skipped.
    fn kept(&self, message: &Value, pointer: &str) -> bool {
        let mut location = String::new();
        let mut value = message;
        for token in json_pointer::tokens(pointer) {
            match value {
                Value::Object(map) => {
                    let named = self.keys.get(&location);
                    if named.is_some_and(|keys| keys.contains(token.as_ref())) {
                        // A subschema evaluated the member.
                    } else if named.is_some() || self.typed.contains(&location) {
                        return false;
                    } else {
                        // A free-form value: everything in it is decoded.
                        return true;
                    }
                    match map.get(token.as_ref()) {
                        Some(child) => value = child,
                        None => return true,
                    }
                }
                Value::Array(items) => match token.parse::<usize>().ok().and_then(|i| items.get(i))
                {
                    Some(child) => value = child,
                    None => return true,
                },
                _ => return true,
            }
            json_pointer::push(&mut location, &token);
        }
        true
    }
}

/// A copy of `schema` in which `additionalProperties: true` and
/// `unevaluatedProperties: true` read `{}`: the same rule, but `jsonschema` then reports
/// the members it applies to (it skips a `true` silently), which [`kept`] needs.
pub fn visible(schema: &Value) -> Value {
    let mut copy = schema.clone();
    let mut stack = vec![&mut copy];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    match key.as_str() {
                        "additionalProperties" | "unevaluatedProperties"
                            if *value == Value::Bool(true) =>
                        {
                            *value = Value::Object(Map::new());
                        }
                        // Instances, not schemas.
                        key if crate::model::INSTANCE_VALUED.contains(&key) => {}
                        _ => stack.push(value),
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
    copy
}

/// The faults of `message` that sit where it is decoded, as violations, given the
/// hierarchical output of the schema walk that accepted it (`schema`: what the walk
/// ran, which the output's schema locations point into). `all_decoded`: every value
/// of the message is decoded (the generated types of a schema symgen did not write
/// keep the keys they do not declare); otherwise a key no subschema names is skipped,
/// as serde skips it.
pub fn kept(
    text: &str,
    message: &Value,
    faults: &[Fault],
    output: &Value,
    schema: &Value,
    documents: &dyn Fn(&str) -> Option<Value>,
    all_decoded: bool,
) -> Vec<Violation> {
    let evaluated = Evaluated::from_output(output, schema, documents);
    faults
        .iter()
        .filter(|fault| evaluated.counts(message, fault, all_decoded))
        .map(|fault| violation(text, fault))
        .collect()
}

/// The violations of a message the schema walk rejected, with each violation at a
/// faulty value replaced by what is wrong with the value itself: the walk judged its
/// stand-in (`must be <= 4294967295; found 1.7976931348623157e308` is about `1e400`).
pub fn substitute(text: &str, violations: &mut Vec<Violation>, found: &[Fault]) {
    let mut replaced = HashSet::new();
    violations.retain_mut(|v| {
        let Some(fault) = found.iter().find(|f| {
            matches!(
                f.what,
                FaultKind::Number | FaultKind::String | FaultKind::TooDeep
            ) && f.pointer == v.pointer
        }) else {
            return true;
        };
        *v = violation(text, fault);
        replaced.insert(fault.pointer.clone())
    });
}

/// Whether a fault in the raw part of a message (kept as free-form JSON, R4) is one:
/// a value fault is; an integral float is a number like any other there, and a key
/// given twice is last-wins, but for the union's own keys (`own_keys`: the pointers of
/// the content key and the tag), which are duplicate fields.
pub fn counts_raw(fault: &Fault, own_keys: &[&str]) -> bool {
    match fault.what {
        FaultKind::FloatInteger => false,
        FaultKind::Duplicate => own_keys.contains(&fault.pointer.as_str()),
        _ => true,
    }
}

/// The number token at `offset` in `text`.
fn number_token(text: &str, offset: usize) -> &str {
    let rest = text.get(offset..).unwrap_or("");
    let end = rest
        .bytes()
        .position(|b| !is_number_byte(b))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The violation a fault is where it counts.
pub fn violation(text: &str, fault: &Fault) -> Violation {
    let (kind, message) = match fault.what {
        FaultKind::TooDeep => (ViolationKind::TooDeep, super::text::too_deep_message()),
        FaultKind::Number => (
            ViolationKind::OutOfRange,
            "number out of range: beyond what a 64-bit float holds".to_owned(),
        ),
        FaultKind::String => (
            ViolationKind::Encoding,
            "a lone surrogate escape: the string is not Unicode text".to_owned(),
        ),
        FaultKind::Key => (
            ViolationKind::Encoding,
            "a key with a lone surrogate escape: the key is not Unicode text".to_owned(),
        ),
        FaultKind::FloatInteger => {
            let token = number_token(text, fault.offset);
            if token.contains(['.', 'e', 'E']) || token.starts_with("-0") {
                (
                    ViolationKind::WrongType,
                    format!(
                        "`{token}` is a float literal: an integer field takes an integer literal"
                    ),
                )
            } else {
                (ViolationKind::OutOfRange, beyond_64_bits(token))
            }
        }
        FaultKind::Duplicate => {
            let key = fault.pointer.rsplit('/').next().unwrap_or("");
            (
                ViolationKind::Constraint,
                format!("duplicate key `{}`", json_pointer::unescape(key)),
            )
        }
    };
    Violation::new(kind, fault.pointer.clone(), message).at(position_of(text, fault.offset))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn faults(text: &str) -> (Value, Vec<(String, FaultKind)>) {
        let (value, faults) = parse(text).unwrap();
        (
            value,
            faults.into_iter().map(|f| (f.pointer, f.what)).collect(),
        )
    }

    /// What the tape's read gives is what serde's read gives: the value (with its key
    /// order), the faults, or the error.
    #[test]
    fn the_tape_reads_as_serde_does() {
        let texts = [
            r#"{"a": [1, -2, 3.5, "x\u00e9\ud83d\ude00", true, null, {}, []], "b": {"c": 0}}"#,
            r#"{"z": 1, "a": 2, "m": {"y": [], "b": {}}}"#,
            r#"{"a": 1, "a": 2}"#,
            r#"{"a": 1.0, "b": -0, "c": 1e2, "d": 18446744073709551616}"#,
            r#"{"n": 1e400}"#,
            r#"{"s": "\ud800"}"#,
            r#"[1, 2"#,
            r#"{"a": 1} x"#,
            "",
            "7",
            r#""\n""#,
        ];
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        for text in texts.iter().copied().chain([deep.as_str()]) {
            for integers in [false, true] {
                let shown = |read: Result<(Value, Vec<Fault>), serde_json::Error>| match read {
                    Ok((value, faults)) => Ok((value.to_string(), faults)),
                    Err(err) => Err(err.to_string()),
                };
                assert_eq!(
                    shown(read(text, integers).map(parts)),
                    shown(read_by_serde(text, integers)),
                    "{text} {integers}"
                );
            }
        }
    }

    #[test]
    fn a_clean_text_reads_as_serde_json_reads_it() {
        let text = r#" {"a": [1, -2.5e3, "x\u00e9\ud83d\ude00", true, false, null, {}, []], "b": {"c": {"d": 0}}, "a": 7} "#;
        let (value, found) = faults(text);
        assert_eq!(value, serde_json::from_str::<Value>(text).unwrap());
        assert_eq!(
            found,
            [
                ("/a/1".to_owned(), FaultKind::FloatInteger),
                ("/a".to_owned(), FaultKind::Duplicate)
            ]
        );
    }

    #[test]
    fn faults_get_stand_ins_and_pointers() {
        let text =
            r#"{"n": [1e400, -1e400], "s": {"x": "a\ud800b"}, "k\udc00": 1, "t/~": "\ud83d"}"#;
        let (value, found) = faults(text);
        assert_eq!(
            value,
            json!({"n": [f64::MAX, f64::MIN], "s": {"x": "a\u{fffd}b"}, "k\u{fffd}": 1, "t/~": "\u{fffd}"})
        );
        assert_eq!(
            found,
            [
                ("/n/0".to_owned(), FaultKind::Number),
                ("/n/1".to_owned(), FaultKind::Number),
                ("/s/x".to_owned(), FaultKind::String),
                (String::new(), FaultKind::Key),
                ("/t~1~0".to_owned(), FaultKind::String),
            ]
        );
    }

    #[test]
    fn nesting_past_the_limit_is_a_fault_read_past() {
        let deep = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        // The root object is the first level: `a` reaches the limit, `b` goes past it.
        let text = format!(
            r#"{{"a": {}, "b": {}, "c": 1}}"#,
            deep(MAX_DEPTH - 1),
            deep(100_000)
        );
        let (value, found) = faults(&text);
        assert_eq!(value["c"], 1);
        let pointer = format!("/b{}", "/0".repeat(MAX_DEPTH - 1));
        assert_eq!(found, [(pointer, FaultKind::TooDeep)]);
        let err = serde_json::from_str::<Value>(&text).unwrap_err();
        assert!(is_value_fault(&err), "{err}");
    }

    #[test]
    fn only_value_faults_are_read_again() {
        assert_eq!(parse("[1e400,"), None);
        assert_eq!(parse(r#"{"a" 1e400}"#), None);
        let err = serde_json::from_str::<Value>("[1e400]").unwrap_err();
        assert!(is_value_fault(&err));
        let err = serde_json::from_str::<Value>(r#"["\ud800"]"#).unwrap_err();
        assert!(is_value_fault(&err), "{err}");
        let err = serde_json::from_str::<Value>(r#"["\udc00"]"#).unwrap_err();
        assert!(is_value_fault(&err), "{err}");
        let err = serde_json::from_str::<Value>("[1,]").unwrap_err();
        assert!(!is_value_fault(&err));
    }

    fn kept_pointers(schema: Value, text: &str) -> Vec<String> {
        kept_pointers_in(schema, text, false)
    }

    fn kept_pointers_in(schema: Value, text: &str, all_decoded: bool) -> Vec<String> {
        kept_violations(schema, text, all_decoded)
            .into_iter()
            .map(|v| v.pointer)
            .collect()
    }

    /// The faults of `text` that count, for a schema that accepts its stand-ins.
    fn kept_violations(schema: Value, text: &str, all_decoded: bool) -> Vec<Violation> {
        let (message, found) = parse(text).unwrap();
        let engine = jsonschema::validator_for(&visible(&schema)).unwrap();
        let evaluation = engine.evaluate(&message);
        assert!(evaluation.flag().valid, "{text}");
        let output = serde_json::to_value(evaluation.hierarchical()).unwrap();
        let schema = visible(&schema);
        kept(
            text,
            &message,
            &found,
            &output,
            &schema,
            &|_| None,
            all_decoded,
        )
    }

    #[test]
    fn faults_count_where_the_schema_keeps_the_value() {
        let schema = json!({
            "type": "object",
            "properties": {
                "free": {"description": "any JSON"},
                "empty": {"type": "object"},
                "list": {"type": "array", "items": {"type": "number"}},
                "map": {"type": "object", "additionalProperties": true},
                "pick": {"oneOf": [
                    {"type": "object", "properties": {"k": {"const": 1}, "x": true}, "required": ["k"]},
                    {"type": "object", "properties": {"k": {"const": 2}, "y": true}, "required": ["k"]}
                ]}
            }
        });
        let text = r#"{"free": {"a": [1e400]}, "empty": {"b": 1e400},
            "list": [1e400], "map": {"c": {"d": "\ud800"}}, "zz": {"e": 1e400},
            "pick": {"k": 2, "x": 1e400, "y": 1e400}, "z\ud800": 1}"#;
        assert_eq!(
            kept_pointers(schema, text),
            ["/free/a/0", "/list/0", "/map/c/d", "/pick/y", ""]
        );
    }

    #[test]
    fn every_value_fault_counts_where_unknown_keys_are_kept() {
        let schema = json!({
            "type": "object",
            "properties": {"map": {"type": "object", "patternProperties": {"/$": {"type": "string"}}}}
        });
        let text = r#"{"map": {"key": "\ud800"}, "zz": 1e400, "zz": 1}"#;
        assert_eq!(
            kept_pointers_in(schema.clone(), text, false),
            Vec::<String>::new()
        );
        assert_eq!(kept_pointers_in(schema, text, true), ["/map/key", "/zz"]);
    }

    #[test]
    fn a_key_twice_counts_where_a_struct_declares_it() {
        let schema = json!({
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "map": {"type": "object", "additionalProperties": {"type": "number"}},
                "free": {},
                "skipped": {"type": "object"}
            }
        });
        let text = r#"{"id": "a", "map": {"k": 1, "k": 2}, "free": {"x": 1, "x": [2]},
            "skipped": {"s": 1, "s": 2}, "zz": 1, "zz": 2, "id": "b"}"#;
        let (value, found) = faults(text);
        assert_eq!(value["id"], "b");
        assert_eq!(found.len(), 5);
        assert!(found.iter().all(|(_, what)| *what == FaultKind::Duplicate));
        assert_eq!(kept_pointers(schema, text), ["/id"]);
    }

    /// What [`read`] read, as a `Value` and faults.
    fn parts(read: Read<'_>) -> (Value, Vec<Fault>) {
        match read {
            Read::Tape(tape) => (tape.to_value(0), Vec::new()),
            Read::Value(value, found) => (value, found),
        }
    }

    #[test]
    fn read_finds_keys_twice_and_reads_clean_texts_once() {
        let (value, found) = parts(read(r#"{"a": {"b": 1, "b": 2}}"#, true).unwrap());
        assert_eq!(value, json!({"a": {"b": 2}}));
        assert_eq!(found[0].pointer, "/a/b");
        assert_eq!(found[0].offset, 15);
        let (_, found) = parts(read(r#"{"a": {"b": 1, "c": 2}, "b": 3.5}"#, true).unwrap());
        assert!(found.is_empty());
        assert!(read(r#"{"a": 1,}"#, true).is_err());
        assert!(parts(read("[1.0]", true).unwrap()).1.len() == 1);
        assert!(parts(read("[1.0]", false).unwrap()).1.is_empty());
        assert!(read("[1] 2", true).is_err());
    }

    #[test]
    fn an_integral_float_counts_where_a_rust_integer_is_decoded() {
        let schema = json!({
            "$defs": {"U": {"type": "integer", "format": "uint32", "minimum": 0}},
            "type": "object",
            "properties": {
                "n": {"$ref": "#/$defs/U"},
                "m": {"type": ["integer", "null"], "format": "int64"},
                "plain": {"type": "integer"},
                "f": {"type": "number", "format": "double"},
                "free": {}
            }
        });
        let text = r#"{"n": 1.0, "m": -0, "plain": 2e0, "f": 3.0, "free": [4.0],
            "zz": 5.0, "big": 18446744073709551616}"#;
        assert_eq!(kept_pointers(schema.clone(), text), ["/n", "/m"]);
        // A draft-07 document, whose output has no node for an unknown `format`: the
        // same Rust integers, found from their `type`.
        let mut draft_07 = schema.clone();
        draft_07["$schema"] = json!("http://json-schema.org/draft-07/schema#");
        draft_07["definitions"] = draft_07["$defs"].take();
        draft_07["properties"]["n"] = json!({"$ref": "#/definitions/U"});
        let text = r#"{"n": 1.0, "m": -0, "plain": 2e0, "f": 3.0, "free": [4.0]}"#;
        assert_eq!(kept_pointers(draft_07, text), ["/n", "/m"]);
        let text = r#"{"n": 7, "m": 18446744073709551616}"#;
        let violations = kept_violations(schema, text, false);
        assert_eq!(violations.len(), 1);
        assert_eq!(
            violations[0].message,
            "integer 18446744073709551616 is beyond the 64-bit range"
        );
    }
}
