//! How `symgen breaking` prints its findings: one line per change for people
//! (`file:pointer: rule [class]: message`), a JSON document for tools, or GitHub
//! workflow annotations (`::error file=…,line=…::…`) that show up on the pull request.

use std::io::{self, Write};

use serde_json::json;

use super::{Change, Class};
use crate::emit::text::one_line;

/// The output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `file:pointer: rule [class]: message`, one line per change.
    Human,
    /// One JSON document: `{"against", "changes": [...], "counts": {...}}`.
    Json,
    /// GitHub Actions workflow commands: wire-breaking changes as errors, source-breaking
    /// as warnings, compatible ones as notices.
    Github,
}

/// How many changes of each class.
pub fn counts(changes: &[Change]) -> [(Class, usize); 3] {
    [Class::Wire, Class::Source, Class::Compatible]
        .map(|class| (class, changes.iter().filter(|c| c.class == class).count()))
}

/// Writes `changes` in `format`. `line_of(file, pointer)` finds the line of a pointer
/// in a file, for annotations.
pub fn write(
    out: &mut impl Write,
    format: Format,
    against: &str,
    changes: &[Change],
    line_of: &dyn Fn(&str, &str) -> Option<usize>,
) -> io::Result<()> {
    match format {
        Format::Human => {
            for change in changes {
                writeln!(
                    out,
                    "{}:{}: {} [{}]: {}",
                    one_line(&change.file),
                    one_line(&change.pointer),
                    change.rule,
                    change.class,
                    one_line(&change.message)
                )?;
            }
        }
        Format::Json => {
            let counts: serde_json::Map<String, serde_json::Value> = counts(changes)
                .iter()
                .map(|(class, n)| (class.name().to_owned(), json!(n)))
                .collect();
            let document = json!({
                "against": against,
                "changes": changes,
                "counts": counts,
            });
            serde_json::to_writer_pretty(&mut *out, &document)?;
            writeln!(out)?;
        }
        Format::Github => {
            for change in changes {
                let level = match change.class {
                    Class::Wire => "error",
                    Class::Source => "warning",
                    Class::Compatible => "notice",
                };
                let line = line_of(&change.file, &change.pointer)
                    .map(|n| format!(",line={n}"))
                    .unwrap_or_default();
                writeln!(
                    out,
                    "::{level} file={}{line},title={}::{}",
                    property(&change.file),
                    property(&format!("{} ({})", change.rule, change.class)),
                    data(&format!("{} {}", change.pointer, change.message))
                )?;
            }
        }
    }
    Ok(())
}

/// Escapes a workflow command's message (GitHub's `escapeData`).
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value (GitHub's `escapeProperty`).
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::{Format, write};
    use crate::breaking::{Change, Class};

    #[test]
    fn annotations_escape_what_would_end_or_split_a_command() {
        let change = Change {
            file: "schema/a,b.json".into(),
            pointer: "/$defs/A".into(),
            rule: "field-removed",
            class: Class::Wire,
            message: "100%\ngone".into(),
        };
        let mut out = Vec::new();
        write(&mut out, Format::Github, "HEAD", &[change], &|_, _| Some(7)).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "::error file=schema/a%2Cb.json,line=7,title=field-removed (wire)::/$defs/A 100%25%0Agone\n"
        );
    }
}
