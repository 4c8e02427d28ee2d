// string-width's test for an RGI emoji cluster, built when first needed (scripts/build.mjs puts it in place of
// string-width's own `/^\p{RGI_Emoji}$/v`). Building that pattern costs ~13 ms and its first match ~16 ms, all
// before the first frame. Every RGI emoji contains a character with the Emoji property (UTS #51: basic emoji,
// keycap bases, regional indicators, modifier and tag bases, ZWJ elements) and a character outside ASCII (an
// ASCII emoji base needs U+FE0F or U+20E3), so a cluster without both cannot match: the text the console draws
// (digits are Emoji too, arrows and dots are not) never builds it. test/startup/rgiEmoji.test.ts checks the two agree.
const nonAscii = /[^\x00-\x7f]/;
const emojiCharacter = /\p{Emoji}/u;
let pattern: RegExp | undefined;

export const rgiEmojiRegex = {
  test(segment: string): boolean {
    return nonAscii.test(segment) && emojiCharacter.test(segment) && (pattern ??= new RegExp('^\\p{RGI_Emoji}$', 'v')).test(segment);
  },
};
