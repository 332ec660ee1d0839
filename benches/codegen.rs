//! TypeScript generation benchmark (issue 3).
//!
//! `cargo bench --bench codegen` writes a deterministic synthetic schema with thousands of
//! types next to our five committed schemas, times `symgen ts` on each (in process,
//! through the library, median of several runs), then runs json-schema-to-typescript and
//! quicktype on the same files in node (`benches/node/codegen.mjs`, packages from
//! `benches/node/package-lock.json`, installed with `npm ci`) and prints one table with
//! the peers' times as ratios of symgen's.

mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::Value;

use support::synthetic_schema::synthetic_schema;

#[derive(Parser)]
#[command(about = "symgen TypeScript generation benchmark")]
struct Args {
    /// Named types in the synthetic schema.
    #[arg(long, default_value_t = 2_400)]
    types: usize,
    /// Minimum measuring time per tool and schema, in milliseconds.
    #[arg(long, default_value_t = 2_000)]
    min_ms: u64,
    /// Minimum timed runs per tool and schema.
    #[arg(long, default_value_t = 3)]
    min_runs: usize,
    /// Maximum timed runs per tool and schema.
    #[arg(long, default_value_t = 30)]
    max_runs: usize,
    /// Skip the node peers (symgen alone).
    #[arg(long)]
    no_peers: bool,
    /// Only write the synthetic schema to this file and exit.
    #[arg(long)]
    write_schema: Option<PathBuf>,
    /// Instead of the table: time every backend (TypeScript, Swift, Python) on synthetic
    /// schemas of these sizes (named types, comma-separated), to show that generation
    /// time grows linearly with the number of types.
    #[arg(long, value_delimiter = ',', value_name = "TYPES")]
    scaling: Vec<usize>,
    /// Passed by `cargo bench`; ignored.
    #[arg(long, hide = true)]
    bench: bool,
}

const SEED: u64 = 0x5EED_0003;

fn main() {
    let args = Args::parse();
    if let Err(message) = run(&args) {
        eprintln!("codegen bench: error: {message}");
        std::process::exit(2);
    }
}

fn run(args: &Args) -> Result<(), String> {
    if !args.scaling.is_empty() {
        return scaling(&args.scaling, args);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let schema = synthetic_schema(args.types, SEED);
    let text = serde_json::to_string_pretty(&schema).map_err(|e| e.to_string())?;
    if let Some(path) = &args.write_schema {
        return std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()));
    }
    let out = root.join("target/bench-codegen");
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let synthetic = out.join("synthetic.schema.json");
    std::fs::write(&synthetic, &text).map_err(|e| format!("{}: {e}", synthetic.display()))?;

    let mut schemas: Vec<PathBuf> = support::corpus::PROTOCOLS
        .iter()
        .map(|id| root.join("schema").join(format!("{id}.schema.json")))
        .collect();
    schemas.push(synthetic.clone());
    println!(
        "synthetic schema: {} named types, {} bytes -> {}",
        args.types,
        text.len(),
        synthetic.display()
    );

    let mut rows = Vec::new();
    for path in &schemas {
        rows.push(time_symgen(path, args)?);
    }
    if !args.no_peers {
        rows.extend(run_peers(&schemas, &out.join("peers"), args)?);
    }
    print_table(&schemas, &rows);
    Ok(())
}

struct Row {
    schema: String,
    tool: String,
    /// Median milliseconds, or the failure.
    result: Result<(f64, usize, usize), String>,
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn time_symgen(path: &Path, args: &Args) -> Result<Row, String> {
    let mut samples = Vec::new();
    let mut bytes = 0;
    let deadline = Instant::now() + Duration::from_millis(args.min_ms);
    let generate = symgen_generator(path);
    let result = match generate() {
        Err(error) => Err(error),
        Ok(_) => {
            while samples.len() < args.min_runs.max(1)
                || (samples.len() < args.max_runs && Instant::now() < deadline)
            {
                let start = Instant::now();
                let output = generate()?;
                samples.push(start.elapsed().as_secs_f64() * 1e3);
                bytes = std::hint::black_box(output);
            }
            samples.sort_by(f64::total_cmp);
            Ok((samples[samples.len() / 2], samples.len(), bytes))
        }
    };
    Ok(Row {
        schema: file_name(path),
        tool: "symgen ts".into(),
        result,
    })
}

/// `symgen ts` on one schema file, in process, from the schema text to the rendered
/// files (parse, schema model, TypeScript): returns the bytes of TypeScript produced.
/// Like the node peers, reading and writing files is not timed.
fn symgen_generator(path: &Path) -> impl Fn() -> Result<usize, String> + '_ {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()));
    move || {
        let text = text.clone()?;
        let modules = symgen::emit::modules_from_texts(&[(path.display().to_string(), text)])
            .map_err(|e| e.to_string())?;
        let files = symgen::emit::typescript::render_package(&modules, &Default::default())
            .map_err(|e| e.to_string())?;
        Ok(files.iter().map(|f| f.contents.len()).sum())
    }
}

fn run_peers(schemas: &[PathBuf], out: &Path, args: &Args) -> Result<Vec<Row>, String> {
    let node_dir = support::node::dir();
    if !node_dir.join("node_modules").is_dir() {
        return Err(format!(
            "{}: node packages missing; run `npm ci` there first",
            node_dir.display()
        ));
    }
    let stdout = support::node::run(
        support::node::script("codegen.mjs")
            .arg("--min-ms")
            .arg(args.min_ms.to_string())
            .arg("--min-runs")
            .arg(args.min_runs.to_string())
            .arg("--max-runs")
            .arg(args.max_runs.to_string())
            .arg("--out")
            .arg(out)
            .args(schemas),
    )?;
    let mut rows = Vec::new();
    for line in stdout.lines() {
        let record: Value = serde_json::from_str(line).map_err(|e| format!("{line}: {e}"))?;
        let text = |key: &str| record[key].as_str().unwrap_or_default().to_string();
        let result = if record["ok"] == true {
            Ok((
                record["ms_median"].as_f64().unwrap_or(f64::NAN),
                record["runs"].as_u64().unwrap_or(0) as usize,
                record["bytes"].as_u64().unwrap_or(0) as usize,
            ))
        } else {
            Err(text("error"))
        };
        rows.push(Row {
            schema: text("schema"),
            tool: text("tool"),
            result,
        });
    }
    Ok(rows)
}

fn print_table(schemas: &[PathBuf], rows: &[Row]) {
    print_rows(schemas, rows);
    // The five committed schemas together (the synthetic one is the last path).
    let ours: Vec<String> = schemas[..schemas.len() - 1]
        .iter()
        .map(|p| file_name(p))
        .collect();
    let mut tools: Vec<&str> = Vec::new();
    for row in rows {
        if !tools.contains(&row.tool.as_str()) {
            tools.push(&row.tool);
        }
    }
    let totals: Vec<Row> = tools
        .iter()
        .map(|tool| {
            let mine = rows
                .iter()
                .filter(|r| r.tool == *tool && ours.contains(&r.schema));
            let result = mine.map(|r| r.result.clone()).try_fold(
                (0.0, 0, 0),
                |(ms, runs, bytes), result| {
                    let (m, r, b) = result?;
                    Ok::<_, String>((ms + m, runs.max(r), bytes + b))
                },
            );
            Row {
                schema: "all five protocol schemas".into(),
                tool: tool.to_string(),
                result,
            }
        })
        .collect();
    print_group("all five protocol schemas", &totals);
}

fn print_rows(schemas: &[PathBuf], rows: &[Row]) {
    println!(
        "\n{:<30} {:<36} {:>11} {:>5} {:>9} {:>10}",
        "schema", "tool", "median ms", "runs", "bytes", "vs symgen"
    );
    for path in schemas {
        print_group(&file_name(path), rows);
    }
}

fn print_group(schema: &str, rows: &[Row]) {
    let symgen = rows
        .iter()
        .find(|r| r.schema == schema && r.tool == "symgen ts")
        .and_then(|r| r.result.as_ref().ok())
        .map(|(ms, _, _)| *ms);
    for row in rows.iter().filter(|r| r.schema == schema) {
        match &row.result {
            Ok((ms, runs, bytes)) => {
                let ratio = symgen.map_or("-".to_string(), |base| format!("{:.1}×", ms / base));
                println!(
                    "{:<30} {:<36} {:>11.3} {:>5} {:>9} {:>10}",
                    row.schema, row.tool, ms, runs, bytes, ratio
                );
            }
            Err(error) => println!("{:<30} {:<36} failed: {error}", row.schema, row.tool),
        }
    }
}

/// Per backend and size: the median time to render the package from the parsed schema
/// (the model is built once per size and timed apart), and the time per type, which
/// stays flat when generation is linear.
fn scaling(sizes: &[usize], args: &Args) -> Result<(), String> {
    println!("| types | model | backend | render (median) | per type |");
    println!("|---:|---:|---|---:|---:|");
    for &size in sizes {
        let text =
            serde_json::to_string(&synthetic_schema(size, SEED)).map_err(|e| e.to_string())?;
        let start = Instant::now();
        let modules = symgen::emit::modules_from_texts(&[("synthetic.schema.json".into(), text)])
            .map_err(|e| e.to_string())?;
        let model_ms = start.elapsed().as_secs_f64() * 1e3;
        let options = toml::Table::new();
        for backend in symgen::emit::backends() {
            let input = symgen::emit::Input {
                modules: &modules,
                options: &options,
                vectors: None,
            };
            let mut samples = Vec::new();
            let deadline = Instant::now() + Duration::from_millis(args.min_ms);
            while samples.len() < args.min_runs.max(1)
                || (samples.len() < args.max_runs && Instant::now() < deadline)
            {
                let start = Instant::now();
                let files = backend.render(&input).map_err(|e| e.to_string())?;
                samples.push(start.elapsed().as_secs_f64() * 1e3);
                std::hint::black_box(files);
            }
            samples.sort_by(f64::total_cmp);
            let median = samples[samples.len() / 2];
            println!(
                "| {size} | {model_ms:.0} ms | {} | {median:.0} ms | {:.1} µs |",
                backend.name(),
                median * 1e3 / size as f64
            );
        }
    }
    Ok(())
}
