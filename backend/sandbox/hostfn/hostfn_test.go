package hostfn

import (
	"context"
	"testing"
	"time"
)

type fakeClock struct{ asked time.Duration }

func (c *fakeClock) Extend(want time.Duration, _ time.Time) Grant {
	c.asked = want
	return Grant{Budget: want / 2, Capped: true, Note: "capped"}
}

func TestExtendDeadline(t *testing.T) {
	if g := ExtendDeadline(context.Background(), time.Minute); g != (Grant{Budget: time.Minute}) {
		t.Errorf("outside a block: %+v, want the request granted unchanged", g)
	}
	c := &fakeClock{}
	ctx := WithClock(context.Background(), c)
	if g := ExtendDeadline(ctx, time.Minute); g.Budget != 30*time.Second || !g.Capped || c.asked != time.Minute {
		t.Errorf("in a block: %+v (clock asked %s), want the clock's answer", g, c.asked)
	}
	if g := ExtendDeadline(ctx, 0); g.Budget != 0 || g.Capped {
		t.Errorf("zero request: %+v, want nothing asked of the clock", g)
	}
}

func TestCallNotes(t *testing.T) {
	RefusedBySandbox(context.Background(), "ignored") // outside a call: no panic, no effect
	AskedPerson(context.Background(), "ignored")
	ctx, n := WithCallNotes(context.Background())
	RefusedBySandbox(ctx, "")
	RefusedBySandbox(ctx, "first")
	RefusedBySandbox(ctx, "second")
	AskedPerson(ctx, "declined")
	AskedPerson(ctx, "approved")
	if n.Refused() != "first" || n.Asked() != "approved" {
		t.Errorf("notes = %q, %q; want the first refusal and the last answer", n.Refused(), n.Asked())
	}
}
