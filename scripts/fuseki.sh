#!/usr/bin/env bash
# A private Apache Jena Fuseki (Fuseki Main, 5.6.0 from scripts/jenaJars.sh) in a folder of its own, loopback only.
#
#   scripts/fuseki.sh start DIR    writes DIR/config.ttl and DIR/passwd, starts Fuseki on 127.0.0.1 and waits
#                                  until /$/ping answers; prints the dataset URLs. Three datasets:
#                                    /mem   in memory, query + update + Graph Store (read-write)
#                                    /tdb   TDB2 in DIR/tdb (or $FUSEKI_TDB2_LOC), the same services, persistent
#                                    /auth  in memory, the same services, HTTP Basic: user "loader" only
#   scripts/fuseki.sh stop DIR     stops the instance started in DIR (by its PID) and waits for it.
#   scripts/fuseki.sh status DIR   exits 0 if the instance of DIR is running and answers.
#
# Environment: SCHOLARLY_JENA_LIB (the Jena 5.6 jars, required: scripts/jenaJars.sh prints it), JAVA (default:
# java; Java 17+), FUSEKI_PORT (default 3030), FUSEKI_HEAP (-Xmx, default 1g), FUSEKI_PASSWORD (the password of
# "loader", default: a random one), FUSEKI_TDB2_LOC (the TDB2 database of /tdb, default DIR/tdb: a database
# built by tdb2.tdbloader, say), FUSEKI_START_TIMEOUT (seconds, default 120).
# The password is in DIR/passwd (mode 600, Jetty's "user: password" form, as Fuseki's --passwd reads it).
#
# Facts this relies on (measured with 5.6.0 on Java 17): Fuseki Main serves several datasets only from a
# configuration file; --passwd with --auth=basic asks for credentials only on a service that names
# fuseki:allowedUsers (the others stay open), and answers 401 with WWW-Authenticate: Basic realm="TripleStore".
set -euo pipefail

usage() { echo "usage: fuseki.sh start|stop|status DIR" >&2; exit 2; }
die() { echo "fuseki.sh: $*" >&2; exit 1; }

[ $# -eq 2 ] || usage
action=$1
dir=$2
NAME=fuseki
PID_FILE=fuseki.pid
# shellcheck source=scripts/serverPid.sh
. "$(dirname "$0")/serverPid.sh"
PORT=${FUSEKI_PORT:-3030}
HEAP=${FUSEKI_HEAP:-1g}
TIMEOUT=${FUSEKI_START_TIMEOUT:-120}
JAVA_BIN=${JAVA:-java}

ports_of() {
  # shellcheck disable=SC1091
  if [ -f "$dir/port" ]; then PORT=$(cat "$dir/port"); fi
}

answers() { curl -fsS -o /dev/null --max-time 5 "http://127.0.0.1:$PORT/\$/ping" 2>/dev/null; }

services() {
  cat <<TTL
  fuseki:endpoint [ fuseki:operation fuseki:query ; fuseki:name "query" ] ;
  fuseki:endpoint [ fuseki:operation fuseki:query ; fuseki:name "sparql" ] ;
  fuseki:endpoint [ fuseki:operation fuseki:update ; fuseki:name "update" ] ;
  fuseki:endpoint [ fuseki:operation fuseki:gsp-rw ; fuseki:name "data" ] ;
  fuseki:endpoint [ fuseki:operation fuseki:gsp-r ; fuseki:name "get" ] ;
TTL
}

start() {
  [ -n "${SCHOLARLY_JENA_LIB:-}" ] || die "SCHOLARLY_JENA_LIB is not set (the Jena 5.6 jars: scripts/jenaJars.sh DIR prints it)"
  compgen -G "$SCHOLARLY_JENA_LIB/jena-fuseki-main-*.jar" >/dev/null || die "no jena-fuseki-main jar in $SCHOLARLY_JENA_LIB (scripts/jenaJars.sh)"
  command -v "$JAVA_BIN" >/dev/null 2>&1 || die "java not found (Java 17 or later)"
  command -v curl >/dev/null 2>&1 || die "curl not found (apt-get install curl)"
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if running_pid >/dev/null; then die "an instance is already running in $dir (pid $(cat "$dir/fuseki.pid"))"; fi
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then die "port $PORT on 127.0.0.1 is in use (set FUSEKI_PORT)"; fi
  echo "$PORT" > "$dir/port"
  local loc=${FUSEKI_TDB2_LOC:-$dir/tdb}
  local password=${FUSEKI_PASSWORD:-}
  if [ -z "$password" ]; then
    if [ -f "$dir/passwd" ]; then password=$(sed -n 's/^loader: //p' "$dir/passwd"); fi
    [ -n "$password" ] || password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
  fi
  (umask 077; printf 'loader: %s\n' "$password" > "$dir/passwd")
  cat > "$dir/config.ttl" <<TTL
PREFIX fuseki: <http://jena.apache.org/fuseki#>
PREFIX rdf:    <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX ja:     <http://jena.hpl.hp.com/2005/11/Assembler#>
PREFIX tdb2:   <http://jena.apache.org/2016/tdb#>
PREFIX :       <#>

:mem rdf:type fuseki:Service ; fuseki:name "mem" ;
$(services)
  fuseki:dataset [ rdf:type ja:MemoryDataset ] .

:tdb rdf:type fuseki:Service ; fuseki:name "tdb" ;
$(services)
  fuseki:dataset [ rdf:type tdb2:DatasetTDB2 ; tdb2:location "$loc" ] .

:auth rdf:type fuseki:Service ; fuseki:name "auth" ;
  fuseki:allowedUsers "loader" ;
$(services)
  fuseki:dataset [ rdf:type ja:MemoryDataset ] .
TTL
  (cd "$dir" && exec "$JAVA_BIN" "-Xmx$HEAP" -cp "$SCHOLARLY_JENA_LIB/*" org.apache.jena.fuseki.main.cmds.FusekiMainCmd \
    --localhost --port "$PORT" --config="$dir/config.ttl" --passwd="$dir/passwd" --auth=basic --ping >"$dir/fuseki.log" 2>&1) &
  echo $! > "$dir/fuseki.pid"
  local pid deadline
  pid=$(cat "$dir/fuseki.pid")
  deadline=$((SECONDS + TIMEOUT))
  until answers; do
    kill -0 "$pid" 2>/dev/null || { tail -20 "$dir/fuseki.log" >&2 2>/dev/null || true; die "Fuseki exited during start (see $dir/fuseki.log)"; }
    [ $SECONDS -lt $deadline ] || { stop_pid "$pid"; die "Fuseki did not answer /\$/ping within ${TIMEOUT}s"; }
    sleep 0.3
  done
  echo "fuseki pid $pid, http://127.0.0.1:$PORT/mem, http://127.0.0.1:$PORT/tdb (TDB2 in $loc), http://127.0.0.1:$PORT/auth (Basic, user loader, password in $dir/passwd)"
}

status() {
  ports_of
  local pid
  pid=$(running_pid) || { echo "not running"; exit 1; }
  if answers; then echo "running, pid $pid, http://127.0.0.1:$PORT/"; else echo "pid $pid alive but not answering"; exit 1; fi
}

case "$action" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
