# Generators for hack/bench/fleet-live.sh's fleet. Source it.
# Each writes v1 List files of at most 100 objects, PREFIX-NNNNN.json, every
# object labelled LABEL=true so the script deletes exactly what it created.
# Node names are fleet-node-NNNNN; the shapes per node are:
#   gpu.example.com  8 GPUs in one slice; every INCOMPLETE_EVERY-th node's
#                    pool says resourceSliceCount 2 but publishes one slice
#                    (incomplete: never allocatable)
#   nic.example.com  2 NICs in one slice
#   mig.example.com  every MIG_EVERY-th node: a counter slice (80Gi) and a
#                    device slice with one full and two half partitions
#                    consuming it (a partitionable GPU, two-slice pool)

# gen_live_nodes NODES PREFIX LABEL: Ready Nodes (status is kept on create).
gen_live_nodes() {
  awk -v nodes="$1" -v prefix="$2" -v label="$3" -v now="$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$LIST_AWK"'
    BEGIN {
      for (n = 0; n < nodes; n++) {
        list_item(n, prefix, 5)
        node = sprintf("fleet-node-%05d", n)
        printf "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"%s\",", node > file
        printf "\"labels\":{\"%s\":\"true\",\"kubernetes.io/hostname\":\"%s\"}},", label, node > file
        printf "\"status\":{\"capacity\":{\"cpu\":\"64\",\"memory\":\"512Gi\",\"pods\":\"110\"}," > file
        printf "\"allocatable\":{\"cpu\":\"64\",\"memory\":\"512Gi\",\"pods\":\"110\"}," > file
        printf "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"reason\":\"FakeKubeletReady\"," > file
        printf "\"lastHeartbeatTime\":\"%s\",\"lastTransitionTime\":\"%s\"}]}}", now, now > file
      }
      list_end(nodes)
    }'
}

# gen_live_slices NODES INCOMPLETE_EVERY MIG_EVERY PREFIX LABEL
gen_live_slices() {
  awk -v nodes="$1" -v incomplete="$2" -v mig="$3" -v prefix="$4" -v label="$5" "$LIST_AWK"'
    function open_item() {
      list_item(count, prefix, 5)
      count++
    }
    function head(name, driver, node, pool, slices) {
      open_item()
      printf "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\"," > file
      printf "\"metadata\":{\"name\":\"%s\",\"labels\":{\"%s\":\"true\"}},", name, label > file
      printf "\"spec\":{\"driver\":\"%s\",\"nodeName\":\"%s\",", driver, node > file
      printf "\"pool\":{\"name\":\"%s\",\"generation\":1,\"resourceSliceCount\":%d},", pool, slices > file
    }
    BEGIN {
      for (n = 0; n < nodes; n++) {
        node = sprintf("fleet-node-%05d", n)
        head(node "-gpu", "gpu.example.com", node, node, (incomplete > 0 && n % incomplete == incomplete - 1) ? 2 : 1)
        printf "\"devices\":[" > file
        for (d = 0; d < 8; d++) {
          if (d > 0) printf "," > file
          printf "{\"name\":\"gpu-%d\",\"attributes\":{\"type\":{\"string\":\"gpu\"},", d > file
          printf "\"model\":{\"string\":\"gpu-80g\"},\"index\":{\"int\":%d},", d > file
          printf "\"uuid\":{\"string\":\"GPU-%05d-%d\"},", n, d > file
          printf "\"driverVersion\":{\"version\":\"1.0.0\"}},\"capacity\":{\"memory\":{\"value\":\"80Gi\"}}}" > file
        }
        printf "]}}" > file
        head(node "-nic", "nic.example.com", node, node, 1)
        printf "\"devices\":[" > file
        for (d = 0; d < 2; d++) {
          if (d > 0) printf "," > file
          printf "{\"name\":\"nic-%d\",\"attributes\":{\"type\":{\"string\":\"nic\"}," , d > file
          printf "\"speedGbps\":{\"int\":400}}}" > file
        }
        printf "]}}" > file
        if (mig > 0 && n % mig == 0) {
          head(node "-mig-counters", "mig.example.com", node, node, 2)
          printf "\"sharedCounters\":[{\"name\":\"gpu-0-counters\",\"counters\":{\"memory\":{\"value\":\"80Gi\"}}}]}}" > file
          head(node "-mig-devices", "mig.example.com", node, node, 2)
          printf "\"devices\":[" > file
          printf "{\"name\":\"mig-full\",\"attributes\":{\"profile\":{\"string\":\"full\"}}," > file
          printf "\"consumesCounters\":[{\"counterSet\":\"gpu-0-counters\",\"counters\":{\"memory\":{\"value\":\"80Gi\"}}}]}" > file
          for (d = 0; d < 2; d++) {
            printf ",{\"name\":\"mig-half-%d\",\"attributes\":{\"profile\":{\"string\":\"half\"}},", d > file
            printf "\"consumesCounters\":[{\"counterSet\":\"gpu-0-counters\",\"counters\":{\"memory\":{\"value\":\"40Gi\"}}}]}" > file
          }
          printf "]}}" > file
        }
      }
      list_end(count)
    }'
}

# gen_live_pods PODS NAMESPACE KIND PREFIX LABEL: Pods without a node, for
# the real scheduler. KIND gpu: limits example.com/gpu: 1 (the scheduler
# makes the implicit ResourceClaim); KIND plain: cpu only.
gen_live_pods() {
  awk -v pods="$1" -v ns="$2" -v kind="$3" -v prefix="$4" -v label="$5" "$LIST_AWK"'
    BEGIN {
      for (p = 0; p < pods; p++) {
        list_item(p, prefix, 5)
        printf "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"," > file
        printf "\"metadata\":{\"name\":\"%s-%06d\",\"namespace\":\"%s\",", kind, p, ns > file
        printf "\"labels\":{\"%s\":\"true\",\"app\":\"%s-%d\"}},", label, kind, p % 50 > file
        printf "\"spec\":{\"terminationGracePeriodSeconds\":0,\"containers\":[{\"name\":\"main\"," > file
        printf "\"image\":\"registry.example.com/cuda-app:1.0\",\"resources\":" > file
        if (kind == "gpu") printf "{\"limits\":{\"example.com/gpu\":\"1\"}}}]}}" > file
        else printf "{\"requests\":{\"cpu\":\"10m\"}}}]}}" > file
      }
      list_end(pods)
    }'
}

# gen_live_healths HEALTHS NODES PREFIX LABEL: DeviceHealth objects in state
# Unknown (effect None: report only, scheduling unaffected) on gpu-7 of
# spread-out nodes; the probe flips them to Degraded and back.
gen_live_healths() {
  awk -v healths="$1" -v nodes="$2" -v prefix="$3" -v label="$4" "$LIST_AWK"'
    BEGIN {
      step = nodes > healths ? int(nodes / healths) : 1
      for (h = 0; h < healths; h++) {
        list_item(h, prefix, 5)
        node = sprintf("fleet-node-%05d", (h * step) % nodes)
        printf "{\"apiVersion\":\"dra-controller.dev/v1alpha1\",\"kind\":\"DeviceHealth\"," > file
        printf "\"metadata\":{\"name\":\"fleet-health-%05d\",\"labels\":{\"%s\":\"true\"}},", h, label > file
        printf "\"spec\":{\"driver\":\"gpu.example.com\",\"pool\":\"%s\",\"device\":\"gpu-%d\",", node, 7 - int(h / nodes) % 8 > file
        printf "\"state\":\"Unknown\",\"reason\":\"FleetBench\"}}" > file
      }
      list_end(healths)
    }'
}
