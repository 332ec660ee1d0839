//! The approaches the validation benchmark compares. Each one is prepared once per corpus
//! (schemas compiled, decoders chosen) and then runs a pass over every message, counting
//! the messages it accepts.

use std::hint::black_box;
use std::path::Path;

use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::Value;

use symgen_protocols::ck3lens::{JsonRpcRequest, JsonRpcResponse, PortFile};
use symgen_protocols::dialectic::{DialecticRequest, IpcResponse};
use symgen_protocols::symposium::IpcMessage;
use symgen_protocols::taskspace_state::TaskspaceStateMessage;
use symgen_protocols::worker_sideband::{ServerToWorker, WorkerToServer};

use symgen::validate::{Outcome, Validator};

use super::corpus::Corpus;
use super::faults;

/// One approach: a short key (for `--count`), a label for the table.
pub struct Approach {
    /// Key used on the command line, e.g. `value`.
    pub key: &'static str,
    /// What it does, for the table.
    pub label: &'static str,
}

/// Every approach, in table order. The first is the ratio baseline "vs parse".
pub const APPROACHES: &[Approach] = &[
    Approach {
        key: "value",
        label: "parse to serde_json::Value",
    },
    Approach {
        key: "ignored",
        label: "syntax only (IgnoredAny)",
    },
    Approach {
        key: "sonic",
        label: "parse to sonic_rs::Value (SIMD)",
    },
    Approach {
        key: "typed",
        label: "typed serde decode (Rust root type)",
    },
    Approach {
        key: "typed-quick",
        label: "typed quick decode (symgen_wire::quick)",
    },
    Approach {
        key: "jsonschema",
        label: "parse + jsonschema crate",
    },
    Approach {
        key: "boon",
        label: "parse + boon crate",
    },
    Approach {
        key: "symgen-schema",
        label: "symgen, schema as a user's (--schema)",
    },
    Approach {
        key: "symgen",
        label: "symgen validator (validate_str)",
    },
    Approach {
        key: "symgen-root",
        label: "symgen validator, root given",
    },
];

/// Approaches for `--count` only (instruction counts), not in the timed table.
pub const COUNT_ONLY: &[&str] = &[
    "lines-floor",
    "lines-typed",
    "lines-schema",
    "symgen-rejected",
    "symgen-rejected-missing",
    "symgen-rejected-value",
    "symgen-rejected-syntax",
];

/// The key of the approach the "vs jsonschema" ratio divides by.
pub const JSONSCHEMA: &str = "jsonschema";

/// A prepared pass over one corpus: returns how many messages were accepted.
pub type Pass<'a> = Box<dyn FnMut() -> usize + 'a>;

/// Prepares approach `key` for `corpus`, reading schemas from `schema_dir`.
pub fn prepare<'a>(key: &str, corpus: &'a Corpus, schema_dir: &Path) -> Result<Pass<'a>, String> {
    let texts: Vec<&'a str> = corpus.messages.iter().map(|m| m.text.as_str()).collect();
    match key {
        "value" => Ok(Box::new(move || {
            count(&texts, |text| serde_json::from_str::<Value>(text).is_ok())
        })),
        "ignored" => Ok(Box::new(move || {
            count(&texts, |text| {
                serde_json::from_str::<IgnoredAny>(text).is_ok()
            })
        })),
        // The floor where a tree is needed: sonic-rs parses with SIMD into its own
        // arena-backed `Value`.
        "sonic" => Ok(Box::new(move || {
            count(&texts, |text| {
                sonic_rs::from_str::<sonic_rs::Value>(text).is_ok()
            })
        })),
        // The corpus as JSON lines read from its file, as the CLI reads it: the floor (a
        // `read_line` + `IgnoredAny` loop) and the CLI's own stream reader, typed or with
        // the schema as a user's (benches/cli-instructions.sh).
        "lines-floor" => {
            let path = corpus_file(corpus)?;
            Ok(Box::new(move || {
                use std::io::BufRead;
                let Ok(mut input) = open(&path) else {
                    return 0;
                };
                let (mut line, mut seen) = (String::new(), 0);
                while input.read_line(&mut line).unwrap_or(0) > 0 {
                    if serde_json::from_str::<IgnoredAny>(line.trim_end_matches('\n')).is_ok() {
                        seen += 1;
                    }
                    line.clear();
                }
                black_box(seen)
            }))
        }
        "lines-typed" | "lines-schema" => {
            let path = corpus_file(corpus)?;
            let validator = if key == "lines-typed" {
                Validator::for_protocol(
                    &symgen_protocols::find(corpus.protocol).ok_or("unknown protocol")?,
                )
            } else {
                Validator::from_schema_file(
                    &schema_dir.join(format!("{}.schema.json", corpus.protocol)),
                )
            }
            .map_err(|e| e.to_string())?;
            Ok(Box::new(move || {
                let Ok(input) = open(&path) else {
                    return 0;
                };
                let options = symgen::validate::StreamOptions::default();
                symgen::validate::stream::validate_reader(&validator, input, &options, |_| {})
                    .map_or(0, |summary| summary.totals.valid as usize)
            }))
        }
        "typed" => per_root(corpus, texts, typed_decoder::<Serde>),
        "typed-quick" => per_root(corpus, texts, typed_decoder::<Quick>),
        "jsonschema" => {
            let validator = jsonschema_validator(corpus.protocol, schema_dir)?;
            Ok(Box::new(move || {
                count(&texts, |text| {
                    serde_json::from_str::<Value>(text)
                        .is_ok_and(|value| validator.is_valid(&value))
                })
            }))
        }
        "boon" => {
            let (schemas, index) = boon_validator(corpus.protocol, schema_dir)?;
            Ok(Box::new(move || {
                count(&texts, |text| {
                    serde_json::from_str::<Value>(text)
                        .is_ok_and(|value| schemas.validate(&value, index).is_ok())
                })
            }))
        }
        // What `symgen validate --schema <file>` runs: the committed schema read as any
        // user's schema, no Rust types involved.
        "symgen-schema" => {
            let path = schema_dir.join(format!("{}.schema.json", corpus.protocol));
            let validator = Validator::from_schema_file(&path).map_err(|e| e.to_string())?;
            Ok(Box::new(move || {
                count(&texts, |text| {
                    validator.validate_str(text).outcome == Outcome::Valid
                })
            }))
        }
        "symgen" => {
            let validator = Validator::for_protocol(
                &symgen_protocols::find(corpus.protocol).ok_or("unknown protocol")?,
            )
            .map_err(|e| e.to_string())?;
            Ok(Box::new(move || {
                count(&texts, |text| {
                    validator.validate_str(text).outcome == Outcome::Valid
                })
            }))
        }
        "symgen-root" => {
            let validator = Validator::for_protocol(
                &symgen_protocols::find(corpus.protocol).ok_or("unknown protocol")?,
            )
            .map_err(|e| e.to_string())?;
            let roots: Vec<&'a str> = corpus.messages.iter().map(|m| m.root).collect();
            Ok(Box::new(move || {
                texts
                    .iter()
                    .zip(&roots)
                    .filter(|(text, root)| {
                        let report = validator.validate_root_str(black_box(root), black_box(text));
                        black_box(report.is_some_and(|r| r.outcome == Outcome::Valid))
                    })
                    .count()
            }))
        }
        // Not in the table (they would not accept the corpus): each message with one
        // fault of one kind (see `faults`), for `--count symgen-rejected*`
        // (benches/instructions.sh). Counts the rejections.
        key if faults::Kind::of(key).is_some() => {
            let validator = Validator::for_protocol(
                &symgen_protocols::find(corpus.protocol).ok_or("unknown protocol")?,
            )
            .map_err(|e| e.to_string())?;
            let kind = faults::Kind::of(key).unwrap_or(faults::Kind::Type);
            let faulty = faults::corpus(corpus, &validator, kind)?;
            Ok(Box::new(move || {
                faulty
                    .iter()
                    .filter(|text| {
                        black_box(
                            validator.validate_str(black_box(text)).outcome == Outcome::Invalid,
                        )
                    })
                    .count()
            }))
        }
        other => Err(format!("unknown approach {other:?}")),
    }
}

/// The corpus written as JSON lines (`target/bench-corpus/<protocol>.jsonl`), for the
/// approaches that read it as a stream.
fn corpus_file(corpus: &Corpus) -> Result<std::path::PathBuf, String> {
    let dir = super::corpus::default_dir();
    corpus
        .write_jsonl(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))
}

/// `path` for reading, buffered as the CLI buffers it.
fn open(path: &Path) -> std::io::Result<std::io::BufReader<std::fs::File>> {
    Ok(std::io::BufReader::with_capacity(
        1 << 16,
        std::fs::File::open(path)?,
    ))
}

fn count(texts: &[&str], mut accept: impl FnMut(&str) -> bool) -> usize {
    texts
        .iter()
        .filter(|text| black_box(accept(black_box(text))))
        .count()
}

/// The committed schema of `protocol` compiled by the `jsonschema` crate (draft 2020-12);
/// its `$ref`s to the other schemas of `schema_dir` (by `$id`) are served from there.
pub fn jsonschema_validator(
    protocol: &str,
    schema_dir: &Path,
) -> Result<jsonschema::Validator, String> {
    let path = schema_dir.join(format!("{protocol}.schema.json"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let schema: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .with_retriever(symgen::validate::LocalRetriever::new().allow(schema_dir))
        .build(&schema)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The committed schema of `protocol` compiled by the `boon` crate (draft 2020-12), with
/// every schema of `schema_dir` registered under its `$id` so cross-file `$ref`s resolve.
pub fn boon_validator(
    protocol: &str,
    schema_dir: &Path,
) -> Result<(boon::Schemas, boon::SchemaIndex), String> {
    let mut compiler = boon::Compiler::new();
    compiler.set_default_draft(boon::Draft::V2020_12);
    let mut target = None;
    let entries =
        std::fs::read_dir(schema_dir).map_err(|e| format!("{}: {e}", schema_dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let schema: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let id = schema["$id"]
            .as_str()
            .ok_or_else(|| format!("{}: no $id", path.display()))?
            .to_owned();
        if path
            .file_name()
            .is_some_and(|n| *n == *format!("{protocol}.schema.json"))
        {
            target = Some(id.clone());
        }
        compiler
            .add_resource(&id, schema)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let target = target.ok_or_else(|| format!("no schema for {protocol}"))?;
    let mut schemas = boon::Schemas::new();
    let index = compiler
        .compile(&target, &mut schemas)
        .map_err(|e| format!("boon: {e:#}"))?;
    Ok((schemas, index))
}

/// A pass that decodes each message as its own root's Rust type with `decoder`.
fn per_root<'a>(
    corpus: &Corpus,
    texts: Vec<&'a str>,
    decoder: fn(&str) -> Option<Accepts>,
) -> Result<Pass<'a>, String> {
    let decoders = corpus
        .messages
        .iter()
        .map(|m| decoder(m.root).ok_or_else(|| format!("no Rust type for root {}", m.root)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Box::new(move || {
        texts
            .iter()
            .zip(&decoders)
            .filter(|(text, decode)| black_box(decode(black_box(text))))
            .count()
    }))
}

/// Whether a text decodes as one Rust type.
pub type Accepts = fn(&str) -> bool;

/// A typed decode: serde_json's, or symgen's quick decode.
pub trait Decode {
    /// Whether `text` decodes as `T`.
    fn accepts<T: DeserializeOwned>(text: &str) -> bool;
}

/// serde_json's typed decode.
pub struct Serde;

impl Decode for Serde {
    fn accepts<T: DeserializeOwned>(text: &str) -> bool {
        serde_json::from_str::<T>(text).is_ok()
    }
}

/// symgen's quick decode (`symgen_wire::quick`), serde_json where it is unsure.
pub struct Quick;

impl Decode for Quick {
    fn accepts<T: DeserializeOwned>(text: &str) -> bool {
        symgen::wire::quick::from_str::<T>(text).is_ok()
    }
}

/// `D`'s decode of the Rust type of schema root `root`.
pub fn typed_decoder<D: Decode>(root: &str) -> Option<Accepts> {
    Some(match root {
        "IpcMessage" => D::accepts::<IpcMessage>,
        "TaskspaceStateMessage" => D::accepts::<TaskspaceStateMessage>,
        "DialecticRequest" => D::accepts::<DialecticRequest>,
        "IPCResponse" => D::accepts::<IpcResponse>,
        "ServerToWorker" => D::accepts::<ServerToWorker>,
        "WorkerToServer" => D::accepts::<WorkerToServer>,
        "JsonRpcRequest" => D::accepts::<JsonRpcRequest>,
        "JsonRpcResponse" => D::accepts::<JsonRpcResponse>,
        "PortFile" => D::accepts::<PortFile>,
        _ => return None,
    })
}
