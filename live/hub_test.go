package live

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"chesstutor/games"
)

// fakeGames counts the reads and answers with a state at the current ply.
type fakeGames struct {
	reads atomic.Int32
	ply   atomic.Int32
	gate  chan struct{} // when set, each read waits for it
}

func (f *fakeGames) load(ctx context.Context, id string) (*games.State, error) {
	f.reads.Add(1)
	if f.gate != nil {
		<-f.gate
	}
	return &games.State{ID: id, Ply: int(f.ply.Load())}, nil
}

func recv(t *testing.T, s *Stream) *games.State {
	t.Helper()
	select {
	case st := <-s.States():
		return st
	case <-time.After(5 * time.Second):
		t.Fatal("no state in 5 s")
	}
	return nil
}

// TestOneReadPerChange: however many streams follow a game here, a change
// reads it once, and every stream gets it; other games cost nothing.
func TestOneReadPerChange(t *testing.T) {
	f := &fakeGames{}
	h := NewHub(f.load, Options{})
	var streams []*Stream
	for i := range 5 {
		s, err := h.Follow("g1", string(rune('a'+i)))
		if err != nil {
			t.Fatal(err)
		}
		streams = append(streams, s)
	}
	f.ply.Store(3)
	h.Changed("g1", 3)
	for _, s := range streams {
		if st := recv(t, s); st.Ply != 3 {
			t.Errorf("got ply %d, want 3", st.Ply)
		}
	}
	if n := f.reads.Load(); n != 1 {
		t.Errorf("%d reads for one change, want 1", n)
	}
	h.Publish("nobody-follows")
	time.Sleep(20 * time.Millisecond)
	if n := f.reads.Load(); n != 1 {
		t.Errorf("a game nobody follows was read (%d reads)", n)
	}
}

// TestChangesDuringAReadCoalesce: changes that come while a read runs
// make one more read, and the stream ends up with the newest state
// however slow it is to take them (one state held, bounded memory).
func TestChangesDuringAReadCoalesce(t *testing.T) {
	f := &fakeGames{gate: make(chan struct{})}
	h := NewHub(f.load, Options{})
	s, _ := h.Follow("g", "v")
	h.Publish("g")
	for i := 1; i <= 10; i++ {
		f.ply.Store(int32(i))
		h.Publish("g")
	}
	close(f.gate)
	deadline := time.Now().Add(5 * time.Second)
	for {
		st := recv(t, s)
		if st.Ply == 10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("stuck at ply %d", st.Ply)
		}
	}
	if n := f.reads.Load(); n > 3 {
		t.Errorf("%d reads for 11 changes during one read, want at most 3", n)
	}
	if got := len(s.c); got > 1 {
		t.Errorf("the stream holds %d states", got)
	}
}

func TestStreamLimitsAndClose(t *testing.T) {
	f := &fakeGames{}
	h := NewHub(f.load, Options{PerVisitor: 2, MaxStreams: 3})
	a1, _ := h.Follow("g", "a")
	if _, err := h.Follow("g", "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Follow("h", "a"); !errors.Is(err, ErrTooMany) {
		t.Errorf("a third stream of one visitor: %v, want ErrTooMany", err)
	}
	if _, err := h.Follow("g", "b"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Follow("g", "c"); !errors.Is(err, ErrTooMany) {
		t.Errorf("a stream past the process's limit: %v, want ErrTooMany", err)
	}
	h.Leave(a1)
	h.Leave(a1) // twice is harmless
	if _, err := h.Follow("g", "c"); err != nil {
		t.Errorf("after one left: %v", err)
	}
	if n := h.Streams(); n != 3 {
		t.Errorf("%d streams, want 3", n)
	}
	var wg sync.WaitGroup
	wg.Go(func() { <-a1.Done() })
	h.Close()
	h.Close()
	wg.Wait()
	if _, err := h.Follow("g", "d"); !errors.Is(err, ErrClosed) {
		t.Errorf("a stream after Close: %v, want ErrClosed", err)
	}
}

// bus records announcements instead of sending them.
type bus struct{ got []string }

func (b *bus) Announce(id string, ply int) { b.got = append(b.got, id) }

// TestChangedGoesThroughTheBus: with a bus, a change is announced (to
// every process) instead of published here directly.
func TestChangedGoesThroughTheBus(t *testing.T) {
	f := &fakeGames{}
	h := NewHub(f.load, Options{})
	b := &bus{}
	h.SetBus(b)
	s, _ := h.Follow("g", "v")
	h.Changed("g", 1)
	if len(b.got) != 1 || b.got[0] != "g" {
		t.Fatalf("announced %v", b.got)
	}
	select {
	case <-s.States():
		t.Error("published directly despite the bus")
	case <-time.After(30 * time.Millisecond):
	}
	h.Publish("g") // what the bus's listener does
	recv(t, s)
}
