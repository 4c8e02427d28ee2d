// Preloaded (NODE_OPTIONS --require) into a console under test: each Intl.Segmenter built is one line in the file
// BC_TEST_SEGMENTER_LOG names (building the first loads ICU's break rules, ~10 ms).
const { appendFileSync } = require('node:fs');

const Segmenter = Intl.Segmenter;
Intl.Segmenter = function (...args) {
  appendFileSync(process.env.BC_TEST_SEGMENTER_LOG, 'built\n');
  return new Segmenter(...args);
};
