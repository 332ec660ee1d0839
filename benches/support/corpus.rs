//! The benchmark corpora: one deterministic list of valid wire messages per protocol.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::values::Gen;
use super::{corpus_bus, corpus_other};

/// The seed every corpus is generated from.
pub const SEED: u64 = 0x5EED_0005;

/// One wire message of a corpus.
pub struct Message {
    /// The schema root (`$defs` name) it is an instance of, e.g. `IpcMessage`.
    pub root: &'static str,
    /// Its tag (`type`, or the JSON-RPC method), `-` when the root has none.
    pub tag: String,
    /// The message as one line of JSON.
    pub text: String,
}

/// All messages of one protocol.
pub struct Corpus {
    /// The protocol id, e.g. `symposium`.
    pub protocol: &'static str,
    /// The messages, in generation order.
    pub messages: Vec<Message>,
}

impl Corpus {
    /// Total size of the messages in bytes (without newlines).
    pub fn bytes(&self) -> usize {
        self.messages.iter().map(|m| m.text.len()).sum()
    }

    /// Average message size in bytes.
    pub fn average_bytes(&self) -> usize {
        self.bytes() / self.messages.len().max(1)
    }

    /// Writes the corpus as JSON lines to `<dir>/<protocol>.jsonl` and returns the path.
    pub fn write_jsonl(&self, dir: &Path) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(format!("{}.jsonl", self.protocol));
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path)?);
        for message in &self.messages {
            out.write_all(message.text.as_bytes())?;
            out.write_all(b"\n")?;
        }
        out.flush()?;
        Ok(path)
    }
}

/// The protocol ids in catalog order (P1 .. P5).
pub const PROTOCOLS: &[&str] = &[
    "symposium",
    "taskspace-state",
    "dialectic",
    "worker-sideband",
    "ck3lens",
];

/// The corpus of `protocol` with `count` messages.
pub fn generate(protocol: &str, count: usize) -> Option<Corpus> {
    let (protocol, generate): (&'static str, fn(&mut Gen) -> Message) = match protocol {
        "symposium" => ("symposium", corpus_bus::symposium_message),
        "taskspace-state" => ("taskspace-state", corpus_bus::taskspace_state_message),
        "dialectic" => ("dialectic", corpus_other::dialectic_message),
        "worker-sideband" => ("worker-sideband", corpus_other::worker_sideband_message),
        "ck3lens" => ("ck3lens", corpus_other::ck3lens_message),
        _ => return None,
    };
    let mut rng = Gen::new(SEED ^ fnv(protocol));
    let messages = (0..count).map(|_| generate(&mut rng)).collect();
    Some(Corpus { protocol, messages })
}

/// Every protocol's corpus, `count` messages each.
pub fn all(count: usize) -> Vec<Corpus> {
    PROTOCOLS
        .iter()
        .filter_map(|id| generate(id, count))
        .collect()
}

/// The directory the corpora are written to for the node scripts:
/// `target/bench-corpus` of this crate.
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-corpus")
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}
