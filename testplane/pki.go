package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

type pkiFiles struct{ dir string }

func (p *pkiFiles) file(name string) string { return filepath.Join(p.dir, name) }

// writePKI creates a throw-away CA, the API server's serving certificate (loopback and the
// in-cluster names), client certificates for the admin and the controller manager (both in
// system:masters, which RBAC lets do anything), the aggregation layer's front-proxy CA and
// client certificate, and the service-account signing key pair.
func writePKI(dir string) (*pkiFiles, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	p := &pkiFiles{dir: dir}
	now := time.Now().Add(-time.Hour)
	caCert, caKey, err := newCA(p, "ca", "ragsearch-testplane-ca", now)
	if err != nil {
		return nil, err
	}
	leaf := func(name string, subject pkix.Name, usage x509.ExtKeyUsage, dns []string, ips []net.IP) error {
		return signLeaf(p, caCert, caKey, now, name, subject, usage, dns, ips)
	}
	if err := leaf("apiserver", pkix.Name{CommonName: "kube-apiserver"}, x509.ExtKeyUsageServerAuth,
		[]string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"},
		[]net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.0.0.1")}); err != nil {
		return nil, err
	}
	if err := leaf("admin", pkix.Name{CommonName: "testplane-admin", Organization: []string{"system:masters"}},
		x509.ExtKeyUsageClientAuth, nil, nil); err != nil {
		return nil, err
	}
	if err := leaf("controller-manager", pkix.Name{CommonName: "system:kube-controller-manager", Organization: []string{"system:masters"}},
		x509.ExtKeyUsageClientAuth, nil, nil); err != nil {
		return nil, err
	}
	// The aggregation layer's own CA and the client certificate the API server proxies with to an
	// extension API server (metrics-server): that server trusts the X-Remote-User headers only from
	// a client this CA signed, as on a kubeadm cluster.
	proxyCert, proxyKey, err := newCA(p, "front-proxy-ca", "ragsearch-testplane-front-proxy-ca", now)
	if err != nil {
		return nil, err
	}
	if err := signLeaf(p, proxyCert, proxyKey, now, "front-proxy-client", pkix.Name{CommonName: "front-proxy-client"},
		x509.ExtKeyUsageClientAuth, nil, nil); err != nil {
		return nil, err
	}
	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	if err := writeKey(p.file("sa.key"), saKey); err != nil {
		return nil, err
	}
	pub, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(p.file("sa.pub"), pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), 0o644); err != nil {
		return nil, err
	}
	return p, nil
}

// newCA writes a throw-away CA (ten days) as <name>.crt and <name>.key.
func newCA(p *pkiFiles, name, commonName string, now time.Time) (*x509.Certificate, *ecdsa.PrivateKey, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: commonName},
		NotBefore:             now,
		NotAfter:              now.Add(10 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, err
	}
	if err := writeCert(p.file(name+".crt"), der); err != nil {
		return nil, nil, err
	}
	return cert, key, writeKey(p.file(name+".key"), key)
}

// signLeaf writes a certificate that ca signed, and its key, as <name>.crt and <name>.key.
func signLeaf(p *pkiFiles, ca *x509.Certificate, caKey *ecdsa.PrivateKey, now time.Time, name string, subject pkix.Name,
	usage x509.ExtKeyUsage, dns []string, ips []net.IP) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      subject,
		NotBefore:    now,
		NotAfter:     now.Add(10 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
		DNSNames:     dns,
		IPAddresses:  ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return err
	}
	if err := writeCert(p.file(name+".crt"), der); err != nil {
		return err
	}
	return writeKey(p.file(name+".key"), key)
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		panic(err)
	}
	return n
}

func writeCert(path string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
}

func writeKey(path string, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), 0o600)
}

// writeKubeconfig writes a kubeconfig for the named client certificate with everything inline.
func writeKubeconfig(path, server string, p *pkiFiles, user string) error {
	read := func(name string) (string, error) {
		b, err := os.ReadFile(p.file(name))
		return base64.StdEncoding.EncodeToString(b), err
	}
	ca, err := read("ca.crt")
	if err != nil {
		return err
	}
	crt, err := read(user + ".crt")
	if err != nil {
		return err
	}
	key, err := read(user + ".key")
	if err != nil {
		return err
	}
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: testplane
  cluster:
    server: %s
    certificate-authority-data: %s
users:
- name: %s
  user:
    client-certificate-data: %s
    client-key-data: %s
contexts:
- name: testplane
  context:
    cluster: testplane
    user: %s
    namespace: default
current-context: testplane
`, server, ca, user, crt, key, user)
	return writeAtomically(path, []byte(cfg))
}
