// Command s3-fetch is the reference client of the Bucket benchmark: the AWS SDK for Go's own S3
// client, addressing the bucket by path, listing it (every page) and downloading every object
// into a directory, a given number at once, as `aws s3 sync` does. It prints the objects and bytes
// fetched and the time taken.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

func main() {
	endpoint := flag.String("endpoint", "", "http://host:port of the S3 server")
	bucket := flag.String("bucket", "", "the bucket")
	dir := flag.String("dir", "", "the directory to download into")
	accessKey := flag.String("access-key", "", "the access key id")
	secretKey := flag.String("secret-key", "", "the secret key")
	concurrency := flag.Int("concurrency", 8, "downloads at once")
	flag.Parse()
	client := s3.New(s3.Options{
		BaseEndpoint: endpoint,
		Region:       "us-east-1",
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(*accessKey, *secretKey, ""),
	})
	ctx := context.Background()
	start := time.Now()
	var keys []string
	pages := s3.NewListObjectsV2Paginator(client, &s3.ListObjectsV2Input{Bucket: bucket})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			log.Fatal(err)
		}
		for _, object := range page.Contents {
			keys = append(keys, aws.ToString(object.Key))
		}
	}
	work := make(chan string)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var total int64
	for i := 0; i < *concurrency; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for key := range work {
				n := download(ctx, client, *bucket, key, filepath.Join(*dir, key))
				mu.Lock()
				total += n
				mu.Unlock()
			}
		}()
	}
	for _, key := range keys {
		work <- key
	}
	close(work)
	wg.Wait()
	fmt.Printf("%d objects, %d bytes, %d ms\n", len(keys), total, time.Since(start).Milliseconds())
}

func download(ctx context.Context, client *s3.Client, bucket, key, file string) int64 {
	out, err := client.GetObject(ctx, &s3.GetObjectInput{Bucket: &bucket, Key: &key})
	if err != nil {
		log.Fatal(err)
	}
	defer out.Body.Close()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		log.Fatal(err)
	}
	f, err := os.Create(file)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	n, err := io.Copy(f, out.Body)
	if err != nil {
		log.Fatal(err)
	}
	return n
}
