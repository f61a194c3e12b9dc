# Shared settings of the local control plane scripts (sourced by up and down).
CACHE=${CAPSTAN_CACHE:-$HOME/.cache/capstan}
BIN=$CACHE/bin
RUN=${CAPSTAN_TESTCLUSTER_DIR:-$CACHE/cluster}
PIDS=$RUN/pids
LOGS=$RUN/logs
KUBECONFIG_PATH=$RUN/admin.kubeconfig
# Start order; down stops them in reverse.
COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok)

pid_of() { [[ -f "$PIDS/$1.pid" ]] && cat "$PIDS/$1.pid"; }
alive() { local p; p=$(pid_of "$1") && [[ -n "$p" ]] && kill -0 "$p" 2>/dev/null; }

# stop_all: SIGTERM in reverse start order, up to 30 s each, then SIGKILL.
stop_all() {
  local i c p n
  for ((i=${#COMPONENTS[@]}-1; i>=0; i--)); do
    c=${COMPONENTS[$i]}
    p=$(pid_of "$c") || continue
    if kill -0 "$p" 2>/dev/null; then
      kill -TERM "$p" 2>/dev/null || true
      for ((n=0; n<300; n++)); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$p" 2>/dev/null && kill -KILL "$p" 2>/dev/null
    fi
    rm -f "$PIDS/$c.pid"
  done
}
