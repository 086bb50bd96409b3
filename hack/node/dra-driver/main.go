// Command dra-test-gpu-driver runs the kubelet plugin of the upstream DRA test
// driver (k8s.io/kubernetes/test/e2e/dra/test-driver/app) on the real test node
// with GPU-like devices, and serves a small control endpoint on 127.0.0.1 so
// tests can drive device health:
//
//	GET  /status                     registered with the kubelet, prepared claims, silent
//	GET  /devices                    the published devices and the health last set for each
//	POST /health?device=D&health=H[&message=M]   H is Healthy, Unhealthy or Unknown
//	POST /silence?on=true|false      stop (or resume) sending health reports to the kubelet
//
// The endpoint's address (host:port, port chosen by the kernel) is written to
// --control-address-file once the plugin has started. Go is build tooling only.
package main

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"google.golang.org/grpc"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/dynamic-resource-allocation/kubeletplugin"
	"k8s.io/dynamic-resource-allocation/resourceslice"
	"k8s.io/klog/v2"
	drapbv1 "k8s.io/kubelet/pkg/apis/dra/v1"
	drapbv1beta1 "k8s.io/kubelet/pkg/apis/dra/v1beta1"
	"k8s.io/kubernetes/test/e2e/dra/test-driver/app"
	"k8s.io/utils/ptr"
)

type options struct {
	kubeconfig, nodeName, driverName  string
	registrarDir, pluginDir, cdiDir   string
	controlAddressFile, memory, model string
	gpus                              int
	cdiDeviceIDs                      bool
}

// gpuUUID is the same stable, NVIDIA-looking UUID hack/fake-gpu-fleet.sh gives
// GPU INDEX of NODE, so tests name real-node GPUs the way they name fake ones.
func gpuUUID(node string, index int) string {
	sum := md5.Sum([]byte(fmt.Sprintf("%s/gpu-%d", node, index)))
	h := hex.EncodeToString(sum[:])
	return fmt.Sprintf("GPU-%s-%s-%s-%s-%s", h[0:8], h[8:12], h[12:16], h[16:20], h[20:32])
}

func devices(o options) ([]resourceapi.Device, error) {
	memory, err := resource.ParseQuantity(o.memory)
	if err != nil {
		return nil, fmt.Errorf("--memory %q: %w", o.memory, err)
	}
	out := make([]resourceapi.Device, o.gpus)
	for i := range out {
		out[i] = resourceapi.Device{
			Name: fmt.Sprintf("gpu-%d", i),
			Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
				"type":          {StringValue: ptr.To("gpu")},
				"uuid":          {StringValue: ptr.To(gpuUUID(o.nodeName, i))},
				"model":         {StringValue: ptr.To(o.model)},
				"index":         {IntValue: ptr.To(int64(i))},
				"driverVersion": {VersionValue: ptr.To("1.0.0")},
			},
			Capacity: map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{
				"memory": {Value: memory},
			},
		}
	}
	return out, nil
}

// healthGate drops the health service's messages while silent: the stream
// stays open, the kubelet just hears nothing (and after its health timeout
// reports the devices as Unknown).
type healthGate struct{ silent atomic.Bool }

type gatedStream struct {
	grpc.ServerStream
	gate *healthGate
}

func (s gatedStream) SendMsg(m any) error {
	if s.gate.silent.Load() {
		return nil
	}
	return s.ServerStream.SendMsg(m)
}

func (g *healthGate) intercept(srv any, stream grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	return handler(srv, gatedStream{ServerStream: stream, gate: g})
}

// withoutCDIDeviceIDs drops the CDI device IDs from the plugin's prepare
// results, as a driver that needs no CDI would return. The kubelet then names
// each device <driver>/<pool>/<device> in allocatedResourcesStatus instead of
// by its first CDI device ID.
func withoutCDIDeviceIDs(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	switch r := resp.(type) {
	case *drapbv1.NodePrepareResourcesResponse:
		for _, claim := range r.Claims {
			for _, d := range claim.Devices {
				d.CdiDeviceIds = nil
			}
		}
	case *drapbv1beta1.NodePrepareResourcesResponse:
		for _, claim := range r.Claims {
			for _, d := range claim.Devices {
				d.CdiDeviceIds = nil
			}
		}
	}
	return resp, err
}

type control struct {
	plugin  *app.ExamplePlugin
	gate    *healthGate
	pool    string
	devices []resourceapi.Device

	mu     sync.Mutex
	health map[string]app.DeviceHealthUpdate // by device name, as last set
}

func (c *control) known(device string) bool {
	for _, d := range c.devices {
		if d.Name == device {
			return true
		}
	}
	return false
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func (c *control) status(w http.ResponseWriter, _ *http.Request) {
	var prepared []string
	for _, id := range c.plugin.GetPreparedResources() {
		prepared = append(prepared, id.Name+"/"+string(id.UID))
	}
	sort.Strings(prepared)
	writeJSON(w, map[string]any{
		"registered":     c.plugin.IsRegistered(),
		"preparedClaims": prepared,
		"silent":         c.gate.silent.Load(),
		"healthStreams":  c.plugin.CountCalls("/NodeWatchResources"),
	})
}

func (c *control) listDevices(w http.ResponseWriter, _ *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := []map[string]any{}
	for _, d := range c.devices {
		health := "Unknown"
		if u, ok := c.health[d.Name]; ok {
			health = u.Health
		}
		out = append(out, map[string]any{
			"pool": c.pool, "device": d.Name, "uuid": *d.Attributes["uuid"].StringValue,
			"index": *d.Attributes["index"].IntValue, "health": health,
		})
	}
	writeJSON(w, out)
}

func (c *control) setHealth(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	device, health := r.URL.Query().Get("device"), r.URL.Query().Get("health")
	if !c.known(device) {
		http.Error(w, fmt.Sprintf("unknown device %q", device), http.StatusNotFound)
		return
	}
	switch health {
	case "Healthy", "Unhealthy", "Unknown":
	default:
		http.Error(w, "health must be Healthy, Unhealthy or Unknown", http.StatusBadRequest)
		return
	}
	update := app.DeviceHealthUpdate{PoolName: c.pool, DeviceName: device, Health: health,
		Message: r.URL.Query().Get("message")}
	// The plugin's health stream reads this channel; it is buffered, and
	// full only when no kubelet has opened the stream for a while.
	select {
	case c.plugin.HealthControlChan <- update:
	case <-time.After(5 * time.Second):
		http.Error(w, "the health stream is not reading updates (is the kubelet connected?)", http.StatusServiceUnavailable)
		return
	}
	c.mu.Lock()
	c.health[device] = update
	c.mu.Unlock()
	writeJSON(w, update)
}

func (c *control) silence(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	switch r.URL.Query().Get("on") {
	case "true":
		c.gate.silent.Store(true)
	case "false":
		c.gate.silent.Store(false)
	default:
		http.Error(w, "on must be true or false", http.StatusBadRequest)
		return
	}
	writeJSON(w, map[string]bool{"silent": c.gate.silent.Load()})
}

// writeAtomically makes the file appear complete or not at all.
func writeAtomically(path, content string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func run(o options) error {
	for _, d := range []string{o.registrarDir, o.pluginDir, o.cdiDir} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			return fmt.Errorf("create %s: %w", d, err)
		}
	}
	config, err := clientcmd.BuildConfigFromFlags("", o.kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig %s: %w", o.kubeconfig, err)
	}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		return err
	}
	devs, err := devices(o)
	if err != nil {
		return err
	}
	resources := resourceslice.DriverResources{
		Pools: map[string]resourceslice.Pool{o.nodeName: {Slices: []resourceslice.Slice{{Devices: devs}}}},
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctx = klog.NewContext(ctx, klog.Background())
	gate := &healthGate{}
	pluginOptions := []any{
		app.Options{EnableHealthService: true},
		kubeletplugin.PluginDataDirectoryPath(o.pluginDir),
		kubeletplugin.RegistrarDirectoryPath(o.registrarDir),
		kubeletplugin.GRPCStreamInterceptor(gate.intercept),
	}
	if !o.cdiDeviceIDs {
		pluginOptions = append(pluginOptions, kubeletplugin.GRPCInterceptor(withoutCDIDeviceIDs))
	}
	plugin, err := app.StartPlugin(ctx, o.cdiDir, o.driverName, client, o.nodeName,
		app.FileOperations{DriverResources: &resources}, pluginOptions...)
	if err != nil {
		return fmt.Errorf("start the kubelet plugin: %w", err)
	}
	defer plugin.Stop()

	c := &control{plugin: plugin, gate: gate, pool: o.nodeName, devices: devs,
		health: map[string]app.DeviceHealthUpdate{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/status", c.status)
	mux.HandleFunc("/devices", c.listDevices)
	mux.HandleFunc("/health", c.setHealth)
	mux.HandleFunc("/silence", c.silence)
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("listen for the control endpoint: %w", err)
	}
	server := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = server.Serve(listener) }()
	defer server.Close()
	if err := writeAtomically(o.controlAddressFile, listener.Addr().String()+"\n"); err != nil {
		return fmt.Errorf("write %s: %w", o.controlAddressFile, err)
	}
	klog.InfoS("driver started", "driver", o.driverName, "node", o.nodeName, "gpus", o.gpus,
		"control", listener.Addr().String())

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	sig := <-signals
	klog.InfoS("stopping", "signal", sig)
	return nil
}

func main() {
	var o options
	klog.InitFlags(nil)
	flag.StringVar(&o.kubeconfig, "kubeconfig", "", "kubeconfig of the driver's identity")
	flag.StringVar(&o.nodeName, "node-name", "", "the node this plugin serves (also the pool name)")
	flag.StringVar(&o.driverName, "driver-name", "gpu.example.com", "DRA driver name")
	flag.StringVar(&o.registrarDir, "plugin-registration-path", "", "the kubelet's plugins_registry directory")
	flag.StringVar(&o.pluginDir, "datadir", "", "directory for the plugin's DRA socket (<kubelet root>/plugins/<driver>)")
	flag.StringVar(&o.cdiDir, "cdi-dir", "", "directory for the CDI specs the driver writes")
	flag.StringVar(&o.controlAddressFile, "control-address-file", "", "where to write the control endpoint's host:port")
	flag.IntVar(&o.gpus, "gpus", 2, "number of GPUs to publish")
	flag.StringVar(&o.memory, "memory", "16Gi", "capacity `memory` of each GPU")
	flag.StringVar(&o.model, "model", "gpu-node-16g", "attribute `model` of each GPU")
	flag.BoolVar(&o.cdiDeviceIDs, "cdi-device-ids", true, "return CDI device IDs for prepared devices, as the upstream test driver does")
	flag.Parse()
	for name, v := range map[string]string{"kubeconfig": o.kubeconfig, "node-name": o.nodeName,
		"plugin-registration-path": o.registrarDir, "datadir": o.pluginDir, "cdi-dir": o.cdiDir,
		"control-address-file": o.controlAddressFile} {
		if v == "" {
			fmt.Fprintf(os.Stderr, "error: --%s is required\n", name)
			os.Exit(2)
		}
	}
	o.controlAddressFile = filepath.Clean(o.controlAddressFile)
	if err := run(o); err != nil {
		klog.ErrorS(err, "dra-test-gpu-driver failed")
		klog.Flush()
		os.Exit(1)
	}
	klog.Flush()
}
