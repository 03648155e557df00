package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"k8s.io/component-base/version"
)

func kubeVersion() string { return version.Get().GitVersion }

// The controllers the project's tests rely on. Node lifecycle, taint eviction and pod GC are
// left out on purpose: without kubelet heartbeats they would evict or delete pods.
// The horizontal pod autoscaler acts only on HorizontalPodAutoscaler objects; it reads the resource
// metrics API, which a test serves by starting metrics-server (scripts/metrics-server-build.sh).
const controllers = "deployment-controller,replicaset-controller,garbage-collector-controller," +
	"endpointslice-controller,namespace-controller,serviceaccount-controller,disruption-controller," +
	"clusterrole-aggregation-controller,horizontal-pod-autoscaler-controller"

// hpaSyncPeriod: how often the autoscaler looks at its metrics (15 s by default); shorter, so a
// test sees a scale-up within seconds of the metrics showing the load.
const hpaSyncPeriod = "5s"

type child struct {
	name string
	cmd  *exec.Cmd
	done chan error
}

// runUp starts etcd, the API server and the controller manager as child processes of this
// binary, waits until the API server answers and the controllers work, writes a kubeconfig and
// stays in the foreground until SIGTERM/SIGINT (or end of stdin with --stop-on-stdin-eof);
// then stops the children, last started first. The children get SIGKILL from the kernel should
// this process die without cleaning up (parent-death signal).
func runUp(args []string) int {
	fs := flag.NewFlagSet("up", flag.ContinueOnError)
	dir := fs.String("dir", "", "state directory: certificates, etcd data, logs, kubeconfig (required)")
	port := fs.Int("port", 0, "API server port on 127.0.0.1 (0: any free port)")
	timeout := fs.Duration("timeout", 240*time.Second, "how long to wait for the control plane")
	stdinEOF := fs.Bool("stop-on-stdin-eof", false, "stop when stdin closes (the parent went away)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "up: --dir is required")
		return 2
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "up:", err)
		return 2
	}
	*dir = abs
	if err := prepareDir(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "up:", err)
		return 1
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "up:", err)
		return 1
	}
	if err := os.WriteFile(filepath.Join(*dir, "up.pid"), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "up:", err)
		return 1
	}
	defer os.Remove(filepath.Join(*dir, "up.pid"))
	defer os.Remove(filepath.Join(*dir, "ready"))

	pki, err := writePKI(filepath.Join(*dir, "pki"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "up: certificates:", err)
		return 1
	}
	ports, err := freePorts(3)
	if err != nil {
		fmt.Fprintln(os.Stderr, "up:", err)
		return 1
	}
	if *port != 0 {
		ports[2] = *port
	}
	etcdURL := fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	server := fmt.Sprintf("https://127.0.0.1:%d", ports[2])
	kcmConfig := filepath.Join(*dir, "kube-controller-manager.kubeconfig")
	if err := writeKubeconfig(kcmConfig, server, pki, "controller-manager"); err != nil {
		fmt.Fprintln(os.Stderr, "up:", err)
		return 1
	}

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if *stdinEOF {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop <- syscall.SIGPIPE
		}()
	}

	var children []*child
	defer func() { stopAll(children) }()
	start := func(name string, args ...string) (*child, error) {
		c, err := startChild(self, *dir, name, args)
		if err == nil {
			children = append(children, c)
		}
		return c, err
	}
	began := time.Now()
	deadline := began.Add(*timeout)
	etcd, err := start("etcd", "--data-dir", filepath.Join(*dir, "etcd"),
		"--listen-client-url", etcdURL, "--listen-peer-url", fmt.Sprintf("http://127.0.0.1:%d", ports[1]))
	if err != nil {
		fmt.Fprintln(os.Stderr, "up:", err)
		return 1
	}
	if err := waitFor(deadline, stop, etcd, func() error { return httpOK(http.DefaultClient, etcdURL+"/health") }); err != nil {
		fmt.Fprintln(os.Stderr, "up: etcd:", err, "(log:", logPath(*dir, "etcd")+")")
		return 1
	}
	api, err := start("kube-apiserver",
		"--etcd-servers="+etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(ports[2]),
		"--endpoint-reconciler-type=none",
		"--tls-cert-file="+pki.file("apiserver.crt"),
		"--tls-private-key-file="+pki.file("apiserver.key"),
		"--client-ca-file="+pki.file("ca.crt"),
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file="+pki.file("sa.pub"),
		"--service-account-signing-key-file="+pki.file("sa.key"),
		"--service-cluster-ip-range=10.0.0.0/24",
		"--authorization-mode=RBAC",
		"--allow-privileged=true",
		"--profiling=false",
		"--cert-dir="+filepath.Join(*dir, "apiserver-certs"),
		// the aggregation layer (an APIService such as metrics.k8s.io): the API server proxies to the
		// extension server with this client certificate and names the user in these headers
		"--requestheader-client-ca-file="+pki.file("front-proxy-ca.crt"),
		"--requestheader-allowed-names=front-proxy-client",
		"--requestheader-username-headers=X-Remote-User",
		"--requestheader-group-headers=X-Remote-Group",
		"--requestheader-extra-headers-prefix=X-Remote-Extra-",
		"--proxy-client-cert-file="+pki.file("front-proxy-client.crt"),
		"--proxy-client-key-file="+pki.file("front-proxy-client.key"),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, "up:", err)
		return 1
	}
	admin, err := pki.client("admin")
	if err != nil {
		fmt.Fprintln(os.Stderr, "up:", err)
		return 1
	}
	if err := waitFor(deadline, stop, api, func() error { return httpOK(admin, server+"/readyz") }); err != nil {
		fmt.Fprintln(os.Stderr, "up: kube-apiserver:", err, "(log:", logPath(*dir, "kube-apiserver")+")")
		return 1
	}
	kcm, err := start("kube-controller-manager",
		"--kubeconfig="+kcmConfig,
		"--controllers="+controllers,
		"--horizontal-pod-autoscaler-sync-period="+hpaSyncPeriod,
		"--leader-elect=false",
		"--secure-port=0",
		"--service-cluster-ip-range=10.0.0.0/24",
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, "up:", err)
		return 1
	}
	// the serviceaccount controller creates "default" in every namespace: proof that the
	// controllers run (pods are refused by admission until it exists)
	if err := waitFor(deadline, stop, kcm, func() error {
		return httpOK(admin, server+"/api/v1/namespaces/default/serviceaccounts/default")
	}); err != nil {
		fmt.Fprintln(os.Stderr, "up: kube-controller-manager:", err, "(log:", logPath(*dir, "kube-controller-manager")+")")
		return 1
	}
	kubeconfig := filepath.Join(*dir, "kubeconfig")
	if err := writeKubeconfig(kubeconfig, server, pki, "admin"); err != nil {
		fmt.Fprintln(os.Stderr, "up:", err)
		return 1
	}
	ready := fmt.Sprintf("server=%s\nkubeconfig=%s\nversion=%s\nstartup_seconds=%.1f\n",
		server, kubeconfig, kubeVersion(), time.Since(began).Seconds())
	if err := writeAtomically(filepath.Join(*dir, "ready"), []byte(ready)); err != nil {
		fmt.Fprintln(os.Stderr, "up:", err)
		return 1
	}
	fmt.Printf("ready %s kubeconfig=%s (%.1fs)\n", server, kubeconfig, time.Since(began).Seconds())

	select {
	case s := <-stop:
		fmt.Fprintln(os.Stderr, "up: stopping on", s)
		return 0
	case err := <-etcd.done:
		fmt.Fprintln(os.Stderr, "up: etcd exited:", err)
	case err := <-api.done:
		fmt.Fprintln(os.Stderr, "up: kube-apiserver exited:", err)
	case err := <-kcm.done:
		fmt.Fprintln(os.Stderr, "up: kube-controller-manager exited:", err)
	}
	return 1
}

// runDown asks the "up" process in --dir to stop and waits until it and its children are gone.
func runDown(args []string) int {
	fs := flag.NewFlagSet("down", flag.ContinueOnError)
	dir := fs.String("dir", "", "the state directory given to up (required)")
	wait := fs.Duration("timeout", 60*time.Second, "how long to wait before SIGKILL")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "down: --dir is required")
		return 2
	}
	pids := map[string]int{}
	for _, name := range []string{"up", "kube-controller-manager", "kube-apiserver", "etcd"} {
		if pid, ok := ourProcess(*dir, name); ok {
			pids[name] = pid
		}
	}
	if pid, ok := pids["up"]; ok {
		_ = syscall.Kill(pid, syscall.SIGTERM)
	} else {
		for _, name := range []string{"kube-controller-manager", "kube-apiserver", "etcd"} {
			if pid, ok := pids[name]; ok {
				_ = syscall.Kill(pid, syscall.SIGTERM)
			}
		}
	}
	deadline := time.Now().Add(*wait)
	for {
		alive := 0
		for _, pid := range pids {
			if syscall.Kill(pid, 0) == nil && !zombie(pid) {
				alive++
			}
		}
		if alive == 0 {
			return 0
		}
		if time.Now().After(deadline) {
			for _, pid := range pids {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			fmt.Fprintln(os.Stderr, "down: killed what did not stop in", *wait)
			return 1
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// ourProcess reads <dir>/<name>.pid and checks that the process is still this control plane's
// (its command line names the directory), so a recycled pid is never signalled.
func ourProcess(dir, name string) (int, bool) {
	b, err := os.ReadFile(filepath.Join(dir, name+".pid"))
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		return 0, false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return 0, false
	}
	abs, _ := filepath.Abs(dir)
	if !strings.Contains(string(cmdline), abs) && !strings.Contains(string(cmdline), dir) {
		return 0, false
	}
	return pid, true
}

func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] == 'Z'
}

func prepareDir(dir string) error {
	if pid, ok := ourProcess(dir, "up"); ok {
		return fmt.Errorf("a control plane already runs in %s (pid %d)", dir, pid)
	}
	// a fresh cluster each time: old data, certificates and state go
	for _, sub := range []string{"etcd", "pki", "apiserver-certs", "logs"} {
		if err := os.RemoveAll(filepath.Join(dir, sub)); err != nil {
			return err
		}
	}
	for _, f := range []string{"ready", "kubeconfig"} {
		_ = os.Remove(filepath.Join(dir, f))
	}
	return os.MkdirAll(filepath.Join(dir, "logs"), 0o755)
}

func logPath(dir, name string) string { return filepath.Join(dir, "logs", name+".log") }

func startChild(self, dir, name string, args []string) (*child, error) {
	logFile, err := os.OpenFile(logPath(dir, name), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	// through /proc/self/exe: the children run this very binary even if its file was replaced
	// or removed since "up" started (a rebuild of the cache)
	cmd := exec.Command("/proc/self/exe", append([]string{name}, args...)...)
	cmd.Args[0] = self
	cmd.Dir = dir
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	_ = os.WriteFile(filepath.Join(dir, name+".pid"), []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o644)
	c := &child{name: name, cmd: cmd, done: make(chan error, 1)}
	go func() {
		err := cmd.Wait()
		logFile.Close()
		c.done <- err
		close(c.done)
	}()
	return c, nil
}

// stopAll stops the children, last started first: SIGTERM, then SIGKILL after a grace period.
func stopAll(children []*child) {
	for i := len(children) - 1; i >= 0; i-- {
		c := children[i]
		_ = c.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-c.done:
		case <-time.After(20 * time.Second):
			_ = c.cmd.Process.Kill()
			<-c.done
		}
		_ = os.Remove(filepath.Join(c.cmd.Dir, c.name+".pid"))
	}
}

func waitFor(deadline time.Time, stop <-chan os.Signal, c *child, check func() error) error {
	var last error
	for {
		if last = check(); last == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not ready in time: %w", last)
		}
		select {
		case s := <-stop:
			return fmt.Errorf("interrupted by %v", s)
		case err, ok := <-c.done:
			if !ok {
				return errors.New("exited")
			}
			return fmt.Errorf("exited: %v", err)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func httpOK(client *http.Client, url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		first, _ := bufio.NewReader(io.LimitReader(resp.Body, 300)).ReadString('\n')
		return fmt.Errorf("%s: HTTP %d %s", url, resp.StatusCode, strings.TrimSpace(first))
	}
	return nil
}

func freePorts(n int) ([]int, error) {
	var ports []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func writeAtomically(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// client returns an HTTPS client that trusts our CA and presents the named client certificate.
func (p *pkiFiles) client(name string) (*http.Client, error) {
	cert, err := tls.LoadX509KeyPair(p.file(name+".crt"), p.file(name+".key"))
	if err != nil {
		return nil, err
	}
	caPEM, err := os.ReadFile(p.file("ca.crt"))
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	return &http.Client{Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		Proxy:           nil,
	}, Timeout: 10 * time.Second}, nil
}
