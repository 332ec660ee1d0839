//! Validation throughput benchmark (issue 5, item 4).
//!
//! `cargo bench --bench validation` generates a deterministic corpus per protocol,
//! writes it to `target/bench-corpus/<id>.jsonl` (for the ajv script), and measures every
//! approach in interleaved rounds in the same run, printing messages/second and the
//! ratios against "parse to Value" and against "parse + jsonschema".
//!
//! `--count APPROACH --protocol ID --iters N` runs one approach N times and nothing else,
//! for instruction counting under callgrind (see `benches/instructions.sh`).
//!
//! `--violations 1000,10000,100000` instead times one message with that many faults
//! (an array of N strings where integers are required) per size: symgen's report
//! (capped at its default `--max-errors`) beside the `jsonschema` crate's `is_valid`
//! and full `iter_errors`, so that the time per size shows it grows linearly.

mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Parser;

use support::approaches::{APPROACHES, JSONSCHEMA, prepare};
use support::corpus::{self, Corpus};

#[derive(Parser)]
#[command(about = "symgen validation benchmark")]
struct Args {
    /// Only these protocols (ids such as `symposium`); all when absent.
    #[arg(long)]
    protocol: Vec<String>,
    /// Messages per protocol corpus.
    #[arg(long, default_value_t = 10_000)]
    messages: usize,
    /// Timed rounds per approach (the median is reported).
    #[arg(long, default_value_t = 11)]
    rounds: usize,
    /// Minimum duration of one timed sample, in milliseconds.
    #[arg(long, default_value_t = 25)]
    sample_ms: u64,
    /// Where the corpora are written as JSON lines.
    #[arg(long)]
    corpus_dir: Option<PathBuf>,
    /// Where the committed schemas are read from.
    #[arg(long)]
    schema_dir: Option<PathBuf>,
    /// Instruction-count mode: run only this approach, `--iters` times.
    #[arg(long)]
    count: Option<String>,
    /// Passes over the corpus in `--count` mode (0 measures the setup alone).
    #[arg(long, default_value_t = 1)]
    iters: usize,
    /// Time one message per size with that many violations (comma-separated sizes).
    #[arg(long, value_delimiter = ',')]
    violations: Vec<usize>,
    /// The CLI end to end: a stream of at least this many MiB (the corpus repeated),
    /// validated as a child process by `symgen validate --schema` (the schema as a
    /// user's) and by `cargo xtask validate -p` (the protocol's Rust types), by the same
    /// paths in process (`stream::validate_reader`), by the `jsonschema` and `boon` crates
    /// line by line, by node's `JSON.parse` + ajv (benches/node/ajv-stream.mjs), and by a
    /// `read_line` + `IgnoredAny` loop.
    #[arg(long, value_name = "MIB")]
    stream: Option<u64>,
    /// Print the approach keys, one a line, and exit.
    #[arg(long)]
    list_approaches: bool,
    /// Passed by `cargo bench`; ignored.
    #[arg(long, hide = true)]
    bench: bool,
}

fn main() {
    let args = Args::parse();
    if let Err(message) = run(&args) {
        eprintln!("validation bench: error: {message}");
        std::process::exit(2);
    }
}

fn run(args: &Args) -> Result<(), String> {
    if !args.violations.is_empty() {
        return many_violations(&args.violations);
    }
    if args.list_approaches {
        for approach in APPROACHES {
            println!("{}", approach.key);
        }
        for key in support::approaches::COUNT_ONLY {
            println!("{key}");
        }
        return Ok(());
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let schema_dir = args
        .schema_dir
        .clone()
        .unwrap_or_else(|| root.join("schema"));
    let ids: Vec<&str> = if args.protocol.is_empty() {
        corpus::PROTOCOLS.to_vec()
    } else {
        args.protocol.iter().map(String::as_str).collect()
    };
    let corpora = ids
        .iter()
        .map(|id| {
            corpus::generate(id, args.messages).ok_or_else(|| format!("unknown protocol {id:?}"))
        })
        .collect::<Result<Vec<Corpus>, String>>()?;

    if let Some(key) = &args.count {
        for corpus in &corpora {
            let mut pass = prepare(key, corpus, &schema_dir)?;
            // One unmeasured pass first, so lazy one-time work is not counted.
            pass();
            let accepted = measured_passes(&mut pass, args.iters);
            println!(
                "{} {key}: {} passes over {} messages, {accepted} accepted",
                corpus.protocol,
                args.iters,
                corpus.messages.len()
            );
        }
        return Ok(());
    }

    let corpus_dir = args.corpus_dir.clone().unwrap_or_else(corpus::default_dir);
    if let Some(mib) = args.stream {
        for corpus in &corpora {
            stream(corpus, mib, &corpus_dir, &schema_dir)?;
        }
        return Ok(());
    }
    for corpus in &corpora {
        let path = corpus
            .write_jsonl(&corpus_dir)
            .map_err(|e| format!("{}: {e}", corpus_dir.display()))?;
        println!(
            "corpus {}: {} messages, avg {} bytes -> {}",
            corpus.protocol,
            corpus.messages.len(),
            corpus.average_bytes(),
            path.display()
        );
    }
    println!();
    for corpus in &corpora {
        let rows = measure(corpus, &schema_dir, args)?;
        print_table(corpus, &rows);
    }
    Ok(())
}

/// The passes counted in `--count` mode. `benches/instructions.sh` tells callgrind to
/// collect only inside this function (`--toggle-collect=*measured_passes*`).
#[inline(never)]
fn measured_passes(pass: &mut support::approaches::Pass<'_>, iters: usize) -> usize {
    let mut accepted = 0;
    for _ in 0..iters {
        accepted += pass();
    }
    std::hint::black_box(accepted)
}

struct Row {
    key: &'static str,
    label: &'static str,
    /// Messages per second of each round.
    rates: Vec<f64>,
}

impl Row {
    fn median(&self) -> f64 {
        let mut sorted = self.rates.clone();
        sorted.sort_by(f64::total_cmp);
        sorted[sorted.len() / 2]
    }

    /// The fastest round: the closest to an unloaded machine.
    fn best(&self) -> f64 {
        self.rates.iter().copied().fold(0.0, f64::max)
    }

    /// (max - min) / median, as a fraction.
    fn spread(&self) -> f64 {
        let min = self.rates.iter().copied().fold(f64::INFINITY, f64::min);
        let max = self.rates.iter().copied().fold(0.0, f64::max);
        (max - min) / self.median()
    }
}

fn measure(corpus: &Corpus, schema_dir: &std::path::Path, args: &Args) -> Result<Vec<Row>, String> {
    let total = corpus.messages.len();
    let mut passes = Vec::new();
    for approach in APPROACHES {
        let mut pass = prepare(approach.key, corpus, schema_dir)?;
        // Warm-up pass, which also checks that the approach accepts the whole corpus:
        // timing a rejection path would measure something else.
        let accepted = pass();
        if accepted != total {
            return Err(format!(
                "{}: {} accepted {accepted} of {total} messages",
                corpus.protocol, approach.key
            ));
        }
        passes.push((approach, pass));
    }
    let mut rows: Vec<Row> = APPROACHES
        .iter()
        .map(|a| Row {
            key: a.key,
            label: a.label,
            rates: Vec::new(),
        })
        .collect();
    let min = Duration::from_millis(args.sample_ms);
    for round in 0..args.rounds.max(1) {
        // Rotate the order every round so that no approach always runs right after
        // the same neighbour (caches, frequency scaling, other load on the machine).
        for offset in 0..passes.len() {
            let index = (round + offset) % passes.len();
            let (_, pass) = &mut passes[index];
            let start = Instant::now();
            let mut runs = 0usize;
            while runs == 0 || start.elapsed() < min {
                std::hint::black_box(pass());
                runs += 1;
            }
            let seconds = start.elapsed().as_secs_f64();
            rows[index].rates.push((runs * total) as f64 / seconds);
        }
    }
    Ok(rows)
}

fn print_table(corpus: &Corpus, rows: &[Row]) {
    let base = rows[0].median();
    let jsonschema = rows
        .iter()
        .find(|r| r.key == JSONSCHEMA)
        .map_or(f64::NAN, Row::median);
    println!(
        "{} ({} messages, avg {} B): median of {} rounds; ratios of medians",
        corpus.protocol,
        corpus.messages.len(),
        corpus.average_bytes(),
        rows[0].rates.len()
    );
    println!(
        "  {:<38} {:>12} {:>8} {:>12} {:>8} {:>9} {:>13}",
        "approach", "msgs/s", "µs/msg", "best msgs/s", "spread", "vs parse", "vs jsonschema"
    );
    for row in rows {
        let rate = row.median();
        println!(
            "  {:<38} {:>12} {:>8.3} {:>12} {:>7.0}% {:>8.2}× {:>12.2}×",
            row.label,
            thousands(rate),
            1e6 / rate,
            thousands(row.best()),
            row.spread() * 100.0,
            rate / base,
            rate / jsonschema
        );
    }
    println!();
}

fn thousands(rate: f64) -> String {
    let digits = format!("{:.0}", rate);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `--violations`: one message with `n` faults per size, each approach timed (median of
/// 5 runs).
fn many_violations(sizes: &[usize]) -> Result<(), String> {
    use serde_json::json;
    let schema = json!({
        "type": "object",
        "properties": { "a": { "type": "array", "items": { "type": "integer" } } }
    });
    let validator = symgen::validate::Validator::from_schema(schema.clone(), Default::default())
        .map_err(|e| e.to_string())?;
    let engine = jsonschema::validator_for(&schema).map_err(|e| e.to_string())?;
    println!("violations   symgen report   jsonschema is_valid   jsonschema iter_errors");
    for &n in sizes {
        let text = serde_json::to_string(&json!({ "a": vec!["x"; n] })).expect("json");
        let value: serde_json::Value = serde_json::from_str(&text).expect("json");
        let time = |f: &mut dyn FnMut() -> usize| {
            let mut samples: Vec<Duration> = (0..5)
                .map(|_| {
                    let start = Instant::now();
                    std::hint::black_box(f());
                    start.elapsed()
                })
                .collect();
            samples.sort();
            samples[2]
        };
        let ours = time(&mut || validator.validate_str(&text).violations.len());
        let valid = time(&mut || usize::from(engine.is_valid(&value)));
        let all = time(&mut || engine.iter_errors(&value).count());
        println!(
            "{n:>10}   {:>10.2} ms   {:>16.2} ms   {:>17.2} ms",
            ours.as_secs_f64() * 1e3,
            valid.as_secs_f64() * 1e3,
            all.as_secs_f64() * 1e3
        );
    }
    Ok(())
}

/// Node's rows on the stream (benches/node/ajv-stream.mjs: `JSON.parse` alone, and
/// `JSON.parse` + ajv), each with its seconds; none, with a note, when the peers'
/// packages (`npm ci` in benches/node) are not there.
fn node_stream(schema: &Path, stream: &Path, lines: u64) -> Result<Vec<(String, f64)>, String> {
    if !support::node::dir().join("node_modules/ajv").is_dir() {
        println!("  (no ajv row: run `npm ci` in benches/node)");
        return Ok(Vec::new());
    }
    let stdout = support::node::run(
        support::node::script("ajv-stream.mjs")
            .arg(schema)
            .arg(stream),
    )?;
    let mut rows = Vec::new();
    for line in stdout.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [label, seconds, seen] = fields[..] else {
            return Err(format!("unexpected ajv-stream.mjs output: {line}"));
        };
        if seen.parse::<u64>() != Ok(lines) {
            return Err(format!("ajv-stream.mjs read {seen} of {lines} lines"));
        }
        let seconds = seconds
            .parse()
            .map_err(|_| format!("bad seconds: {line}"))?;
        rows.push((format!("node {label}"), seconds));
    }
    Ok(rows)
}

/// `--stream`: the CLI against the same validation in process, against the `jsonschema`
/// and `boon` crates and node + ajv line by line, and against the floor, on one stream file. The CLI's
/// time and peak memory come from `/usr/bin/time`.
fn stream(corpus: &Corpus, mib: u64, dir: &Path, schema_dir: &Path) -> Result<(), String> {
    use std::io::{BufRead, BufReader, BufWriter, Write};
    let err = |e: std::io::Error| e.to_string();
    std::fs::create_dir_all(dir).map_err(err)?;
    let path = dir.join(format!("{}-stream.jsonl", corpus.protocol));
    let mut out = BufWriter::new(std::fs::File::create(&path).map_err(err)?);
    let (mut bytes, mut lines) = (0u64, 0u64);
    while bytes < mib << 20 {
        for message in &corpus.messages {
            out.write_all(message.text.as_bytes()).map_err(err)?;
            out.write_all(b"\n").map_err(err)?;
            bytes += message.text.len() as u64 + 1;
            lines += 1;
        }
    }
    out.flush().map_err(err)?;
    drop(out);
    let schema = schema_dir.join(format!("{}.schema.json", corpus.protocol));
    let reader = || -> Result<BufReader<std::fs::File>, String> {
        Ok(BufReader::with_capacity(
            1 << 16,
            std::fs::File::open(&path).map_err(err)?,
        ))
    };

    // Seconds to read every line and judge it with `accept`, which must accept all.
    let per_line = |name: &str, accept: &dyn Fn(&str) -> bool| -> Result<f64, String> {
        let start = Instant::now();
        let mut input = reader()?;
        let mut line = String::new();
        let mut seen = 0u64;
        while input.read_line(&mut line).map_err(err)? > 0 {
            if accept(line.trim_end_matches('\n')) {
                seen += 1;
            }
            line.clear();
        }
        let seconds = start.elapsed().as_secs_f64();
        if seen != lines {
            return Err(format!("{name}: {seen} of {lines} lines accepted"));
        }
        Ok(seconds)
    };

    // The floor: lines read and checked for syntax, nothing else.
    let floor = per_line("floor", &|text| {
        serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
    })?;

    // The peers, line by line: parse to a `Value`, then validate.
    let engine = support::approaches::jsonschema_validator(corpus.protocol, schema_dir)?;
    let jsonschema = per_line("jsonschema", &|text| {
        serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| engine.is_valid(&v))
    })?;
    let (schemas, index) = support::approaches::boon_validator(corpus.protocol, schema_dir)?;
    let boon = per_line("boon", &|text| {
        serde_json::from_str::<serde_json::Value>(text)
            .is_ok_and(|v| schemas.validate(&v, index).is_ok())
    })?;

    // In process: what the CLI runs, without the CLI (every line must be valid).
    let in_process_run = |check: &dyn symgen::validate::stream::Check| -> Result<f64, String> {
        let start = Instant::now();
        let summary = symgen::validate::stream::validate_reader(
            check,
            reader()?,
            &symgen::validate::StreamOptions::default(),
            |_| {},
        )
        .map_err(err)?;
        let seconds = start.elapsed().as_secs_f64();
        assert_eq!(summary.totals.valid, lines, "every line is valid");
        Ok(seconds)
    };
    let validator =
        symgen::validate::Validator::from_schema_file(&schema).map_err(|e| e.to_string())?;
    let in_process = in_process_run(&validator)?;

    // The CLI, as a child process.
    let mut schema_cli = std::process::Command::new(env!("CARGO_BIN_EXE_symgen"));
    schema_cli
        .args(["validate", "--schema"])
        .arg(&schema)
        .arg(&path);
    let (wall, rss_kb) = timed(schema_cli)?;

    // The typed path: the protocol's Rust types, in process and through the repository's
    // own CLI (`cargo xtask`, the protocols registered as a team's own binary has them).
    let protocol = symgen_protocols::find(corpus.protocol).ok_or("unknown protocol")?;
    let typed = symgen::validate::Validator::for_protocol(&protocol).map_err(|e| e.to_string())?;
    let typed_in_process = in_process_run(&typed)?;
    let mut typed_cli = std::process::Command::new(xtask_binary()?);
    typed_cli
        .args(["validate", "-p", corpus.protocol])
        .arg(&path);
    let (typed_wall, typed_rss_kb) = timed(typed_cli)?;
    let node = node_stream(&schema, &path, lines)?;
    let mb = bytes as f64 / (1 << 20) as f64;
    println!(
        "{} stream: {:.0} MiB, {lines} messages",
        corpus.protocol, mb
    );
    let mut rows = vec![
        ("read_line + IgnoredAny (floor)".to_owned(), floor),
        ("read_line + Value + jsonschema".to_owned(), jsonschema),
        ("read_line + Value + boon".to_owned(), boon),
    ];
    rows.extend(node);
    rows.extend([
        (
            "schema: in process (stream::validate_reader)".to_owned(),
            in_process,
        ),
        ("schema: CLI `symgen validate --schema`".to_owned(), wall),
        (
            "typed: in process (stream::validate_reader)".to_owned(),
            typed_in_process,
        ),
        (
            "typed: CLI `cargo xtask validate -p`".to_owned(),
            typed_wall,
        ),
    ]);
    for (name, seconds) in rows {
        println!(
            "  {name:<40} {:>8.2} s {:>8.0} MiB/s {:>10.0} msgs/s {:>6.2}x floor",
            seconds,
            mb / seconds,
            lines as f64 / seconds,
            seconds / floor
        );
    }
    println!(
        "  CLI / in process: schema {:.2}x, typed {:.2}x; CLI peak RSS: schema {:.1} MiB, typed {:.1} MiB",
        wall / in_process,
        typed_wall / typed_in_process,
        rss_kb / 1024.0,
        typed_rss_kb / 1024.0
    );
    Ok(())
}

/// Runs `command` under `/usr/bin/time`: its wall-clock seconds and peak RSS in KiB. It
/// must succeed (every line of the stream is valid).
fn timed(command: std::process::Command) -> Result<(f64, f64), String> {
    let program = command.get_program().to_string_lossy().into_owned();
    let mut time = std::process::Command::new("/usr/bin/time");
    time.args(["-f", "%e %U %S %M"])
        .arg(command.get_program())
        .args(command.get_args());
    let output = time.output().map_err(|e| format!("/usr/bin/time: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "{program} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let fields: Vec<f64> = stderr
        .lines()
        .last()
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    let [wall, _user, _sys, rss_kb] = fields[..] else {
        return Err(format!("unexpected /usr/bin/time output: {stderr}"));
    };
    Ok((wall, rss_kb))
}

/// The repository's own CLI with the built-in protocols registered (`cargo xtask`,
/// xtask/src/main.rs), built next to this benchmark's profile if it is not there yet.
fn xtask_binary() -> Result<std::path::PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = std::process::Command::new(cargo)
        .args(["build", "--release", "--quiet", "--package", "xtask"])
        .status()
        .map_err(|e| format!("cargo build --package xtask: {e}"))?;
    if !status.success() {
        return Err("cargo build --package xtask failed".to_owned());
    }
    // This binary is <target>/release/deps/validation-<hash>.
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let release = exe
        .parent()
        .and_then(Path::parent)
        .ok_or("no target directory")?;
    Ok(release.join(format!("xtask{}", std::env::consts::EXE_SUFFIX)))
}
