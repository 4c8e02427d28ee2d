// A setup file of every test file (vitest.config.ts), run before its imports load Ink and chalk: colours on (so the NO_COLOR test means something,
// whatever the runner's stdout is), and CI off (Ink ignores resize under CI).
process.env.FORCE_COLOR ??= '1';
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
