# The objects the apply benchmarks measure (apply-vs-kubectl and apply-floors; apply-vs-kubectl's
# header says what they are and why), and the wait for the controllers' answer to them.
NAMESPACES=10
PER_KIND=25   # per namespace and kind: 10 x 4 x 25 = 1,000 objects

# generate DIR PREFIX: the same 1,000 objects in namespaces PREFIX-0..9
generate() {
  local dir=$1 prefix=$2 n i ns
  mkdir -p "$dir"
  for ((n = 0; n < NAMESPACES; n++)); do
    printf 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s-%d\n---\n' "$prefix" "$n"
  done >"$dir/00-namespaces.yaml"
  for ((n = 0; n < NAMESPACES; n++)); do
    ns=$prefix-$n
    for ((i = 0; i < PER_KIND; i++)); do
      cat <<DOC
apiVersion: v1
kind: ConfigMap
metadata:
  name: config-$i
  namespace: $ns
  labels: {app: app-$i}
data:
  settings.yaml: |
    level: info
    replicas: $i
  feature: "on"
---
apiVersion: v1
kind: Secret
metadata:
  name: secret-$i
  namespace: $ns
  labels: {app: app-$i}
type: Opaque
data:
  password: $(printf 'bench-password-%d' "$i" | base64)
---
apiVersion: v1
kind: Service
metadata:
  name: svc-$i
  namespace: $ns
  labels: {app: app-$i}
spec:
  clusterIP: None
  selector: {app: app-$i}
  ports:
  - {name: http, port: 80, targetPort: 8080}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-$i
  namespace: $ns
  labels: {app: app-$i}
spec:
  replicas: 0
  selector:
    matchLabels: {app: app-$i}
  template:
    metadata:
      labels: {app: app-$i}
    spec:
      containers:
      - name: app
        image: registry.example/app:1.$i
        ports: [{containerPort: 8080}]
        env: [{name: LEVEL, value: info}]
        resources: {requests: {cpu: 10m, memory: 16Mi}}
---
DOC
    done >"$dir/$ns.yaml"
  done
}

# settle PREFIX...: waits until the controller manager has answered the first applies of the
# objects of each PREFIX with a ReplicaSet per Deployment (it also writes status), plus 5 s, so that
# what is timed next is not timed against that work. Needs $KUBECTL.
settle() {
  local deadline=$((SECONDS + 180)) want=$(($# * NAMESPACES * PER_KIND)) have pattern
  pattern="^($(IFS='|'; echo "$*"))-"
  while ((SECONDS < deadline)); do
    have=$("$KUBECTL" get replicasets -A --no-headers 2>/dev/null | grep -cE "$pattern" || true)
    ((have >= want)) && break
    sleep 2
  done
  sleep 5
}
