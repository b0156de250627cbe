// How a skipped test's name carries its reason: testkit/skip.ts appends it, and the test runner
// (scripts/test.ts) reads it back to list each skipped test with why. Kept here, with the runner,
// because nothing under scripts/ may import test support.
export const SKIPPED = ' [skipped: '
