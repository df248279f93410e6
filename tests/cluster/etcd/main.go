// Command etcd runs one embedded etcd member for the test control plane: a single node on
// loopback, with its data in the folder it is given, until it is interrupted.
package main

import (
	"flag"
	"log"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

func main() {
	dataDir := flag.String("data-dir", "", "folder for the member's data (required)")
	clientURL := flag.String("listen-client-urls", "http://127.0.0.1:2379", "URL clients connect to")
	peerURL := flag.String("listen-peer-urls", "http://127.0.0.1:2380", "URL of the (only) peer")
	flag.Parse()
	if *dataDir == "" {
		log.Fatal("--data-dir is required")
	}
	client, err := url.Parse(*clientURL)
	if err != nil {
		log.Fatalf("--listen-client-urls: %v", err)
	}
	peer, err := url.Parse(*peerURL)
	if err != nil {
		log.Fatalf("--listen-peer-urls: %v", err)
	}

	cfg := embed.NewConfig()
	cfg.Name = "control-plane"
	cfg.Dir = *dataDir
	cfg.ListenClientUrls = []url.URL{*client}
	cfg.AdvertiseClientUrls = []url.URL{*client}
	cfg.ListenPeerUrls = []url.URL{*peer}
	cfg.AdvertisePeerUrls = []url.URL{*peer}
	cfg.InitialCluster = cfg.Name + "=" + peer.String()
	cfg.LogLevel = "warn"
	// A test store: no fsync per write (the data is thrown away afterwards).
	cfg.UnsafeNoFsync = true

	server, err := embed.StartEtcd(cfg)
	if err != nil {
		log.Fatalf("etcd did not start: %v", err)
	}
	defer server.Close()
	select {
	case <-server.Server.ReadyNotify():
		log.Printf("etcd ready on %s", client)
	case <-time.After(60 * time.Second):
		server.Server.Stop()
		log.Fatal("etcd was not ready within 60 s")
	}

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	select {
	case err := <-server.Err():
		log.Fatalf("etcd stopped: %v", err)
	case <-signals:
	}
}
