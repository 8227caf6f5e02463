#!/usr/bin/env bash
# Runs one test file and says where its CPU went: each `pulumi` command and each Node.js process
# (the programs, the dynamic providers' hosts, mocha), timed by /usr/bin/time through wrappers put
# first on PATH. The CI run is CPU-bound on 2 cores (BENCHMARKS.md, "The CI run"), so this is what
# to look at before making a suite faster.
#
#   bash scripts/cpu-by-process.sh test/e2e/lifecycle.test.ts
#
# The CLI is the pinned one (scripts/ensure-pulumi.sh pinned), Node.js the first `node` on PATH;
# the suite runs as scripts/test.ts runs its jobs (compile cache, programs transpiled only, Maven's
# JVM with C1 only). Needs GNU time (/usr/bin/time, Debian's package `time`).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
file="${1:?usage: cpu-by-process.sh <test file>}"
[ -x /usr/bin/time ] || { echo "cpu-by-process: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }

engine="$(bash "$repo/scripts/ensure-pulumi.sh" pinned)"
node="$(command -v node)"
work="$(mktemp -d "${TMPDIR:-/tmp}/pip-cpu.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
# The engine's other binaries beside the wrapper, as ensure-pulumi.sh lays them out.
for f in "$engine"/*; do [ "$(basename "$f")" = pulumi ] || ln -s "$f" "$work/bin/"; done
cat >"$work/bin/pulumi" <<EOF
#!/usr/bin/env bash
exec /usr/bin/time -a -o "$work/pulumi.log" -f "%U %S pulumi \$1 \$2" "$engine/pulumi" "\$@"
EOF
cat >"$work/bin/node" <<EOF
#!/usr/bin/env bash
exec /usr/bin/time -a -o "$work/node.log" -f "%U %S \$*" "$node" "\$@"
EOF
chmod +x "$work/bin/pulumi" "$work/bin/node"

export PATH="$work/bin:$PATH"
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$HOME/.cache/pulumi-integration-platform/node-compile-cache}"
export PULUMI_NODEJS_TRANSPILE_ONLY="${PULUMI_NODEJS_TRANSPILE_ONLY:-true}"
export MAVEN_OPTS="${MAVEN_OPTS:--XX:TieredStopAtLevel=1}"
cd "$repo"
status=0
/usr/bin/time -o "$work/total" -f "%U %S %e" node node_modules/mocha/bin/mocha.js "$file" >"$work/out" 2>&1 || status=$?
tail -n 3 "$work/out"

read -r user sys wall <"$work/total"
echo "cpu-by-process: $file: $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }') CPU-s in ${wall} s"
echo "-- pulumi commands (CPU-s with their plugins and programs, count, command)"
awk '{ c[$3 " " $4 " " $5] += $1 + $2; k[$3 " " $4 " " $5]++ } END { for (x in c) printf "%7.1f %4d  %s\n", c[x], k[x], x }' "$work/pulumi.log" | sort -rn
echo "-- Node.js processes (CPU-s, count, kind)"
awk '{
  kind = "other: " $4
  if ($0 ~ /cmd\/run\//) kind = "programs (@pulumi/pulumi cmd/run)"
  else if ($0 ~ /cmd\/dynamic-provider\//) kind = "dynamic providers (@pulumi/pulumi cmd/dynamic-provider)"
  else if ($0 ~ /mocha/) kind = "mocha (the test process, with every process it waited for)"
  c[kind] += $1 + $2; k[kind]++
} END { for (x in c) printf "%7.1f %4d  %s\n", c[x], k[x], x }' "$work/node.log" | sort -rn
exit $status
