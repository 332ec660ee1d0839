"""Python decode benchmark (issue 15): the generated pydantic models against `json.loads`
alone and against datamodel-code-generator's models of the same schemas, in one run.

Reads the corpora the Rust validation benchmark writes
(`target/bench-corpus/<id>.jsonl`, from `cargo bench --bench validation`), the
committed schemas (`schema/`) and the generated package (`generated/python/src`).
datamodel-code-generator renders its models from the same schemas, written
self-contained (`symgen schema --bundle`, from target/debug/symgen), into a scratch
directory at start. Per protocol, in interleaved rounds over the whole corpus:

  - `json.loads` alone (the floor: parsing, no types),
  - symgen: `decode_<root>` of the generated module (strict, wire names only),
  - datamodel-code-generator: `<Root>.model_validate_json` of its model (its defaults).

Each message is decoded as the root whose decoder knows its tag (found once, before
timing; an open union also takes every other root's messages, as its unknown case). It also reports how many of the protocol's invalid conformance vectors each
set of models rejects: speed means nothing if the models accept what Rust rejects.

With `--baseline DIR` (another generated package's `src` directory, e.g. from
`git archive <commit> generated/python/src`), that package's decoders are timed in the
same rounds, as `baseline`, so a change's cost is a ratio measured in one run.

Usage (from the repository root, with benches/python/.venv from requirements.txt):
  benches/python/.venv/bin/python benches/python/decode.py [--rounds N]
      [--baseline DIR] [id ...]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import TypeAdapter, ValidationError

ROOT = Path(__file__).resolve().parents[2]
MODULES = {"worker-sideband": "worker_sideband", "ck3lens": "ck3lens"}


def load_module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def bundle_schemas(out: Path) -> Path:
    """The protocols' schemas written self-contained (`symgen schema --bundle`): the
    linked files of schema/ refer to each other by `urn:` ids, which
    datamodel-code-generator cannot resolve."""
    bundled = out / "bundled"
    bundled.mkdir()
    subprocess.run(
        [
            str(ROOT / "target/debug/symgen"),
            "schema",
            "--bundle",
            "--out",
            str(bundled),
        ],
        check=True,
        cwd=ROOT,
        capture_output=True,
    )
    return bundled


def peer_models(protocol: str, bundled: Path, out: Path) -> ModuleType | None:
    """datamodel-code-generator's models of the protocol's (bundled) schema; `None`
    (said on stderr) when it cannot render them."""
    target = out / f"peer_{MODULES[protocol]}.py"
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "datamodel-codegen"),
            "--input",
            str(bundled / f"{protocol}.schema.json"),
            "--input-file-type",
            "jsonschema",
            "--output-model-type",
            "pydantic_v2.BaseModel",
            "--target-python-version",
            "3.11",
            "--output",
            str(target),
        ],
        check=False,
        capture_output=True,
    )
    if done.returncode != 0:
        reason = done.stderr.decode(errors="replace").strip().splitlines()[-1:]
        print(
            f"{protocol}: datamodel-code-generator cannot render it: {reason}",
            file=sys.stderr,
        )
        return None
    return load_module(target.stem, target)


def pass_of(
    decoders: dict[str, Callable[[str], object]],
    by_root: list[tuple[str, str]],
    sample_s: float,
) -> Callable[[], float]:
    """One timed approach: messages per second of passes over the corpus, repeated
    until `sample_s` has passed."""
    pairs = [(decoders[root], line) for root, line in by_root]

    def run() -> float:
        passes = 0
        start = time.perf_counter()
        while True:
            for decode, line in pairs:
                decode(line)
            passes += 1
            elapsed = time.perf_counter() - start
            if elapsed >= sample_s:
                return passes * len(pairs) / elapsed

    return run


def rejects(decode: Callable[[str], object], line: str) -> bool:
    try:
        decode(line)
    except (ValueError, ValidationError):
        return True
    return False


def package_at(src: Path) -> str:
    """Imports the generated package under `src` as `symgen_baseline`."""
    name = "symgen_baseline"
    init = src / "symgen_protocols" / "__init__.py"
    spec = importlib.util.spec_from_file_location(
        name, init, submodule_search_locations=[str(init.parent)]
    )
    if spec is None or spec.loader is None:
        raise SystemExit(f"no generated package at {src}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--sample-ms", type=int, default=200)
    parser.add_argument("--corpus-dir", type=Path, default=ROOT / "target/bench-corpus")
    parser.add_argument("--baseline", type=Path, default=None)
    parser.add_argument("protocols", nargs="*", default=list(MODULES))
    args = parser.parse_args()
    baseline = None if args.baseline is None else package_at(args.baseline)

    sys.path.insert(0, str(ROOT / "generated/python/src"))
    scratch = Path(tempfile.mkdtemp(prefix="symgen-bench-"))
    bundled = bundle_schemas(scratch)
    runtime = importlib.import_module("symgen_protocols._runtime")
    sample_s = args.sample_ms / 1000
    rows = []
    for protocol in args.protocols:
        ours = importlib.import_module(f"symgen_protocols.{MODULES[protocol]}")
        peer = peer_models(protocol, bundled, scratch)
        lines = (args.corpus_dir / f"{protocol}.jsonl").read_text().splitlines()
        # The root each message is an instance of, by symgen's decoders: the root that
        # knows its tag (an open union takes every message, as its unknown case).
        roots: list[str] = []
        for line in lines:
            known = [
                name
                for name, codec in ours.ROOTS.items()
                if not rejects(codec.decode, line)
                and not isinstance(codec.decode(line), runtime.UnknownVariant)
            ]
            if not known:
                raise SystemExit(f"{protocol}: no root knows {line}")
            roots.append(known[0])
        peer_adapters: dict[str, TypeAdapter[Any]] = (
            {}
            if peer is None
            else {name: TypeAdapter(getattr(peer, name)) for name in ours.ROOTS}
        )
        by_root = list(zip(roots, lines))

        approaches: dict[str, Callable[[], float]] = {}

        approaches["json.loads"] = pass_of(
            {name: json.loads for name in ours.ROOTS}, by_root, sample_s
        )
        approaches["symgen"] = pass_of(
            {name: codec.decode for name, codec in ours.ROOTS.items()},
            by_root,
            sample_s,
        )
        if baseline is not None:
            theirs = importlib.import_module(f"{baseline}.{MODULES[protocol]}")
            approaches["baseline"] = pass_of(
                {name: codec.decode for name, codec in theirs.ROOTS.items()},
                by_root,
                sample_s,
            )
        if peer_adapters:
            approaches["datamodel-code-generator"] = pass_of(
                {name: a.validate_json for name, a in peer_adapters.items()},
                by_root,
                sample_s,
            )
        # Every approach must accept the whole (valid) corpus.
        for name, adapter in peer_adapters.items():
            for root, line in by_root:
                if root == name and rejects(adapter.validate_json, line):
                    raise SystemExit(
                        f"{protocol}: the peer rejects a valid message {line}"
                    )
        results: dict[str, list[float]] = {key: [] for key in approaches}
        for _ in range(args.rounds):
            for key, run in approaches.items():
                results[key].append(run())
        medians = {key: statistics.median(values) for key, values in results.items()}

        # Invalid vectors whose fault is in the message itself (reply data needs the
        # request's reply type, which the peer's models do not know).
        invalid = [
            v
            for v in json.loads(
                (ROOT / "tests/vectors" / protocol / "invalid.json").read_text()
            )
            if v.get("reply_to") is None
        ]
        caught = {"symgen": 0, "datamodel-code-generator": 0}
        for vector in invalid:
            text = json.dumps(vector["message"])
            caught["symgen"] += rejects(ours.ROOTS[vector["root"]].decode, text)
            if peer_adapters:
                caught["datamodel-code-generator"] += rejects(
                    peer_adapters[vector["root"]].validate_json, text
                )
        rows.append((protocol, len(lines), medians, caught, len(invalid)))

    print(
        f"{'protocol':<16} {'messages':>8} {'json.loads':>12} {'symgen':>12} "
        f"{'dmcg':>12} {'symgen/dmcg':>12} {'symgen/loads':>13}"
    )
    for protocol, count, medians, _, _ in rows:
        loads, ours_rate = medians["json.loads"], medians["symgen"]
        peer_rate = medians.get("datamodel-code-generator")
        peer_cells = (
            f"{'n/a':>12} {'n/a':>12}"
            if peer_rate is None
            else f"{peer_rate:>10,.0f}/s {ours_rate / peer_rate:>11.2f}x"
        )
        print(
            f"{protocol:<16} {count:>8} {loads:>10,.0f}/s {ours_rate:>10,.0f}/s "
            f"{peer_cells} {ours_rate / loads:>12.2f}x"
        )
    if baseline is not None:
        print()
        print("symgen against the baseline package (decodes per second, same rounds):")
        for protocol, _, medians, _, _ in rows:
            print(
                f"  {protocol:<16} {medians['symgen']:>10,.0f}/s against "
                f"{medians['baseline']:>10,.0f}/s: "
                f"{medians['symgen'] / medians['baseline']:.3f}x"
            )
    print()
    print("invalid conformance vectors rejected (faults in the message; reply data is")
    print("left out, since the peer's models have no request-to-reply typing):")
    for protocol, _, _, caught, total in rows:
        print(
            f"  {protocol:<16} symgen {caught['symgen']}/{total}, "
            f"datamodel-code-generator {caught['datamodel-code-generator']}/{total}"
        )


if __name__ == "__main__":
    main()
