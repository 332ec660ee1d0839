# Sourced by benches/instructions.sh and benches/cli-instructions.sh: builds the release
# validation bench (`cargo bench --no-run`) and sets `bin` to its executable, or exits 2
# with a message naming the calling script.
bin=$(cargo bench --bench validation --no-run --message-format=json 2>/dev/null |
  sed -n 's/.*"executable":"\([^"]*validation-[^"]*\)".*/\1/p' | tail -n 1)
[ -x "$bin" ] || { echo "$(basename "$0"): could not build the validation bench" >&2; exit 2; }
