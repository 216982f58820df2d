package nrepl

import (
	"net"
	"syscall"
)

// quickAckReader re-arms TCP_QUICKACK before every read. nREPL servers (JVM
// sockets keep Nagle on) write a reply as several small messages; with
// delayed ACKs on our side each "done" waited about 40 ms for the ACK of the
// message before it. Linux clears quick-ack mode on its own, hence per read.
type quickAckReader struct {
	nc net.Conn
	rc syscall.RawConn
}

func newSocketReader(nc net.Conn) interface{ Read([]byte) (int, error) } {
	tc, ok := nc.(*net.TCPConn)
	if !ok {
		return nc
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nc
	}
	return &quickAckReader{nc: nc, rc: rc}
}

func (q *quickAckReader) Read(p []byte) (int, error) {
	_ = q.rc.Control(func(fd uintptr) {
		_ = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_QUICKACK, 1)
	})
	return q.nc.Read(p)
}
