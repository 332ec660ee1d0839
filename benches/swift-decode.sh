#!/usr/bin/env bash
# The Swift decode benchmark: the generated package's types decoded from JSON text by
# Foundation's `JSONDecoder` and by the runtime's `WireDecoder` (which reads the text
# once more for what JSONDecoder reads otherwise than serde: keys given twice, float
# literals for integers), in interleaved rounds of one run, release build.
#
# Usage: benches/swift-decode.sh [ROUNDS]   (default 9)
#
# The corpora are the protocols' valid conformance vectors (tests/vectors: hand-written
# and generated) of four roots, each repeated to 10,000 messages, written as one line
# each; prints a table of median nanoseconds per message and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-9}
corpus=benches/swift-decode-bench/.build/corpus
mkdir -p "$corpus"
python3 - "$corpus" <<'PY'
import json, sys
from pathlib import Path

out = Path(sys.argv[1])
for protocol, root in [("symposium", "IpcMessage"), ("ck3lens", "JsonRpcRequest"),
                       ("ck3lens", "JsonRpcResponse"), ("worker-sideband", "WorkerToServer")]:
    lines = []
    for name in ("valid.json", "generated/valid.json"):
        for vector in json.loads(Path(f"tests/vectors/{protocol}/{name}").read_text()):
            if vector["root"] == root:
                text = vector.get("text") or json.dumps(vector["message"], separators=(",", ":"))
                lines.append(text.replace("\n", " "))
    repeated = (lines * (10_000 // len(lines) + 1))[:10_000]
    (out / f"{root}.jsonl").write_text("\n".join(repeated) + "\n")
PY
args=()
for root in IpcMessage JsonRpcRequest JsonRpcResponse WorkerToServer; do
  args+=("$root=.build/corpus/$root.jsonl")
done
scripts/swift.sh benches/swift-decode-bench swift build -c release --product DecodeBench >&2
scripts/swift.sh benches/swift-decode-bench swift run -c release --skip-build DecodeBench "$rounds" "${args[@]}"
