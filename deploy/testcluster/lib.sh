# Shared settings of the local control plane scripts (sourced by up, down, restart-apiserver and
# run-tests).
CACHE=${CAPSTAN_CACHE:-$HOME/.cache/capstan}
BIN=$CACHE/bin
RUN=${CAPSTAN_TESTCLUSTER_DIR:-$CACHE/cluster}
PIDS=$RUN/pids
LOGS=$RUN/logs
KUBECONFIG_PATH=$RUN/admin.kubeconfig
# lock_state: waits until no other up, down or restart-apiserver of this state directory runs,
# then holds its lock (fd 9, a file beside the directory) until the script exits. Whatever a
# script starts to outlive it must close fd 9 (`9>&-`), or it would hold the lock for good.
lock_state() {
  mkdir -p "$(dirname "${RUN%/}")"
  exec 9>"${RUN%/}.lock" || exit 1
  flock -n 9 && return 0
  echo "testcluster: waiting for another up, down or restart-apiserver of $RUN" >&2
  flock 9 || exit 1
}
# child_state PID: whether PID is a child of this very shell (started by it, not yet reaped: only
# then is the number surely still that process's); sets CHILD_STATE to its state letter (R, S, Z
# for one that exited, ...). No subshell: in one, $BASHPID is not the parent's.
child_state() {
  local stat ppid
  CHILD_STATE=
  read -r stat 2>/dev/null < "/proc/$1/stat" || return 1
  read -r CHILD_STATE ppid _ <<<"${stat##*) }"
  [[ $ppid == "$BASHPID" ]]
}
# Start order; down stops them in reverse.
COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok)

# cmdline_has PID TEXT...: whether process PID runs and its command line holds every TEXT.
# A pid file outlives its process (a stopped machine, a restored snapshot); by then its number
# may belong to any other process, which must never be signalled, so every use checks this.
cmdline_has() {
  local pid=$1 cmd text
  shift
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  cmd=$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline") || return 1
  for text in "$@"; do [[ $cmd == *"$text"* ]] || return 1; done
}
# await_exec PID TEXT...: waits (up to 10 s) until a just-started PID has replaced the shell that
# forked it with the program whose command line holds every TEXT; fails if it exits first.
await_exec() {
  local n
  for ((n = 0; n < 200; n++)); do
    cmdline_has "$@" && return 0
    kill -0 "$1" 2>/dev/null || return 1
    sleep 0.05
  done
  return 1
}
# pid_of NAME: the pid of this cluster's component NAME, if it runs (its binary, a path under $RUN).
pid_of() {
  local pid
  [[ -f "$PIDS/$1.pid" ]] && pid=$(<"$PIDS/$1.pid") && cmdline_has "$pid" "$BIN/$1 " "$RUN/" && echo "$pid"
}
alive() { local p; p=$(pid_of "$1") && [[ -n "$p" ]] && kill -0 "$p" 2>/dev/null; }

# stop_all: SIGTERM in reverse start order, up to 30 s each, then SIGKILL.
stop_all() {
  local i c p n
  for ((i=${#COMPONENTS[@]}-1; i>=0; i--)); do
    c=${COMPONENTS[$i]}
    p=$(pid_of "$c") || { rm -f "$PIDS/$c.pid"; continue; }
    kill -TERM "$p" 2>/dev/null || true
    for ((n=0; n<300; n++)); do pid_of "$c" >/dev/null || break; sleep 0.1; done
    pid_of "$c" >/dev/null && kill -KILL "$p" 2>/dev/null
    rm -f "$PIDS/$c.pid"
  done
}
