//go:build unix

package faults

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// process is one OS process of the topology, in a process group of its own, so that a signal
// reaches it and anything it started. Its output goes to a log file kept across restarts.
type process struct {
	name string
	bin  string
	args []string
	env  []string
	log  string

	mu      sync.Mutex
	cmd     *exec.Cmd
	done    chan struct{} // closed when the current run has exited
	stopped bool          // SIGSTOPped, not yet continued
}

// start runs the process (again).
func (p *process) start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil {
		select {
		case <-p.done:
		default:
			return fmt.Errorf("%s is still running", p.name)
		}
	}
	f, err := os.OpenFile(p.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "==== %s: %s started\n", time.Now().Format(time.RFC3339Nano), p.name)
	cmd := exec.Command(p.bin, p.args...)
	cmd.Env = append(os.Environ(), p.env...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		f.Close()
		return fmt.Errorf("start %s: %w", p.name, err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		f.Close()
		close(done)
	}()
	p.cmd, p.done, p.stopped = cmd, done, false
	return nil
}

// signal sends sig to the process's group (a no-op when it is not running).
func (p *process) signal(sig syscall.Signal) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return nil
	}
	select {
	case <-p.done:
		return nil
	default:
	}
	switch sig {
	case syscall.SIGSTOP:
		p.stopped = true
	case syscall.SIGCONT:
		p.stopped = false
	}
	err := syscall.Kill(-p.cmd.Process.Pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// kill sends SIGKILL to the group and waits for the process to be gone.
func (p *process) kill() error {
	if err := p.signal(syscall.SIGKILL); err != nil {
		return err
	}
	return p.wait(30 * time.Second)
}

// term sends SIGTERM to the group (a graceful stop) and waits up to d for the process to exit.
func (p *process) term(d time.Duration) error {
	if err := p.signal(syscall.SIGTERM); err != nil {
		return err
	}
	return p.wait(d)
}

// pid is the current run's process id (0 when not started).
func (p *process) pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// wait waits for the current run to exit.
func (p *process) wait(d time.Duration) error {
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	if done == nil {
		return nil
	}
	select {
	case <-done:
		return nil
	case <-time.After(d):
		return fmt.Errorf("%s did not exit within %v", p.name, d)
	}
}

// running reports whether the process runs now.
func (p *process) running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done == nil {
		return false
	}
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// close continues a stopped process, then kills it, whatever state it is in.
func (p *process) close() {
	p.mu.Lock()
	stopped := p.stopped
	p.mu.Unlock()
	if stopped {
		_ = p.signal(syscall.SIGCONT)
	}
	_ = p.kill()
}

// tail is the end of the process's log, for a failure message.
func (p *process) tail(n int) string {
	b, err := os.ReadFile(p.log)
	if err != nil {
		return err.Error()
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}
