package exercise

// MaxStars is the most stars an exercise earns.
const MaxStars = 3

// Stars turns how an exercise went until its first solve into one to
// three stars (X11): three for a first try without help, two after one or
// two wrong tries without help, one after more wrong tries or when a hint
// or the answer was shown first. An exercise not solved has none (the
// caller does not ask).
func Stars(wrong int, helped bool) int {
	switch {
	case helped:
		return 1
	case wrong == 0:
		return 3
	case wrong <= 2:
		return 2
	}
	return 1
}
