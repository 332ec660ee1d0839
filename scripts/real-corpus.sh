# Sourced by scripts/test-*.sh: the real-world corpus (tests/fixtures/real, schemas
# symgen did not write and the instances their authors publish) as a scratch symgen
# project generated for one language.
#
#   real_corpus DIR LANGUAGE [SCHEMA STEM]...
#
# copies the corpus to DIR, leaves out the named schemas (and their vectors), and runs
# `symgen generate` there with LANGUAGE as the only language. Warnings (keywords the
# generated types do not enforce) are expected on foreign schemas and go to DIR/warnings.
real_corpus() {
  local dir=$1 language=$2 stem
  shift 2
  mkdir -p "$dir"
  cp -R tests/fixtures/real/. "$dir/"
  for stem in "$@"; do
    rm -rf "$dir/schemas/$stem.json" "$dir/vectors/$stem"
  done
  sed -i "s/^languages = .*/languages = [\"$language\"]/" "$dir/symgen.toml"
  # Scripts that bind the project's git root (scripts/swift.sh) need one here.
  git init --quiet "$dir"
  (cd "$dir" && "$symgen" generate 2>warnings)
}

# Instances in the corpus's vectors (every valid.json holds a list).
real_instances() {
  find "$1/vectors" -name valid.json -exec node -e \
    'let n = 0; for (const f of process.argv.slice(1)) n += JSON.parse(require("fs").readFileSync(f, "utf8")).length; console.log(n)' {} +
}
