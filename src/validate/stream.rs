//! Validating a stream: JSON lines message by message (or one JSON document), with
//! bounded memory, line numbers, and a summary.
//!
//! Lines are read into one reused buffer capped at [`StreamOptions::max_line_bytes`];
//! a longer line is skipped without being stored and reported with its line number.
//! A bad line never stops the stream.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, BufRead};

use serde::Serialize;

use super::report::{Outcome, Position, Report, Violation, ViolationKind};
use super::validator::{ReplyValidator, Validator};

/// The default limit on the length of one line (or one document): 16 MiB.
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 << 20;

/// At most this many distinct message types are counted by name; the rest are counted
/// together under [`OTHER_TYPES`], so a stream of made-up types cannot grow the summary.
pub const MAX_TYPES: usize = 1024;

/// The summary bucket for types beyond [`MAX_TYPES`].
pub const OTHER_TYPES: &str = "(other types)";

/// The summary bucket for messages with no type (not JSON, wrong shape).
pub const UNTYPED: &str = "(untyped)";

/// How a stream is read.
#[derive(Debug, Clone)]
pub struct StreamOptions {
    /// Longest line (or document) accepted, in bytes.
    pub max_line_bytes: usize,
    /// How the input is framed.
    pub framing: Framing,
}

impl Default for StreamOptions {
    fn default() -> Self {
        Self {
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            framing: Framing::Auto,
        }
    }
}

/// How messages are delimited in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// JSON lines if the first non-blank line is a complete JSON value, else one
    /// (pretty-printed) document.
    Auto,
    /// One message per line (rule R5); blank lines are skipped.
    Lines,
    /// The whole input is one message.
    Document,
}

/// Anything that validates one message given as bytes.
pub trait Check {
    /// Validates one message.
    fn check(&self, bytes: &[u8]) -> Report;

    /// Validates one message known to be UTF-8 text without a NUL byte: what
    /// [`Self::check`] says of its bytes, without looking for those again.
    fn check_str(&self, text: &str) -> Report {
        self.check(text.as_bytes())
    }
}

impl Check for Validator {
    fn check(&self, bytes: &[u8]) -> Report {
        self.validate_bytes(bytes)
    }

    fn check_str(&self, text: &str) -> Report {
        self.validate_str(text)
    }
}

impl Check for ReplyValidator<'_> {
    fn check(&self, bytes: &[u8]) -> Report {
        self.validate_bytes(bytes)
    }

    fn check_str(&self, text: &str) -> Report {
        self.validate_str(text)
    }
}

/// One validated message of a stream.
#[derive(Debug, Clone)]
pub struct Message {
    /// The line it starts on (1-based).
    pub line: u64,
    /// Bytes of input consumed so far (for progress).
    pub bytes_read: u64,
    /// The verdict; violation positions are in stream lines.
    pub report: Report,
}

/// Counts per outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Valid messages.
    pub valid: u64,
    /// Invalid messages.
    pub invalid: u64,
    /// Messages with an unknown tag (R4).
    pub unknown: u64,
}

impl Counts {
    fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Valid => self.valid += 1,
            Outcome::Invalid => self.invalid += 1,
            Outcome::Unknown => self.unknown += 1,
        }
    }

    fn merge(&mut self, other: &Counts) {
        self.valid += other.valid;
        self.invalid += other.invalid;
        self.unknown += other.unknown;
    }

    /// All messages counted.
    pub fn total(&self) -> u64 {
        self.valid + self.invalid + self.unknown
    }
}

/// What a stream held.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Every message, by outcome.
    #[serde(flatten)]
    pub totals: Counts,
    /// Per message type (tag, or root for untagged messages).
    pub types: BTreeMap<String, Counts>,
}

impl Summary {
    /// Counts one report.
    pub fn record(&mut self, report: &Report) {
        self.totals.add(report.outcome);
        let name = report.type_name().unwrap_or(UNTYPED);
        // A type seen before: one lookup. The name is allocated once per type, not once
        // per message.
        if let Some(counts) = self.types.get_mut(name) {
            counts.add(report.outcome);
            return;
        }
        let bucket = if self.types.len() < MAX_TYPES {
            name
        } else {
            OTHER_TYPES
        };
        self.types
            .entry(bucket.to_owned())
            .or_default()
            .add(report.outcome);
    }

    /// Adds another summary's counts (e.g. of the next file).
    pub fn merge(&mut self, other: &Summary) {
        self.totals.merge(&other.totals);
        for (name, counts) in &other.types {
            let bucket = if self.types.contains_key(name) || self.types.len() < MAX_TYPES {
                name.as_str()
            } else {
                OTHER_TYPES
            };
            self.types
                .entry(bucket.to_owned())
                .or_default()
                .merge(counts);
        }
    }
}

enum Line {
    /// A line is in the buffer.
    Text,
    /// A line longer than the limit was skipped; its length in bytes.
    TooLong(u64),
    /// End of input.
    End,
}

/// Reads lines: in place where a whole line is in the reader's buffer (the usual case),
/// else into one reused, capped buffer.
struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    cap: usize,
    line: u64,
    bytes_read: u64,
    /// The line is the first this many bytes of the reader's buffer, its newline not yet
    /// consumed; else it is `buf`.
    in_place: Option<usize>,
    /// Whether the line is known to hold no NUL byte.
    no_nul: bool,
}

impl<R: BufRead> LineReader<R> {
    fn new(inner: R, cap: usize) -> Self {
        Self {
            inner,
            buf: Vec::new(),
            cap,
            line: 0,
            bytes_read: 0,
            in_place: None,
            no_nul: false,
        }
    }

    fn fill(&mut self) -> io::Result<&[u8]> {
        fill(&mut self.inner)
    }

    /// The line [`Self::next`] read.
    fn text(&mut self) -> io::Result<&[u8]> {
        match self.in_place {
            Some(length) => Ok(&fill(&mut self.inner)?[..length]),
            None => Ok(&self.buf),
        }
    }

    /// Moves a line read in place into `buf` (which the rest of a document is appended
    /// to).
    fn own(&mut self) -> io::Result<()> {
        if let Some(length) = self.in_place.take() {
            self.buf.clear();
            self.buf
                .extend_from_slice(&fill(&mut self.inner)?[..length]);
            self.inner.consume(length + 1);
        }
        Ok(())
    }

    fn next(&mut self) -> io::Result<Line> {
        if let Some(length) = self.in_place.take() {
            self.inner.consume(length + 1);
        }
        if self.buf.capacity() > (4 << 20) {
            self.buf = Vec::new();
        }
        self.buf.clear();
        self.no_nul = false;
        // A whole line in the buffered bytes: read where it is, and looked at once for
        // its end and for a NUL byte.
        let cap = self.cap;
        let chunk = fill(&mut self.inner)?;
        if let Some(end) = memchr::memchr2(b'\n', 0, chunk)
            && chunk[end] == b'\n'
            && end <= cap
        {
            self.in_place = Some(end);
            self.no_nul = true;
            self.bytes_read += end as u64 + 1;
            self.line += 1;
            return Ok(Line::Text);
        }
        let mut length = 0u64;
        let mut too_long = false;
        let mut any = false;
        loop {
            let cap = self.cap;
            let chunk = fill(&mut self.inner)?;
            if chunk.is_empty() {
                if !any {
                    return Ok(Line::End);
                }
                break;
            }
            any = true;
            let (take, newline) = match memchr::memchr(b'\n', chunk) {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            length += take as u64;
            if !too_long {
                if self.buf.len() + take > cap {
                    too_long = true;
                    self.buf = Vec::new();
                } else {
                    self.buf.extend_from_slice(&chunk[..take]);
                }
            }
            let consumed = take + usize::from(newline);
            self.inner.consume(consumed);
            self.bytes_read += consumed as u64;
            if newline {
                break;
            }
        }
        self.line += 1;
        Ok(if too_long {
            Line::TooLong(length)
        } else {
            Line::Text
        })
    }

    /// Appends the rest of the input to the buffer; `Err(length)` when the buffer would
    /// grow past the limit (the rest is then left unread).
    fn rest(&mut self) -> io::Result<Result<(), u64>> {
        loop {
            let cap = self.cap;
            let chunk = fill(&mut self.inner)?;
            if chunk.is_empty() {
                return Ok(Ok(()));
            }
            let take = chunk.len();
            if self.buf.len() + take > cap {
                return Ok(Err((self.buf.len() + take) as u64));
            }
            self.buf.extend_from_slice(chunk);
            self.inner.consume(take);
            self.bytes_read += take as u64;
        }
    }
}

/// The reader's buffered bytes, retrying when interrupted.
fn fill<R: BufRead>(inner: &mut R) -> io::Result<&[u8]> {
    loop {
        match inner.fill_buf() {
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            _ => break,
        }
    }
    inner.fill_buf()
}

fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// Moves a report's positions from the text's own lines to stream lines.
fn shift(mut report: Report, first_line: u64) -> Report {
    for violation in &mut report.violations {
        let position = violation
            .position
            .get_or_insert(Position { line: 1, column: 1 });
        position.line += first_line - 1;
    }
    report
}

fn too_long(line: u64, length: &str, cap: usize, what: &str) -> Report {
    Report::invalid(
        None,
        None,
        vec![
            Violation::new(
                ViolationKind::TooLong,
                "",
                format!("{what} is {length} bytes, over the limit of {cap} bytes; skipped"),
            )
            .at(Position { line, column: 1 }),
        ],
    )
}

/// Validates every message of `reader` with `check`, calls `on_message` for each (valid
/// ones too, in order), and returns the summary. Only reading fails the call; every
/// problem with the content is a report.
pub fn validate_reader<R: BufRead>(
    check: &dyn Check,
    reader: R,
    options: &StreamOptions,
    mut on_message: impl FnMut(&Message),
) -> io::Result<Summary> {
    let mut counts = TypeCounts::default();
    let mut emit = |message: Message, counts: &mut TypeCounts| {
        counts.record(&message.report);
        on_message(&message);
    };
    let mut lines = LineReader::new(reader, options.max_line_bytes);

    // Binary input is one problem, not one per "line".
    let head = lines.fill()?;
    let head = &head[..head.len().min(8192)];
    if let Some(offset) = memchr::memchr(0, head) {
        let report = Report::invalid(
            None,
            None,
            vec![
                Violation::new(
                    ViolationKind::Encoding,
                    "",
                    format!("binary data (NUL byte at byte offset {offset}), not JSON text"),
                )
                .at(Position { line: 1, column: 1 }),
            ],
        );
        emit(
            Message {
                line: 1,
                bytes_read: 0,
                report,
            },
            &mut counts,
        );
        return Ok(counts.into_summary());
    }

    let mut framing = options.framing;
    let mut seen_any = false;
    loop {
        match lines.next()? {
            Line::End => break,
            Line::TooLong(length) => {
                seen_any = true;
                framing = Framing::Lines;
                let report = too_long(
                    lines.line,
                    &length.to_string(),
                    options.max_line_bytes,
                    "the line",
                );
                let message = Message {
                    line: lines.line,
                    bytes_read: lines.bytes_read,
                    report,
                };
                emit(message, &mut counts);
            }
            Line::Text => {
                let (no_nul, line) = (lines.no_nul, lines.line);
                let text = lines.text()?;
                if is_blank(text) {
                    continue;
                }
                seen_any = true;
                if framing == Framing::Auto {
                    framing = match serde_json::from_slice::<serde::de::IgnoredAny>(text) {
                        Err(err) if err.is_eof() => Framing::Document,
                        _ => Framing::Lines,
                    };
                }
                if framing == Framing::Document {
                    lines.own()?;
                    lines.buf.push(b'\n');
                    let report = match lines.rest()? {
                        Ok(()) => shift(check.check(&lines.buf), line),
                        Err(length) => too_long(
                            line,
                            &format!("{length} or more"),
                            options.max_line_bytes,
                            "the document",
                        ),
                    };
                    let message = Message {
                        line,
                        bytes_read: lines.bytes_read,
                        report,
                    };
                    emit(message, &mut counts);
                    break;
                }
                // As text where the line is known to be text without a NUL byte.
                let report = match std::str::from_utf8(text) {
                    Ok(text) if no_nul => check.check_str(text),
                    _ => check.check(text),
                };
                let report = shift(report, line);
                let message = Message {
                    line,
                    bytes_read: lines.bytes_read,
                    report,
                };
                emit(message, &mut counts);
            }
        }
    }
    if !seen_any {
        let report = Report::invalid(
            None,
            None,
            vec![
                Violation::new(ViolationKind::Empty, "", "empty input: no JSON message")
                    .at(Position { line: 1, column: 1 }),
            ],
        );
        emit(
            Message {
                line: 1,
                bytes_read: 0,
                report,
            },
            &mut counts,
        );
    }
    Ok(counts.into_summary())
}

/// A stream's counts as they are taken: per message type, found by a hash map (one
/// lookup per message) or, for a name the validator lends for the whole process (its
/// roots' and known tags' names, `Cow::Borrowed`), by the name's address in a small
/// cache first; ordered into a [`Summary`] at the end of the stream. The same counts as
/// [`Summary::record`] makes, with its limit of [`MAX_TYPES`] names.
#[derive(Default)]
struct TypeCounts {
    totals: Counts,
    /// The counts of each name counted (or [`OTHER_TYPES`]).
    counts: Vec<Counts>,
    /// Each name's place in `counts`.
    index: ahash::HashMap<Box<str>, usize>,
    /// Recently counted `'static` names: address, length, place in `counts`. A
    /// `'static` string is never freed or changed, so its address and length stand for
    /// its text.
    recent: [(usize, usize, usize); RECENT],
}

/// How many `'static` names [`TypeCounts`] remembers by address.
const RECENT: usize = 16;

impl TypeCounts {
    #[inline]
    fn record(&mut self, report: &Report) {
        self.totals.add(report.outcome);
        let at = match report.message_type.as_ref().or(report.root.as_ref()) {
            Some(Cow::Borrowed(name)) => {
                let (address, length) = (name.as_ptr() as usize, name.len());
                let slot = ((address >> 3) ^ length) % RECENT;
                match self.recent[slot] {
                    (a, l, at) if a == address && l == length => at,
                    _ => {
                        let at = self.place(name);
                        self.recent[slot] = (address, length, at);
                        at
                    }
                }
            }
            Some(Cow::Owned(name)) => self.place(name),
            None => self.place(UNTYPED),
        };
        self.counts[at].add(report.outcome);
    }

    /// Where `name` is counted: its place in `counts`, made on its first message (under
    /// [`OTHER_TYPES`] once there are [`MAX_TYPES`] names).
    fn place(&mut self, name: &str) -> usize {
        if let Some(&at) = self.index.get(name) {
            return at;
        }
        let bucket = if self.counts.len() < MAX_TYPES {
            name
        } else {
            OTHER_TYPES
        };
        if let Some(&at) = self.index.get(bucket) {
            return at;
        }
        self.counts.push(Counts::default());
        self.index.insert(bucket.into(), self.counts.len() - 1);
        self.counts.len() - 1
    }

    fn into_summary(self) -> Summary {
        Summary {
            totals: self.totals,
            types: self
                .index
                .into_iter()
                .map(|(name, at)| (name.into_string(), self.counts[at]))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::report::interned;

    struct ByLength;
    impl Check for ByLength {
        /// Valid when the bytes are a JSON array, with the length as its type.
        fn check(&self, bytes: &[u8]) -> Report {
            match serde_json::from_slice::<Vec<u8>>(bytes) {
                Ok(v) => Report::accepted(Outcome::Valid, None, Some(v.len().to_string().into())),
                Err(_) => Report::invalid(
                    None,
                    None,
                    vec![
                        Violation::new(ViolationKind::Syntax, "", "bad")
                            .at(Position { line: 1, column: 2 }),
                    ],
                ),
            }
        }
    }

    fn run(
        input: &[u8],
        options: StreamOptions,
    ) -> (Vec<(u64, Outcome, Option<Position>)>, Summary) {
        let mut seen = Vec::new();
        let summary = validate_reader(&ByLength, input, &options, |m| {
            seen.push((
                m.line,
                m.report.outcome,
                m.report.violations.first().and_then(|v| v.position),
            ))
        })
        .unwrap();
        (seen, summary)
    }

    #[test]
    fn lines_keep_going_after_bad_ones_and_count_by_type() {
        let (seen, summary) = run(b"[1]\n\nnope\n[2]\r\n[3,4]", StreamOptions::default());
        assert_eq!(
            seen.iter().map(|s| (s.0, s.1)).collect::<Vec<_>>(),
            [
                (1, Outcome::Valid),
                (3, Outcome::Invalid),
                (4, Outcome::Valid),
                (5, Outcome::Valid)
            ]
        );
        assert_eq!(seen[1].2, Some(Position { line: 3, column: 2 }));
        assert_eq!(
            summary.totals,
            Counts {
                valid: 3,
                invalid: 1,
                unknown: 0
            }
        );
        assert_eq!(summary.types["1"].valid, 2);
        assert_eq!(summary.types[UNTYPED].invalid, 1);
    }

    #[test]
    fn over_long_lines_are_skipped_with_their_line_number() {
        let mut input = b"[1]\n".to_vec();
        input.extend(std::iter::repeat_n(b'7', 100));
        input.extend(b"\n[2]\n");
        let options = StreamOptions {
            max_line_bytes: 50,
            ..StreamOptions::default()
        };
        let (seen, _) = run(&input, options);
        assert_eq!(seen.len(), 3);
        assert_eq!((seen[1].0, seen[1].1), (2, Outcome::Invalid));
        assert_eq!((seen[2].0, seen[2].1), (3, Outcome::Valid));
    }

    #[test]
    fn a_document_that_spans_lines_is_one_message() {
        let (seen, _) = run(b"\n[\n 1,\n 2\n]\n", StreamOptions::default());
        assert_eq!(seen, [(2, Outcome::Valid, None)]);
        let (seen, _) = run(b"[\n 1,\n x\n]\n", StreamOptions::default());
        assert_eq!(
            seen,
            [(1, Outcome::Invalid, Some(Position { line: 1, column: 2 }))]
        );
    }

    #[test]
    fn empty_and_binary_inputs_are_one_problem_each() {
        let (seen, summary) = run(b"", StreamOptions::default());
        assert_eq!(seen.len(), 1);
        assert_eq!(summary.totals.invalid, 1);
        let (seen, _) = run(
            b"\x7fELF\x02\x01\x01\x00\x00\n\n\n\x00",
            StreamOptions::default(),
        );
        assert_eq!(seen.len(), 1);
    }

    /// [`ByLength`] with its names lent for the whole process (`Cow::Borrowed`), as a
    /// validator's roots and known tags are.
    struct ByLengthInterned;
    impl Check for ByLengthInterned {
        fn check(&self, bytes: &[u8]) -> Report {
            let mut report = ByLength.check(bytes);
            report.message_type = report.message_type.map(|name| interned(&name));
            assert!(
                matches!(report.message_type, None | Some(Cow::Borrowed(_))),
                "short names are interned"
            );
            report
        }
    }

    #[test]
    fn a_stream_counts_as_its_reports_recorded_one_by_one() {
        // Arrays of every length to past the cap on names, some lengths many times,
        // some lines invalid: the stream's summary is the one `Summary::record` makes
        // of the same reports, in order; with names copied per message, and with names
        // lent for the process (counted by address first).
        let mut input = String::new();
        for i in 0..2 * MAX_TYPES {
            let length = if i % 3 == 0 { i % 7 } else { i };
            input.push_str(&serde_json::to_string(&vec![1u8; length]).unwrap());
            input.push_str(if i % 11 == 0 { "x\n" } else { "\n" });
        }
        // Names seen again: some counted under their own name, some past the cap.
        for length in [5, 1000, 1500, 2000, 5, 1500] {
            input.push_str(&serde_json::to_string(&vec![1u8; length]).unwrap());
            input.push('\n');
        }
        let checks: [&dyn Check; 2] = [&ByLength, &ByLengthInterned];
        for check in checks {
            let mut recorded = Summary::default();
            let summary =
                validate_reader(check, input.as_bytes(), &StreamOptions::default(), |m| {
                    recorded.record(&m.report)
                })
                .unwrap();
            assert_eq!(summary, recorded);
            assert_eq!(summary.types.len(), MAX_TYPES + 1);
            assert!(summary.types[OTHER_TYPES].valid > 0);
            assert!(summary.totals.invalid > 0);
        }
    }

    #[test]
    fn the_summary_caps_the_number_of_type_names() {
        let mut summary = Summary::default();
        for i in 0..MAX_TYPES + 10 {
            summary.record(&Report::accepted(
                Outcome::Unknown,
                None,
                Some(i.to_string().into()),
            ));
        }
        assert_eq!(summary.types.len(), MAX_TYPES + 1);
        assert_eq!(summary.types[OTHER_TYPES].unknown, 10);
    }
}
