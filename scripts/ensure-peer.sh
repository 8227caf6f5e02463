#!/usr/bin/env bash
# Makes "the peer" available: OpenTofu with the Mastercard `restapi` provider, the setup a team
# without this project would write instead (shared/peer/README.md says which and how it ran).
# Prints its folder, PEER_HOME, as the last line of stdout (progress goes to stderr):
#
#   PEER_HOME="$(bash scripts/ensure-peer.sh | tail -n 1)"
#
# PEER_HOME holds bin/tofu, mirror/ (a filesystem mirror holding only the restapi provider) and
# tofurc (a CLI config pointing tofu at that mirror); run the peer with
#   PATH="$PEER_HOME/bin:$PATH" TF_CLI_CONFIG_FILE="$PEER_HOME/tofurc" tofu ...
# scripts/lib/peer.ts does that for the benchmarks.
#
# Why a build: no package registry these machines reach ships either binary, and the providers'
# registry is out of reach, so both are built from source, once, and cached in
# $PULUMI_IP_CACHE_DIR (default ~/.cache/pulumi-integration-platform), keyed by both versions.
#   - OpenTofu v1.10.10 comes from the Go module proxy.
#   - restapi is built at commit 88f3f9b, the one the README measured (it declares itself 3.0.0,
#     the version shared/peer/main.tf pins). The Go module proxy serves only its v1.20.0, which
#     lacks the `retries` block and `search_patch` that main.tf needs, so the source is taken
#     from a git directory holding that commit: $PEER_RESTAPI_GIT, else the repository snapshot
#     a session can fetch into ../.mirror/Mastercard+terraform-provider-restapi/repo. The proxy
#     is tried last, in case it serves the commit.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tofu_version=1.10.10
restapi_commit=88f3f9b
restapi_version=3.0.0 # the version main.tf pins; the mirror's folder and file names carry it
restapi_module=github.com/Mastercard/terraform-provider-restapi

ensure_name=ensure-peer
. "$repo/scripts/lib/ensure.sh"
die() { log "$*"; exit 1; }

peer_home="$cache_root/peer-tofu$tofu_version-restapi$restapi_commit"
provider_dir="mirror/registry.opentofu.org/mastercard/restapi/$restapi_version/linux_amd64"
provider_bin="$provider_dir/terraform-provider-restapi_v$restapi_version"

complete() { [ -x "$peer_home/bin/tofu" ] && [ -x "$peer_home/$provider_bin" ] && [ -f "$peer_home/tofurc" ]; }

# One build at a time: a second caller waits for the first, then finds its result.
mkdir -p "$cache_root"
exec 9>"$peer_home.lock"
flock 9
if complete; then
  log "using the cached peer in $peer_home"
  echo "$peer_home"
  exit 0
fi

command -v go >/dev/null 2>&1 || die "no Go toolchain to build the peer (Go 1.25 or newer)"
export GOTOOLCHAIN=local GOFLAGS="-mod=mod -buildvcs=false" CGO_ENABLED=0
# The result is staged beside its final place (one file system, so the last step is a rename);
# the sources go to a scratch folder that never enters the cache.
staging="$(mktemp -d "$cache_root/peer-build.XXXXXX")"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/peer-src.XXXXXX")"
trap 'rm -rf "$staging" "$scratch"' EXIT
mkdir -p "$staging/bin" "$staging/$provider_dir"

# `go build -v` names each package as it compiles; a count every 100 shows progress without
# flooding the log.
build() { # <source dir> <package> <output file> <label> [extra -ldflags]
  local started=$SECONDS
  log "building $4 (first time only) ..."
  if ! (cd "$1" && go build -v -trimpath -ldflags "-s -w ${5:-}" -o "$3" "$2" 2>&1) | awk -v label="$4" '
        /^go: downloading / { d++; if (d % 100 == 0) { printf "ensure-peer:   %s: %d modules downloaded\n", label, d; fflush() } next }
        /^(go: |#|.*\.go:[0-9]+)/ { print; next }
        { n++; if (n % 100 == 0) { printf "ensure-peer:   %s: %d packages compiled\n", label, n; fflush() } }
      ' >&2; then
    die "building $4 failed (see the lines above)"
  fi
  [ -x "$3" ] || die "building $4 produced no binary (see the lines above)"
  log "built $4 in $((SECONDS - started)) s"
}

# 1. The restapi provider's source at the commit, first, so that a missing one fails at once.
restapi_git="${PEER_RESTAPI_GIT:-$(dirname "$repo")/.mirror/Mastercard+terraform-provider-restapi/repo}"
if git --git-dir="$restapi_git" rev-parse -q --verify "$restapi_commit^{commit}" >/dev/null 2>&1; then
  log "taking restapi $restapi_commit from $restapi_git"
  mkdir "$scratch/restapi"
  git --git-dir="$restapi_git" archive "$restapi_commit" | tar -x -C "$scratch/restapi"
elif proxied="$(go mod download -json "$restapi_module@$restapi_commit" 2>/dev/null | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')" && [ -n "$proxied" ]; then
  log "taking restapi $restapi_commit from the Go module proxy"
  cp -r "$proxied" "$scratch/restapi"
  chmod -R u+w "$scratch/restapi"
else
  die "no source for $restapi_module at $restapi_commit: the Go module proxy does not serve that commit,
  and $restapi_git is not a git directory holding it. Point PEER_RESTAPI_GIT at a clone
  (or bare copy) of $restapi_module that has the commit, and run this again."
fi

# 2. OpenTofu. The module cache is read-only and `go install` refuses a module with a replace
#    directive, so the module is copied out and built in place.
tofu_dir="$(go mod download -json "github.com/opentofu/opentofu@v$tofu_version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')" || tofu_dir=
[ -n "$tofu_dir" ] && [ -d "$tofu_dir" ] || die "the Go module proxy did not give github.com/opentofu/opentofu@v$tofu_version"
cp -r "$tofu_dir" "$scratch/opentofu"
chmod -R u+w "$scratch/opentofu"
# Without dev=no it calls itself v1.10.10-dev, as any build from source does; releases set it so.
build "$scratch/opentofu" ./cmd/tofu "$staging/bin/tofu" "OpenTofu v$tofu_version" "-X github.com/opentofu/opentofu/version.dev=no"

# 3. The provider, into the mirror.
build "$scratch/restapi" . "$staging/$provider_bin" "restapi $restapi_version ($restapi_commit)"

# 4. The CLI config: the mirror is the only source for restapi (the registry is out of reach);
#    it names the final folder, which the staging folder becomes below.
cat >"$staging/tofurc" <<EOF
provider_installation {
  filesystem_mirror {
    path    = "$peer_home/mirror"
    include = ["registry.opentofu.org/mastercard/restapi"]
  }
  direct { exclude = ["registry.opentofu.org/mastercard/restapi"] }
}
EOF
TF_CLI_CONFIG_FILE="$staging/tofurc" "$staging/bin/tofu" version >&2 || die "the built tofu does not run"
chmod 0755 "$staging" # mktemp made it private; the cache's other entries are readable

# Move into place in one rename, so an interrupted build never leaves a half-filled cache entry.
rm -rf "$peer_home"
mv "$staging" "$peer_home"
trap 'rm -rf "$scratch"' EXIT
log "the peer is ready in $peer_home"
echo "$peer_home"
