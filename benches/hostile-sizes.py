#!/usr/bin/env python3
"""Time against size for hostile schema shapes (issue 43, item 4), with the exponent of
a power law fitted to the times (1 is linear, 2 quadratic):

  chain         `$defs` that are n aliases in a row (`A0 -> A1 -> ... -> An`, the last
                an object): every generator, and `validate --schema` on a valid message;
  alternatives  a `oneOf` of n closed objects, each requiring its own key:
                `validate --schema` on a message none takes (the rejection explained);
  key           a map of integer arrays, and a message whose one key is n bytes long
                and holds 100 strings: `validate --schema`, 100 violations whose
                pointers each copy the key (the report is capped, and past 64 MiB of
                pointers the rejection is not explained value by value);
  files         n schema files committed to a git repository: `breaking --against
                HEAD` (every old file read from git);
  pattern       a `pattern` of n optional groups holding a backreference (ECMA-262, read
                by the backtracking engine): `validate --schema` on a string;
  subroutine    a `pattern` of n nested optional groups, each calling the next twice with
                `\\g<k>` (an Oniguruma subroutine call, not ECMA-262, which the backtracking
                engine inlined: 2^n copies): `validate --schema`, which refuses the schema
                (exit 2).

Usage (from the repository root):
  benches/hostile-sizes.py [--shape chain|alternatives|key|files|pattern|subroutine]
                           [--bin target/release/symgen]
                           [--sizes 2000,4000,8000,16000]
                           [--commands ts,py,swift,docs,rust,validate] [--timeout 300]

Prints one row per command: seconds (and peak memory, measured by GNU time where
/usr/bin/time is) per size and the fitted exponent of the times. A command that
runs past the timeout is reported as such and its exponent from the sizes it finished.
Wall clock: run it on a quiet machine, and compare rows of one run.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Measures a command's peak memory (resident set); the column is left out without it.
GNU_TIME = "/usr/bin/time"


def chain(n: int) -> dict:
    defs = {f"A{i}": {"$ref": f"#/$defs/A{i + 1}"} for i in range(n)}
    defs[f"A{n}"] = {"type": "object", "properties": {"x": {"type": "string"}}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Root",
        "$ref": "#/$defs/A0",
        "$defs": defs,
    }


def alternatives(n: int) -> dict:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Root",
        "oneOf": [
            {
                "type": "object",
                "properties": {f"k{i}": {"type": "integer"}},
                "required": [f"k{i}"],
                "additionalProperties": False,
            }
            for i in range(n)
        ],
    }


def key_map(_: int) -> dict:
    return {"additionalProperties": {"type": "array", "items": {"type": "integer"}}}


def long_key(n: int) -> str:
    return json.dumps({"k" * n: ["a"] * 100})


def one_file(i: int) -> dict:
    return {"title": f"T{i}", "type": "object", "properties": {"x": {"type": "string"}}}


def backreferences(n: int) -> dict:
    """`^(x)\\1` and n optional groups in a row, each with a backreference."""
    return {"type": "string", "pattern": "^(x)\\1" + "(?:a(b)?\\1)?" * n + "$"}


def subroutines(n: int) -> dict:
    """`^(x)\\1` and n nested optional groups, group k calling group k + 1 twice."""
    body = "(ab)?"
    for group in range(n + 1, 1, -1):
        body = f"(a{body}\\g<{group + 1}>\\g<{group + 1}>)?"
    return {"type": "string", "pattern": f"^(x)\\1{body}$"}


# shape: (schema of size n, the message of size n: valid for `chain`, rejected else)
SHAPES = {
    "chain": (chain, lambda _: '{"x":"a"}'),
    "alternatives": (alternatives, lambda _: '{"zzz":"x"}'),
    "key": (key_map, long_key),
    "files": (None, None),
    "pattern": (backreferences, lambda _: '"xx"'),
    "subroutine": (subroutines, lambda _: '"xx"'),
}
# Shapes whose schema `validate` refuses (exit 2, "unusable schema"): the cost measured
# is the refusal's.
REFUSED = {"subroutine"}
DEFAULT_COMMANDS = {
    "chain": "ts,py,swift,docs,rust,validate",
    "alternatives": "validate",
    "key": "validate",
    "files": "breaking",
    "pattern": "validate",
    "subroutine": "validate",
}


def repository(n: int, work: Path) -> Path:
    """A git repository of n schema files in `schema/`, committed."""
    repo = work / f"repo{n}"
    (repo / "schema").mkdir(parents=True)
    for i in range(n):
        (repo / "schema" / f"s{i}.json").write_text(json.dumps(one_file(i)))
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "schemas"]):
        subprocess.run(git + args, cwd=repo, check=True)
    return repo


def run(
    binary: str,
    command: str,
    schema: Path,
    message: str,
    work: Path,
    timeout: float,
    refused: bool = False,
) -> tuple[float, int | None] | None:
    """Seconds and peak memory in MB (from GNU time, where the machine has it)."""
    out = work / "out"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    cwd = None
    if command == "validate":
        file = work / "message.json"
        file.write_text(message + "\n")
        args = [binary, "validate", "--schema", str(schema), str(file)]
    elif command == "breaking":
        cwd = schema
        args = [binary, "breaking", "--against", "HEAD", "--schema", "schema"]
    else:
        args = [binary, command, "--schema", str(schema), "--out", str(out)]
    rss = work / "rss"
    rss.unlink(missing_ok=True)
    if Path(GNU_TIME).exists():
        args = [GNU_TIME, "-f", "%M", "-o", str(rss), *args]
    started = time.perf_counter()
    try:
        done = subprocess.run(
            args, capture_output=True, timeout=timeout, check=False, cwd=cwd
        )
    except subprocess.TimeoutExpired:
        return None
    elapsed = time.perf_counter() - started
    if refused:
        if done.returncode != 2 or b"unusable schema" not in done.stderr:
            raise SystemExit(f"{' '.join(args)} did not refuse the schema: {done.returncode}")
    # `validate` exits 1 for the rejected message, as it should.
    elif done.returncode not in (0, 1) or (done.returncode == 1 and command != "validate"):
        raise SystemExit(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()}")
    memory = None
    if rss.exists():
        memory = int(rss.read_text().split()[-1]) // 1024
    return elapsed, memory


def exponent(points: list[tuple[int, float]]) -> float | None:
    """Least-squares slope of log(time) against log(size)."""
    if len(points) < 2:
        return None
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(max(t, 1e-6)) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    num = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    den = sum((x - mx) ** 2 for x in xs)
    return num / den


def main() -> None:
    parser = argparse.ArgumentParser()
    default_bin = ROOT / "target/release/symgen"
    if not default_bin.exists():
        default_bin = ROOT / "target/debug/symgen"
    parser.add_argument("--shape", choices=sorted(SHAPES), default="chain")
    parser.add_argument("--bin", default=str(default_bin))
    parser.add_argument("--sizes", default="2000,4000,8000,16000")
    parser.add_argument("--commands", default=None)
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args()
    args.bin = str(Path(args.bin).resolve())
    sizes = [int(s) for s in args.sizes.split(",")]
    build, message = SHAPES[args.shape]
    commands = (args.commands or DEFAULT_COMMANDS[args.shape]).split(",")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        schemas = {}
        for n in sizes:
            if build is None:
                schemas[n] = repository(n, work)
                continue
            schemas[n] = work / f"{args.shape}{n}.schema.json"
            schemas[n].write_text(json.dumps(build(n)))
        print(f"binary: {args.bin}; shape: {args.shape}")
        print("| command | " + " | ".join(f"n = {n:,}" for n in sizes) + " | exponent |")
        print("|---|" + "---:|" * (len(sizes) + 1))
        for command in commands:
            cells, points = [], []
            for n in sizes:
                text = "" if message is None else message(n)
                measured = run(
                    args.bin,
                    command,
                    schemas[n],
                    text,
                    work,
                    args.timeout,
                    refused=args.shape in REFUSED,
                )
                if measured is None:
                    cells.append(f"> {args.timeout:.0f} s")
                    break
                seconds, memory = measured
                shown_memory = "" if memory is None else f", {memory:,} MB"
                cells.append(f"{seconds:.2f} s{shown_memory}")
                points.append((n, seconds))
            cells += [""] * (len(sizes) - len(cells))
            fitted = exponent(points)
            shown = "" if fitted is None else f"{fitted:.2f}"
            print(f"| `{command}` | " + " | ".join(cells) + f" | {shown} |", flush=True)


if __name__ == "__main__":
    main()
