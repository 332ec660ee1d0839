#!/usr/bin/env python3
"""Writes the documented divergences of one corpus (tests/divergences/<corpus>.json)
from the differences the language suites recorded: every conformance vector on which a
language's generated code gives another verdict than Rust, re-encodes differently or
names another place, each filed under a class that says why (docs/vectors.md).

Usage (from the repository root):
  SYMGEN_RECORD_DIR=DIR scripts/test.sh typescript python swift rust
  scripts/divergences.py DIR

With SYMGEN_RECORD_DIR set, each language's suite runs every corpus without its
divergences file and appends each difference to DIR/<corpus>.<language>.jsonl instead of
failing. This script classifies them and rewrites tests/divergences/<corpus>.json for
every corpus recorded. A difference no class explains is an error: add a class (with
what it is and why) rather than a bare entry. Review the diff like a snapshot.
"""

import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests/divergences"
LANGUAGES = ["typescript", "python", "swift", "rust"]

# (class id, why, predicate). The first class whose predicate holds explains a record.
# A predicate sees the record: language, vector (`<dir>/<name>`), in (the vector file),
# kind (accepts, rejects, re-encodes, pointer, unknown) and message; `what` is the part
# of the vector's name after its last ": " (what the generator changed).
CLASSES = [
    (
        "lone-surrogate-read",
        "A lone surrogate escape (`\"\\ud800\"`): the language's JSON parser reads it "
        "into a string (JavaScript's JSON.parse) where serde refuses text that is not "
        "Unicode. The decoder sees no fault to report.",
        lambda r: r["what"] == "a lone surrogate" and r["kind"] == "accepts",
    ),
    (
        "lone-surrogate-unlocated",
        "A lone surrogate escape refused by the language's JSON parser for the whole "
        "text (json.loads, JSONDecoder inside free-form JSON), so the error names no "
        "field, or another one; the validator names the string.",
        lambda r: r["what"] == "a lone surrogate" and r["kind"] == "pointer",
    ),
    (
        "float-literal-integer",
        "`1.0` for an integer: the language's JSON parser reads it as the number 1 "
        "(JSON.parse, JSONDecoder), where serde refuses a float literal for an "
        "integer field (issue 38, item 6).",
        lambda r: r["what"].endswith(".0") and r["kind"] == "accepts",
    ),
    (
        "duplicate-key-read",
        "A key given twice: the language's JSON parser keeps the last value (JSON.parse, "
        "json.loads, JSONDecoder), so the decoder never sees the first; serde refuses a "
        "field given twice (issue 38, item 6).",
        lambda r: r["what"].endswith(" twice") and r["kind"] == "accepts",
    ),
    (
        "number-past-double",
        "`1e400`: past what a double holds. JSON.parse reads Infinity, which a number "
        "field takes; serde refuses the text.",
        lambda r: r["what"] == "1e400",
    ),
    (
        "int64-past-2-53",
        "A 64-bit integer past ±2^53: TypeScript decodes it to the nearest double, which "
        "changes the value, refuses a maximum that rounds up past the range, or accepts "
        "a value one past the minimum that rounds to it (issue 38, item 5).",
        lambda r: r["language"] == "typescript"
        and re.search(r"\(2\^53 \+ 1\)|\(-2\^53 - 1\)|\(the maximum\)|\(below the minimum\)|\(above the maximum\)", r["what"])
        and re.search(r"\d{16}", r["what"]),
    ),
    (
        "alias-pointer",
        "A field and its input alias both present: the decoder names the canonical key, "
        "the validator the alias (issue 38, item 11).",
        lambda r: re.fullmatch(r'and alias ".*" both', r["what"]) and r["kind"] == "pointer",
    ),
    (
        "absent-content-pointer",
        "Absent or `null` content of an envelope: the validator explains it as `{}` and "
        "names the first required field it lacks (rule R3); the decoder names the "
        "content key.",
        lambda r: r["kind"] == "pointer"
        and r["what"] in ("missing", "null")
        and re.search(r"\](/payload|/params)?: (missing|null)$", r["vector"]),
    ),
]


def what(vector: str) -> str:
    return vector.rsplit(": ", 1)[-1]


def classify(record: dict) -> str | None:
    record = {**record, "what": what(record["vector"])}
    for name, _, predicate in CLASSES:
        if predicate(record):
            return name
    return None


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    directory = Path(sys.argv[1])
    by_corpus: dict[str, list[dict]] = defaultdict(list)
    for file in sorted(directory.glob("*.jsonl")):
        corpus = file.name.split(".")[0]
        for line in file.read_text(encoding="utf-8").splitlines():
            by_corpus[corpus].append(json.loads(line))
    unexplained = []
    for corpus, records in sorted(by_corpus.items()):
        entries: dict[str, list[dict]] = {language: [] for language in LANGUAGES}
        used = set()
        for record in sorted(records, key=lambda r: (r["language"], r["in"], r["vector"])):
            name = classify(record)
            if name is None:
                unexplained.append((corpus, record))
                continue
            used.add(name)
            entries[record["language"]].append(
                {"vector": record["vector"], "in": record["in"], "kind": record["kind"], "class": name}
            )
        document = {
            "about": "Conformance vectors on which a language's generated code is known to "
            "differ from Rust's verdict (docs/vectors.md), written by "
            "scripts/divergences.py from what the suites recorded: each names a vector, "
            "the file it is in, how the language differs and the class that says why.",
            "classes": {name: why for name, why, _ in CLASSES if name in used},
            **{language: found for language, found in entries.items() if found},
        }
        path = OUT / f"{corpus}.json"
        path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        counts = Counter((r["language"], classify(r)) for r in records)
        print(f"{corpus}: {len(records)} differences -> {path.relative_to(ROOT)}")
        for (language, name), count in sorted(counts.items(), key=lambda x: (x[0][0], str(x[0][1]))):
            print(f"  {language:10} {name or 'UNEXPLAINED'}: {count}")
    if unexplained:
        for corpus, record in unexplained[:40]:
            print(f"unexplained: {corpus} {record['language']} {record['in']} {record['kind']} {record['vector']}: {record['message'][:200]}", file=sys.stderr)
        sys.exit(f"{len(unexplained)} differences no class explains: add a class to scripts/divergences.py")


if __name__ == "__main__":
    main()
