module capstan.dev/testregistry/s3

go 1.26.0

require (
	github.com/aws/aws-sdk-go-v2 v1.41.5
	github.com/johannesboyne/gofakes3 v1.2.0
)

require (
	github.com/aws/smithy-go v1.24.2 // indirect
	github.com/ryszard/goskiplist v0.0.0-20150312221310-2dfbae5fcf46 // indirect
	go.shabbyrobe.org/gocovmerge v0.0.0-20230507111327-fa4f82cfbf4d // indirect
	golang.org/x/tools v0.8.0 // indirect
)
