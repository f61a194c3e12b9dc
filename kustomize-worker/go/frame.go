package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// A frame is one message between the JVM and a worker, in either direction: a 12-byte header (the
// body's length as a big-endian uint32, then the request's id as a big-endian uint64) and the
// body, JSON. A response carries its request's id; the first frame a worker writes, before it reads
// anything, has id 0 and says how it is confined (Hello). A worker that dies mid-frame leaves a
// short frame, which the JVM never mistakes for an answer. The JVM draws each request's id at
// random. The worker writes its frames to a descriptor of its own (framesOut): whatever else in the
// process prints on standard output goes to standard error.
const frameHeader = 12

// maxRequest bounds what a worker reads for one request (a request carries a Kustomization's
// build fields and, at most, decrypted generator inputs).
const maxRequest = 256 << 20

type frame struct {
	id   uint64
	body []byte
}

var errFrameTooLarge = errors.New("frame too large")

func readFrame(r *bufio.Reader) (frame, error) {
	var header [frameHeader]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return frame{}, err
	}
	size := binary.BigEndian.Uint32(header[0:4])
	id := binary.BigEndian.Uint64(header[4:12])
	if size > maxRequest {
		return frame{}, fmt.Errorf("%w: %d bytes", errFrameTooLarge, size)
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(r, body); err != nil {
		return frame{}, err
	}
	return frame{id: id, body: body}, nil
}

func writeFrame(w *bufio.Writer, f frame) error {
	var header [frameHeader]byte
	binary.BigEndian.PutUint32(header[0:4], uint32(len(f.body)))
	binary.BigEndian.PutUint64(header[4:12], f.id)
	if _, err := w.Write(header[:]); err != nil {
		return err
	}
	if _, err := w.Write(f.body); err != nil {
		return err
	}
	return w.Flush()
}
