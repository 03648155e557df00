// Command testplane is one binary with several personalities: the etcd server, the Kubernetes
// API server, the Kubernetes controller manager, and "up"/"down", which run the three as separate
// processes of this same binary on loopback addresses for the project's tests.
//
// The personality is the first argument (or the program's name when it is invoked through a
// link called etcd, kube-apiserver or kube-controller-manager).
package main

import (
	"fmt"
	"os"
	"path/filepath"

	_ "time/tzdata"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	controllermanager "k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

const usage = `usage: testplane <command> [flags]

commands:
  up                       start etcd, kube-apiserver and kube-controller-manager; stay in the foreground
  down                     stop the control plane that "up" started in --dir
  etcd                     run a single-member etcd server (embedded)
  kube-apiserver           run the Kubernetes API server
  kube-controller-manager  run the Kubernetes controller manager
`

func main() {
	name := filepath.Base(os.Args[0])
	args := os.Args[1:]
	switch name {
	case "etcd", "kube-apiserver", "kube-controller-manager":
	default:
		if len(args) == 0 {
			fmt.Fprint(os.Stderr, usage)
			os.Exit(2)
		}
		name, args = args[0], args[1:]
	}
	// the cobra commands read os.Args[1:]; drop the personality so they see only their flags
	os.Args = append([]string{name}, args...)
	switch name {
	case "etcd":
		os.Exit(runEtcd(args))
	case "kube-apiserver":
		cmd := apiserver.NewAPIServerCommand()
		cmd.SetArgs(args)
		os.Exit(cli.Run(cmd))
	case "kube-controller-manager":
		cmd := controllermanager.NewControllerManagerCommand()
		cmd.SetArgs(args)
		os.Exit(cli.Run(cmd))
	case "up":
		os.Exit(runUp(args))
	case "down":
		os.Exit(runDown(args))
	case "version", "--version":
		fmt.Println(kubeVersion())
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "unknown command %q\n%s", name, usage)
		os.Exit(2)
	}
}
