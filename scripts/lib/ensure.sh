# What the scripts/ensure-*.sh and gen-sdk.sh share; sourced, after they set `ensure_name`:
#   ensure_name=ensure-s3; . "$repo/scripts/lib/ensure.sh"
# Builds are cached in $PULUMI_IP_CACHE_DIR (default ~/.cache/pulumi-integration-platform);
# harness/languages.ts reads the same place.

# Where every build is cached.
cache_root="${PULUMI_IP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-integration-platform}"

# Progress and errors go to stderr, prefixed with the script's name: stdout's last line is its answer.
log() { printf '%s: %s\n' "$ensure_name" "$*" >&2; }

# The version a go.mod requires of a module, without its "v", for both the one-line and the block form.
required_version() { # <go.mod> <module path>
  awk -v mod="$2" '{ for (i = 1; i < NF; i++) if ($i == mod) { v = $(i + 1); sub(/^v/, "", v); print v; exit } }' "$1"
}

# Moves a finished folder to its place in the cache in one rename, so that an interrupted fetch or
# build never leaves a half-filled entry behind.
move_into_place() { # <finished folder> <cache entry>
  mkdir -p "$(dirname "$2")"
  rm -rf "$2.tmp.$$"
  mv "$1" "$2.tmp.$$"
  rm -rf "$2"
  mv "$2.tmp.$$" "$2"
}

# Builds a Go program from a module of tools/ once, cached by the module's go.sum, go.mod and main.go (those it has),
# and prints the binary's path: gen-sdk.sh's generators, the release's module proxy writer (tools/goproxy).
go_tool() { # <tools/ folder> [<binary name> <package> [<go build flag>...]]; by default the folder's own main package
  local dir="$repo/tools/$1" name="${2:-$1}" package="${3:-.}" key binary started file
  local -a flags=("${@:4}") keyed=()
  for file in go.sum go.mod main.go; do [ -f "$dir/$file" ] && keyed+=("$dir/$file"); done
  key="$(cat "${keyed[@]}" | sha256sum | cut -c1-12)"
  binary="$cache_root/$name-$key/$name"
  # One build at a time: a release's and a test's generation may ask at once (the lock is let go when
  # the caller's command substitution returns).
  mkdir -p "$cache_root"
  exec 9>"$cache_root/$name-$key.lock"
  flock 9
  if [ ! -x "$binary" ]; then
    command -v go >/dev/null 2>&1 || { log "$name is not built and there is no Go toolchain to build it (Go 1.25.11 or newer)"; exit 1; }
    started=$SECONDS
    log "building $name from Go modules (first time only) ..."
    mkdir -p "$(dirname "$binary")"
    (cd "$dir" && GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath "${flags[@]}" -o "$binary.tmp.$$" "$package") >&2
    mv "$binary.tmp.$$" "$binary"
    log "built $name in $((SECONDS - started)) s"
  fi
  echo "$binary"
}
