// Command gensounds synthesises the game page's sounds (G20) and writes
// them as small WAV files: move, capture, check, end and low time, and the
// success chime of a solved exercise (celebrate.js). Nothing
// is recorded or downloaded; every sample comes from the sums of decaying
// sines and a little seeded noise below, so running it again writes the
// same bytes. Run from the repository root:
//
//	go run ./cmd/gensounds            # writes public/sounds/*.wav
//	go run ./cmd/gensounds -out DIR
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
)

// rate is the sample rate: low, since the sounds are short clicks and
// chimes, and 8-bit samples keep all six files under 20 KB.
const rate = 11025

// tone is one partial: a sine at freq Hz starting at start seconds, with
// amplitude amp, a 3 ms attack and an exponential decay with time
// constant decay seconds.
type tone struct {
	start, freq, amp, decay float64
}

// click is a burst of noise at start seconds (the wood of a piece set
// down), decaying with time constant decay.
type click struct {
	start, amp, decay float64
}

type sound struct {
	length float64 // seconds
	tones  []tone
	clicks []click
}

func (s sound) samples() []float64 {
	n := int(s.length * rate)
	out := make([]float64, n)
	seed := uint32(12345)
	noise := func() float64 {
		seed = seed*1664525 + 1013904223 // a fixed LCG, so the files never change
		return float64(seed>>8)/float64(1<<24)*2 - 1
	}
	for i := range out {
		t := float64(i) / rate
		v := 0.0
		for _, tn := range s.tones {
			dt := t - tn.start
			if dt < 0 {
				continue
			}
			env := math.Exp(-dt/tn.decay) * math.Min(1, dt/0.003)
			v += tn.amp * env * math.Sin(2*math.Pi*tn.freq*dt)
		}
		nz := noise()
		for _, c := range s.clicks {
			dt := t - c.start
			if dt < 0 {
				continue
			}
			v += c.amp * math.Exp(-dt/c.decay) * nz
		}
		// Fade the last 10 ms so no file ends in a click of its own.
		if rest := s.length - t; rest < 0.01 {
			v *= rest / 0.01
		}
		out[i] = v
	}
	return out
}

// sounds are the five of G20 (castling and promotion use "move") and the
// success chime.
var sounds = map[string]sound{
	// A piece set down on a wooden board: a low knock and a brief tap.
	"move": {length: 0.09, tones: []tone{
		{0, 190, 0.55, 0.018}, {0, 470, 0.30, 0.012}, {0, 1150, 0.12, 0.006},
	}, clicks: []click{{0, 0.35, 0.003}}},
	// A capture: two knocks close together, brighter than a move.
	"capture": {length: 0.15, tones: []tone{
		{0, 230, 0.45, 0.016}, {0, 640, 0.25, 0.010},
		{0.045, 210, 0.55, 0.022}, {0.045, 560, 0.30, 0.014}, {0.045, 1500, 0.12, 0.006},
	}, clicks: []click{{0, 0.30, 0.003}, {0.045, 0.40, 0.004}}},
	// Check: a rising pair of soft bell notes.
	"check": {length: 0.30, tones: []tone{
		{0, 660, 0.35, 0.06}, {0, 1320, 0.08, 0.03},
		{0.11, 880, 0.40, 0.08}, {0.11, 1760, 0.08, 0.04},
	}},
	// The end of a game: a gentle four-note arpeggio, C E G C.
	"end": {length: 0.62, tones: []tone{
		{0, 523.25, 0.30, 0.10}, {0.10, 659.25, 0.30, 0.10},
		{0.20, 783.99, 0.30, 0.10}, {0.30, 1046.5, 0.34, 0.16}, {0.30, 523.25, 0.12, 0.16},
	}},
	// Success (a solved exercise, celebrate.js): a bright rising fifth.
	"success": {length: 0.36, tones: []tone{
		{0, 783.99, 0.30, 0.07}, {0, 1567.98, 0.06, 0.04},
		{0.09, 1174.66, 0.34, 0.11}, {0.09, 2349.32, 0.06, 0.05},
	}},
	// Low time: two short, clear beeps.
	"lowtime": {length: 0.20, tones: []tone{
		{0, 988, 0.35, 0.03}, {0.10, 988, 0.35, 0.03},
	}},
}

// wav encodes samples in -1..1 as 8-bit unsigned mono PCM.
func wav(samples []float64) []byte {
	peak := 0.0
	for _, v := range samples {
		peak = math.Max(peak, math.Abs(v))
	}
	scale := 1.0
	if peak > 0.9 {
		scale = 0.9 / peak
	}
	data := make([]byte, len(samples))
	for i, v := range samples {
		data[i] = byte(math.Round(128 + 127*v*scale))
	}
	var b bytes.Buffer
	w := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	w(uint32(36 + len(data)))
	b.WriteString("WAVEfmt ")
	w(uint32(16))   // fmt chunk size
	w(uint16(1))    // PCM
	w(uint16(1))    // mono
	w(uint32(rate)) // sample rate
	w(uint32(rate)) // bytes per second (1 byte a sample)
	w(uint16(1))    // block align
	w(uint16(8))    // bits per sample
	b.WriteString("data")
	w(uint32(len(data)))
	b.Write(data)
	return b.Bytes()
}

func main() {
	out := flag.String("out", filepath.Join("public", "sounds"), "folder to write the WAV files to")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gensounds:", err)
		os.Exit(1)
	}
	total := 0
	for name, s := range sounds {
		b := wav(s.samples())
		total += len(b)
		if err := os.WriteFile(filepath.Join(*out, name+".wav"), b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gensounds:", err)
			os.Exit(1)
		}
	}
	fmt.Printf("gensounds: wrote %d sounds, %d bytes in all, to %s\n", len(sounds), total, *out)
}
