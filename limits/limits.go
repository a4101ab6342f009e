// Package limits holds the site's token-bucket rate limiters, keyed by a
// visitor or a client address (N8). Their memory is bounded: a bucket that
// has refilled is dropped (it holds nothing a new bucket would not), and
// each limiter keeps at most a fixed number of keys, dropping the least
// recently used when full, so a flood of distinct addresses or fake
// cookies cannot grow it without bound.
package limits

import (
	"container/list"
	"hash/maphash"
	"math"
	"sync"
	"time"
)

// shards spreads keys over independently locked maps so that concurrent
// requests rarely wait for each other.
const shards = 16

// Limiter allows Burst events at once per key, refilled at Rate per second.
// It is safe for concurrent use.
type Limiter struct {
	rate, burst float64
	idle        time.Duration // a bucket unused this long is full again
	perShard    int
	seed        maphash.Seed
	shards      [shards]shard
}

type shard struct {
	mu    sync.Mutex
	keys  map[string]*list.Element
	order list.List // of *bucket, most recently used first
}

type bucket struct {
	key    string
	tokens float64
	last   time.Time
}

// New returns a limiter allowing burst events at once per key and rate
// more per second, remembering at most maxKeys keys (at least shards).
func New(rate float64, burst, maxKeys int) *Limiter {
	if rate <= 0 || burst <= 0 {
		panic("limits: rate and burst must be positive")
	}
	l := &Limiter{
		rate:     rate,
		burst:    float64(burst),
		idle:     time.Duration(float64(burst) / rate * float64(time.Second)),
		perShard: max(1, maxKeys/shards),
		seed:     maphash.MakeSeed(),
	}
	for i := range l.shards {
		l.shards[i].keys = map[string]*list.Element{}
	}
	return l
}

// Allow takes one token from key's bucket at now. When the bucket is
// empty it returns false and how long until a token is back.
func (l *Limiter) Allow(key string, now time.Time) (bool, time.Duration) {
	sh := &l.shards[maphash.String(l.seed, key)%shards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	l.dropRefilled(sh, now)
	var b *bucket
	if el, ok := sh.keys[key]; ok {
		b = el.Value.(*bucket)
		sh.order.MoveToFront(el)
		b.tokens = math.Min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	} else {
		if sh.order.Len() >= l.perShard {
			// Full of recently used keys: the least recently used one
			// starts again with a full bucket when it comes back.
			oldest := sh.order.Back()
			delete(sh.keys, oldest.Value.(*bucket).key)
			sh.order.Remove(oldest)
		}
		b = &bucket{key: key, tokens: l.burst}
		sh.keys[key] = sh.order.PushFront(b)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
	return false, wait
}

// Refund gives back the token an Allow took from key's bucket, up to the
// burst: a limiter that should count only failures (wrong join codes)
// takes a token before the attempt, so a refused client is refused
// before anything is looked up, and refunds it when the attempt worked.
func (l *Limiter) Refund(key string) {
	sh := &l.shards[maphash.String(l.seed, key)%shards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if el, ok := sh.keys[key]; ok {
		b := el.Value.(*bucket)
		b.tokens = math.Min(l.burst, b.tokens+1)
	}
}

// dropRefilled removes, from the least recently used end, buckets that
// have had time to refill completely: forgetting them changes nothing.
func (l *Limiter) dropRefilled(sh *shard, now time.Time) {
	for el := sh.order.Back(); el != nil; el = sh.order.Back() {
		b := el.Value.(*bucket)
		if now.Sub(b.last) < l.idle {
			return
		}
		delete(sh.keys, b.key)
		sh.order.Remove(el)
	}
}

// Len returns how many keys the limiter remembers.
func (l *Limiter) Len() int {
	n := 0
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		n += sh.order.Len()
		sh.mu.Unlock()
	}
	return n
}

// RetryAfterSeconds rounds a wait up to whole seconds, at least one, for
// the Retry-After header.
func RetryAfterSeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}
