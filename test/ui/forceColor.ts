// A setup file of every test file (vitest.config.ts), run before its imports load Ink and chalk: colours on,
// whatever the runner's stdout or FORCE_COLOR say (so the NO_COLOR tests mean something), and CI off (Ink
// ignores resize under CI).
process.env.FORCE_COLOR = '1';
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
