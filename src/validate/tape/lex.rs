//! The reader behind [`super::read`]: one pass over the text that appends tokens
//! directly, without a serde visitor call per value (serde_json's visitor path costs
//! 1.4–1.6× its own syntax-only scan; this is close to the scan).
//!
//! It accepts only what serde_json accepts, and reads it as serde_json reads it. What it
//! is not sure of it does not read: a number other than a short integer goes to
//! serde_json itself ([`super::Number`]), and a surrogate escape that is not a pair,
//! nesting past serde_json's limit or anything serde_json would refuse ends the read with
//! `None`, so the message takes the general path, as one serde_json refuses does.

use serde::de::DeserializeSeed;

use super::{KeyIndex, Number, Tape, Text, Token};
use crate::wire::quick::{ShortInteger, number_extent, special, unescape};

/// The deepest nesting read: serde_json refuses the 128th level of arrays and objects.
const MAX_NESTING: u32 = 127;

/// One read of a message onto a tape.
pub(super) struct Lexer<'a, 't> {
    text: &'t str,
    at: usize,
    tape: &'a mut Tape<'t>,
    integral_floats: bool,
}

impl<'a, 't> Lexer<'a, 't> {
    pub(super) fn new(text: &'t str, tape: &'a mut Tape<'t>, integral_floats: bool) -> Self {
        Lexer {
            text,
            at: 0,
            tape,
            integral_floats,
        }
    }

    /// Reads the whole text: one value, with white space around it only.
    pub(super) fn document(mut self) -> Option<()> {
        self.value(0)?;
        self.skip_space();
        (self.at == self.text.len()).then_some(())
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    #[inline]
    fn skip_space(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.peek() {
            self.at += 1;
        }
    }

    /// Reads `byte` after optional white space.
    #[inline]
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_space();
        (self.peek()? == byte).then(|| self.at += 1)
    }

    fn value(&mut self, nesting: u32) -> Option<()> {
        self.skip_space();
        match self.peek()? {
            b'"' => {
                self.at += 1;
                let text = self.string()?;
                self.tape.tokens.push(Token::Str(text));
            }
            b'{' => self.object(nesting + 1)?,
            b'[' => self.array(nesting + 1)?,
            b't' => self.word("true", Token::Bool(true))?,
            b'f' => self.word("false", Token::Bool(false))?,
            b'n' => self.word("null", Token::Null)?,
            b'-' | b'0'..=b'9' => self.number()?,
            _ => return None,
        }
        Some(())
    }

    fn word(&mut self, word: &str, token: Token<'t>) -> Option<()> {
        self.text[self.at..].starts_with(word).then(|| {
            self.at += word.len();
            self.tape.tokens.push(token);
        })
    }

    /// After a container's items: where the next value starts, as its token wants it.
    fn end(&self) -> Option<u32> {
        u32::try_from(self.tape.tokens.len()).ok()
    }

    fn array(&mut self, nesting: u32) -> Option<()> {
        if nesting > MAX_NESTING {
            return None;
        }
        let from = u32::try_from(self.at).ok()?;
        self.at += 1;
        let start = self.tape.tokens.len();
        self.tape.tokens.push(Token::Array {
            end: 0,
            from: 0,
            to: 0,
            len: 0,
        });
        let mut len = 0u32;
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
        } else {
            loop {
                self.value(nesting)?;
                len += 1;
                self.skip_space();
                match self.peek()? {
                    b',' => self.at += 1,
                    b']' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.tape.tokens[start] = Token::Array {
            end: self.end()?,
            from,
            to: u32::try_from(self.at).ok()?,
            len,
        };
        Some(())
    }

    fn object(&mut self, nesting: u32) -> Option<()> {
        if nesting > MAX_NESTING {
            return None;
        }
        let from = u32::try_from(self.at).ok()?;
        self.at += 1;
        let start = self.tape.tokens.len();
        self.tape.tokens.push(Token::Object {
            end: 0,
            from: 0,
            to: 0,
            len: 0,
        });
        self.skip_space();
        let mut keys = KeyIndex::default();
        let mut len = 0u32;
        if self.peek() == Some(b'}') {
            self.at += 1;
        } else {
            loop {
                self.expect(b'"')?;
                let key = self.string()?;
                keys.push(self.tape.text(key));
                len += 1;
                self.tape.tokens.push(Token::Key(key));
                self.expect(b':')?;
                self.value(nesting)?;
                self.skip_space();
                match self.peek()? {
                    b',' => self.at += 1,
                    b'}' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        // serde_json's `Value` keeps the last of two equal keys; the schema walk must see
        // that, so such an object has no tape.
        if keys.has_duplicate(self.tape, start) {
            return None;
        }
        self.tape.tokens[start] = Token::Object {
            end: self.end()?,
            from,
            to: u32::try_from(self.at).ok()?,
            len,
        };
        Some(())
    }

    /// A string whose opening quote was read: its text, borrowed when it has no escape.
    #[inline(always)]
    fn string(&mut self) -> Option<Text<'t>> {
        let text = self.text;
        let start = self.at;
        let at = special(text.as_bytes(), start);
        match *text.as_bytes().get(at)? {
            b'"' => {
                self.at = at + 1;
                Some(Text::Source(&text[start..at]))
            }
            b'\\' => self.escaped(start, at),
            _ => None,
        }
    }

    /// The rest of a string from `start` whose first escape is at `at`, unescaped onto
    /// the tape's buffer. Out of line: most strings have no escape.
    #[inline(never)]
    fn escaped(&mut self, start: usize, mut at: usize) -> Option<Text<'t>> {
        let text = self.text;
        let bytes = text.as_bytes();
        let first = self.tape.unescaped.len();
        self.tape.unescaped.push_str(&text[start..at]);
        loop {
            match *bytes.get(at)? {
                b'"' => break,
                b'\\' => at = self.escape(at + 1)?,
                0..=0x1f => return None,
                _ => {
                    let run = at;
                    at = special(bytes, at);
                    self.tape.unescaped.push_str(&text[run..at]);
                }
            }
        }
        self.at = at + 1;
        let start = u32::try_from(first).ok()?;
        let len = u32::try_from(self.tape.unescaped.len() - first).ok()?;
        start.checked_add(len)?;
        Some(Text::Unescaped { start, len })
    }

    /// The escape whose backslash ends before `at`, unescaped onto the tape's buffer:
    /// where the text goes on.
    fn escape(&mut self, at: usize) -> Option<usize> {
        let (c, next) = unescape(self.text.as_bytes(), at)?;
        self.tape.unescaped.push(c);
        Some(next)
    }

    /// A number: a short integer read here, any other left to serde_json, which reads
    /// it exactly as it would in a `Value` (its float parsing included).
    fn number(&mut self) -> Option<()> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        let extent = number_extent(bytes, start)?;
        let at = extent.end;
        self.at = at;
        match extent.short_integer(bytes, start) {
            Some(ShortInteger::Unsigned(n)) => {
                self.tape.tokens.push(Token::UInt(n));
                return Some(());
            }
            Some(ShortInteger::Signed(n)) => {
                self.tape.tokens.push(Token::Int(n));
                return Some(());
            }
            None => {}
        }
        let mut deserializer = serde_json::Deserializer::from_str(&self.text[start..at]);
        Number {
            tape: self.tape,
            integral_floats: self.integral_floats,
        }
        .deserialize(&mut deserializer)
        .ok()?;
        deserializer.end().ok()
    }
}

#[cfg(test)]
mod tests {
    use std::fmt;

    use serde::de::{Deserializer as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use serde_json::Value;

    use super::super::read;

    /// How many members all the objects of a parsed text have, keys given twice
    /// counted twice (a `Value` keeps one of them).
    struct Members;

    impl<'de> Visitor<'de> for Members {
        type Value = usize;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("JSON")
        }
        fn visit_bool<E>(self, _: bool) -> Result<usize, E> {
            Ok(0)
        }
        fn visit_i64<E>(self, _: i64) -> Result<usize, E> {
            Ok(0)
        }
        fn visit_u64<E>(self, _: u64) -> Result<usize, E> {
            Ok(0)
        }
        fn visit_f64<E>(self, _: f64) -> Result<usize, E> {
            Ok(0)
        }
        fn visit_str<E>(self, _: &str) -> Result<usize, E> {
            Ok(0)
        }
        fn visit_unit<E>(self) -> Result<usize, E> {
            Ok(0)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
            let mut count = 0;
            while let Some(n) = seq.next_element_seed(Seed)? {
                count += n;
            }
            Ok(count)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<usize, A::Error> {
            let mut count = 0;
            while map.next_key::<IgnoredAny>()?.is_some() {
                count += 1 + map.next_value_seed(Seed)?;
            }
            Ok(count)
        }
    }

    struct Seed;

    impl<'de> serde::de::DeserializeSeed<'de> for Seed {
        type Value = usize;
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
            d.deserialize_any(Members)
        }
    }

    fn members_of(value: &Value) -> usize {
        match value {
            Value::Array(items) => items.iter().map(members_of).sum(),
            Value::Object(map) => map.len() + map.values().map(members_of).sum::<usize>(),
            _ => 0,
        }
    }

    /// The tape of `text` reads it as serde_json's `Value` does, and there is none only
    /// where serde_json refuses the text or one of its objects gives a key twice.
    fn agrees(text: &str) {
        let parsed = serde_json::from_str::<Value>(text);
        match (read(text, false), &parsed) {
            (Some(tape), Ok(value)) => {
                assert_eq!(tape.end(0), tape.len(), "{text:?}");
                assert_eq!(
                    serde_json::to_string(&tape.to_value(0)).unwrap(),
                    serde_json::to_string(value).unwrap(),
                    "{text:?}"
                );
            }
            (Some(tape), Err(why)) => {
                panic!(
                    "{text:?}: read as {:?}, serde_json: {why}",
                    tape.to_value(0)
                )
            }
            (None, Ok(value)) => {
                let mut deserializer = serde_json::Deserializer::from_str(text);
                let all = deserializer.deserialize_any(Members).unwrap();
                assert_ne!(
                    all,
                    members_of(value),
                    "{text:?}: no tape, no key given twice"
                );
            }
            (None, Err(_)) => {}
        }
    }

    #[test]
    fn reads_as_serde_json_on_the_edge_cases() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "01",
            "-01",
            "1.",
            "1.5",
            "-1.5",
            "1e5",
            "1E+5",
            "-1e-5",
            "0e0",
            "1.0",
            "123456789012345678",
            "-123456789012345678",
            "1234567890123456789",
            "-1234567890123456789",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "1e400",
            "-1e400",
            "1e-400",
            "0.1",
            "2.5e-324",
            "4.9e-324",
            "1.7976931348623157e308",
            "1.7976931348623159e308",
            "0.30000000000000004",
            "9007199254740993",
            "9007199254740993.0",
            ".5",
            "-",
            "+1",
            "1e",
            "1e+",
            "1.e5",
            "--1",
            "-a",
            "1x",
            "00",
            " 1 ",
            "\t\n\r 1\r\n",
            "\u{feff}1",
            "",
            " ",
            "null",
            "nul",
            "nulll",
            "true",
            "tru",
            "false",
            "falsE",
            "\"\"",
            "\"a\"",
            "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
            "\"\\u0000\"",
            "\"\\u00e9\\u00E9\"",
            "\"\\ud83d\\ude00\"",
            "\"\\ud83d\"",
            "\"\\ude00\"",
            "\"\\ud83dx\"",
            "\"\\ud83d\\u0041\"",
            "\"\\ud83d\\ud83d\"",
            "\"\\u12\"",
            "\"\\u12g4\"",
            "\"\\x\"",
            "\"\\\"",
            "\"a",
            "\"\u{1}\"",
            "\"\u{1f}\"",
            "\"\u{7f}\"",
            "\"é€😀\"",
            "\"a\\nb\u{e9}\\u0041c\"",
            "[]",
            "[ ]",
            "[1,]",
            "[,1]",
            "[1 2]",
            "[1,2]",
            "{}",
            "{ }",
            "{\"a\":1}",
            "{\"a\" : 1 , \"b\":[true,null]}",
            "{\"a\":1,}",
            "{,}",
            "{\"a\"}",
            "{\"a\":}",
            "{a:1}",
            "{\"a\":1 \"b\":2}",
            "{\"a\":1,\"a\":2}",
            "{\"a\":1,\"\\u0061\":2}",
            "{\"a\":{\"b\":1,\"b\":1}}",
            "[{\"k\":1},{\"k\":2}]",
            "{\"\":0,\"\\\"\":1}",
            "[1]]",
            "[[1]",
            "{}}",
            "1 2",
            "[\"\\/\"]",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        texts.extend([deep(126), deep(127), deep(128), deep(129)]);
        texts.push(format!("{}1{}", "{\"a\":".repeat(127), "}".repeat(127)));
        // Each kind of byte a string scan stops at (or must not), at each place of a
        // string read eight bytes at a time.
        for len in 0..20 {
            for at in 0..=len {
                for piece in [
                    "\\n", "\\\"", "\u{1}", "\u{1f}", " ", "é", "😀", "\u{7f}", "\"",
                ] {
                    let (before, after) = ("a".repeat(at), "b".repeat(len - at));
                    texts.push(format!("\"{before}{piece}{after}\""));
                    texts.push(format!(
                        "{{\"{before}{piece}{after}\": \"{after}\\t{before}\"}}"
                    ));
                }
            }
        }
        for text in &texts {
            agrees(text);
        }
        // Short integers are read here, the rest by serde_json: both kinds come out.
        let tape = read("[5, -5, 1.5, 18446744073709551615]", false).unwrap();
        assert_eq!(
            tape.to_value(0),
            serde_json::json!([5, -5, 1.5, 18446744073709551615u64])
        );
    }

    /// Random texts from JSON's pieces, then mutated byte by byte.
    #[test]
    fn reads_as_serde_json_on_random_texts() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below as u64) as usize
        };
        const PIECES: &[&str] = &[
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            " ",
            "\n",
            "\"",
            "\\",
            "\"a\"",
            "\"b\"",
            "\"a\":",
            "\"\\u00e9\"",
            "\"\\ud83d\\ude00\"",
            "\\u",
            "\\n",
            "0",
            "1",
            "-",
            "7",
            ".",
            "e",
            "E",
            "+",
            "12345678901234567890",
            "1.5",
            "-0",
            "true",
            "false",
            "null",
            "é",
            "\u{1}",
            "\"x\\\"y\"",
        ];
        let mut read_some = 0;
        for _ in 0..20_000 {
            let mut text = String::new();
            let structured = next(2) == 0;
            if structured {
                let mut value = random_value(&mut next, 0);
                // One mutation of a valid text, in a third of the cases.
                if next(3) == 0 && !value.is_empty() {
                    let at = (0..=next(value.len()))
                        .rev()
                        .find(|&i| value.is_char_boundary(i))
                        .unwrap_or(0);
                    match next(3) {
                        0 => value.insert_str(at, PIECES[next(PIECES.len())]),
                        1 => {
                            if let Some(c) = value[at..].chars().next() {
                                value.replace_range(at..at + c.len_utf8(), "");
                            }
                        }
                        _ => value.truncate(at),
                    }
                }
                text = value;
            } else {
                for _ in 0..next(12) {
                    text.push_str(PIECES[next(PIECES.len())]);
                }
            }
            agrees(&text);
            read_some += usize::from(read(&text, false).is_some());
        }
        assert!(read_some > 5_000, "only {read_some} texts read");
    }

    fn random_value(next: &mut impl FnMut(usize) -> usize, depth: usize) -> String {
        let space = |next: &mut dyn FnMut(usize) -> usize| [" ", "", "\n", "\t"][next(4)];
        match next(if depth > 4 { 6 } else { 8 }) {
            0 => ["null", "true", "false"][next(3)].to_owned(),
            1 => [
                "0",
                "-7",
                "42",
                "1.25",
                "-0.5e3",
                "1E2",
                "123456789012345678901",
                "-0",
            ][next(8)]
            .to_owned(),
            2 => next(1 << 20).to_string(),
            3 | 4 => [
                "\"\"",
                "\"abc\"",
                "\"a\\nb\"",
                "\"\\u00e9x\"",
                "\"é\"",
                "\"\\ud83d\\ude00\"",
            ][next(6)]
            .to_owned(),
            5 => format!("-{}", next(1 << 30)),
            6 => {
                let items: Vec<String> = (0..next(4))
                    .map(|_| format!("{}{}", space(next), random_value(next, depth + 1)))
                    .collect();
                format!("[{}]", items.join(","))
            }
            _ => {
                let members: Vec<String> = (0..next(4))
                    .map(|_| {
                        let key = ["a", "b", "c", "type", "\\u0061", "é"][next(6)];
                        format!("\"{key}\"{}:{}", space(next), random_value(next, depth + 1))
                    })
                    .collect();
                format!("{{{}}}", members.join(","))
            }
        }
    }
}
