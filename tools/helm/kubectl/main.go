// Command kubectl is the kubectl of k8s.io/kubectl at the control plane's version (v0.37.2 is
// Kubernetes v1.37.2), built from the same pinned module graph as Helm. scripts/kube-e2e.sh uses
// it, so a machine needs no kubectl of its own.
package main

import (
	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd"
	"k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	if err := cli.RunNoErrOutput(cmd.NewDefaultKubectlCommand()); err != nil {
		util.CheckErr(err)
	}
}
