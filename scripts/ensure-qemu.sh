#!/usr/bin/env bash
# Makes the aarch64 user-mode emulator available, so that the release's linux-arm64 executables run
# on an x86-64 machine (test/e2e/native/arm64.test.ts): `qemu-aarch64-static` (Debian's
# qemu-user-static) and the aarch64 C and C++ runtime libraries a Node.js binary links to, in the
# sysroot /usr/aarch64-linux-gnu (libc6-arm64-cross, libstdc++6-arm64-cross). Prints the emulator's
# path as the last line of stdout (progress goes to stderr):
#
#   "$(bash scripts/ensure-qemu.sh)" -L /usr/aarch64-linux-gnu ./pulumi-resource-integration-platform -version
#
# Installed ones are used; otherwise the three Debian packages are installed with apt-get (as root,
# or through `sudo -n`), about a minute, once. No package is built or cached here: apt owns them.
# One install at a time (a lock), so that CI's background install and a test's call do not race.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ensure_name=ensure-qemu
. "$repo/scripts/lib/ensure.sh"

packages=(qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross)
sysroot=/usr/aarch64-linux-gnu
die() {
  log "$*"
  log "the linux-arm64 tests need qemu-aarch64-static and an aarch64 sysroot in $sysroot: on Debian or Ubuntu, run"
  log "  sudo apt-get install --no-install-recommends ${packages[*]}"
  exit 1
}

# Usable when the emulator runs the sysroot's own dynamic loader, an aarch64 program that needs no
# other file: that proves the emulator, the sysroot's layout and the loader together.
usable() {
  local qemu
  qemu="$(command -v qemu-aarch64-static 2>/dev/null)" || return 1
  [ -f "$sysroot/lib/libstdc++.so.6" ] || return 1
  "$qemu" -L "$sysroot" "$sysroot/lib/ld-linux-aarch64.so.1" --version 2>/dev/null | grep -q '^ld.so '
}

mkdir -p "$cache_root"
exec 9>"$cache_root/qemu-aarch64.lock"
flock 9
if usable; then
  log "using $(command -v qemu-aarch64-static) ($(qemu-aarch64-static --version | head -n 1)) with the sysroot $sysroot"
  command -v qemu-aarch64-static
  exit 0
fi

command -v apt-get >/dev/null 2>&1 || die "qemu-aarch64-static or the aarch64 sysroot is missing, and there is no apt-get to install them with"
if [ "$(id -u)" = 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  die "qemu-aarch64-static or the aarch64 sysroot is missing, and installing them needs root (or sudo without a password)"
fi
started=$SECONDS
log "installing ${packages[*]} with apt-get (first time only, about a minute) ..."
output="$(mktemp "${TMPDIR:-/tmp}/ensure-qemu.XXXXXX")"
trap 'rm -f "$output"' EXIT
# Waits for another apt or dpkg to finish instead of failing at once on its lock.
apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q -y)
install() { "${apt[@]}" install --no-install-recommends "${packages[@]}" >"$output" 2>&1; }
if ! install; then
  # A fresh machine may have no package lists, or stale ones: fetch them and try once more.
  log "apt-get install failed; running apt-get update and trying again"
  "${apt[@]}" update >"$output" 2>&1 || { tail -n 20 "$output" >&2; die "apt-get update failed (above)"; }
  install || { tail -n 20 "$output" >&2; die "apt-get install ${packages[*]} failed (above)"; }
fi
usable || die "installed ${packages[*]}, but qemu-aarch64-static still does not run $sysroot/lib/ld-linux-aarch64.so.1"
log "installed ${packages[*]} in $((SECONDS - started)) s"
command -v qemu-aarch64-static
