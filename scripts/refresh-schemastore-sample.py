#!/usr/bin/env python3
"""Rebuilds tests/fixtures/schemastore/: a sample of the SchemaStore catalog, chosen by a
fixed seed, as a symgen project whose generated conformance vectors every language's
suite runs (scripts/test-*.sh; docs/vectors.md).

Usage (from the repository root, after `cargo build`):
  scripts/refresh-schemastore-sample.py SCHEMASTORE_GIT [COUNT] [--out DIR] [--max-bytes N]

SCHEMASTORE_GIT is a git checkout (or mirror) of SchemaStore/schemastore; files are read
from its HEAD commit, which README.md records. The catalog's schemas of at most
--max-bytes (default MAX_BYTES; 0 for any size) that the real-world corpus does not
already hold are shuffled with SEED; the first COUNT (default 200; `all` for every one)
that symgen reads on their own (with the catalog files their `$ref`s name) are kept, in
--out (default tests/fixtures/schemastore; scripts/whole-catalog.sh builds the whole
catalog elsewhere). No instance is copied: the vectors are generated.
"""

import argparse
import importlib.util
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests/fixtures/schemastore"
SYMGEN = ROOT / "target/debug/symgen"
SEED = 20261127
MAX_BYTES = 48 * 1024

# The catalog helpers of the real-world corpus's script (git reads, `$ref` targets,
# registry hosts written as example hosts).
_spec = importlib.util.spec_from_file_location(
    "refresh_real_corpus", ROOT / "scripts/refresh-real-corpus.py"
)
real = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(real)


def readable(schemas: Path, name: str) -> str | None:
    """None when symgen reads the schema with the catalog files its `$ref`s name, each
    also as a module of its own (as the project reads every file of its schema folder),
    else the last line of its error."""
    with tempfile.TemporaryDirectory() as scratch:
        # The output directory is not the project's own (symgen refuses to write there).
        config, out = Path(scratch) / "symgen.toml", Path(scratch) / "out"
        config.write_text('languages = ["python"]\n')
        out.mkdir()
        result = subprocess.run(
            [str(SYMGEN), "--config", str(config), "py", "--schema", str(schemas), "--out", str(out)],
            capture_output=True,
            text=True,
        )
    if result.returncode == 0:
        return None
    lines = result.stderr.strip().replace(f"{schemas}/", "").splitlines()
    return lines[-1] if lines else f"exit {result.returncode}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("catalog", type=Path)
    parser.add_argument("count", nargs="?", default="200")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--max-bytes", type=int, default=MAX_BYTES)
    args = parser.parse_args()
    catalog, out, max_bytes = args.catalog, args.out.resolve(), args.max_bytes
    count = None if args.count == "all" else int(args.count)
    taken = {p.name for p in (ROOT / "tests/fixtures/real/schemas").glob("*.json")}
    sizes = {}
    for line in real.git(catalog, "ls-tree", "-r", "-l", "HEAD", "src/schemas/json/").splitlines():
        meta, path = line.split("\t", 1)
        name = Path(path).name
        size = meta.split()[3]
        # A blob the checkout lacks (the largest files of a snapshot) has no size.
        if name.endswith(".json") and name not in taken and size.isdigit():
            sizes[name] = int(size)
    candidates = sorted(n for n, size in sizes.items() if max_bytes == 0 or size <= max_bytes)
    random.Random(SEED).shuffle(candidates)

    schemas = out / "schemas"
    for old in schemas.glob("*.json"):
        old.unlink()
    schemas.mkdir(parents=True, exist_ok=True)
    kept: list[str] = []
    left_out: list[tuple[str, str]] = []
    for name in candidates:
        if len(kept) == count:
            break
        # The schema and the catalog files its `$ref`s reach, in a scratch folder first.
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch)
            pending, copied = [name], set()
            while pending:
                file = pending.pop()
                file = file if file.endswith(".json") else f"{file}.json"
                if file in copied:
                    continue
                try:
                    text = real.show(catalog, f"src/schemas/json/{file}")
                except subprocess.CalledProcessError:
                    continue
                copied.add(file)
                (folder / file).write_text(real.scrub(text))
                pending.extend(sorted(real.relative_refs(json.loads(text))))
            why = readable(folder, name)
            if why is not None:
                left_out.append((name, why))
                continue
            for file in copied:
                (schemas / file).write_text((folder / file).read_text())
            kept.append(name)
    commit = real.git(catalog, "rev-parse", "HEAD").strip()
    date = real.git(catalog, "log", "-1", "--format=%cs", "HEAD").strip()
    (out / "LICENSE").write_text(real.show(catalog, "LICENSE"))
    (out / "symgen.toml").write_text(
        "# A sample of the SchemaStore catalog as a symgen project: schemas symgen did not\n"
        "# write (schemas/*.json, each a module, with the catalog files they `$ref`). The\n"
        "# vectors are generated (`symgen generate`); scripts/test-*.sh copy this folder to a\n"
        "# scratch directory and run each language's vector suite over it.\n"
        'languages = ["typescript", "swift", "python", "rust"]\n\n'
        '[schema]\ndir = "schemas"\n\n'
        '[vectors]\ndir = "vectors"\nmax-per-root = 60\n\n'
        '[typescript]\ndir = "generated/typescript"\npackage = "schemastore-sample"\n\n'
        '[swift]\ndir = "generated/swift"\npackage = "SchemaStoreSample"\nmodule-prefix = "Store"\n\n'
        '[python]\ndir = "generated/python"\npackage = "schemastore-sample"\n\n'
        '[rust]\ndir = "generated/rust"\npackage = "schemastore-sample"\n'
    )
    size_rule = f"of at most {max_bytes // 1024} KiB " if max_bytes else ""
    taken = "every one" if count is None else f"the first {count}"
    listing = "\n".join(f"* `{n}`" for n in sorted(kept))
    skipped = "\n".join(f"* `{n}`: {why}" for n, why in sorted(left_out))
    (out / "README.md").write_text(
        f"""# SchemaStore sample

{len(kept)} schemas of the SchemaStore catalog, chosen by a fixed seed, as a symgen project
(`symgen.toml`) whose conformance vectors are generated, never hand-written: every
language's suite (scripts/test-*.sh) generates its package and the vectors here and
holds each language to the validator's verdict on every vector (docs/vectors.md).

Rebuilt by `scripts/refresh-schemastore-sample.py` from SchemaStore/schemastore at
{commit} ({date}), under the catalog's licence (Apache License 2.0, `LICENSE`):
the catalog's schemas {size_rule}that the real-world corpus
(tests/fixtures/real) does not hold, shuffled with seed {SEED}; {taken} that
symgen reads on their own are kept, with the catalog files their `$ref`s name. Package
registry host names in the catalog's text are written as `*.example` hosts
(`crates-io.example`), since the project names no registry host.

## Kept

{listing}

## Left out on the way (symgen cannot read them on their own)

{skipped or "none"}
"""
    )
    print(f"kept {len(kept)} schemas, left out {len(left_out)}", file=sys.stderr)


if __name__ == "__main__":
    main()
