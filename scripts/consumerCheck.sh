#!/usr/bin/env bash
# The package as a consumer gets it (.ci/run runs this): `npm pack` (which builds), the tarball
# installed into an empty project from the npm registry, then
#   - the installed packages counted and their size measured (must stay within MAX_PACKAGES and
#     MAX_MB; no Comunica, which only the optional SPARQL engine needs);
#   - scripts/consumerCheck/consumer.ts, which imports the public API, type-checked against the
#     published declarations under `strict` with `skipLibCheck: false`, and run: convertFiles on the
#     bundled sample, validateDump on the result (1 and 2 threads), `sparql: 'engine'` refused with a
#     `usage` error naming what to install;
#   - the optional peers (Comunica) installed: `sparql: 'engine'` gives the native results;
#   - LICENSE in the package, and every source map with its sources (sourcesContent: src/ is not shipped).
# Prints "consumer check: passed" and exits 0, or says what failed and exits 1.
#
# Usage: scripts/consumerCheck.sh [TARBALL]   (default: packs the project it belongs to)
set -euo pipefail

MAX_PACKAGES=60
MAX_MB=25
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/scholarly-consumer.XXXXXX")
[ -n "${KEEP_CONSUMER:-}" ] || trap 'rm -rf "$WORK"' EXIT

fail() { printf 'consumer check failed: %s\n' "$*" >&2; exit 1; }
step() { printf -- '--- %s\n' "$*"; }

if [ $# -ge 1 ]; then
  TARBALL=$(realpath "$1")
else
  step "npm pack"
  (cd "$ROOT" && npm pack --silent --pack-destination "$WORK" >"$WORK/pack.log") || { cat "$WORK/pack.log" >&2; fail "npm pack failed"; }
  TARBALL=$(ls "$WORK"/scholarly-rdf-*.tgz)
fi
PROJECT="$WORK/project"
mkdir -p "$PROJECT"
cd "$PROJECT"
printf '{ "name": "consumer", "private": true, "type": "module" }\n' >package.json

step "npm install $(basename "$TARBALL")"
npm install --no-audit --no-fund "$TARBALL" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log" >&2; fail "npm install of the tarball failed"; }
packages=$(node -e 'const l = require("./package-lock.json"); console.log(Object.keys(l.packages).filter((k) => k.startsWith("node_modules/")).length)')
kib=$(du -sk node_modules | cut -f1)
mb=$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')
echo "installed: $packages packages, $mb MB (du -sk node_modules: $kib KiB)"
[ ! -e node_modules/@comunica ] || fail "Comunica was installed ($(ls node_modules/@comunica | wc -l) @comunica packages)"
[ "$packages" -lt "$MAX_PACKAGES" ] || fail "$packages packages installed, the limit is $MAX_PACKAGES"
[ "$kib" -lt $((MAX_MB * 1024)) ] || fail "$mb MB installed, the limit is $MAX_MB MB"

# The licence ships with the package, and every source map carries its sources (src/ is not shipped).
[ -f node_modules/scholarly-rdf/LICENSE ] || fail "the package has no LICENSE file"
maps=$(node -e '
  const { readdirSync, readFileSync } = require("node:fs");
  const dir = "node_modules/scholarly-rdf/dist";
  const files = readdirSync(dir, { recursive: true }).filter((f) => f.endsWith(".map"));
  const bad = files.filter((f) => { const m = JSON.parse(readFileSync(`${dir}/${f}`, "utf8")); return !Array.isArray(m.sourcesContent) || m.sourcesContent.length !== m.sources.length || m.sourcesContent.some((c) => typeof c !== "string"); });
  if (bad.length > 0) { console.error(`source maps without their sources: ${bad.slice(0, 5).join(", ")} (${bad.length})`); process.exit(1); }
  console.log(files.length);
') || fail "source maps are shipped without their sources"
echo "LICENSE shipped; $maps source maps, each with its sources"

# The project's TypeScript and the 5.x line most consumers still use.
typescript=$(node -p "require('$ROOT/node_modules/typescript/package.json').version" 2>/dev/null || echo latest)
compilers=("$typescript" 5)
step "type-check consumer.ts (strict, skipLibCheck: false) with typescript ${compilers[*]}"
mkdir -p "$WORK/tools"
(cd "$WORK/tools" && printf '{ "private": true }\n' >package.json &&
  npm install --no-audit --no-fund "ts-a@npm:typescript@${compilers[0]}" "ts-b@npm:typescript@${compilers[1]}" >"$WORK/tools.log" 2>&1) ||
  { cat "$WORK/tools.log" >&2; fail "npm install typescript@${compilers[0]} typescript@${compilers[1]} failed"; }
cp "$ROOT/scripts/consumerCheck/consumer.ts" .
cat >tsconfig.json <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "skipLibCheck": false,
    "outDir": "out"
  },
  "files": ["consumer.ts"]
}
JSON
for tool in ts-b ts-a; do
  version=$(node -p "require('$WORK/tools/node_modules/$tool/package.json').version")
  node "$WORK/tools/node_modules/$tool/bin/tsc" -p tsconfig.json ||
    fail "consumer.ts does not type-check against the published declarations (typescript $version)"
  echo "type-checked with typescript $version"
done

step "run consumer.js without the SPARQL engine"
node out/consumer.js plain node_modules/scholarly-rdf/data/sample-catalogue.jsonl || fail "the consumer did not run"

step "install the optional peers and run the SPARQL engine"
peers=$(node -p 'const p = require("./node_modules/scholarly-rdf/package.json"); Object.entries(p.peerDependencies).map(([n, v]) => `${n}@${v}`).join(" ")')
# shellcheck disable=SC2086
npm install --no-audit --no-fund $peers >"$WORK/peers.log" 2>&1 || { cat "$WORK/peers.log" >&2; fail "npm install $peers failed"; }
node out/consumer.js engine || fail "the SPARQL engine did not run"

echo "consumer check: passed"
