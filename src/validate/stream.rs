//! Validating a stream: JSON lines message by message (or one JSON document), with
//! bounded memory, line numbers, and a summary.
//!
//! Lines are read into one reused buffer capped at [`StreamOptions::max_line_bytes`];
//! a longer line is skipped without being stored and reported with its line number.
//! A bad line never stops the stream.

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
}

impl Check for Validator {
    fn check(&self, bytes: &[u8]) -> Report {
        self.validate_bytes(bytes)
    }
}

impl Check for ReplyValidator<'_> {
    fn check(&self, bytes: &[u8]) -> Report {
        self.validate_bytes(bytes)
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
        let bucket = if self.types.contains_key(name) || self.types.len() < MAX_TYPES {
            name
        } else {
            OTHER_TYPES
        };
        // The name is allocated once per type, not once per message.
        match self.types.get_mut(bucket) {
            Some(counts) => counts.add(report.outcome),
            None => self
                .types
                .entry(bucket.to_owned())
                .or_default()
                .add(report.outcome),
        }
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

/// Reads lines into one reused, capped buffer.
struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    cap: usize,
    line: u64,
    bytes_read: u64,
}

impl<R: BufRead> LineReader<R> {
    fn new(inner: R, cap: usize) -> Self {
        Self {
            inner,
            buf: Vec::new(),
            cap,
            line: 0,
            bytes_read: 0,
        }
    }

    fn fill(&mut self) -> io::Result<&[u8]> {
        fill(&mut self.inner)
    }

    fn next(&mut self) -> io::Result<Line> {
        if self.buf.capacity() > (4 << 20) {
            self.buf = Vec::new();
        }
        self.buf.clear();
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
    let mut summary = Summary::default();
    let mut emit = |message: Message, summary: &mut Summary| {
        summary.record(&message.report);
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
            &mut summary,
        );
        return Ok(summary);
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
                emit(message, &mut summary);
            }
            Line::Text if is_blank(&lines.buf) => {}
            Line::Text => {
                seen_any = true;
                if framing == Framing::Auto {
                    framing = match serde_json::from_slice::<serde::de::IgnoredAny>(&lines.buf) {
                        Err(err) if err.is_eof() => Framing::Document,
                        _ => Framing::Lines,
                    };
                }
                let line = lines.line;
                if framing == Framing::Document {
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
                    emit(message, &mut summary);
                    break;
                }
                let report = shift(check.check(&lines.buf), line);
                let message = Message {
                    line,
                    bytes_read: lines.bytes_read,
                    report,
                };
                emit(message, &mut summary);
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
            &mut summary,
        );
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

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
