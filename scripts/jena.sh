#!/usr/bin/env bash
# Runs Apache Jena as packaged by Debian (libapache-jena-java 4.5, libxerces2-java).
#
#   scripts/jena.sh riot --validate FILE...      (riotcmd.riot; exits 1 on any error or warning)
#   scripts/jena.sh riot --count FILE...
#   scripts/jena.sh shacl validate --shapes S --data D   (shacl.shacl)
#   scripts/jena.sh sparql --data F --query Q            (arq.sparql)
#   scripts/jena.sh tdb2.tdbloader --loc DIR FILE...     (tdb2.tdbloader)
#   scripts/jena.sh class JAVA.MAIN.CLASS ARGS...        (any other Jena command class)
#
# Two fixes make the Debian package run:
#  (a) the classpath names the Jena jars and their dependencies one by one:
#      /usr/share/java/* brings two slf4j bindings and the JVM dies;
#  (b) Debian renamed Jena's bundled Xerces classes to xerces.* but left their
#      message bundles under org/apache/jena/ext/xerces/ in jena-core.jar; the
#      bundles are copied once into a cache directory as xerces/impl/... and
#      that directory goes first on the classpath (without it, a datatype error
#      such as "2015-02-30"^^xsd:date crashes instead of being reported).
# JSON-LD: Jena 4.5's JSON-LD 1.1 reader is broken on this install (missing
# parsson provider); pass --syntax=jsonld10, or use scripts/rdflib-parse.py.
#
# Environment: JAVA (default: java), JENA_JAVA_DIR (default: /usr/share/java),
# JENA_CACHE_DIR (default: ${XDG_CACHE_HOME:-$HOME/.cache}/scholarly-rdf/jena),
# JVM_ARGS (default: -Xmx1g).
set -euo pipefail

JAVA_DIR=${JENA_JAVA_DIR:-/usr/share/java}
CACHE_DIR=${JENA_CACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/scholarly-rdf/jena}
JAVA_BIN=${JAVA:-java}

die() { echo "jena.sh: $*" >&2; exit 127; }

[ $# -ge 1 ] || die "usage: jena.sh riot|shacl|sparql|tdb2.tdbloader|class CLASS [ARGS...]"
command -v "$JAVA_BIN" >/dev/null 2>&1 || die "java not found (apt-get install default-jre-headless)"

JARS="jena-arq jena-base jena-core jena-cmds jena-dboe-base jena-dboe-index jena-dboe-storage
 jena-dboe-trans-data jena-dboe-transaction jena-iri jena-shacl jena-shex jena-tdb jena-tdb2
 jena-rdfconnection commons-cli commons-codec commons-compress commons-csv commons-io commons-lang3
 dexx.collection gson jackson-annotations jackson-core jackson-databind jakarta.json-api jsonld-java
 titanium-json-ld httpclient httpclient-cache httpcore thrift protobuf guava slf4j-api slf4j-simple
 jcl-over-slf4j"

# Fix (b): the Xerces message bundles, extracted once (atomically, so parallel runs are safe).
BUNDLES="$CACHE_DIR/xerces-bundles"
if [ ! -f "$BUNDLES/.complete" ]; then
  command -v unzip >/dev/null 2>&1 || die "unzip not found (apt-get install unzip)"
  [ -f "$JAVA_DIR/jena-core.jar" ] || die "$JAVA_DIR/jena-core.jar not found (apt-get install libapache-jena-java libxerces2-java)"
  mkdir -p "$CACHE_DIR"
  tmp=$(mktemp -d "$CACHE_DIR/.bundles.XXXXXX")
  unzip -q -o "$JAVA_DIR/jena-core.jar" 'org/apache/jena/ext/xerces/impl/msg/*' \
    'org/apache/jena/ext/xerces/impl/xpath/regex/message.properties' -d "$tmp/unzipped"
  mkdir -p "$tmp/out/xerces/impl/msg" "$tmp/out/xerces/impl/xpath/regex"
  cp "$tmp"/unzipped/org/apache/jena/ext/xerces/impl/msg/* "$tmp/out/xerces/impl/msg/"
  cp "$tmp"/unzipped/org/apache/jena/ext/xerces/impl/xpath/regex/message.properties "$tmp/out/xerces/impl/xpath/regex/"
  touch "$tmp/out/.complete"
  if ! mv -T "$tmp/out" "$BUNDLES" 2>/dev/null; then
    [ -f "$BUNDLES/.complete" ] || die "could not create $BUNDLES"
  fi
  rm -rf "$tmp"
fi

# Fix (a): the classpath, jar by jar.
CP="$BUNDLES"
for name in $JARS; do
  jar="$JAVA_DIR/$name.jar"
  [ -f "$jar" ] || die "$jar not found (apt-get install libapache-jena-java libxerces2-java)"
  CP="$CP:$jar"
done

cmd=$1; shift
case "$cmd" in
  riot) main=riotcmd.riot ;;
  shacl) main=shacl.shacl ;;
  sparql) main=arq.sparql ;;
  tdb2.tdbloader|tdbloader2|tdb2-tdbloader) main=tdb2.tdbloader ;;
  tdb2.tdbquery) main=tdb2.tdbquery ;;
  class) [ $# -ge 1 ] || die "usage: jena.sh class CLASS [ARGS...]"; main=$1; shift ;;
  *) die "unknown command '$cmd' (riot, shacl, sparql, tdb2.tdbloader, tdb2.tdbquery, class)" ;;
esac

# shellcheck disable=SC2086
exec "$JAVA_BIN" ${JVM_ARGS:--Xmx1g} -cp "$CP" "$main" "$@"
