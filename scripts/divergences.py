#!/usr/bin/env python3
"""Writes the documented divergences of one corpus (tests/divergences/<corpus>.json)
from the differences the language suites recorded: every conformance vector on which a
language's generated code gives another verdict than Rust, re-encodes differently or
names another place, each filed under a class that says why (docs/vectors.md).

Usage (from the repository root):
  SYMGEN_RECORD_DIR=DIR scripts/test.sh ts python swift rust adoption
  scripts/divergences.py DIR

With SYMGEN_RECORD_DIR set, each language's suite runs every corpus without its
divergences file and appends each difference to DIR/<corpus>.<language>.jsonl instead of
failing. This script classifies them and rewrites tests/divergences/<corpus>.json for
every corpus recorded. A difference no class explains is an error: add a class (with
what it is and why) rather than a bare entry. Review the diff like a snapshot.

  scripts/divergences.py [--language LANGUAGE]... [--corpus CORPUS]... DIR

rewrites only the named languages' entries of the named corpora (default: every language
and every corpus recorded); the other languages' entries stay as documented. For a change
that moves one language's verdicts, or a corpus that grew a schema, this re-records only
what changed: e.g. `SYMGEN_RECORD_DIR=DIR scripts/test.sh swift`, then
`scripts/divergences.py --language swift DIR`.

  scripts/divergences.py --report DIR CORPUS

only counts CORPUS's recorded differences by language and class (scripts/whole-catalog.sh
reports the whole SchemaStore catalog this way) and lists the first vectors no class
explains; it writes nothing.
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
        "text-fault-first",
        "A fault of the text (a lone surrogate, a key given twice, `1e400`) that "
        "TypeScript's `parse…` reports first, before what the schema's rules find (or a "
        "key given twice that Swift's WireDecoder reports where the field is decoded, "
        "or Python's `decode` once the value has decoded), "
        "where the validator's first violation is another one of the same message (a "
        "rule of the alternative it judges closest, a bound): both refuse the message.",
        lambda r: r["kind"] == "pointer" and reads_text_fault(r),
    ),
    (
        "depth-first",
        "Arrays nested past serde's 128 levels, which the decoder refuses first (it "
        "reads the text before the schema's rules), where the validator's first "
        "violation is another one of the same message (a rule the message's base "
        "breaks): both refuse the message.",
        lambda r: r["kind"] == "pointer" and r["what"].endswith(" nested 240 deep"),
    ),
    (
        "deep-unknown-buffered",
        "Rust crate: a key the type skips, nested past 128 levels, inside an object the "
        "generated crate reads through a buffered value first (serde's `Content` for "
        "untagged and flattened types, a `serde_json::Value` where it maps aliases): "
        "serde_json's recursion limit applies to the whole buffer, so it is refused; "
        "serde skips such a key at any depth where it reads the struct directly.",
        lambda r: r["language"] == "rust"
        and r["kind"] == "rejects"
        and r["what"].endswith(" nested 240 deep")
        and "recursion limit" in r["message"],
    ),
    (
        "text-fault-other-alternative",
        "A fault of the text that TypeScript's `parse…` (or Swift's WireDecoder and "
        "Python's `decode`, for a key given twice) refuses in the alternative of an "
        "untagged union that keeps "
        "the value, where another alternative takes the value (one that skips the key "
        "or reads it as free-form JSON, where a key given twice keeps the last value); "
        "the validator refuses the message.",
        lambda r: r["kind"] == "accepts" and "[" in r["vector"] and reads_text_fault(r),
    ),
    (
        "lone-surrogate-unlocated",
        "A lone surrogate escape refused by JSONDecoder for the whole text (or "
        "free-form JSON inside it), so the error names no field, or another one; in "
        "Python, whose second reading names the string, only inside an untagged union, "
        "where the error names the alternative it tried; the validator names the string.",
        lambda r: r["what"] == "a lone surrogate" and r["kind"] == "pointer",
    ),
    (
        "float-literal-integer",
        "`1.0` (or `-0`) for an integer: the language's JSON parser reads it as the "
        "number 1 (or 0) (JSONDecoder), where serde refuses a float literal for an "
        "integer field (issue 38, item 6). Swift's WireDecoder finds it in the text for "
        "an integer field, an array or map of them, a tuple's item and an untagged "
        "union's integer or integer-array alternative, not for a tagged union's integer "
        "payload or an array of optional integers (docs/swift.md); TypeScript's "
        "`parse…` finds both in the text (docs/typescript.md); Python reads `-0` as "
        "serde does.",
        lambda r: (r["what"].endswith(".0") or r["what"] == "-0")
        and "float literal" in r["message"]
        and r["kind"] == "accepts",
    ),
    (
        "duplicate-key-read",
        "A key given twice, which the Rust crate reads through serde's buffered content "
        "(an untagged or flattened type: one value of the key is kept), so the struct "
        "never sees the other; serde refuses a field given twice where it reads the "
        "struct directly (issue 38, item 6). TypeScript's `parse…`, "
        "Swift's WireDecoder and Python's `decode` find it in the text "
        "(docs/typescript.md, docs/swift.md, docs/python.md).",
        lambda r: r["what"].endswith(" twice") and r["kind"] == "accepts",
    ),
    (
        "number-past-double",
        "`1e400`: past what a double holds. The language's JSON parser reads infinity "
        "or refuses the whole text, naming another place; serde refuses the number where "
        "it keeps it.",
        lambda r: r["what"] == "1e400",
    ),
    (
        "int64-past-2-53",
        "A 64-bit integer past ±(2^53 − 1): JSON.parse may already have rounded it, so "
        "the TypeScript decoder refuses it in an integer field with a located violation "
        "rather than pass on a changed value; inside free-form JSON (any JSON, unknown "
        "keys) it is JSON.parse's nearest double (issue 38, item 5; docs/typescript.md).",
        lambda r: r["language"] == "typescript"
        and re.search(r"\(2\^53( \+ 1)?\)|\(-2\^53 - 1\)|\(the (maximum|minimum)\)|\(below the minimum\)|\(above the maximum\)", r["what"])
        and re.search(r"\d{16}", r["what"]),
    ),
    (
        "alias-pointer",
        "A field and its input alias both present: the decoder names one spelling, the "
        "reference another (the validator and the decoders name the later, the alias; "
        "serde's own error names the canonical field, which the hand-written alias vectors "
        "keep) (issue 38, item 11).",
        lambda r: (re.fullmatch(r'and alias ".*" both', r["what"]) or re.search(r"-alias(-|$)", r["vector"]))
        and r["kind"] == "pointer",
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
    (
        "integer-wider-than-64-bits",
        "An integer past 64 bits where the schema sets no bound or format: JSON Schema "
        "allows it and the validator accepts it; the generated types hold 64-bit integers "
        "and refuse it (docs/vectors.md, Not generated).",
        lambda r: r["kind"] == "rejects"
        and re.fullmatch(r"-?\d{19,} \((above the maximum|below the minimum)\)", r["what"]),
    ),
    (
        "null-as-absent",
        "`null` for an optional field whose schema does not allow it: the decoder reads "
        "it as absent (rule R3, right for symgen's own schemas); JSON Schema refuses it "
        "(issue 38, item 2). The Rust crate refuses it where it can map the field back "
        "to the model; serde's `Option` reads it where typify named the struct itself.",
        lambda r: r["kind"] == "accepts"
        and ("(null means absent)" in r["message"] or (r["language"] == "rust" and r["what"] == "null")),
    ),
    (
        "null-refused",
        "`null` where the schema allows it through a reference, an `anyOf` member or a "
        "`type` list the model reads as one type: the decoder refuses it (issue 38, item 2).",
        lambda r: r["kind"] == "rejects"
        and (r["what"] == "null" or "must not be null" in r["message"]),
    ),
    (
        "oneof-exclusivity",
        "A value that fits several `oneOf` alternatives: the decoder takes the first that "
        "fits, where `oneOf` requires exactly one (issue 38, item 9).",
        lambda r: r["kind"] == "accepts" and "but matches several" in r["message"],
    ),
    (
        "union-pointer",
        "A value no alternative of an untagged union (`anyOf`/`oneOf` without a tag) "
        "takes: both refuse it, but the decoder names where the alternative it tried "
        "failed, the validator where the alternative it judges closest did.",
        lambda r: r["kind"] == "pointer" and "matches no variant" in r["message"],
    ),
    (
        "closed-object-open",
        "A key an object forbids (`additionalProperties: false`) where the model does "
        "not carry the rule (an alternative merged into another, an `allOf` member): the "
        "decoder keeps the key, the validator refuses it.",
        lambda r: r["kind"] in ("accepts", "pointer") and "unexpected key" in r["message"],
    ),
    (
        "unknown-keys-dropped",
        "Swift: keys a schema symgen did not write leaves open are read past, not kept "
        "(its records have no place for them), so the re-encoding lacks them.",
        lambda r: r["language"] == "swift"
        and r["kind"] == "re-encodes"
        and "x-unknown-key" in r["message"].split("expected", 1)[-1]
        and "x-unknown-key" not in r["message"].split("expected", 1)[0],
    ),
    (
        "alias-as-written",
        "The Rust crate (typify) has no input aliases: an alias is a property of its own, "
        "so a message that spells a field or tag by its alias is re-encoded with the alias, "
        "not the canonical name (issue 38, item 11).",
        lambda r: r["language"] == "rust"
        and r["kind"] == "re-encodes"
        and re.search(r"alias|newCanonicalName", r["vector"]),
    ),
    (
        "unknown-keys-kept",
        "The Rust crate keeps the unknown keys of a protocol's object and writes them back, "
        "where the canonical re-encoding of rule R2 leaves them out: nothing is lost.",
        lambda r: r["language"] == "rust"
        and r["kind"] == "re-encodes"
        and re.fullmatch(r"(/[^ ]*)?/x-unknown-key: .* added", r["message"].strip()),
    ),
    (
        "unit-variant-written-bare",
        "A defect, not a limit: the Rust crate (typify) reads an object of one key holding "
        "`null` (`{\"delete\": null}`) as the unit variant of an externally tagged enum, "
        "as serde does, and writes the variant back as the bare string (`\"delete\"`).",
        lambda r: r["language"] == "rust"
        and r["kind"] == "re-encodes"
        and r["what"] == "null"
        and re.search(r': "[^"]*" instead of \{\}$', r["message"].strip()),
    ),
    (
        "serde-other-value-kept",
        "An unknown value of a Rust enum of strings with `#[serde(other)]`: serde decodes it "
        "as the `other` variant and writes that variant's name back, losing the value; the "
        "generated languages keep the string they received (by design, docs/adopting.md).",
        lambda r: r["kind"] == "re-encodes"
        and (r["what"].endswith(" misspelled") or r["what"] == "an unknown value"),
    ),
    (
        "absent-content-written",
        "Absent content of an adjacently tagged variant stands for `{}` (rule R3): the "
        "encoder writes the `{}` back, where the message had no content key.",
        lambda r: r["kind"] == "re-encodes" and written_empty(r["message"]),
    ),
    (
        "approximated-rule",
        "A rule the schema states that the model does not carry, and no warning names: an "
        "`allOf` refinement, a `$ref`'s siblings, a `const` or bound inside an "
        "alternative, `patternProperties`, `not`; in the Rust crate (typify) also bounds "
        "and a non-string `const` written inline, which it types by their JSON type. The "
        "decoder accepts what the validator refuses (issue 38, items 1 and 9); each fix "
        "removes its entries.",
        lambda r: r["kind"] == "accepts",
    ),
    (
        "approximated-shape",
        "A shape the model reads more narrowly than the schema (an alternative it merges "
        "or drops, a type list it reads as one type): the decoder refuses a valid value "
        "or names another place than the validator (issue 38, items 1 and 9). A "
        "re-encoding that changes a value is never filed here: it is fixed.",
        lambda r: r["kind"] in ("rejects", "pointer"),
    ),
]


def written_empty(message: str) -> bool:
    """Whether a re-encoding (`got … expected …`) has a key holding `{}` that the
    expected message lacks or holds `null` at."""
    got, _, expected = message.partition("expected")
    written = re.findall(r"""["']([^"']+)["']: ?\{\}""", got)
    def lacks(key: str) -> bool:
        return not re.search(rf"""["']{re.escape(key)}["']: ?(?!null|None)""", expected)

    return any(lacks(key) for key in written)


def reads_text_fault(record: dict) -> bool:
    """Whether the language finds the vector's fault in the text: TypeScript's `parse…`
    every fault of the text, Swift's WireDecoder and Python's `decode` a key given twice."""
    what = record["what"]
    if record["language"] == "typescript":
        return is_text_fault(what)
    return (
        record["language"] in ("swift", "python")
        and what.startswith('"')
        and what.endswith('" twice')
    )


def is_text_fault(what: str) -> bool:
    """Whether the vector's fault is one of the text's (see docs/typescript.md)."""
    return what in ("a lone surrogate", "1e400") or (
        what.startswith('"') and what.endswith('" twice')
    )


def what(vector: str) -> str:
    return vector.rsplit(": ", 1)[-1]


def classify(record: dict) -> str | None:
    record = {**record, "what": what(record["vector"])}
    for name, _, predicate in CLASSES:
        if predicate(record):
            return name
    return None


def read_records(directory: Path) -> dict[str, list[dict]]:
    by_corpus: dict[str, list[dict]] = defaultdict(list)
    for file in sorted(directory.glob("*.jsonl")):
        corpus = file.name.split(".")[0]
        # Not splitlines(): a vector may hold U+2028 or another separator Python splits at.
        for line in filter(None, file.read_text(encoding="utf-8").split("\n")):
            by_corpus[corpus].append(json.loads(line))
    return by_corpus


def corpus_filtered(corpus: str, corpora: list[str]) -> bool:
    """Whether `corpus` is left alone: not among the named ones (when some are named)."""
    return bool(corpora) and corpus not in corpora


def report(directory: Path, corpus: str) -> None:
    records = read_records(directory).get(corpus, [])
    counts = Counter((r["language"], classify(r) or "UNEXPLAINED") for r in records)
    print(f"{corpus}: {len(records)} differences from Rust's verdict or re-encoding")
    print("| language | class | vectors |")
    print("|---|---|---|")
    for (language, name), count in sorted(counts.items()):
        print(f"| {language} | `{name}` | {count} |")
    for record in [r for r in records if classify(r) is None][:20]:
        print(f"unexplained: {record['language']} {record['in']} {record['kind']} {record['vector']}: {record['message'][:160]}")


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--report":
        report(Path(sys.argv[2]), sys.argv[3])
        return
    args = sys.argv[1:]
    languages: list[str] = []
    corpora: list[str] = []
    while len(args) > 1 and args[0] in ("--language", "--corpus"):
        (languages if args[0] == "--language" else corpora).append(args[1])
        args = args[2:]
    if len(args) != 1 or any(language not in LANGUAGES for language in languages):
        sys.exit(__doc__)
    rewritten = languages or LANGUAGES
    by_corpus = read_records(Path(args[0]))
    unexplained = []
    # A named corpus is rewritten even where the languages recorded no difference on it.
    for corpus in sorted(set(by_corpus) | set(corpora)):
        if corpus_filtered(corpus, corpora):
            continue
        records = [r for r in by_corpus.get(corpus, []) if r["language"] in rewritten]
        path = OUT / f"{corpus}.json"
        kept = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        entries: dict[str, list[dict]] = {
            language: [] if language in rewritten else kept.get(language, [])
            for language in LANGUAGES
        }
        used = {entry["class"] for language in LANGUAGES for entry in entries[language]}
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
