// string-width's test for an RGI emoji cluster, built when first needed (scripts/textPatches.mjs puts it in place
// of string-width's own `/^\p{RGI_Emoji}$/v`, in the console's bundle and in the tests' workers). Building that
// pattern costs ~13 ms and its first match ~16 ms, all before the first frame, and each match after is slow.
// Every RGI emoji contains a character with the Emoji property (UTS #51: basic emoji, keycap bases, regional
// indicators, modifier and tag bases, ZWJ elements) and a character outside ASCII (an ASCII emoji base needs
// U+FE0F or U+20E3), so a cluster without both cannot match: the text the console draws (digits are Emoji too,
// arrows and dots are not) never builds it. test/startup/rgiEmoji.test.ts checks the two agree. Plain
// JavaScript: the tests' workers load it without a compiler.
const nonAscii = /[^\x00-\x7f]/;
const emojiCharacter = /\p{Emoji}/u;
/** @type {RegExp | undefined} */
let pattern;

export const rgiEmojiRegex = {
  /** @param {string} segment */
  test(segment) {
    // string-width asks for every cluster of a non-ASCII line: a lone ASCII character is answered without a regex.
    if (segment.length === 1 && segment.charCodeAt(0) < 0x80) return false;
    return nonAscii.test(segment) && emojiCharacter.test(segment) && (pattern ??= new RegExp('^\\p{RGI_Emoji}$', 'v')).test(segment);
  },
};
