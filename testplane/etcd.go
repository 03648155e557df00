package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

// runEtcd runs a single-member etcd in this process until SIGTERM/SIGINT.
func runEtcd(args []string) int {
	fs := flag.NewFlagSet("etcd", flag.ContinueOnError)
	dataDir := fs.String("data-dir", "", "data directory (required)")
	clientURL := fs.String("listen-client-url", "http://127.0.0.1:2379", "client URL (loopback)")
	peerURL := fs.String("listen-peer-url", "http://127.0.0.1:2380", "peer URL (loopback)")
	logLevel := fs.String("log-level", "warn", "zap log level")
	noFsync := fs.Bool("unsafe-no-fsync", true, "skip fsync (test data only)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dataDir == "" {
		fmt.Fprintln(os.Stderr, "etcd: --data-dir is required")
		return 2
	}
	cu, err := url.Parse(*clientURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, "etcd: bad --listen-client-url:", err)
		return 2
	}
	pu, err := url.Parse(*peerURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, "etcd: bad --listen-peer-url:", err)
		return 2
	}
	cfg := embed.NewConfig()
	cfg.Name = "testplane"
	cfg.Dir = *dataDir
	cfg.ListenClientUrls = []url.URL{*cu}
	cfg.AdvertiseClientUrls = []url.URL{*cu}
	cfg.ListenPeerUrls = []url.URL{*pu}
	cfg.AdvertisePeerUrls = []url.URL{*pu}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.LogLevel = *logLevel
	cfg.LogOutputs = []string{"stderr"}
	cfg.UnsafeNoFsync = *noFsync
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "etcd: start:", err)
		return 1
	}
	defer e.Close()
	select {
	case <-e.Server.ReadyNotify():
		fmt.Fprintln(os.Stderr, "etcd: ready on", cu.String())
	case <-time.After(120 * time.Second):
		fmt.Fprintln(os.Stderr, "etcd: not ready after 120s")
		return 1
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	select {
	case s := <-sig:
		fmt.Fprintln(os.Stderr, "etcd: stopping on", s)
		return 0
	case err := <-e.Err():
		fmt.Fprintln(os.Stderr, "etcd: failed:", err)
		return 1
	}
}
