#!/usr/bin/env bash
# Fetches Apache Jena 5.6.0 (Fuseki main server and the command-line tools: riot, shacl,
# tdb2.tdbloader) with Maven from Maven Central into DIR/lib, once; prints DIR/lib.
#   scripts/jenaJars.sh DIR
# DIR/m2 is Maven's local repository for this fetch (nothing goes to ~/.m2). Java 17 runs 5.6.0;
# Jena 6.x needs Java 21+. The versions are pinned here, in one place.
set -euo pipefail
JENA_VERSION=5.6.0
dir=${1:?usage: scripts/jenaJars.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ -f "$dir/lib/.complete-$JENA_VERSION" ]; then echo "$dir/lib"; exit 0; fi
cat >"$dir/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.scholarly-rdf</groupId>
  <artifactId>jena-tools</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.jena</groupId><artifactId>jena-fuseki-main</artifactId><version>$JENA_VERSION</version></dependency>
    <dependency><groupId>org.apache.jena</groupId><artifactId>jena-cmds</artifactId><version>$JENA_VERSION</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId><version>2.25.3</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j2-impl</artifactId><version>2.25.3</version></dependency>
  </dependencies>
</project>
POM
rm -rf "$dir/lib"
mvn -q -B -f "$dir/pom.xml" -Dmaven.repo.local="$dir/m2" \
  org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
  -DoutputDirectory="$dir/lib" -DincludeScope=runtime >&2
touch "$dir/lib/.complete-$JENA_VERSION"
echo "$dir/lib"
