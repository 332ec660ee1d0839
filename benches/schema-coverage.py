#!/usr/bin/env python3
"""Coverage of a whole directory of real-world schemas (e.g. SchemaStore's
`src/schemas/json/`): how many `symgen ts`, `symgen swift` and `symgen py` generate, how
many of the TypeScript outputs compile under tsc's strict flags, and, with `--peers`,
the same for json-schema-to-typescript and quicktype on the same files in the same run.
Not part of the test suite (it takes minutes); docs/schemas.md records a run.

Usage (repository root, after `cargo build` and `scripts/test.sh ts` once, which
installs tsc; `--peers` also needs `(cd benches/node && npm ci)`; `SYMGEN=PATH` runs
another symgen binary):
  benches/schema-coverage.py DIR [--peers] [--jobs N] [--report FILE]

Every schema is generated on its own (its siblings in DIR may be `$ref`ed). The report
lists symgen's failures by cause.
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYMGEN = Path(os.environ.get("SYMGEN", ROOT / "target/debug/symgen"))
TSC = ROOT / "tests/typescript/node_modules/.bin/tsc"
LANGUAGES = {"ts": "typescript", "swift": "swift", "py": "python"}
STRICT = {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": True,
    "exactOptionalPropertyTypes": True,
    "noUncheckedIndexedAccess": True,
    "noEmit": True,
    "types": [],
    "skipLibCheck": False,
}


def generate(schema: Path, command: str, work: Path) -> tuple[bool, str, Path]:
    out = work / command / schema.stem
    out.mkdir(parents=True)
    config = work / f"{command}.toml"
    try:
        result = subprocess.run(
            [str(SYMGEN), "--config", str(config), command, "--schema", str(schema), "--out", str(out)],
            capture_output=True, text=True, timeout=120,
        )
    except subprocess.TimeoutExpired:
        return False, "timed out", out
    errors = [l for l in result.stderr.splitlines() if l.startswith("symgen: error: ")]
    return result.returncode == 0, errors[-1] if errors else "", out


def cause(message: str) -> str:
    """A failure message without its file, pointer and names: its cause."""
    text = re.sub(r"^symgen: error: [^:]*:[^:]*: ", "", message)
    text = re.sub(r'"[^"]*"', '"…"', text)
    return re.sub(r"`[^`]*`", "`…`", text)[:120]


def compile_all(label: str, files: dict[str, list[Path]], work: Path) -> set[str]:
    """Type-checks every schema's files in one tsc run; the schemas that fail."""
    config = work / f"{label}.tsconfig.json"
    include = [str(f) for group in files.values() for f in group]
    config.write_text(json.dumps({"compilerOptions": STRICT, "files": include}))
    result = subprocess.run([str(TSC), "-p", str(config)], capture_output=True, text=True)
    failed = set()
    owner = {str(f.resolve()): stem for stem, group in files.items() for f in group}
    for line in result.stdout.splitlines():
        match = re.match(r"(.+?)\(\d+,\d+\): error", line)
        if match:
            path = str((work / match.group(1)).resolve()) if not match.group(1).startswith("/") else match.group(1)
            for candidate, stem in owner.items():
                if path == candidate or path.startswith(os.path.dirname(candidate) + "/"):
                    failed.add(stem)
                    break
    return failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--peers", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--report", type=Path)
    args = parser.parse_args()
    schemas = sorted(p for p in args.dir.glob("*.json") if p.is_file())
    work = Path(tempfile.mkdtemp(prefix="symgen-coverage-"))
    for command, language in LANGUAGES.items():
        (work / f"{command}.toml").write_text(f'languages = ["{language}"]\n')

    results: dict[str, dict[str, tuple[bool, str, Path]]] = collections.defaultdict(dict)
    with ThreadPoolExecutor(args.jobs) as pool:
        for command in LANGUAGES:
            for schema, outcome in zip(schemas, pool.map(lambda s: generate(s, command, work), schemas)):
                results[command][schema.stem] = outcome

    ts_files = {
        stem: sorted(out.glob("*.d.ts"))
        for stem, (ok, _, out) in results["ts"].items()
        if ok
    }
    ts_failed = compile_all("symgen", ts_files, work)
    rows = [("symgen ts", sum(ok for ok, _, _ in results["ts"].values()), len(ts_files) - len(ts_failed))]

    if args.peers:
        peers = work / "peers"
        runs = subprocess.run(
            ["node", str(ROOT / "benches/node/coverage-peers.mjs"), "--out", str(peers), *map(str, schemas)],
            capture_output=True, text=True,
        )
        made: dict[str, dict[str, Path]] = collections.defaultdict(dict)
        for line in runs.stdout.splitlines():
            entry = json.loads(line)
            if entry["ok"]:
                made[entry["tool"]][entry["schema"]] = peers / entry["tool"] / f"{entry['schema']}.ts"
        for tool in ("json-schema-to-typescript", "quicktype"):
            files = {stem: [path] for stem, path in made[tool].items()}
            failed = compile_all(tool, files, work)
            rows.append((tool, len(files), len(files) - len(failed)))

    total = len(schemas)
    lines = [f"{total} schemas in {args.dir}", "", "| generator | generates | compiles (tsc strict) |", "|---|---:|---:|"]
    for name, generated, compiled in rows:
        lines.append(f"| {name} | {generated} ({generated / total:.1%}) | {compiled} ({compiled / total:.1%}) |")
    for command in ("swift", "py"):
        generated = sum(ok for ok, _, _ in results[command].values())
        lines.append(f"| symgen {command} | {generated} ({generated / total:.1%}) | |")
    lines += ["", "symgen's failures by cause (first error; ts / swift / py):", ""]
    causes: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    for i, command in enumerate(LANGUAGES):
        for ok, message, _ in results[command].values():
            if not ok:
                causes[cause(message)][i] += 1
    for text, counts in sorted(causes.items(), key=lambda kv: -sum(kv[1])):
        lines.append(f"- {counts[0]} / {counts[1]} / {counts[2]}: {text}")
    if ts_failed:
        lines += ["", f"generated but not compiling (ts): {', '.join(sorted(ts_failed))}"]
    report = "\n".join(lines) + "\n"
    print(report)
    if args.report:
        args.report.write_text(report)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
