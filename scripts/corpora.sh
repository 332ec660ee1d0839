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
#                by a fixed seed (its README says how).
#
# DIR is a link to a directory kept from run to run, $SYMGEN_CORPORA/LANGUAGE/NAME
# (default target/corpora): its schemas, vectors and project file are copied afresh each
# time, and `generate` rewrites only the files whose text changed, so SwiftPM, cargo and
# tsc redo only what a change touched (a warm run builds nothing new).
corpus() {
  local name=$1 dir=$2 language=$3 stem kept
  shift 3
  kept=${SYMGEN_CORPORA:-$(pwd)/target/corpora}/$language/$name
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
    *) cp -R "tests/fixtures/$name/." "$dir/" ;;
  esac
  for stem in "$@"; do
    rm -rf "$dir/schemas/$stem.json" "$dir/vectors/$stem"
  done
  sed -i "s/^languages = .*/languages = [\"$language\"]/" "$dir/symgen.toml"
  # Scripts that bind the project's git root (scripts/swift.sh) need one here.
  git init --quiet "$dir"
  (cd "$dir" && "$symgen" generate 2>warnings)
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
