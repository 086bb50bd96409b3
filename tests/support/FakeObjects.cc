#include "tests/support/FakeObjects.h"

namespace dra::testing {

std::string FakePodJson(int index, const std::string& ns) {
  std::string i = std::to_string(index);
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"trainer-)" + i +
         R"(","generateName":"trainer-","namespace":")" + ns +
         R"(","uid":"9a8b7c6d-1234-4f00-8e00-)" +
         std::string(12 - std::min<size_t>(12, i.size()), '0') + i + R"(","resourceVersion":")" +
         std::to_string(100000 + index) + R"(","creationTimestamp":"2026-07-24T10:00:00Z","labels":{"app":"trainer","job-name":"trainer","batch.kubernetes.io/controller-uid":"0f1e2d3c-aaaa-bbbb-cccc-ddddeeeeffff","pod-template-hash":"7d9f8c6b5"},"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-07-24T09:59:00Z","prometheus.io/scrape":"true"},"ownerReferences":[{"apiVersion":"batch/v1","kind":"Job","name":"trainer","uid":"0f1e2d3c-aaaa-bbbb-cccc-ddddeeeeffff","controller":true,"blockOwnerDeletion":true}],"managedFields":[{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1","time":"2026-07-24T10:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:job-name":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"0f1e2d3c\"}":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"main\"}":{".":{},"f:image":{},"f:name":{},"f:resources":{".":{},"f:limits":{".":{},"f:example.com/gpu":{}}}}}}}},{"manager":"kube-scheduler","operation":"Update","apiVersion":"v1","time":"2026-07-24T10:00:02Z","fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{".":{},"k:{\"type\":\"PodScheduled\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:extendedResourceClaimStatus":{}}},"subresource":"status"}]},"spec":{"volumes":[{"name":"kube-api-access-x","projected":{"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt","path":"ca.crt"}]}}],"defaultMode":420}}],"initContainers":[{"name":"fetch","image":"registry.example.com/fetch:1.2","command":["/fetch","--dataset=s3://bucket/set"],"resources":{"requests":{"cpu":"500m","memory":"1Gi"}}}],"containers":[{"name":"main","image":"registry.example.com/trainer:2.7.1","args":["--epochs=90","--batch=256"],"env":[{"name":"NCCL_DEBUG","value":"INFO"},{"name":"POD_NAME","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}}],"resources":{"limits":{"example.com/gpu":"2","memory":"64Gi"},"requests":{"cpu":"8","example.com/gpu":"2","memory":"64Gi"}},"volumeMounts":[{"name":"kube-api-access-x","readOnly":true,"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"},{"name":"sidecar","image":"registry.example.com/metrics:0.9","resources":{"requests":{"cpu":"100m","memory":"128Mi"}}}],"restartPolicy":"Never","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","serviceAccountName":"default","serviceAccount":"default","nodeName":"node-)" +
         std::to_string(index % 5000) +
         R"(","securityContext":{},"schedulerName":"default-scheduler","tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],"priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority"},"status":{"phase":"Running","conditions":[{"type":"PodScheduled","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-07-24T10:00:02Z"},{"type":"Initialized","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-07-24T10:00:09Z"},{"type":"Ready","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-07-24T10:00:12Z"}],"hostIP":"10.0.3.7","podIP":"10.244.3.19","startTime":"2026-07-24T10:00:02Z","extendedResourceClaimStatus":{"requestMappings":[{"containerName":"main","resourceName":"example.com/gpu","requestName":"container-1-request-1"}],"resourceClaimName":"trainer-)" +
         i +
         R"(-extended-resources-x7k2d"},"containerStatuses":[{"name":"main","state":{"running":{"startedAt":"2026-07-24T10:00:11Z"}},"ready":true,"restartCount":0,"image":"registry.example.com/trainer:2.7.1","imageID":"registry.example.com/trainer@sha256:4f1b2c","containerID":"containerd://abcdef0123456789","started":true}],"qosClass":"Burstable"}})";
}

std::string FakeSliceJson(int index, int devices) {
  std::string node = "node-" + std::to_string(index);
  std::string list;
  for (int d = 0; d < devices; ++d) {
    if (d > 0) list += ",";
    list +=
        R"({"name":"gpu-)" + std::to_string(d) +
        R"(","attributes":{"type":{"string":"gpu"},"model":{"string":"LATEST-GPU-MODEL"},"index":{"int":)" +
        std::to_string(d) +
        R"(},"driverVersion":{"version":"1.0.0"},"uuid":{"string":"GPU-93d37703-)" +
        std::to_string(index) + "-" + std::to_string(d) +
        R"("},"resource.kubernetes.io/pcieRoot":{"string":"pci0000:0)" + std::to_string(d / 4) +
        R"("}},"capacity":{"memory":{"value":"80Gi"}}})";
  }
  return R"({"kind":"ResourceSlice","apiVersion":"resource.k8s.io/v1","metadata":{"name":")" +
         node + R"(-gpu.example.com-k7x2p","generateName":")" + node +
         R"(-gpu.example.com-","uid":"0f7c3b2a-7a7e-4f0e-9a55-)" +
         std::to_string(100000000000 + index) + R"(","resourceVersion":")" +
         std::to_string(200000 + index) +
         R"(","generation":1,"creationTimestamp":"2026-07-24T09:01:00Z","ownerReferences":[{"apiVersion":"v1","kind":"Node","name":")" +
         node +
         R"(","uid":"8d1e0000-0000-0000-0000-000000000000","controller":true}]},"spec":{"driver":"gpu.example.com","pool":{"name":")" +
         node + R"(","generation":1,"resourceSliceCount":1},"nodeName":")" + node +
         R"(","devices":[)" + list + "]}}";
}

std::string FakeAllocatedClaimJson(int index, const std::string& ns) {
  std::string i = std::to_string(index);
  std::string node = "node-" + std::to_string(index / 8);
  std::string uid = std::string(12 - std::min<size_t>(12, i.size()), '0') + i;
  return R"({"kind":"ResourceClaim","apiVersion":"resource.k8s.io/v1","metadata":{"name":"trainer-)" +
         i + R"(-extended-resources-x7k2d","namespace":")" + ns +
         R"(","uid":"5c4d3e2f-1234-4f00-8e00-)" + uid + R"(","resourceVersion":")" +
         std::to_string(300000 + index) +
         R"(","creationTimestamp":"2026-07-24T10:00:01Z","annotations":{"resource.kubernetes.io/extended-resource-claim":"true"},"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"trainer-)" +
         i + R"(","uid":"9a8b7c6d-1234-4f00-8e00-)" + uid +
         R"(","controller":true,"blockOwnerDeletion":true}]},"spec":{"devices":{"requests":[{"name":"container-1-request-1","exactly":{"deviceClassName":"gpu.example.com","allocationMode":"ExactCount","count":1}}]}},"status":{"allocation":{"devices":{"results":[{"request":"container-1-request-1","driver":"gpu.example.com","pool":")" +
         node + R"(","device":"gpu-)" + std::to_string(index % 8) +
         R"("}]},"nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":[")" +
         node + R"("]}]}]}},"reservedFor":[{"resource":"pods","name":"trainer-)" + i +
         R"(","uid":"9a8b7c6d-1234-4f00-8e00-)" + uid + R"("}]}})";
}

std::string WatchLine(const std::string& type, const std::string& object) {
  return R"({"type":")" + type + R"(","object":)" + object + "}";
}

std::string ListBody(const std::string& kind, const std::string& items_joined) {
  return R"({"kind":")" + kind +
         R"(","apiVersion":"v1","metadata":{"resourceVersion":"123456"},"items":[)" + items_joined +
         "]}";
}

}  // namespace dra::testing
