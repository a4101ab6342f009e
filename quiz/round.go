package quiz

import (
	"math/rand/v2"
	"slices"
)

// RoundSize is the number of questions in a round.
const RoundSize = 10

// Pick draws the question ids of a new round of n questions (Q4): the
// questions the visitor missed and has not answered right since (in the
// order given, unknown ids skipped; at most half the round, so the rest
// come back in the rounds after), then questions spread across topics,
// one topic after another, preferring questions the visitor has never
// seen. The round is then shuffled, so the missed questions come mixed
// with new ones in a new order, never as the same list again.
func (b *Bank) Pick(n int, missed []string, seen map[string]bool, rng *rand.Rand) []string {
	var ids []string
	used := map[string]bool{}
	perTopic := map[string]int{}
	for _, id := range missed {
		q, ok := b.byID[id]
		if !ok || used[id] || len(ids) >= max(1, n/2) {
			continue
		}
		ids = append(ids, id)
		used[id] = true
		perTopic[q.Topic]++
	}

	// Candidates per topic: unseen questions first, each group shuffled.
	candidates := map[string][]string{}
	var topics []string
	for _, q := range b.questions {
		if used[q.ID] {
			continue
		}
		if _, ok := candidates[q.Topic]; !ok {
			topics = append(topics, q.Topic)
		}
		candidates[q.Topic] = append(candidates[q.Topic], q.ID)
	}
	for _, t := range topics {
		c := candidates[t]
		rng.Shuffle(len(c), func(i, j int) { c[i], c[j] = c[j], c[i] })
		slices.SortStableFunc(c, func(x, y string) int { return boolInt(seen[x]) - boolInt(seen[y]) })
	}
	rng.Shuffle(len(topics), func(i, j int) { topics[i], topics[j] = topics[j], topics[i] })
	// Topics with something new to ask go first.
	slices.SortStableFunc(topics, func(x, y string) int {
		return boolInt(seen[candidates[x][0]]) - boolInt(seen[candidates[y][0]])
	})

	// Pass p takes one question from every topic that has at most p so far,
	// so no topic gets a second question before every topic has had one.
	for pass := 0; len(ids) < n; pass++ {
		took := false
		for _, t := range topics {
			if len(ids) == n {
				break
			}
			if perTopic[t] > pass || len(candidates[t]) == 0 {
				continue
			}
			ids = append(ids, candidates[t][0])
			candidates[t] = candidates[t][1:]
			perTopic[t]++
			took = true
		}
		if !took && !anyLeft(candidates) {
			break
		}
	}
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return ids
}

func anyLeft(c map[string][]string) bool {
	for _, ids := range c {
		if len(ids) > 0 {
			return true
		}
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
