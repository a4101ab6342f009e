package store

import (
	"context"
	"errors"
	"time"
)

// Classes keeps teachers' classrooms (T1–T6): a class, its pupils'
// memberships, its homework and the browsers that remember its teacher
// link. A class belongs to nobody: whoever holds its teacher link runs it,
// and it lives until its teacher deletes it or nobody touches it for a
// year (ExpireClasses). A membership belongs to its pupil's visitor, so
// forgetting the pupil removes it; a remembered link belongs to the
// teacher's visitor. Only a hash of the teacher link's secret is kept on
// the class.
type Classes interface {
	// CreateClass stores c (ID, Name, JoinCode, SecretHash, CreatedAt) and,
	// when teacher is not "", remembers the class for that visitor with
	// the link's secret. ErrConflict when the join code or the secret's
	// hash is already taken (the caller draws again); ErrGone when the
	// teacher is not stored.
	CreateClass(ctx context.Context, c *Class, teacher, secret string) error
	// ClassBySecret returns the class whose teacher link has this hash,
	// or ErrNotFound (also for a rotated link).
	ClassBySecret(ctx context.Context, secretHash string) (*Class, error)
	// ClassByCode returns the class with this join code, or ErrNotFound.
	ClassByCode(ctx context.Context, code string) (*Class, error)
	// RememberClass makes visitor's browser remember the class's teacher
	// link (secret); idempotent. ErrNotFound when the class is gone.
	RememberClass(ctx context.Context, visitor, classID, secret string) error
	// RememberedClasses lists the classes visitor remembers, with the
	// secret each was remembered with, newest first.
	RememberedClasses(ctx context.Context, visitor string) ([]RememberedClass, error)
	// RotateClassSecret replaces the class's secret hash (the old link
	// stops working at once) and forgets the old link in every browser
	// but teacher's, which remembers secret instead. ErrNotFound when the
	// class is gone; ErrConflict when the new hash is taken.
	RotateClassSecret(ctx context.Context, classID, newHash, teacher, secret string) error
	// RenameClass changes the class's name.
	RenameClass(ctx context.Context, classID, name string) error
	// DeleteClass deletes the class with its memberships and homework.
	// Deleting a class that is gone is not an error.
	DeleteClass(ctx context.Context, classID string) error
	// TouchClass records that the class was used at now (its teacher
	// looked at it, a pupil joined), at most once a day, so a class in
	// use never expires.
	TouchClass(ctx context.Context, classID string, now time.Time) error
	// ExpireClasses deletes at most limit classes untouched since before
	// and returns how many; fewer than limit means none are left.
	ExpireClasses(ctx context.Context, before time.Time, limit int) (int, error)

	// JoinClass makes visitor a pupil of the class under m.Nickname
	// (m.ID, m.NicknameKey, m.JoinedAt given). A visitor already in the
	// class gets their membership back unchanged and created false.
	// ErrConflict when another pupil has the same NicknameKey; ErrFull
	// when the class has max pupils; ErrNotFound when the class is gone;
	// ErrGone when the visitor is not stored.
	JoinClass(ctx context.Context, m *Member, max int) (got *Member, created bool, err error)
	// LeaveClass removes visitor from the class; leaving a class one is
	// not in is not an error.
	LeaveClass(ctx context.Context, classID, visitor string) error
	// RenameMember changes a pupil's nickname: ErrNotFound when no such
	// pupil is in the class, ErrConflict when the nickname is taken.
	RenameMember(ctx context.Context, classID, memberID, nickname, key string) error
	// RemoveMember takes a pupil out of the class; ErrNotFound when no
	// such pupil is in it.
	RemoveMember(ctx context.Context, classID, memberID string) error
	// VisitorClasses lists the classes visitor is a pupil of, oldest
	// membership first.
	VisitorClasses(ctx context.Context, visitor string) ([]Membership, error)

	// AddHomework stores a class's homework (ID, ClassID, Items, Due,
	// CreatedAt given). ErrNotFound when the class is gone.
	AddHomework(ctx context.Context, hw *Homework) error
	// DeleteHomework deletes one homework of the class; ErrNotFound when
	// the class has no such homework.
	DeleteHomework(ctx context.Context, classID, homeworkID string) error
	// ClassHomework lists the homework of the given classes, newest first.
	ClassHomework(ctx context.Context, classIDs []string) ([]Homework, error)

	// ClassReport is the class's pupils with what each has done, in
	// joining order: one read of the whole class for the dashboard.
	ClassReport(ctx context.Context, classID string) ([]PupilReport, error)
	// PupilWork is what one visitor has done, in the same shape (without
	// a membership), for their own homework.
	PupilWork(ctx context.Context, visitor string) (Work, error)
	// RecordExerciseMiss counts one wrong try of an exercise by visitor
	// (the dashboard's "stuck" mark).
	RecordExerciseMiss(ctx context.Context, visitor, exerciseID string) error
}

// ErrFull means a class already has as many pupils as it may (handlers
// answer 409).
var ErrFull = errors.New("store: the class is full")

// Class is one classroom.
type Class struct {
	ID         string
	Name       string // as the teacher typed it; shown to the class's pupils
	JoinCode   string // six characters, capital letters and digits
	SecretHash string // SHA-256 of the teacher link's secret, hex
	CreatedAt  time.Time
	TouchedAt  time.Time
}

// RememberedClass is a class a browser remembers, with the secret of the
// link it was remembered with (stale once the link was rotated elsewhere).
type RememberedClass struct {
	Class
	Secret string
}

// Member is a pupil's membership of a class.
type Member struct {
	ID          string
	ClassID     string
	Visitor     string
	Nickname    string // as the pupil typed it, shown to the teacher only
	NicknameKey string // the nickname folded, unique in the class
	JoinedAt    time.Time
}

// Membership is a class as one of its pupils sees it.
type Membership struct {
	Class    Class
	Nickname string
	JoinedAt time.Time
}

// Homework is a set of tasks a teacher gave a class.
type Homework struct {
	ID        string
	ClassID   string
	Items     []string // codes: "lesson:<slug>", "exercise:<id>", "level:<n>", "quiz:<topic>", "puzzles:<n>[:<theme>]"
	Due       string   // "YYYY-MM-DD", or "" without a due date
	CreatedAt time.Time
}

// Work is what one visitor has done on the site, as the server checked
// it: nothing in it is a number a page's script reported, except
// TrainerBest (the trainer's score is posted by the page).
type Work struct {
	LessonsRead map[string]time.Time // slug -> when
	Solved      map[string]time.Time // exercise id -> when
	Misses      map[string]int       // exercise id -> wrong tries, for exercises not solved
	QuizBest    int                  // best finished round's score; 0 without one
	QuizTotal   int                  // that round's number of questions
	QuizRounds  int                  // finished rounds
	QuizWrong   map[string]int       // question id -> times answered wrong
	QuizRight   map[string]bool      // question ids whose latest answer was right
	TrainerBest int                  // best trainer score of any view and mode (self-reported)
	Played      int                  // finished games against the computer
	Won         int                  // of those, won
	BestLevel   int                  // highest computer level beaten; -1 when none
	// Tries are the try records of the exercises solved since stars were
	// kept, by exercise id (the stars: exercise.Stars of SolvedWrong and
	// SolvedHelped); a solved exercise without one earns one star.
	Tries        map[string]TryRecord
	Puzzles      map[string]bool // puzzle id -> solved at the first attempt
	PuzzleRating float64         // the visitor's puzzle rating; 0 without a rated attempt
	LastActive   time.Time       // the newest of the above; zero when none
}

// PupilReport is one row of the dashboard: a pupil and their work.
type PupilReport struct {
	Member
	Work
}
