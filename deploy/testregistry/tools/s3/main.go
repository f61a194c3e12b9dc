// Command s3server is the S3-compatible server of Capstan's tests: gofakes3 in memory, served on a
// loopback port (TLS when a certificate is given) behind a check of AWS Signature Version 4 with
// one access key, and an unauthenticated second port on which the tests create buckets and put
// objects. Every request of the checked port is logged as one line "METHOD URI STATUS" to stdout.
package main

import (
	"crypto/subtle"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9000", "address of the signed S3 API")
	admin := flag.String("admin", "127.0.0.1:9001", "address of the unauthenticated API for tests")
	cert := flag.String("cert", "", "PEM certificate: serve the signed API over TLS")
	key := flag.String("key", "", "PEM private key of -cert")
	accessKey := flag.String("access-key", "", "the access key id requests must be signed with")
	secretKey := flag.String("secret-key", "", "its secret key")
	flag.Parse()
	if *accessKey == "" || *secretKey == "" {
		log.Fatal("-access-key and -secret-key are required")
	}
	faker := gofakes3.New(s3mem.New(), gofakes3.WithAutoBucket(false))
	api := faker.Server()
	checked := &signed{next: api, accessKey: *accessKey, secretKey: *secretKey}
	go func() { log.Fatal(http.ListenAndServe(*admin, api)) }()
	if *cert != "" {
		log.Fatal(http.ListenAndServeTLS(*addr, *cert, *key, checked))
	}
	log.Fatal(http.ListenAndServe(*addr, checked))
}

type signed struct {
	next                 http.Handler
	accessKey, secretKey string
	logged               sync.Mutex
}

type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

func (s *signed) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	if code, message := s.check(r); code != "" {
		status := http.StatusForbidden
		rec.Header().Set("Content-Type", "application/xml")
		rec.WriteHeader(status)
		fmt.Fprintf(rec, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"+
			"<Error><Code>%s</Code><Message>%s</Message></Error>", code, message)
	} else {
		s.next.ServeHTTP(rec, r)
	}
	s.logged.Lock()
	defer s.logged.Unlock()
	fmt.Fprintf(os.Stdout, "%s %s %d\n", r.Method, r.URL.RequestURI(), rec.status)
}

// check recomputes the request's signature with the AWS SDK's own signer, over the headers the
// request says it signed, and compares it with the one it carries.
func (s *signed) check(r *http.Request) (string, string) {
	auth := r.Header.Get("Authorization")
	const scheme = "AWS4-HMAC-SHA256 "
	if !strings.HasPrefix(auth, scheme) {
		return "AccessDenied", "Signature Version 4 required"
	}
	fields := map[string]string{}
	for _, part := range strings.Split(strings.TrimPrefix(auth, scheme), ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(part), "=")
		fields[name] = value
	}
	scope := strings.Split(fields["Credential"], "/")
	if len(scope) != 5 || scope[3] != "s3" || scope[4] != "aws4_request" {
		return "AuthorizationHeaderMalformed", "malformed credential scope"
	}
	if scope[0] != s.accessKey {
		return "InvalidAccessKeyId", "the access key id does not exist"
	}
	at, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil || at.Format("20060102") != scope[1] {
		return "AccessDenied", "X-Amz-Date missing or not of the credential's day"
	}
	if d := time.Since(at); d > 15*time.Minute || d < -15*time.Minute {
		return "RequestTimeTooSkewed", "the request time is too far from the server's"
	}
	again, _ := http.NewRequest(r.Method, "http://"+r.Host+r.URL.RequestURI(), nil)
	again.Host = r.Host
	for _, name := range strings.Split(fields["SignedHeaders"], ";") {
		if name != "host" {
			again.Header[http.CanonicalHeaderKey(name)] = r.Header.Values(name)
		}
	}
	payload := r.Header.Get("X-Amz-Content-Sha256")
	credentials := aws.Credentials{AccessKeyID: s.accessKey, SecretAccessKey: s.secretKey}
	signer := v4.NewSigner(func(o *v4.SignerOptions) { o.DisableURIPathEscaping = true })
	if err := signer.SignHTTP(r.Context(), credentials, again, payload, "s3", scope[2], at); err != nil {
		return "AccessDenied", "the signature cannot be checked"
	}
	expected := signatureOf(again.Header.Get("Authorization"))
	given := fields["Signature"]
	if subtle.ConstantTimeCompare([]byte(expected), []byte(given)) != 1 {
		return "SignatureDoesNotMatch", "the request signature does not match"
	}
	return "", ""
}

func signatureOf(auth string) string {
	_, signature, _ := strings.Cut(auth, "Signature=")
	return signature
}
