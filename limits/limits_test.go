package limits

import (
	"fmt"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

func TestBurstThenRate(t *testing.T) {
	l := New(0.5, 3, 100) // one token every two seconds
	for i := 0; i < 3; i++ {
		if ok, _ := l.Allow("a", t0); !ok {
			t.Fatalf("event %d of the burst refused", i+1)
		}
	}
	ok, wait := l.Allow("a", t0)
	if ok || wait != 2*time.Second {
		t.Fatalf("fourth event = %v, wait %v; want refused, 2s", ok, wait)
	}
	if ok, _ := l.Allow("b", t0); !ok {
		t.Fatal("another key shares the first one's bucket")
	}
	if ok, _ := l.Allow("a", t0.Add(time.Second)); ok {
		t.Fatal("a token came back after one second at 0.5/s")
	}
	if ok, _ := l.Allow("a", t0.Add(2*time.Second)); !ok {
		t.Fatal("no token after two seconds at 0.5/s")
	}
}

func TestRetryAfterSeconds(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want int
	}{{0, 1}, {10 * time.Millisecond, 1}, {time.Second, 1}, {1500 * time.Millisecond, 2}, {30 * time.Second, 30}} {
		if got := RetryAfterSeconds(c.d); got != c.want {
			t.Errorf("RetryAfterSeconds(%v) = %d, want %d", c.d, got, c.want)
		}
	}
}

// TestMemoryBounded: a flood of distinct keys never holds more than the
// cap, and refilled buckets are dropped as time goes on.
func TestMemoryBounded(t *testing.T) {
	const maxKeys = 1600
	l := New(1, 10, maxKeys)
	for i := 0; i < 100_000; i++ {
		l.Allow(fmt.Sprintf("fake-%d", i), t0.Add(time.Duration(i)*time.Microsecond))
	}
	if n := l.Len(); n > maxKeys {
		t.Fatalf("%d keys remembered after a flood, cap %d", n, maxKeys)
	}
	// A key used during the flood keeps its bucket while it stays in use.
	for i := 0; i < 10; i++ {
		l.Allow("steady", t0)
	}
	if ok, _ := l.Allow("steady", t0); ok {
		t.Fatal("the steady key got an eleventh token in a burst of 10")
	}
	// Ten seconds refill every bucket: the next call in a shard drops
	// them, and one call per shard empties the limiter of old keys.
	later := t0.Add(11 * time.Second)
	for i := 0; i < 1000; i++ {
		l.Allow(fmt.Sprintf("new-%d", i), later)
	}
	if n := l.Len(); n != 1000 {
		t.Fatalf("%d keys after the old ones refilled, want the 1000 new ones", n)
	}
}

// TestRefundCountsOnlyFailures: a limiter that refunds the successes
// lets any number of them through and still stops the failures at the
// burst.
func TestRefundCountsOnlyFailures(t *testing.T) {
	l := New(1.0/3, 20, 100)
	now := time.Unix(1_700_000_000, 0)
	for i := range 100 {
		ok, _ := l.Allow("school", now)
		if !ok {
			t.Fatalf("success %d refused", i)
		}
		l.Refund("school")
	}
	for i := range 20 {
		if ok, _ := l.Allow("school", now); !ok {
			t.Fatalf("failure %d refused, want 20 allowed", i)
		}
	}
	if ok, _ := l.Allow("school", now); ok {
		t.Fatal("the 21st failure in a minute was allowed")
	}
	l.Refund("nobody") // a key never seen: nothing to give back, no panic
}
