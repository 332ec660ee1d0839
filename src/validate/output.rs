//! How `symgen validate` prints: one line per problem for people, JSON lines for
//! machines, and the summary.

use crate::files::escape_controls;
use std::io::{self, Write};

use anstyle::{AnsiColor, Style};
use serde_json::json;

use super::report::{Outcome, Report, Violation};
use super::stream::{Message, Summary};

const LOCATION: Style = Style::new().bold();
const TYPE: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Magenta)));
const POINTER: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Yellow)));
const ERROR: Style = Style::new()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)))
    .bold();
const NOTE: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Cyan)));

/// The output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `file:line:col: type /pointer: message`, one line per problem, then a summary.
    Human,
    /// JSON lines: one object per invalid or unknown message, then `{"summary": ...}`.
    Json,
}

/// Writes the lines for one message (nothing for a valid one). `roots`: the names of
/// the roots every message was judged against (an unknown tag is one none of them knows).
pub fn message(
    out: &mut dyn Write,
    format: Format,
    file: &str,
    roots: &[&str],
    message: &Message,
) -> io::Result<()> {
    let report = &message.report;
    if report.outcome == Outcome::Valid {
        return Ok(());
    }
    match format {
        Format::Human => human(out, file, roots, message.line, report),
        Format::Json => {
            let record = json!({
                "file": file,
                "line": message.line,
                "outcome": report.outcome,
                "root": report.root,
                "type": report.message_type,
                "violations": report.violations,
            });
            writeln!(out, "{record}")
        }
    }
}

fn human(
    out: &mut dyn Write,
    file: &str,
    roots: &[&str],
    line: u64,
    report: &Report,
) -> io::Result<()> {
    // Tags, keys (in pointers) and messages come from the input: one line each.
    let file = &*escape_controls(file);
    let prefix = |out: &mut dyn Write, line: u64, column: u64| -> io::Result<()> {
        write!(out, "{LOCATION}{file}:{line}:{column}:{LOCATION:#} ")?;
        if let Some(name) = &report.message_type {
            let name = escape_controls(name);
            write!(out, "{TYPE}{name}{TYPE:#} ")?;
        }
        Ok(())
    };
    if report.outcome == Outcome::Unknown {
        write!(out, "{LOCATION}{file}:{line}:1:{LOCATION:#} ")?;
        let name = escape_controls(report.message_type.as_deref().unwrap_or("?"));
        let owners = tag_owners(roots, report.root.as_deref());
        let root = escape_controls(&owners);
        return writeln!(
            out,
            "{TYPE}{name}{TYPE:#}: {NOTE}note: unknown type{NOTE:#}, not a tag of {root} (rule R4: not an error)"
        );
    }
    for violation in &report.violations {
        let (line, column) = violation.position.map_or((line, 1), |p| (p.line, p.column));
        prefix(out, line, column)?;
        pointer_and_message(out, violation)?;
    }
    Ok(())
}

/// Whose tag a message's unknown tag is not: every root asked (an unknown verdict means
/// no root asked knows the tag), or the report's root when it is not among them.
fn tag_owners(roots: &[&str], root: Option<&str>) -> String {
    match (roots, root) {
        ([_, .., last], Some(root)) if roots.contains(&root) => {
            format!("{} or {last}", roots[..roots.len() - 1].join(", "))
        }
        (_, Some(root)) => root.to_owned(),
        ([only], None) => (*only).to_owned(),
        _ => "the protocol".to_owned(),
    }
}

fn pointer_and_message(out: &mut dyn Write, violation: &Violation) -> io::Result<()> {
    if !violation.pointer.is_empty() {
        let pointer = escape_controls(&violation.pointer);
        write!(out, "{POINTER}{pointer}{POINTER:#}: ")?;
    }
    let message = escape_controls(&violation.message);
    writeln!(out, "{ERROR}{message}{ERROR:#}")
}

/// Writes the summary of everything validated.
pub fn summary(out: &mut dyn Write, format: Format, summary: &Summary) -> io::Result<()> {
    match format {
        Format::Json => writeln!(out, "{}", json!({ "summary": summary })),
        Format::Human => {
            let t = summary.totals;
            writeln!(
                out,
                "{LOCATION}summary:{LOCATION:#} {} message(s): {} valid, {} invalid, {} unknown",
                t.total(),
                t.valid,
                t.invalid,
                t.unknown
            )?;
            for (name, counts) in &summary.types {
                let mut parts = Vec::new();
                for (n, label) in [
                    (counts.valid, "valid"),
                    (counts.invalid, "invalid"),
                    (counts.unknown, "unknown"),
                ] {
                    if n > 0 {
                        parts.push(format!("{n} {label}"));
                    }
                }
                let name = escape_controls(name);
                writeln!(out, "  {TYPE}{name}{TYPE:#}: {}", parts.join(", "))?;
            }
            Ok(())
        }
    }
}
