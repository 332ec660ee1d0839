//! The text level of the quick decode: white space, literals, strings, numbers and
//! skipped values, each read and refused exactly where serde_json's `StrRead` reads and
//! refuses them (serde_json 1.0's `de.rs` and `read.rs`), so that the two decodes hand a
//! visitor the same values and fail at the same place.

use super::Refusal;

/// serde_json's nesting limit: it refuses the 128th level of arrays and objects it
/// decodes (a value it skips may nest deeper; [`Reader::skip`] leaves those to it).
pub(super) const DEPTH: u8 = 128;

/// Plain integers of at most this many digits fit both `i64` and `u64`.
const SHORT_INTEGER: usize = 18;

/// How a number reads, without its value where serde_json must parse it.
pub(super) enum Number<'de> {
    /// A non-negative integer of at most 18 digits, as serde_json reads it.
    Unsigned(u64),
    /// A negative one (not `-0`).
    Signed(i64),
    /// Any other number (a fraction, an exponent, `-0`, 19 digits or more): its text,
    /// for serde_json to read.
    Text(&'de str),
}

/// A string's contents: borrowed from the text when it has no escape (serde_json then
/// calls `visit_borrowed_str`), else unescaped into the reader's buffer (`visit_str`).
pub(super) enum Str<'de, 's> {
    Borrowed(&'de str),
    Copied(&'s str),
}

/// The most buffer for unescaped strings a thread keeps from one decode to the next.
const KEPT_SCRATCH: usize = 1 << 16;

thread_local! {
    /// The buffer for unescaped strings, kept between decodes: serde_json starts each
    /// text with an empty one and grows it for the first escape of every message.
    static SCRATCH: std::cell::Cell<String> = const { std::cell::Cell::new(String::new()) };
}

/// The reading state of one decode.
pub(crate) struct Reader<'de> {
    pub(super) text: &'de str,
    pub(super) at: usize,
    /// serde_json's `remaining_depth`.
    pub(super) depth: u8,
    /// Unescaped strings, reused within the decode.
    scratch: String,
    /// How many refusals this reader raised (see [`super::decode`]).
    pub(super) raised: u32,
    /// Whether one of them was a refusal serde_json might not make.
    pub(super) unsure: bool,
}

impl<'de> Reader<'de> {
    pub(super) fn new(text: &'de str) -> Self {
        Reader {
            text,
            at: 0,
            depth: DEPTH,
            scratch: String::new(),
            raised: 0,
            unsure: false,
        }
    }

    /// A refusal serde_json makes at the same place.
    #[cold]
    #[inline(never)]
    pub(super) fn refuse(&mut self) -> Refusal {
        self.raised += 1;
        Refusal
    }

    /// A refusal of what this decode does not read as serde_json does (the caller asks
    /// serde_json).
    #[cold]
    #[inline(never)]
    pub(super) fn unsure(&mut self) -> Refusal {
        self.raised += 1;
        self.unsure = true;
        Refusal
    }

    /// Before each step: once something was refused, a visitor that goes on reading
    /// (having swallowed the refusal) reads where serde_json might not be, so every
    /// further step is refused as unsure.
    #[inline(always)]
    pub(super) fn enter(&mut self) -> Result<(), Refusal> {
        if self.raised == 0 {
            Ok(())
        } else {
            Err(self.unsure())
        }
    }

    /// The next byte that is not white space (serde_json's `parse_whitespace`).
    #[inline(always)]
    pub(super) fn skip_space(&mut self) -> Option<u8> {
        let bytes = self.text.as_bytes();
        loop {
            match bytes.get(self.at) {
                Some(b' ' | b'\n' | b'\r' | b'\t') => self.at += 1,
                other => return other.copied(),
            }
        }
    }

    /// A literal (`null`, `true`, `false`) whose first letter is the current byte.
    #[inline]
    pub(super) fn literal(&mut self, word: &str) -> Result<(), Refusal> {
        if self.text.as_bytes()[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(())
        } else {
            Err(self.refuse())
        }
    }

    /// `:` after white space (serde_json's `parse_object_colon`).
    #[inline]
    pub(super) fn colon(&mut self) -> Result<(), Refusal> {
        if self.skip_space() == Some(b':') {
            self.at += 1;
            Ok(())
        } else {
            Err(self.refuse())
        }
    }

    /// A string whose opening quote was read.
    #[inline(always)]
    pub(super) fn string(&mut self) -> Result<Str<'de, '_>, Refusal> {
        let text = self.text;
        let start = self.at;
        let at = special(text.as_bytes(), start);
        match text.as_bytes().get(at) {
            Some(b'"') => {
                self.at = at + 1;
                match text.get(start..at) {
                    Some(borrowed) => Ok(Str::Borrowed(borrowed)),
                    None => Err(self.unsure()),
                }
            }
            Some(b'\\') => self.escaped(start, at),
            // A control character, or the end of the text.
            _ => Err(self.refuse()),
        }
    }

    /// The rest of a string from `start` whose first escape is at `at`, unescaped into
    /// the buffer. Out of line: most strings have no escape.
    #[inline(never)]
    fn escaped(&mut self, start: usize, mut at: usize) -> Result<Str<'de, '_>, Refusal> {
        let text = self.text;
        let bytes = text.as_bytes();
        if self.scratch.capacity() == 0 {
            self.scratch = SCRATCH.take();
        }
        self.scratch.clear();
        self.scratch.push_str(&text[start..at]);
        loop {
            match bytes.get(at) {
                Some(b'"') => break,
                Some(b'\\') => match self.escape(at + 1) {
                    Some(next) => at = next,
                    None => return Err(self.refuse()),
                },
                Some(_) if bytes[at] >= 0x20 => {
                    let run = at;
                    at = special(bytes, at);
                    self.scratch.push_str(&text[run..at]);
                }
                _ => return Err(self.refuse()),
            }
        }
        self.at = at + 1;
        Ok(Str::Copied(&self.scratch))
    }

    /// The escape after the backslash that ends before `at`, unescaped into the buffer
    /// (see [`unescape`]).
    fn escape(&mut self, at: usize) -> Option<usize> {
        let (c, next) = unescape(self.text.as_bytes(), at)?;
        self.scratch.push(c);
        Some(next)
    }

    /// A number starting at the current byte (`-` or a digit), read by serde_json's
    /// grammar and refused where it refuses: a second leading zero, a `.` or an
    /// exponent without digits, a `-` without digits.
    #[inline]
    pub(super) fn number(&mut self) -> Result<Number<'de>, Refusal> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        let Some(extent) = number_extent(bytes, start) else {
            return Err(self.refuse());
        };
        let at = extent.end;
        self.at = at;
        match extent.short_integer(bytes, start) {
            Some(ShortInteger::Unsigned(n)) => return Ok(Number::Unsigned(n)),
            Some(ShortInteger::Signed(n)) => return Ok(Number::Signed(n)),
            None => {}
        }
        match self.text.get(start..at) {
            Some(text) => Ok(Number::Text(text)),
            None => Err(self.unsure()),
        }
    }

    /// Skips one value as serde_json's `ignore_value` does: a string's escapes are
    /// checked for their form only (a lone surrogate passes), numbers by the grammar.
    /// Nesting past [`DEPTH`] is left to serde_json.
    pub(super) fn skip(&mut self, nesting: u8) -> Result<(), Refusal> {
        match self.skip_space() {
            Some(b'n') => self.literal("null"),
            Some(b't') => self.literal("true"),
            Some(b'f') => self.literal("false"),
            Some(b'-' | b'0'..=b'9') => self.number().map(drop),
            Some(b'"') => {
                self.at += 1;
                self.skip_string()
            }
            Some(open @ (b'[' | b'{')) => {
                if nesting >= DEPTH {
                    return Err(self.unsure());
                }
                let close = if open == b'[' { b']' } else { b'}' };
                self.at += 1;
                if self.skip_space() == Some(close) {
                    self.at += 1;
                    return Ok(());
                }
                loop {
                    if open == b'{' {
                        if self.skip_space() != Some(b'"') {
                            return Err(self.refuse());
                        }
                        self.at += 1;
                        self.skip_string()?;
                        self.colon()?;
                    }
                    self.skip(nesting + 1)?;
                    match self.skip_space() {
                        Some(b',') => self.at += 1,
                        Some(byte) if byte == close => {
                            self.at += 1;
                            return Ok(());
                        }
                        _ => return Err(self.refuse()),
                    }
                }
            }
            _ => Err(self.refuse()),
        }
    }

    /// Skips a string whose opening quote was read (serde_json's `ignore_str`).
    fn skip_string(&mut self) -> Result<(), Refusal> {
        let bytes = self.text.as_bytes();
        let mut at = self.at;
        loop {
            at = special(bytes, at);
            match bytes.get(at) {
                Some(b'"') => {
                    self.at = at + 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    let ok = match bytes.get(at + 1) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                            at += 2;
                            true
                        }
                        Some(b'u') => {
                            let digits = bytes.get(at + 2..at + 6);
                            at += 6;
                            digits.and_then(hex4).is_some()
                        }
                        _ => false,
                    };
                    if !ok {
                        return Err(self.refuse());
                    }
                }
                _ => return Err(self.refuse()),
            }
        }
    }

    /// After the value: white space only (serde_json's `end`).
    pub(super) fn end(&mut self) -> Result<(), Refusal> {
        match self.skip_space() {
            None => Ok(()),
            Some(_) => Err(self.refuse()),
        }
    }
}

impl Drop for Reader<'_> {
    /// Hands the buffer for unescaped strings back to the thread, when it has one of a
    /// reasonable size.
    #[inline]
    fn drop(&mut self) {
        let capacity = self.scratch.capacity();
        if capacity != 0 && capacity <= KEPT_SCRATCH {
            SCRATCH.set(std::mem::take(&mut self.scratch));
        }
    }
}

/// The first byte from `at` on that a string cannot hold as it is: a quote, a backslash
/// or a control character; `bytes.len()` if none. Eight bytes at a time: in each, a
/// byte of one of those kinds gets its high bit set in `flagged`, and the lowest flag is
/// exact (a borrow can only flag bytes above a flagged one).
#[inline]
pub fn special(bytes: &[u8], mut at: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let chunk = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let quote = chunk ^ (ONES * u64::from(b'"'));
        let backslash = chunk ^ (ONES * u64::from(b'\\'));
        let flagged = (chunk.wrapping_sub(ONES * 0x20) & !chunk
            | quote.wrapping_sub(ONES) & !quote
            | backslash.wrapping_sub(ONES) & !backslash)
            & HIGHS;
        if flagged != 0 {
            return at + (flagged.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while let Some(&byte) = bytes.get(at)
        && byte != b'"'
        && byte != b'\\'
        && byte >= 0x20
    {
        at += 1;
    }
    at
}

/// The character of the escape whose backslash ends before `at`, and where the text goes
/// on, as serde_json's `parse_escape` reads it for a string (surrogates only in pairs);
/// `None` where serde_json refuses the escape.
pub fn unescape(bytes: &[u8], at: usize) -> Option<(char, usize)> {
    Some(match *bytes.get(at)? {
        b'"' => ('"', at + 1),
        b'\\' => ('\\', at + 1),
        b'/' => ('/', at + 1),
        b'b' => ('\u{8}', at + 1),
        b'f' => ('\u{c}', at + 1),
        b'n' => ('\n', at + 1),
        b'r' => ('\r', at + 1),
        b't' => ('\t', at + 1),
        b'u' => {
            let unit = hex4(bytes.get(at + 1..at + 5)?)?;
            match unit {
                0xD800..=0xDBFF => {
                    if bytes.get(at + 5..at + 7)? != b"\\u" {
                        return None;
                    }
                    let low = hex4(bytes.get(at + 7..at + 11)?)?;
                    if !(0xDC00..=0xDFFF).contains(&low) {
                        return None;
                    }
                    let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                    (char::from_u32(code)?, at + 11)
                }
                0xDC00..=0xDFFF => return None,
                _ => (char::from_u32(unit)?, at + 5),
            }
        }
        _ => return None,
    })
}

/// A plain integer as serde_json reads it (see [`NumberExtent::short_integer`]).
pub enum ShortInteger {
    /// A non-negative one: serde_json's `u64`.
    Unsigned(u64),
    /// A negative one: serde_json's `i64`.
    Signed(i64),
}

impl NumberExtent {
    /// The value of the number starting at `start` when it is a plain integer of at
    /// most 18 digits (which fit both `i64` and `u64`); `None` for any other, and for
    /// `-0`, a float to serde_json.
    #[inline]
    pub fn short_integer(&self, bytes: &[u8], start: usize) -> Option<ShortInteger> {
        if self.end != self.integral_end || self.end - self.digits > SHORT_INTEGER {
            return None;
        }
        let value = bytes[self.digits..self.end]
            .iter()
            .fold(0u64, |n, &digit| n * 10 + u64::from(digit - b'0'));
        if self.digits == start {
            Some(ShortInteger::Unsigned(value))
        } else if value != 0 {
            // At most 18 digits: within i64.
            Some(ShortInteger::Signed(-(value as i64)))
        } else {
            None
        }
    }
}

/// Where the parts of a number end (see [`number_extent`]).
pub struct NumberExtent {
    /// Where its digits start (past a `-`).
    pub digits: usize,
    /// Where its integral part ends.
    pub integral_end: usize,
    /// Where it ends.
    pub end: usize,
}

/// The number starting at `start` (`-` or a digit), read by serde_json's grammar; `None`
/// where serde_json refuses it: a second leading zero, a `.` or an exponent without
/// digits, a `-` without digits.
pub fn number_extent(bytes: &[u8], start: usize) -> Option<NumberExtent> {
    let digits = start + usize::from(bytes.get(start) == Some(&b'-'));
    let mut at = digits;
    match bytes.get(at)? {
        b'0' => {
            at += 1;
            if bytes.get(at).is_some_and(u8::is_ascii_digit) {
                return None;
            }
        }
        b'1'..=b'9' => at = skip_digits(bytes, at + 1),
        _ => return None,
    }
    let integral_end = at;
    if bytes.get(at) == Some(&b'.') {
        at = skip_digits(bytes, at + 1);
        if at == integral_end + 1 {
            return None;
        }
    }
    if let Some(b'e' | b'E') = bytes.get(at) {
        at += 1;
        if let Some(b'+' | b'-') = bytes.get(at) {
            at += 1;
        }
        let exponent = at;
        at = skip_digits(bytes, at);
        if at == exponent {
            return None;
        }
    }
    Some(NumberExtent {
        digits,
        integral_end,
        end: at,
    })
}

/// The first byte from `at` on that is not a digit.
pub fn skip_digits(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(u8::is_ascii_digit) {
        at += 1;
    }
    at
}

/// Four hex digits.
fn hex4(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |n, &digit| {
        Some(n << 4 | char::from(digit).to_digit(16)?)
    })
}
