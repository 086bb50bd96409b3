// informer-compare runs client-go shared informers for the resources that
// `dra-controller run` watches, so hack/bench/compare-client-go.sh can put the
// two side by side on the same fleet: resident memory after sync, time to
// sync and CPU. It prints one line, "synced <milliseconds>", once every cache
// has synced, then idles until SIGTERM or SIGINT.
//
// client-go's typed clients ask for protobuf for built-in resources
// (gentype.PrefersProtobuf); -json makes them ask for JSON, as
// dra-controller does, to tell the encoding's share of the difference.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func informerFor(factory informers.SharedInformerFactory, resource string) (cache.SharedIndexInformer, error) {
	switch resource {
	case "deviceclasses":
		return factory.Resource().V1().DeviceClasses().Informer(), nil
	case "resourceslices":
		return factory.Resource().V1().ResourceSlices().Informer(), nil
	case "resourceclaims":
		return factory.Resource().V1().ResourceClaims().Informer(), nil
	case "devicetaintrules":
		return factory.Resource().V1().DeviceTaintRules().Informer(), nil
	case "pods":
		return factory.Core().V1().Pods().Informer(), nil
	case "nodes":
		return factory.Core().V1().Nodes().Informer(), nil
	}
	return nil, fmt.Errorf("unknown resource %q", resource)
}

func run() error {
	start := time.Now()
	kubeconfig := flag.String("kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig file")
	resources := flag.String("resources",
		"deviceclasses,resourceslices,resourceclaims,devicetaintrules,pods,nodes",
		"comma-separated resources to inform on")
	useJSON := flag.Bool("json", false, "ask for JSON instead of client-go's default protobuf")
	flag.Parse()

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	if *useJSON {
		config.ContentType = "application/json"
		config.AcceptContentTypes = "application/json"
	}
	clientset, err := kubernetes.NewForConfig(config)
	if err != nil {
		return err
	}
	factory := informers.NewSharedInformerFactory(clientset, 0)
	for _, resource := range strings.Split(*resources, ",") {
		if _, err := informerFor(factory, resource); err != nil {
			return err
		}
	}
	stop := make(chan struct{})
	factory.Start(stop)
	for informerType, synced := range factory.WaitForCacheSync(stop) {
		if !synced {
			return fmt.Errorf("%v did not sync", informerType)
		}
	}
	fmt.Printf("synced %d\n", time.Since(start).Milliseconds())

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	<-signals
	close(stop)
	factory.Shutdown()
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "informer-compare:", err)
		os.Exit(1)
	}
}
