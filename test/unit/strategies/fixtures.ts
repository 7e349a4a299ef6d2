/** Boundaries with astral and U+E000–U+FFFF values, where UTF-16 order and code point order disagree. */
export const BOUNDARIES = ['', 'c', 'h', 'n', 'st', '\uFFFD', '\u{1F3B8}'];
/** Two heavy-hitter runs: 'greatest hits' over shards 2–4, 'x' over 6–7. */
export const HEAVY = ['', 'b', 'greatest hits', 'greatest hits', 'greatest hits', 'm', 'x', 'x', '\uE000', '\u{1F600}'];
