/** string-width's RGI emoji test, its pattern built at the first cluster that could match (src/terminal/rgiEmoji.mjs). */
export declare const rgiEmojiRegex: { test(segment: string): boolean };
