# Generators for benchmark fleets, shared by the hack/bench scripts. Source it.
# Each writes v1 List files of 100 objects, PREFIX-NNNN.json, labelled
# LABEL=true so a script can delete exactly what it created.

# awk functions the generators share: list_item(i, prefix, width) opens item i
# (starting a new List file every 100 items, PREFIX-<i/100 in width digits>.json);
# list_end(n) closes the last file of n items.
LIST_AWK='
  function list_item(i, prefix, width) {
    if (i % 100 == 0) {
      if (i > 0) { print "]}" > file; close(file) }
      file = sprintf("%s-%0" width "d.json", prefix, i / 100)
      printf "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[" > file
    } else printf "," > file
  }
  function list_end(n) { if (n > 0) { print "]}" > file; close(file) } }
'

# gen_slices SLICES DEVICES PREFIX LABEL [EXTRA]: one single-slice pool per
# fake node, DEVICES GPUs each, shaped like hack/fake-gpu-fleet.sh's devices
# (four attributes, one capacity) plus EXTRA string attributes (default 0).
gen_slices() {
  awk -v slices="$1" -v devices="$2" -v prefix="$3" -v label="$4" -v extra="${5:-0}" "$LIST_AWK"'
    BEGIN {
      for (s = 0; s < slices; s++) {
        list_item(s, prefix, 4)
        node = sprintf("bench-node-%05d", s)
        printf "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\"," > file
        printf "\"metadata\":{\"name\":\"%s-gpu.example.com\",\"labels\":{\"%s\":\"true\"}},", node, label > file
        printf "\"spec\":{\"driver\":\"gpu.example.com\",\"nodeName\":\"%s\",", node > file
        printf "\"pool\":{\"name\":\"%s\",\"generation\":1,\"resourceSliceCount\":1},\"devices\":[", node > file
        for (d = 0; d < devices; d++) {
          if (d > 0) printf "," > file
          printf "{\"name\":\"gpu-%d\",\"attributes\":{\"type\":{\"string\":\"gpu\"},", d > file
          printf "\"model\":{\"string\":\"gpu-80g\"},\"index\":{\"int\":%d},", d > file
          for (a = 0; a < extra; a++) printf "\"attr_%d\":{\"string\":\"value-%d-%d\"},", a, a, d > file
          printf "\"driverVersion\":{\"version\":\"1.0.0\"}},\"capacity\":{\"memory\":{\"value\":\"80Gi\"}}}" > file
        }
        printf "]}}" > file
      }
      list_end(slices)
    }'
}

# gen_claims CLAIMS NAMESPACE PREFIX LABEL: unallocated one-GPU ResourceClaims.
gen_claims() {
  awk -v claims="$1" -v ns="$2" -v prefix="$3" -v label="$4" "$LIST_AWK"'
    BEGIN {
      for (c = 0; c < claims; c++) {
        list_item(c, prefix, 5)
        printf "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\"," > file
        printf "\"metadata\":{\"name\":\"bench-claim-%06d\",\"namespace\":\"%s\",", c, ns > file
        printf "\"labels\":{\"%s\":\"true\"}},", label > file
        printf "\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\",\"exactly\":" > file
        printf "{\"deviceClassName\":\"gpu.example.com\"}}]}}}" > file
      }
      list_end(claims)
    }'
}

# gen_pods PODS NAMESPACE NODES PREFIX LABEL: Pods already bound (spec.nodeName)
# to the fake nodes, one GPU each by extended-resource limit; no kubelet runs
# them, so they stay Pending but are cached like any other Pod.
gen_pods() {
  awk -v pods="$1" -v ns="$2" -v nodes="$3" -v prefix="$4" -v label="$5" "$LIST_AWK"'
    BEGIN {
      for (p = 0; p < pods; p++) {
        list_item(p, prefix, 5)
        printf "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"," > file
        printf "\"metadata\":{\"name\":\"bench-pod-%06d\",\"namespace\":\"%s\",", p, ns > file
        printf "\"labels\":{\"%s\":\"true\",\"app\":\"bench-%d\"}},", label, p % 50 > file
        printf "\"spec\":{\"nodeName\":\"bench-node-%05d\",\"containers\":[{\"name\":\"main\",", p % nodes > file
        printf "\"image\":\"registry.example.com/cuda-app:1.0\",\"resources\":{\"limits\":" > file
        printf "{\"example.com/gpu\":\"1\"}}}]}}" > file
      }
      list_end(pods)
    }'
}

# create_all KUBECTL FILES...: creates the list files, four at a time.
create_all() {
  local kubectl="$1"
  shift
  (($#)) || return 0
  printf '%s\n' "$@" | xargs -P 4 -I{} "$kubectl" create -f {} -o name >/dev/null
}
