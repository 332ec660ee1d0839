# Sourced by scripts/test-*.sh: the corpora every language's vector suite runs, each as a
# scratch symgen project whose `generate` writes the language's package and the
# conformance vectors generated from its schemas (`symgen vectors`).
#
#   corpus NAME DIR LANGUAGE [SCHEMA STEM]...
#
# copies corpus NAME to DIR, leaves out the named schemas (and their vectors), and runs
# `symgen generate` there with LANGUAGE as the only language. Warnings (keywords the
# generated types do not enforce) are expected on foreign schemas and go to
# DIR/warnings. The corpora:
#   real         tests/fixtures/real: schemas symgen did not write, with the instances
#                their authors publish;
#   fixtures     tests/fixtures/schemas: the generators' fixture schemas;
#   schemastore  tests/fixtures/schemastore: a sample of the SchemaStore catalog chosen
#                by a fixed seed (its README says how); $SYMGEN_SCHEMASTORE names another
#                such project instead (scripts/whole-catalog.sh: the whole catalog), built
#                in $SYMGEN_SCHEMASTORE-built/LANGUAGE and never trimmed.
#
# DIR is a link to a directory kept from run to run, $SYMGEN_CORPORA/LANGUAGE/NAME
# (default target/corpora): its schemas, vectors and project file are copied afresh each
# time, and `generate` rewrites only the files whose text changed, so SwiftPM, cargo and
# tsc redo only what a change touched (a warm run builds nothing new).
#
# The quick tier (SYMGEN_QUICK=1, `scripts/test.sh --quick`) keeps the fixtures whole but
# only the first QUICK_SCHEMAS schemas (by name) of `real` and `schemastore` that
# reference no other file, in directories of their own (`real-quick`,
# `schemastore-quick`), so a quick run and a full one never regenerate each other's
# packages.
QUICK_SCHEMAS=4
corpus() {
  local name=$1 dir=$2 language=$3 stem kept file trim=
  shift 3
  case "$name" in
    real) trim=${SYMGEN_QUICK:-} ;;
    schemastore) [ -n "${SYMGEN_SCHEMASTORE:-}" ] || trim=${SYMGEN_QUICK:-} ;;
  esac
  local other=${trim:+quick}
  kept=${SYMGEN_CORPORA:-$(pwd)/target/corpora}/$language/$name${other:+-$other}
  if [ "$name" = schemastore ] && [ -n "${SYMGEN_SCHEMASTORE:-}" ]; then
    other=catalog
    kept=$SYMGEN_SCHEMASTORE-built/$language
  fi
  mkdir -p "$kept"
  rm -rf "$kept/schemas" "$kept/vectors" "$kept/symgen.toml" "$kept/warnings"
  ln -sfn "$kept" "$dir"
  dir=$kept
  case "$name" in
    fixtures)
      mkdir -p "$dir/schemas" "$dir/vectors"
      cp tests/fixtures/schemas/*.json "$dir/schemas/"
      printf 'languages = ["%s"]\n[schema]\ndir = "schemas"\n[vectors]\ndir = "vectors"\n[%s]\npackage = "fixtures"\n' \
        "$language" "$language" >"$dir/symgen.toml"
      ;;
    schemastore) cp -R "${SYMGEN_SCHEMASTORE:-tests/fixtures/schemastore}/." "$dir/" ;;
    *) cp -R "tests/fixtures/$name/." "$dir/" ;;
  esac
  for stem in "$@"; do
    rm -rf "$dir/schemas/$stem.json" "$dir/vectors/$stem"
  done
  if [ -n "$trim" ]; then
    local keep
    keep=$(cd "$dir/schemas" && { grep -L '"\$ref": *"[^#"]' -- *.json || true; } |
      sort | awk -v n="$QUICK_SCHEMAS" 'NR <= n')
    for file in "$dir"/schemas/*.json; do
      stem=$(basename "$file" .json)
      if ! grep -qxF "$stem.json" <<<"$keep"; then
        rm -rf "$file" "$dir/vectors/$stem"
      fi
    done
  fi
  sed -i "s/^languages = .*/languages = [\"$language\"]/" "$dir/symgen.toml"
  # A trimmed corpus or the whole catalog is another crate than the corpus it stands
  # for: the generated crates share one cargo target directory, where two crates of
  # one name and version at different paths could be taken for each other.
  if [ -n "$other" ]; then
    sed -i '/^\[rust\]/,/^\[/ s/^package = "\(.*\)"/package = "\1-'"$other"'"/' "$dir/symgen.toml"
  fi
  # Scripts that bind the project's git root (scripts/swift.sh) need one here.
  git init --quiet "$dir"
  if ! (cd "$dir" && "$symgen" generate 2>warnings); then
    grep -v ': warning: ' "$dir/warnings" | tail -n 5 >&2
    echo "corpus $name: symgen generate failed in $dir" >&2
    return 1
  fi
}

# The published instances in a corpus's vectors (every hand-written valid.json).
corpus_instances() {
  find "$1/vectors" -name valid.json -not -path '*/generated/*' -exec node -e \
    'let n = 0; for (const f of process.argv.slice(1)) n += JSON.parse(require("fs").readFileSync(f, "utf8")).length; console.log(n)' {} +
}

# Runs CMD... with the documented divergences of CORPUS (tests/divergences/CORPUS.json) for
# LANGUAGE's vector suite; with SYMGEN_RECORD_DIR set, with none, recording each
# difference to $SYMGEN_RECORD_DIR/CORPUS.LANGUAGE.jsonl instead (scripts/divergences.py).
# (The file is found from where this script was sourced, the repository root: callers
# run it from inside a corpus directory.)
divergences_dir=$(pwd)/tests/divergences
with_divergences() {
  local corpus=$1 language=$2 file
  shift 2
  file=$divergences_dir/$corpus.json
  if [ -n "${SYMGEN_RECORD_DIR:-}" ]; then
    mkdir -p "$SYMGEN_RECORD_DIR"
    SYMGEN_DIVERGENCES= SYMGEN_RECORD="$SYMGEN_RECORD_DIR/$corpus.$language.jsonl" "$@"
  elif [ -f "$file" ]; then
    SYMGEN_DIVERGENCES=$file SYMGEN_RECORD= "$@"
  else
    SYMGEN_DIVERGENCES= SYMGEN_RECORD= "$@"
  fi
}
