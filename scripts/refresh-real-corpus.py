#!/usr/bin/env python3
"""Rebuilds tests/fixtures/real/: real-world schemas symgen did not write, each with the
valid instances its authors publish, as a symgen project whose vectors every language's
checks round-trip (scripts/test-*.sh).

Usage (from the repository root, after `cargo build`):
  scripts/refresh-real-corpus.py SCHEMASTORE_GIT MCP_GIT

SCHEMASTORE_GIT and MCP_GIT are git checkouts (or mirrors) of SchemaStore/schemastore and
modelcontextprotocol/modelcontextprotocol; files are read from their HEAD commit, which
README.md records. Instances are kept only when symgen's validator accepts them against
their schema (the schema's own verdict), at most five per schema.
"""

import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests/fixtures/real"
SYMGEN = ROOT / "target/debug/symgen"

# SchemaStore entries: popular configuration files, then every draft in the catalog.
SCHEMASTORE = [
    # draft-07 and draft-04, the most used
    "package", "tsconfig", "github-workflow", "github-action", "eslintrc", "babelrc",
    "prettierrc", "jsconfig", "tslint", "stylelintrc", "jest", "nodemon",
    "dependabot-2.0", "travis", "appveyor", "codecov", "mocharc", "nest-cli", "netlify",
    "cargo", "pre-commit-config", "commitlintrc", "semantic-release", "bower",
    "npmpackagejsonlintrc", "ava",
    # draft-04
    "nycrc", "postcssrc", "compile-commands", "debugsettings", "resjson", "vsconfig",
    "webjobs-list",
    # draft 2019-09
    "openweather.roadrisk", "jsone", "specif-1.1",
    # draft 2020-12
    "license-report-config", "evidence-bundle", "yamllint",
    # draft-07, smaller ones
    "importmap", "cibuildwheel", "cdk", "tldr", "first-timers", "mimetypes", "gpc",
]
# Not listed: schemas whose published instances are YAML only, and pyproject (it pulls in
# some 25 partial schemas). The script leaves out, with a line saying why, any listed
# schema symgen cannot read on its own (a `$ref` the catalog cannot satisfy).
INSTANCES_PER_SCHEMA = 5
# Valid instances the generated types reject on purpose, and why (docs/schemas.md).
EXCLUDED = {
    ("jsone", "reverse-sort.json"): "a list where the schema has no `type` but "
    "`additionalProperties` (typed as an object)",
    ("netlify", "config.yml.json"): "a string where the schema has no `type` but "
    "`properties` (typed as an object)",
}
MCP_SCHEMA = "schema/2026-07-28/schema.json"
MCP_EXAMPLES = "schema/2026-07-28/examples"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout


def show(repo: Path, path: str) -> str:
    return git(repo, "show", f"HEAD:{path}")


def ls(repo: Path, path: str) -> list[str]:
    return sorted(git(repo, "ls-tree", "--name-only", "HEAD", path + "/").split())


CATALOG_URL = re.compile(r"^https?://(?:json|www)\.schemastore\.org/([^/#]+)$")


def relative_refs(schema: object) -> set[str]:
    """Catalog files a schema names in `$ref`s: siblings (relative, no scheme) and the
    catalog's own URLs."""
    out: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            ref = value.get("$ref")
            if isinstance(ref, str):
                target = ref.split("#", 1)[0]
                catalog = CATALOG_URL.match(target)
                if catalog:
                    out.add(catalog.group(1))
                elif target and ":" not in target and "/" not in target:
                    out.add(target)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(schema)
    return out


# Package registry hosts named in the catalog's text; the project names none, so they
# are written as example hosts (every occurrence is free text, a default or an instance
# string, so validity is unchanged).
HOSTS = re.compile(r"(registry\.npmjs\.org|npmjs\.com|crates\.io|pypi\.org|deb\.debian\.org)")


def scrub(text: str) -> str:
    return HOSTS.sub(lambda m: m.group(1).replace(".", "-") + ".example", text)


def load_instance(name: str, text: str) -> object | None:
    """A test file as JSON: `.json` as is, `.toml` through tomllib (when it has no dates,
    which JSON cannot hold); other formats are left out."""
    try:
        if name.endswith(".json"):
            return json.loads(text)
        if name.endswith(".toml"):
            value = tomllib.loads(text)
            json.dumps(value)
            return value
    except (ValueError, TypeError):
        return None
    return None


def valid(schema: Path, instance: object) -> bool:
    result = subprocess.run(
        [str(SYMGEN), "validate", "--schema", str(schema)],
        input=json.dumps(instance),
        capture_output=True,
        text=True,
    )
    return result.returncode == 0


def roots(schemas: Path) -> dict[str, list[str]]:
    """Each schema stem's root type names, as symgen reads them (through the Python
    package, whose ROOTS are keyed by them)."""
    with tempfile.TemporaryDirectory() as out:
        config = Path(out) / "symgen.toml"
        config.write_text('languages = ["python"]\n[python]\npackage = "real"\n')
        subprocess.run(
            [str(SYMGEN), "--config", str(config), "py", "--schema", str(schemas),
             "--out", out],
            check=True,
            capture_output=True,
        )
        found: dict[str, list[str]] = {}
        for module in sorted((Path(out) / "src/real").glob("*.py")):
            if module.name.startswith("_"):
                continue
            text = module.read_text()
            stem = re.search(r'^VECTORS: str = "(.*)"$', text, re.M)
            block = re.search(r"^ROOTS: .*? = \{(.*?)\}$", text, re.M | re.S)
            if stem and block:
                found[stem.group(1)] = re.findall(r'"((?:[^"\\]|\\.)*)": _', block.group(1))
        return found


def write_vectors(stem: str, vectors: list[dict[str, object]]) -> None:
    directory = OUT / "vectors" / stem
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "valid.json").write_text(scrub(json.dumps(vectors, indent=2)) + "\n")
    (directory / "invalid.json").write_text("[]\n")
    (directory / "unknown.json").write_text("[]\n")


def main() -> None:
    schemastore, mcp = Path(sys.argv[1]), Path(sys.argv[2])
    for sub in ("schemas", "vectors"):
        shutil.rmtree(OUT / sub, ignore_errors=True)
    schemas = OUT / "schemas"
    (schemas / "support").mkdir(parents=True)

    instances: dict[str, list[tuple[str, object]]] = {}
    pending = list(SCHEMASTORE)
    copied: set[str] = set()
    while pending:
        name = pending.pop(0)
        file = name if name.endswith(".json") or name not in SCHEMASTORE else f"{name}.json"
        if file in copied:
            continue
        copied.add(file)
        try:
            text = show(schemastore, f"src/schemas/json/{file}")
        except subprocess.CalledProcessError:
            # `$ref: "osi-license"`: the catalog serves `osi-license.json` under that
            # name (its `$id`).
            if not file.endswith(".json"):
                pending.append(f"{file}.json")
            else:
                print(f"not in the catalog: {file}", file=sys.stderr)
            continue
        (schemas / file).write_text(scrub(text))
        pending.extend(sorted(relative_refs(json.loads(text)) - copied))
        if file[:-5] in SCHEMASTORE:
            found = []
            for test in ls(schemastore, f"src/test/{file[:-5]}"):
                instance = load_instance(test, show(schemastore, test))
                if instance is not None:
                    found.append((Path(test).name, instance))
            instances[file[:-5]] = found

    # MCP: the whole schema as a support file, and a schema whose roots are the types
    # the project publishes examples of.
    (schemas / "support/mcp-2026-07-28.schema.json").write_text(show(mcp, MCP_SCHEMA))
    defs = json.loads(show(mcp, MCP_SCHEMA))["$defs"]
    examples = [d for d in ls(mcp, MCP_EXAMPLES) if Path(d).name in defs]
    (schemas / "mcp.json").write_text(json.dumps({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "MCP",
        "description": "The Model Context Protocol's types that its specification publishes examples of.",
        "anyOf": [
            {"$ref": f"support/mcp-2026-07-28.schema.json#/$defs/{Path(d).name}"}
            for d in examples
        ],
    }, indent=2) + "\n")
    instances["mcp"] = []
    for directory in examples:
        for example in ls(mcp, directory):
            if example.endswith(".json"):
                instances["mcp"].append(
                    (f"{Path(directory).name}/{Path(example).name}", json.loads(show(mcp, example)))
                )

    # Keep the schemas symgen reads on their own (every `$ref` available), and only the
    # catalog files they reach.
    usable = []
    for name in SCHEMASTORE:
        with tempfile.TemporaryDirectory() as out:
            config = Path(out) / "symgen.toml"
            config.write_text('languages = ["python"]\n')
            result = subprocess.run(
                [str(SYMGEN), "--config", str(config), "py", "--schema",
                 str(schemas / f"{name}.json"), "--out", out],
                capture_output=True,
                text=True,
            )
        if result.returncode == 0:
            usable.append(name)
        else:
            print(f"left out: {name}: {result.stderr.strip().splitlines()[-1]}", file=sys.stderr)
            instances.pop(name, None)
    needed: set[str] = {"mcp.json"}
    stack = [f"{n}.json" for n in usable]
    while stack:
        file = stack.pop()
        if file in needed or not (schemas / file).is_file():
            continue
        needed.add(file)
        refs = relative_refs(json.loads((schemas / file).read_text()))
        stack.extend(r if (schemas / r).is_file() else f"{r}.json" for r in refs)
    for file in schemas.glob("*.json"):
        if file.name not in needed:
            file.unlink()

    names = roots(schemas)
    kept = 0
    for stem, found in instances.items():
        vectors = []
        for label, instance in found:
            if stem == "mcp":
                root = label.split("/")[0]
            else:
                root_names = names.get(stem, [])
                if len(root_names) != 1:
                    continue
                root = root_names[0]
            if len([v for v in vectors if v["root"] == root]) >= INSTANCES_PER_SCHEMA and stem != "mcp":
                continue
            if (stem, label) in EXCLUDED or not valid(schemas / f"{stem}.json", instance):
                continue
            vectors.append({"name": f"{stem}/{label}", "root": root, "message": instance})
        if vectors:
            write_vectors(stem, vectors)
            kept += len(vectors)
    print(f"{len(instances)} schemas with instances, {kept} valid instances kept")


if __name__ == "__main__":
    main()
