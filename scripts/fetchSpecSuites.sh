#!/usr/bin/env bash
# Copies the W3C test suites that `npm run spec` (test/spec/, vitest.spec.config.ts) runs into
# test/spec/, so that the spec tests run offline from a committed copy. Run it once, and again only to
# update the copy; commit what it writes.
#
# - test/spec/shacl-core/: the W3C SHACL core test suite (the `core` folder of the data-shapes test
#   suite, https://github.com/w3c/data-shapes, data-shapes-test-suite/tests/core), as shacl-engine
#   ships it for its own tests (node_modules/shacl-engine/test/assets/data-shapes/core; shacl-engine is
#   a devDependency, so `npm ci` brings it). W3C test suites are distributed under both the W3C Test
#   Suite License and the W3C 3-clause BSD License; LICENSE.md beside the copy says so and where it
#   came from.
#
# - test/spec/rdf-tests/: the W3C RDF 1.1 and RDF 1.2 N-Triples, N-Quads, Turtle and RDF/XML tests
#   (https://github.com/w3c/rdf-tests, rdf/rdf11 and rdf/rdf12, commit RDF_TESTS_COMMIT below), copied
#   from a checkout given as W3C_SUITES (a folder holding rdf-tests/rdf11, rdf-tests/rdf12 and
#   rdf-tests/LICENSE.md, as /work/shared/w3c does); left alone when W3C_SUITES is not set. Ruby
#   scripts, HTML pages and EARL reports are left out.
# - test/spec/json-ld-api-tests/: the W3C JSON-LD 1.1 toRdf and fromRdf tests
#   (https://github.com/w3c/json-ld-api, tests/, commit JSONLD_TESTS_COMMIT below), from
#   W3C_SUITES/json-ld-api-tests likewise.
#
# Usage: scripts/fetchSpecSuites.sh            (SHACL core)
#        W3C_SUITES=/path/to/w3c scripts/fetchSpecSuites.sh   (and the RDF syntax suites)
set -euo pipefail
cd "$(dirname "$0")/.."

SOURCE=node_modules/shacl-engine/test/assets/data-shapes/core
TARGET=test/spec/shacl-core
[ -f "$SOURCE/manifest.ttl" ] || { echo "fetchSpecSuites: $SOURCE/manifest.ttl is missing: run npm ci (shacl-engine is a devDependency)" >&2; exit 1; }
ENGINE_VERSION=$(node -p "require('./node_modules/shacl-engine/package.json').version")

rm -rf "$TARGET"
mkdir -p "$TARGET"
cp -R "$SOURCE"/. "$TARGET"/
files=$(find "$TARGET" -name '*.ttl' | wc -l | tr -d ' ')

cat > "$TARGET/LICENSE.md" <<LICENSE
# W3C SHACL core test suite

The Turtle files of this folder are the \`core\` tests of the W3C SHACL test suite, from the
W3C Data Shapes Working Group's repository <https://github.com/w3c/data-shapes>
(\`data-shapes-test-suite/tests/core\`, published at <https://w3c.github.io/data-shapes/data-shapes-test-suite/>),
copied as they are by \`scripts/fetchSpecSuites.sh\` from the copy that shacl-engine ${ENGINE_VERSION} (MIT) ships for
its own tests (\`node_modules/shacl-engine/test/assets/data-shapes/core\`).

Like every W3C test suite, they are distributed under both the
[W3C Test Suite License](https://www.w3.org/Consortium/Legal/2008/04-testsuite-license) and the
[W3C 3-clause BSD License](https://www.w3.org/Consortium/Legal/2008/03-bsd-license), at the licensee's choice
(<https://www.w3.org/copyright/test-suites-licenses/>). scholarly-rdf uses them under the 3-clause BSD License,
to test its software; it makes no claim of conformance to the SHACL Recommendation from them.

Copyright © World Wide Web Consortium (MIT, ERCIM, Keio, Beihang) and the contributors to the test suite.
LICENSE

cat > "$TARGET/README.md" <<README
# SHACL core tests

${files} Turtle files: \`manifest.ttl\` and the manifests it includes list the tests (\`sht:Validate\`: a data
graph, a shapes graph and the expected \`sh:ValidationReport\`). \`npm run spec\` runs each through
\`validate\`'s library path (test/spec/shaclCore.test.ts) and compares the conformance and the results. See
LICENSE.md for where the files come from and their licence; \`scripts/fetchSpecSuites.sh\` writes this folder.
README

echo "fetchSpecSuites: ${files} files of the W3C SHACL core test suite in $TARGET"

RDF_TESTS_COMMIT=ad541a5f0479f0798608c4801369d97b8e08b36f
if [ -n "${W3C_SUITES:-}" ]; then
  SOURCE="$W3C_SUITES/rdf-tests"
  TARGET=test/spec/rdf-tests
  [ -f "$SOURCE/rdf11/rdf-turtle/manifest.ttl" ] || { echo "fetchSpecSuites: no $SOURCE/rdf11/rdf-turtle/manifest.ttl" >&2; exit 1; }
  rm -rf "$TARGET"
  mkdir -p "$TARGET"
  cp -R "$SOURCE/rdf11" "$SOURCE/rdf12" "$SOURCE/LICENSE.md" "$TARGET"/
  find "$TARGET" \( -name '*.rb' -o -name '*.html' -o -name '*earl*' \) -delete
  files=$(find "$TARGET" -type f | wc -l | tr -d ' ')
  cat > "$TARGET/README.md" <<README
# W3C RDF 1.1 and RDF 1.2 syntax tests

The \`rdf/rdf11\` and \`rdf/rdf12\` folders of <https://github.com/w3c/rdf-tests> at commit
${RDF_TESTS_COMMIT} (2026-08-07): the N-Triples, N-Quads, Turtle and RDF/XML syntax and evaluation tests,
each folder with its \`manifest.ttl\` (${files} files; Ruby scripts, HTML pages and EARL reports left out),
published at <https://w3c.github.io/rdf-tests/>. Distributed under both the W3C Test Suite License and the
W3C 3-clause BSD License (LICENSE.md); scholarly-rdf uses them under the 3-clause BSD License, to test its
software. \`npm run spec\` runs every entry through the toolkit's reader and writers
(test/spec/rdfSyntax.test.ts); \`W3C_SUITES=... scripts/fetchSpecSuites.sh\` writes this folder.
README
  echo "fetchSpecSuites: ${files} files of the W3C RDF syntax tests in $TARGET"

  JSONLD_TESTS_COMMIT=92f07705a0c0ac27aa9bc6fe1322dcc9fad0114d
  SOURCE="$W3C_SUITES/json-ld-api-tests"
  TARGET=test/spec/json-ld-api-tests
  [ -f "$SOURCE/toRdf-manifest.jsonld" ] || { echo "fetchSpecSuites: no $SOURCE/toRdf-manifest.jsonld" >&2; exit 1; }
  rm -rf "$TARGET"
  mkdir -p "$TARGET"
  cp -R "$SOURCE"/{LICENSE.md,context.jsonld,toRdf,toRdf-manifest.jsonld,fromRdf,fromRdf-manifest.jsonld} "$TARGET"/
  files=$(find "$TARGET" -type f | wc -l | tr -d ' ')
  cat > "$TARGET/README.md" <<README
# W3C JSON-LD 1.1 toRdf and fromRdf tests

The toRdf and fromRdf tests of <https://github.com/w3c/json-ld-api> (\`tests/\`) at commit
${JSONLD_TESTS_COMMIT} (2026-07-01): \`toRdf-manifest.jsonld\`, \`fromRdf-manifest.jsonld\`, the manifests'
\`context.jsonld\` and the \`toRdf/\` and \`fromRdf/\` folders (${files} files), published at
<https://w3c.github.io/json-ld-api/tests/>. Distributed under both the W3C Test Suite License and the W3C
3-clause BSD License (LICENSE.md); scholarly-rdf uses them under the 3-clause BSD License, to test its
software. \`npm run spec\` runs every entry (test/spec/jsonLd.test.ts); \`W3C_SUITES=...
scripts/fetchSpecSuites.sh\` writes this folder.
README
  echo "fetchSpecSuites: ${files} files of the W3C JSON-LD toRdf and fromRdf tests in $TARGET"
fi
