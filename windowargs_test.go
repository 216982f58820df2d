package main

import "testing"

func TestWindowArgs(t *testing.T) {
	tests := []struct {
		args    []string
		ws      string
		ask     bool
		wantErr bool
	}{
		{nil, "", false, false},
		{[]string{"/p"}, "/p", false, false},
		{[]string{"--ask"}, "", true, false},
		{[]string{"--ask", "/p"}, "/p", true, false},
		{[]string{"/p", "-ask"}, "/p", true, false},
		{[]string{"-devflag", "/p"}, "/p", false, false},
		{[]string{"/p", "/q"}, "", false, true},
	}
	for _, tc := range tests {
		ws, ask, err := windowArgs(tc.args)
		if ws != tc.ws || ask != tc.ask || (err != nil) != tc.wantErr {
			t.Errorf("windowArgs(%q) = %q, %v, %v; want %q, %v, error %v", tc.args, ws, ask, err, tc.ws, tc.ask, tc.wantErr)
		}
	}
}
