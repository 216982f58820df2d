package goals

import "github.com/visdesktop/vis/backend/store"

// HaltOf is the halt of goal work started under t, given the goal g as it
// is now (the zero Goal: the session has none): what StopCheck would say,
// without reading the store. The engine calls it from OnChange to stop a
// running goal turn at once when a user control stops its goal.
func HaltOf(t Ticket, g Goal) Halt {
	return haltOf(t, store.Goal{GoalID: g.ID, Status: g.Status, Version: g.Version}, g.ID != "")
}

// Active reports whether the ticket was taken while its goal was active:
// only such a turn does goal work that a halt can stop.
func (t Ticket) Active() bool { return t.active() }
