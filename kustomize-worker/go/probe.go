package main

import (
	"net"
	"os"
	"runtime"
	"time"
)

// prober makes the attempts of Probe requests, all on one goroutine locked to an operating-system
// thread that was started before the sandbox was entered (see Probe).
type prober struct {
	jobs chan probeJob
}

type probeJob struct {
	probe Probe
	done  chan *ProbeResult
}

func startProber() *prober {
	p := &prober{jobs: make(chan probeJob)}
	started := make(chan struct{})
	go func() {
		runtime.LockOSThread() // never unlocked: the thread serves every probe
		close(started)
		for job := range p.jobs {
			job.done <- attempt(job.probe)
		}
	}()
	<-started
	return p
}

func (p *prober) try(probe Probe) *ProbeResult {
	done := make(chan *ProbeResult, 1)
	p.jobs <- probeJob{probe, done}
	return <-done
}

func attempt(p Probe) *ProbeResult {
	var err error
	switch {
	case p.Open != "":
		var f *os.File
		if f, err = os.Open(p.Open); err == nil {
			f.Close()
		}
	case p.Connect != "":
		var c net.Conn
		if c, err = net.DialTimeout("tcp", p.Connect, 5*time.Second); err == nil {
			c.Close()
		}
	case p.Syscall != "":
		err = probeSyscall(p.Syscall)
	case p.Stdout != "":
		_, err = os.Stdout.WriteString(p.Stdout)
	}
	if err != nil {
		return &ProbeResult{Error: err.Error()}
	}
	return &ProbeResult{}
}
