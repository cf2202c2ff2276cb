#!/usr/bin/env bash
# A private Virtuoso Open Source 7 instance in a directory of its own, loopback only.
#
#   scripts/virtuoso.sh start DIR    creates DIR (database, virtuoso.ini, log), starts virtuoso-t,
#                                    grants SPARQL_UPDATE to the anonymous SPARQL user and waits
#                                    until both isql and /sparql answer; prints the endpoint URLs.
#   scripts/virtuoso.sh stop DIR     stops the instance started in DIR (by its PID) and waits for it.
#   scripts/virtuoso.sh status DIR   exits 0 if the instance of DIR is running and answers.
#
# Environment: VIRTUOSO_PORT (SQL/isql port, default 1111), VIRTUOSO_HTTP_PORT (default 8890),
# VIRTUOSO_BUFFERS (NumberOfBuffers, 8 KB pages, default 100000), VIRTUOSO_START_TIMEOUT
# (seconds, default 120). The instance binds 127.0.0.1 only; the dba password is "dba"
# (a fresh database; never expose it). Needs virtuoso-opensource-7-bin (virtuoso-t, isql-vt) and curl.
#
# Facts this relies on (measured): ResultSetMaxRows must be raised (the default truncates
# results at 10,000 rows silently); without GRANT SPARQL_UPDATE TO "SPARQL" anonymous Graph
# Store writes answer 403; the -auth endpoints want HTTP Digest.
set -euo pipefail

usage() { echo "usage: virtuoso.sh start|stop|status DIR" >&2; exit 2; }
die() { echo "virtuoso.sh: $*" >&2; exit 1; }

[ $# -eq 2 ] || usage
action=$1
dir=$2
NAME=virtuoso
PID_FILE=virtuoso.pid
# shellcheck source=scripts/serverPid.sh
. "$(dirname "$0")/serverPid.sh"
SQL_PORT=${VIRTUOSO_PORT:-1111}
HTTP_PORT=${VIRTUOSO_HTTP_PORT:-8890}
BUFFERS=${VIRTUOSO_BUFFERS:-100000}
TIMEOUT=${VIRTUOSO_START_TIMEOUT:-120}

need() { command -v "$1" >/dev/null 2>&1 || die "$1 not found (apt-get install $2)"; }

# Ports of a running instance come from its own files (so stop/status need no environment).
ports_of() {
  if [ -f "$dir/ports" ]; then
    # shellcheck disable=SC1091
    . "$dir/ports"
  fi
}

isql() { isql-vt "127.0.0.1:$SQL_PORT" dba dba "$@"; }

answers() {
  isql exec='select 1;' >/dev/null 2>&1 &&
    curl -fsS -o /dev/null --max-time 5 "http://127.0.0.1:$HTTP_PORT/sparql?query=ASK%7B%7D" 2>/dev/null
}

start() {
  need virtuoso-t virtuoso-opensource-7-bin
  need isql-vt virtuoso-opensource-7-bin
  need curl curl
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if running_pid >/dev/null; then die "an instance is already running in $dir (pid $(cat "$dir/virtuoso.pid"))"; fi
  for port in "$SQL_PORT" "$HTTP_PORT"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then die "port $port on 127.0.0.1 is in use (set VIRTUOSO_PORT / VIRTUOSO_HTTP_PORT)"; fi
  done
  printf 'SQL_PORT=%s\nHTTP_PORT=%s\n' "$SQL_PORT" "$HTTP_PORT" > "$dir/ports"
  cat > "$dir/virtuoso.ini" <<INI
[Database]
DatabaseFile = $dir/virtuoso.db
ErrorLogFile = $dir/virtuoso.log
LockFile = $dir/virtuoso.lck
TransactionFile = $dir/virtuoso.trx
xa_persistent_file = $dir/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
MaxCheckpointRemap = 2000
Striping = 0

[TempDatabase]
DatabaseFile = $dir/virtuoso-temp.db
TransactionFile = $dir/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping = 0

[Parameters]
ServerPort = 127.0.0.1:$SQL_PORT
LiteMode = 0
DisableUnixSocket = 1
DisableTcpSocket = 0
ServerThreads = 10
CheckpointInterval = 60
NumberOfBuffers = $BUFFERS
MaxDirtyBuffers = $((BUFFERS * 3 / 4))
MaxQueryMem = 1G
DirsAllowed = ., $dir
ThreadCleanupInterval = 1
ResourcesCleanupInterval = 1

[HTTPServer]
ServerPort = 127.0.0.1:$HTTP_PORT
ServerRoot = $dir/www
ServerThreads = 10
MaxKeepAlives = 10
KeepAliveTimeout = 10
MaxClientConnections = 10
EnabledDavVSP = 0
HTTPProxyEnabled = 0

[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryCostEstimationTime = 400
MaxQueryExecutionTime = 600
DefaultQuery = ASK {}
INI
  mkdir -p "$dir/www"
  (cd "$dir" && exec virtuoso-t +configfile "$dir/virtuoso.ini" +foreground >"$dir/stdout.log" 2>&1) &
  echo $! > "$dir/virtuoso.pid"
  local pid deadline
  pid=$(cat "$dir/virtuoso.pid")
  deadline=$((SECONDS + TIMEOUT))
  until isql exec='select 1;' >/dev/null 2>&1; do
    kill -0 "$pid" 2>/dev/null || { tail -20 "$dir/virtuoso.log" "$dir/stdout.log" >&2 2>/dev/null || true; die "virtuoso-t exited during start (see $dir/virtuoso.log)"; }
    [ $SECONDS -lt $deadline ] || { stop_pid "$pid"; die "virtuoso did not answer isql within ${TIMEOUT}s"; }
    sleep 0.5
  done
  # Anonymous SPARQL writes (Graph Store Protocol and SPARQL Update) for the SPARQL user.
  isql >"$dir/grant.log" 2>&1 <<'SQL' || { stop_pid "$pid"; die "GRANT failed (see $dir/grant.log)"; }
GRANT SPARQL_UPDATE TO "SPARQL";
GRANT EXECUTE ON DB.DBA.SPARQL_INSERT_DICT_CONTENT TO "SPARQL";
GRANT EXECUTE ON DB.DBA.SPARQL_DELETE_DICT_CONTENT TO "SPARQL";
SQL
  until answers; do
    kill -0 "$pid" 2>/dev/null || die "virtuoso-t exited during start (see $dir/virtuoso.log)"
    [ $SECONDS -lt $deadline ] || { stop_pid "$pid"; die "virtuoso /sparql did not answer within ${TIMEOUT}s"; }
    sleep 0.5
  done
  echo "virtuoso pid $pid, SQL 127.0.0.1:$SQL_PORT, SPARQL http://127.0.0.1:$HTTP_PORT/sparql, GSP http://127.0.0.1:$HTTP_PORT/sparql-graph-crud"
}

status() {
  ports_of
  local pid
  pid=$(running_pid) || { echo "not running"; exit 1; }
  if answers; then echo "running, pid $pid, http://127.0.0.1:$HTTP_PORT/sparql"; else echo "pid $pid alive but not answering"; exit 1; fi
}

case "$action" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
