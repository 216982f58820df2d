//go:build !linux

package nrepl

import "net"

func newSocketReader(nc net.Conn) interface{ Read([]byte) (int, error) } { return nc }
