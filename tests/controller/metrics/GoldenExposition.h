#pragma once

// The exposition AllocationMetrics gives for MetricsFixture, checked by hand:
// node-a: 2 a100 (one allocated by a template claim, one unhealthy, free);
// node-b: 2 h100 (one allocated to an implicit claim, one tainted NoExecute);
// node-c: a pool at generation 3 missing one of its 2 slices (not allocatable);
// "gpu" (newer) wins example.com/gpu over "old-gpu"; one Pending Pod asks
// for it; node-b's device plugin advertises it too.

namespace dra::testing {

inline constexpr const char* kGoldenExposition =
    R"prom(# HELP dra_controller_devices_published Devices published in the newest generation of their pool
# TYPE dra_controller_devices_published gauge
dra_controller_devices_published{driver="gpu.example.com",pool="node-a",node="node-a",device_class="a100"} 2
dra_controller_devices_published{driver="gpu.example.com",pool="node-a",node="node-a",device_class="gpu"} 2
dra_controller_devices_published{driver="gpu.example.com",pool="node-a",node="node-a",device_class="old-gpu"} 2
dra_controller_devices_published{driver="gpu.example.com",pool="node-b",node="node-b",device_class="gpu"} 2
dra_controller_devices_published{driver="gpu.example.com",pool="node-b",node="node-b",device_class="old-gpu"} 2
dra_controller_devices_published{driver="gpu.example.com",pool="node-c",node="node-c",device_class="a100"} 1
dra_controller_devices_published{driver="gpu.example.com",pool="node-c",node="node-c",device_class="gpu"} 1
dra_controller_devices_published{driver="gpu.example.com",pool="node-c",node="node-c",device_class="old-gpu"} 1
# HELP dra_controller_devices_allocatable Devices the scheduler could allocate now to a request without tolerations (not allocated, counters and capacity left, complete valid pool, no NoSchedule or NoExecute taint)
# TYPE dra_controller_devices_allocatable gauge
dra_controller_devices_allocatable{driver="gpu.example.com",pool="node-a",node="node-a",device_class="a100"} 1
dra_controller_devices_allocatable{driver="gpu.example.com",pool="node-a",node="node-a",device_class="gpu"} 1
dra_controller_devices_allocatable{driver="gpu.example.com",pool="node-a",node="node-a",device_class="old-gpu"} 1
dra_controller_devices_allocatable{driver="gpu.example.com",pool="node-b",node="node-b",device_class="gpu"} 0
dra_controller_devices_allocatable{driver="gpu.example.com",pool="node-b",node="node-b",device_class="old-gpu"} 0
dra_controller_devices_allocatable{driver="gpu.example.com",pool="node-c",node="node-c",device_class="a100"} 0
dra_controller_devices_allocatable{driver="gpu.example.com",pool="node-c",node="node-c",device_class="gpu"} 0
dra_controller_devices_allocatable{driver="gpu.example.com",pool="node-c",node="node-c",device_class="old-gpu"} 0
# HELP dra_controller_devices_allocated Devices named in at least one ResourceClaim allocation
# TYPE dra_controller_devices_allocated gauge
dra_controller_devices_allocated{driver="gpu.example.com",pool="node-a",node="node-a",device_class="a100"} 1
dra_controller_devices_allocated{driver="gpu.example.com",pool="node-a",node="node-a",device_class="gpu"} 1
dra_controller_devices_allocated{driver="gpu.example.com",pool="node-a",node="node-a",device_class="old-gpu"} 1
dra_controller_devices_allocated{driver="gpu.example.com",pool="node-b",node="node-b",device_class="gpu"} 1
dra_controller_devices_allocated{driver="gpu.example.com",pool="node-b",node="node-b",device_class="old-gpu"} 1
dra_controller_devices_allocated{driver="gpu.example.com",pool="node-c",node="node-c",device_class="a100"} 0
dra_controller_devices_allocated{driver="gpu.example.com",pool="node-c",node="node-c",device_class="gpu"} 0
dra_controller_devices_allocated{driver="gpu.example.com",pool="node-c",node="node-c",device_class="old-gpu"} 0
# HELP dra_controller_devices_unavailable Devices the scheduler cannot allocate now, by the first reason (series with a device only)
# TYPE dra_controller_devices_unavailable gauge
dra_controller_devices_unavailable{driver="gpu.example.com",pool="node-a",node="node-a",device_class="a100",reason="allocated"} 1
dra_controller_devices_unavailable{driver="gpu.example.com",pool="node-a",node="node-a",device_class="gpu",reason="allocated"} 1
dra_controller_devices_unavailable{driver="gpu.example.com",pool="node-a",node="node-a",device_class="old-gpu",reason="allocated"} 1
dra_controller_devices_unavailable{driver="gpu.example.com",pool="node-b",node="node-b",device_class="gpu",reason="allocated"} 1
dra_controller_devices_unavailable{driver="gpu.example.com",pool="node-b",node="node-b",device_class="gpu",reason="tainted"} 1
dra_controller_devices_unavailable{driver="gpu.example.com",pool="node-b",node="node-b",device_class="old-gpu",reason="allocated"} 1
dra_controller_devices_unavailable{driver="gpu.example.com",pool="node-b",node="node-b",device_class="old-gpu",reason="tainted"} 1
dra_controller_devices_unavailable{driver="gpu.example.com",pool="node-c",node="node-c",device_class="a100",reason="pool_incomplete"} 1
dra_controller_devices_unavailable{driver="gpu.example.com",pool="node-c",node="node-c",device_class="gpu",reason="pool_incomplete"} 1
dra_controller_devices_unavailable{driver="gpu.example.com",pool="node-c",node="node-c",device_class="old-gpu",reason="pool_incomplete"} 1
# HELP dra_controller_devices_tainted Devices carrying a taint with this effect from this source (driver: published in the ResourceSlice; rule: a DeviceTaintRule)
# TYPE dra_controller_devices_tainted gauge
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-a",node="node-a",device_class="a100",effect="NoExecute",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-a",node="node-a",device_class="a100",effect="NoExecute",source="rule"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-a",node="node-a",device_class="a100",effect="NoSchedule",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-a",node="node-a",device_class="a100",effect="NoSchedule",source="rule"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-a",node="node-a",device_class="gpu",effect="NoExecute",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-a",node="node-a",device_class="gpu",effect="NoExecute",source="rule"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-a",node="node-a",device_class="gpu",effect="NoSchedule",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-a",node="node-a",device_class="gpu",effect="NoSchedule",source="rule"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-a",node="node-a",device_class="old-gpu",effect="NoExecute",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-a",node="node-a",device_class="old-gpu",effect="NoExecute",source="rule"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-a",node="node-a",device_class="old-gpu",effect="NoSchedule",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-a",node="node-a",device_class="old-gpu",effect="NoSchedule",source="rule"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-b",node="node-b",device_class="gpu",effect="NoExecute",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-b",node="node-b",device_class="gpu",effect="NoExecute",source="rule"} 1
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-b",node="node-b",device_class="gpu",effect="NoSchedule",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-b",node="node-b",device_class="gpu",effect="NoSchedule",source="rule"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-b",node="node-b",device_class="old-gpu",effect="NoExecute",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-b",node="node-b",device_class="old-gpu",effect="NoExecute",source="rule"} 1
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-b",node="node-b",device_class="old-gpu",effect="NoSchedule",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-b",node="node-b",device_class="old-gpu",effect="NoSchedule",source="rule"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-c",node="node-c",device_class="a100",effect="NoExecute",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-c",node="node-c",device_class="a100",effect="NoExecute",source="rule"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-c",node="node-c",device_class="a100",effect="NoSchedule",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-c",node="node-c",device_class="a100",effect="NoSchedule",source="rule"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-c",node="node-c",device_class="gpu",effect="NoExecute",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-c",node="node-c",device_class="gpu",effect="NoExecute",source="rule"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-c",node="node-c",device_class="gpu",effect="NoSchedule",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-c",node="node-c",device_class="gpu",effect="NoSchedule",source="rule"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-c",node="node-c",device_class="old-gpu",effect="NoExecute",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-c",node="node-c",device_class="old-gpu",effect="NoExecute",source="rule"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-c",node="node-c",device_class="old-gpu",effect="NoSchedule",source="driver"} 0
dra_controller_devices_tainted{driver="gpu.example.com",pool="node-c",node="node-c",device_class="old-gpu",effect="NoSchedule",source="rule"} 0
# HELP dra_controller_devices_unhealthy Devices the device-health feature holds unhealthy
# TYPE dra_controller_devices_unhealthy gauge
dra_controller_devices_unhealthy{driver="gpu.example.com",pool="node-a",node="node-a",device_class="a100"} 1
dra_controller_devices_unhealthy{driver="gpu.example.com",pool="node-a",node="node-a",device_class="gpu"} 1
dra_controller_devices_unhealthy{driver="gpu.example.com",pool="node-a",node="node-a",device_class="old-gpu"} 1
dra_controller_devices_unhealthy{driver="gpu.example.com",pool="node-b",node="node-b",device_class="gpu"} 0
dra_controller_devices_unhealthy{driver="gpu.example.com",pool="node-b",node="node-b",device_class="old-gpu"} 0
dra_controller_devices_unhealthy{driver="gpu.example.com",pool="node-c",node="node-c",device_class="a100"} 0
dra_controller_devices_unhealthy{driver="gpu.example.com",pool="node-c",node="node-c",device_class="gpu"} 0
dra_controller_devices_unhealthy{driver="gpu.example.com",pool="node-c",node="node-c",device_class="old-gpu"} 0
# HELP dra_controller_pools Resource pools by state: complete (every slice of the newest generation published) or incomplete (its devices are not allocatable)
# TYPE dra_controller_pools gauge
dra_controller_pools{driver="gpu.example.com",state="complete"} 2
dra_controller_pools{driver="gpu.example.com",state="incomplete"} 1
# HELP dra_controller_pool_generation The newest generation published for a resource pool
# TYPE dra_controller_pool_generation gauge
dra_controller_pool_generation{driver="gpu.example.com",pool="node-a"} 1
dra_controller_pool_generation{driver="gpu.example.com",pool="node-b"} 1
dra_controller_pool_generation{driver="gpu.example.com",pool="node-c"} 3
# HELP dra_controller_extended_resource_capacity Devices of the DeviceClass backing a DRA extended resource
# TYPE dra_controller_extended_resource_capacity gauge
dra_controller_extended_resource_capacity{extended_resource="example.com/gpu",device_class="gpu"} 5
# HELP dra_controller_extended_resource_allocatable Devices of the backing class the scheduler could allocate now (dra_controller_devices_allocatable)
# TYPE dra_controller_extended_resource_allocatable gauge
dra_controller_extended_resource_allocatable{extended_resource="example.com/gpu",device_class="gpu"} 1
# HELP dra_controller_extended_resource_allocated Devices of the backing class that are allocated
# TYPE dra_controller_extended_resource_allocated gauge
dra_controller_extended_resource_allocated{extended_resource="example.com/gpu",device_class="gpu"} 2
# HELP dra_controller_extended_resource_unavailable Devices of the backing class the scheduler cannot allocate now, by the first reason (dra_controller_devices_unavailable)
# TYPE dra_controller_extended_resource_unavailable gauge
dra_controller_extended_resource_unavailable{extended_resource="example.com/gpu",device_class="gpu",reason="allocated"} 2
dra_controller_extended_resource_unavailable{extended_resource="example.com/gpu",device_class="gpu",reason="class_unusable"} 0
dra_controller_extended_resource_unavailable{extended_resource="example.com/gpu",device_class="gpu",reason="counters_in_use"} 0
dra_controller_extended_resource_unavailable{extended_resource="example.com/gpu",device_class="gpu",reason="no_capacity_left"} 0
dra_controller_extended_resource_unavailable{extended_resource="example.com/gpu",device_class="gpu",reason="pool_incomplete"} 1
dra_controller_extended_resource_unavailable{extended_resource="example.com/gpu",device_class="gpu",reason="pool_invalid"} 0
dra_controller_extended_resource_unavailable{extended_resource="example.com/gpu",device_class="gpu",reason="tainted"} 1
# HELP dra_controller_extended_resource_pods_pending Unscheduled Pending Pods asking for the extended resource
# TYPE dra_controller_extended_resource_pods_pending gauge
dra_controller_extended_resource_pods_pending{extended_resource="example.com/gpu",device_class="gpu"} 1
# HELP dra_controller_extended_resource_duplicate_classes DeviceClasses naming the extended resource that lose to the mapped one
# TYPE dra_controller_extended_resource_duplicate_classes gauge
dra_controller_extended_resource_duplicate_classes{extended_resource="example.com/gpu"} 1
# HELP dra_controller_extended_resource_device_plugin_nodes Nodes where a device plugin advertises a DRA-mapped extended resource
# TYPE dra_controller_extended_resource_device_plugin_nodes gauge
dra_controller_extended_resource_device_plugin_nodes{extended_resource="example.com/gpu"} 1
# HELP dra_controller_resource_claims ResourceClaims by state (pending, allocated, reserved) and source (template, extended_resource, user)
# TYPE dra_controller_resource_claims gauge
dra_controller_resource_claims{namespace="team-a",state="allocated",source="extended_resource"} 0
dra_controller_resource_claims{namespace="team-a",state="allocated",source="template"} 0
dra_controller_resource_claims{namespace="team-a",state="allocated",source="user"} 0
dra_controller_resource_claims{namespace="team-a",state="pending",source="extended_resource"} 0
dra_controller_resource_claims{namespace="team-a",state="pending",source="template"} 0
dra_controller_resource_claims{namespace="team-a",state="pending",source="user"} 0
dra_controller_resource_claims{namespace="team-a",state="reserved",source="extended_resource"} 1
dra_controller_resource_claims{namespace="team-a",state="reserved",source="template"} 1
dra_controller_resource_claims{namespace="team-a",state="reserved",source="user"} 0
dra_controller_resource_claims{namespace="team-b",state="allocated",source="extended_resource"} 0
dra_controller_resource_claims{namespace="team-b",state="allocated",source="template"} 0
dra_controller_resource_claims{namespace="team-b",state="allocated",source="user"} 0
dra_controller_resource_claims{namespace="team-b",state="pending",source="extended_resource"} 0
dra_controller_resource_claims{namespace="team-b",state="pending",source="template"} 0
dra_controller_resource_claims{namespace="team-b",state="pending",source="user"} 1
dra_controller_resource_claims{namespace="team-b",state="reserved",source="extended_resource"} 0
dra_controller_resource_claims{namespace="team-b",state="reserved",source="template"} 0
dra_controller_resource_claims{namespace="team-b",state="reserved",source="user"} 0
# HELP dra_controller_implicit_claims_leaked Implicit extended-resource ResourceClaims whose owning Pod no longer exists
# TYPE dra_controller_implicit_claims_leaked gauge
dra_controller_implicit_claims_leaked{namespace="team-a"} 0
# HELP dra_controller_device_info Always 1 per published device; labels carry the attributes listed with --metrics-device-attributes
# TYPE dra_controller_device_info gauge
dra_controller_device_info{driver="gpu.example.com",pool="node-a",device="gpu-0",node="node-a",model="a100",driverVersion="1.2.3"} 1
dra_controller_device_info{driver="gpu.example.com",pool="node-a",device="gpu-1",node="node-a",model="a100",driverVersion="1.2.3"} 1
dra_controller_device_info{driver="gpu.example.com",pool="node-b",device="gpu-0",node="node-b",model="h100",driverVersion="1.2.3"} 1
dra_controller_device_info{driver="gpu.example.com",pool="node-b",device="gpu-1",node="node-b",model="h100",driverVersion="1.2.3"} 1
dra_controller_device_info{driver="gpu.example.com",pool="node-c",device="gpu-0",node="node-c",model="a100",driverVersion="1.2.3"} 1
# HELP dra_controller_allocated_device_info Always 1 per allocated device and the Pod reserving its claim (pod "" when none); for joining device telemetry to claims and Pods
# TYPE dra_controller_allocated_device_info gauge
dra_controller_allocated_device_info{driver="gpu.example.com",pool="node-a",device="gpu-0",node="node-a",namespace="team-a",claim="train-0-gpu",pod="train-0"} 1
dra_controller_allocated_device_info{driver="gpu.example.com",pool="node-b",device="gpu-0",node="node-b",namespace="team-a",claim="infer-0-extended-resources",pod="infer-0"} 1
)prom";

}  // namespace dra::testing
