// Package notifytest is a notification server for tests: it owns
// org.freedesktop.Notifications on a D-Bus session bus (a private
// dbus-daemon started by StartBus), records every Notify call and can send
// the ActionInvoked signal a person's click would.
package notifytest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/godbus/dbus/v5"
)

// Call is one recorded Notify call.
type Call struct {
	ID       uint32   `json:"id"`
	App      string   `json:"app"`
	Replaces uint32   `json:"replaces"`
	Summary  string   `json:"summary"`
	Body     string   `json:"body"`
	Actions  []string `json:"actions"`
	Urgency  byte     `json:"urgency"`
}

// Server records Notify calls; OnCall, when set, sees each one.
type Server struct {
	conn   *dbus.Conn
	mu     sync.Mutex
	calls  []Call
	next   uint32
	OnCall func(Call)
}

// Notify implements the method (exported on the bus).
func (s *Server) Notify(app string, replaces uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	s.mu.Lock()
	id := replaces
	if id == 0 {
		s.next++
		id = s.next
	}
	var urgency byte
	if v, ok := hints["urgency"]; ok {
		urgency, _ = v.Value().(byte)
	}
	c := Call{ID: id, App: app, Replaces: replaces, Summary: summary, Body: body, Actions: actions, Urgency: urgency}
	s.calls = append(s.calls, c)
	on := s.OnCall
	s.mu.Unlock()
	if on != nil {
		on(c)
	}
	return id, nil
}

// GetCapabilities, CloseNotification and GetServerInformation complete the interface.
func (s *Server) GetCapabilities() ([]string, *dbus.Error) { return []string{"actions", "body"}, nil }
func (s *Server) CloseNotification(id uint32) *dbus.Error  { return nil }
func (s *Server) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "notifytest", "vis", "1", "1.2", nil
}

// Calls returns the calls so far.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// Click sends ActionInvoked(id, "default"), as a click on the notification does.
func (s *Server) Click(id uint32) error {
	return s.conn.Emit("/org/freedesktop/Notifications", "org.freedesktop.Notifications.ActionInvoked", id, "default")
}

// Close releases the name and the connection.
func (s *Server) Close() error { return s.conn.Close() }

// Serve connects to the session bus at address and owns the notification
// server's name there.
func Serve(address string) (*Server, error) {
	conn, err := dbus.Connect(address)
	if err != nil {
		return nil, err
	}
	s := &Server{conn: conn}
	if err := conn.Export(s, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		conn.Close()
		return nil, err
	}
	reply, err := conn.RequestName("org.freedesktop.Notifications", dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		conn.Close()
		return nil, fmt.Errorf("own org.freedesktop.Notifications: %v (reply %v)", err, reply)
	}
	return s, nil
}

// Bus is a private dbus-daemon (a real one), killed by Stop.
type Bus struct {
	Address string
	cmd     *exec.Cmd
}

// StartBus starts `dbus-daemon --session` with its socket in dir and
// returns once it printed its address.
func StartBus(dir string) (*Bus, error) {
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		return nil, errors.New("dbus-daemon is not installed (scripts/deps.sh test installs it)")
	}
	conf := filepath.Join(dir, "bus.conf")
	sock := filepath.Join(dir, "bus")
	cfg := `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=` + sock + `</listen>
<auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>`
	if err := os.WriteFile(conf, []byte(cfg), 0o600); err != nil {
		return nil, err
	}
	cmd := exec.Command(daemon, "--config-file="+conf, "--nofork", "--print-address=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line := make(chan string, 1)
	go func() {
		r := bufio.NewReader(out)
		l, _ := r.ReadString('\n')
		line <- strings.TrimSpace(l)
	}()
	select {
	case addr := <-line:
		if addr == "" {
			cmd.Process.Kill()
			cmd.Wait()
			return nil, errors.New("dbus-daemon printed no address")
		}
		return &Bus{Address: addr, cmd: cmd}, nil
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		return nil, errors.New("dbus-daemon did not start within 60 s")
	}
}

// Stop kills the daemon.
func (b *Bus) Stop() {
	_ = b.cmd.Process.Kill()
	_ = b.cmd.Wait()
}
