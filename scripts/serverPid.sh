# Sourced by scripts/virtuoso.sh and scripts/fuseki.sh: a server started in the background, known by the PID
# written in a file of its folder. Needs: $dir (the folder), $PID_FILE (the PID file's name in it), $NAME.

# Prints the PID of the running server; fails when there is none.
running_pid() {
  [ -f "$dir/$PID_FILE" ] || return 1
  local pid
  pid=$(cat "$dir/$PID_FILE")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

# Stops PID with SIGTERM, waits up to 30 s for it to end, then SIGKILL.
stop_pid() {
  local pid=$1 i
  kill -TERM "$pid" 2>/dev/null || return 0
  for i in $(seq 1 120); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.25
  done
  kill -KILL "$pid" 2>/dev/null || true
}

# Stops the server of $dir, if it runs, and forgets its PID.
stop() {
  local pid
  if pid=$(running_pid); then
    stop_pid "$pid"
    echo "$NAME pid $pid stopped"
  fi
  rm -f "$dir/$PID_FILE"
}
