//! Running [`Checks`] on a message's tape.

use std::cmp::Ordering;

use serde_json::{Number, Value};

use super::numbers::{Num, cmp_num, num_of};
use super::{
    ARRAY, Assertions, BOOLEAN, Checks, HAS_APPLICATORS, HAS_ITEMS, HAS_LENGTH, HAS_MEMBER_LIMITS,
    HAS_MEMBERS, HAS_NUMBER, HAS_VALUES, INTEGER, NULL, NUMBER, Node, NodeId, OBJECT, Property,
    STRING, Union, Verdict,
};
use crate::validate::few::same;
use crate::validate::tape::{Tape, Token};

/// The most items `uniqueItems` is checked for here (pairwise); longer arrays are left to
/// the engine.
const MAX_UNIQUE_ITEMS: usize = 32;

impl Checks {
    /// The verdict of root `index` on the message on `tape`. `tag`: a member of the
    /// message the caller has looked up already, its key and where its value is on the
    /// tape (`None`: absent), so that a union tagged by that key does not look again.
    pub fn check(
        &self,
        index: usize,
        tape: &Tape<'_>,
        tag: Option<(&str, Option<usize>)>,
    ) -> Verdict {
        let Some(Some(node)) = self.roots.get(index) else {
            return Verdict::Unsure;
        };
        let mut run = Run::new(&self.nodes, tape);
        run.root_tag = tag;
        run.check(*node, 0)
    }
}

/// The verdict of node `node` on the value on `tape` (a root's, or, in
/// [`super::simplify`], a tag's at compile time).
pub(super) fn verdict(nodes: &[Node], node: NodeId, tape: &Tape<'_>) -> Verdict {
    Run::new(nodes, tape).check(node, 0)
}

/// One message's run through the checks.
struct Run<'c, 'a, 't> {
    nodes: &'c [Node],
    tape: &'a Tape<'t>,
    /// Checks left before the run gives up (an `anyOf` of `anyOf`s can re-read a value
    /// many times; a value judged by an engine costs one per token).
    budget: u64,
    depth: u32,
    /// A member of the root object already looked up: its key and its value's index.
    root_tag: Option<(&'a str, Option<usize>)>,
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

impl<'c, 'a, 't> Run<'c, 'a, 't> {
    fn new(nodes: &'c [Node], tape: &'a Tape<'t>) -> Self {
        Run {
            nodes,
            tape,
            budget: 64 * tape.len() as u64 + 4096,
            depth: 0,
            root_tag: None,
        }
    }

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
            Node::Engine(engine) => self.engine(engine, at),
            Node::Ref(target) => self.check(*target, at),
            Node::Types(types) => of_types(*types, self.tape.token(at)),
            Node::Schema(a) => self.assertions(a, at),
        };
        self.depth -= 1;
        verdict
    }

    /// The general engine's verdict on the value at `at`, built for it. Out of line: the
    /// checks that do not need it stay small.
    #[inline(never)]
    fn engine(&mut self, engine: &jsonschema::Validator, at: usize) -> Verdict {
        // The value is built and walked once per call: charged by its size, so that the
        // run stays linear in the message.
        let size = (self.tape.end(at) - at) as u64;
        if size > self.budget {
            return Verdict::Unsure;
        }
        self.budget -= size;
        if engine.is_valid(&self.tape.to_value(at)) {
            Verdict::Yes
        } else {
            Verdict::No
        }
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
        // The applicators before the members: a tagged union that cannot take the
        // message's tag rejects it without the members being read (the verdict is a
        // conjunction, so the order does not change it).
        if a.has & HAS_APPLICATORS != 0 {
            all!(sure, self.applicators(a, at));
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
                        .position(|p| same(&p.name, key))
                        .map(|i| i + next)
                        .or_else(|| before.iter().position(|p| same(&p.name, key)))
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
                }) => match &self.nodes[*node as usize] {
                    // The most common property schema, `{"type": …}`, without a call.
                    Node::Types(types) => all!(sure, of_types(*types, self.tape.token(value))),
                    _ => all!(sure, self.check(*node, value)),
                },
                Some(Property { declared: true, .. }) => {}
                _ => {
                    if let Some(node) = a.additional {
                        all!(sure, self.check(node, value));
                    }
                }
            }
        }
        if a.required & !seen != 0 {
            return Verdict::No;
        }
        if a.has & HAS_MEMBER_LIMITS != 0
            && (a.excluded.iter().any(|&set| set & !seen == 0)
                || a.min_properties.is_some_and(|min| count < min)
                || a.max_properties.is_some_and(|max| count > max))
        {
            return Verdict::No;
        }
        if sure { Verdict::Yes } else { Verdict::Unsure }
    }

    /// The value of member `key` of the object at `at` (see [`Run::root_tag`]).
    #[inline]
    fn member(&self, at: usize, key: &str) -> Option<usize> {
        match self.root_tag {
            Some((known, found)) if at == 0 && same(known, key) => found,
            _ => self.tape.member(at, key),
        }
    }

    fn union(&mut self, union: &Union, at: usize, one: bool) -> Verdict {
        let object = matches!(self.tape.token(at), Token::Object { .. });
        let candidates: &[NodeId] = match &union.tag {
            Some(tagging) if object => match self.member(at, &tagging.key) {
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

/// The verdict of `{"type": …}` (the bits of `types`) on `token`.
#[inline(always)]
fn of_types(types: u8, token: &Token<'_>) -> Verdict {
    if types & bits_of(token) == 0 {
        Verdict::No
    } else {
        Verdict::Yes
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
