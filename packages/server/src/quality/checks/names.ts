import type { ReasonCode } from '@uf/shared/quality';

// Name checks (issue 33). Real names come first: every rule here is written so that O'Neil, Smith-Allen,
// José Núñez, Nguyen, Ng, Xu, Strzelczyk, Llwyd, Dick Van Dyke, Hancock or Shitrit pass. Words are
// compared whole (the Scunthorpe problem), and where a placeholder is also a real surname (Tester,
// Sample, Foo, Bar, Na, Null) it only counts beside another placeholder.

export type NameCode = Extract<ReasonCode, 'NAME_TEST' | 'NAME_PROFANE' | 'NAME_GIBBERISH'>;

/** Placeholders that are nobody's name, whichever field they are in. */
const PLACEHOLDERS = new Set(
  (
    'test testing testtest asdf asdfg asdfgh asdfghjkl asdfasdf qwer qwert qwerty qwertyuiop zxcv zxcvb ' +
    'fake fakename dummy none nobody noname nonya nunya undefined unknown anonymous xx xxx xxxx ' +
    'abc abcd abcde abcdef xyz lorem ipsum blah blahblah firstname lastname fname lname yourname myname ' +
    'foobar spam'
  ).split(' '),
);

/** Placeholders that are also real names somewhere (Jon Tester, Joe Sample, Foo, Bar Refaeli, Na, Nil, Anon). */
const WEAK_PLACEHOLDERS = new Set(
  'tester sample foo bar na nil null anon first last name demo user customer client lead'.split(' '),
);

/** Whole names that are placeholders: cartoon characters and the law's anonymous parties. */
const PLACEHOLDER_NAMES = new Set(
  (
    'mickeymouse minniemouse donaldduck daffyduck bugsbunny elmerfudd johndoe janedoe joeblow joeschmoe ' +
    'johnqpublic janeqpublic foobar firstlast firstnamelastname testuser testlead santaclaus'
  ).split(' '),
);

/** "n/a", "N.A.", "n\a": not applicable, never a name. */
const NOT_APPLICABLE = /^\s*n\s*[/\\.]\s*a\s*\.?\s*$/i;

/**
 * Profanity and slurs, whole words only. Deliberately absent, because they are people's names: Dick,
 * Cock, Cox, Butt, Hoe, Hell, Coon, Kike (Enrique), Wang, Dong, Fanny, Gay, Koch, Weiner, Hooker, Anal
 * (a Hindi given name), Bastard and Prick.
 */
const PROFANITY = new Set(
  (
    'fuck fucks fucker fuckers fucking fucked fuckoff fuckyou fuckface fuckhead motherfucker mothafucka ' +
    'shit shits shitty shithead bullshit horseshit eatshit cunt cunts bitch bitches biatch asshole ' +
    'arsehole dumbass jackass dickhead dickface cocksucker pussy twat wanker whore slut skank douche ' +
    'douchebag dildo penis vagina boobs tits porn porno jizz nigger nigga niggers faggot fag retard wetback'
  ).split(' '),
);

// Digits and symbols people type for letters (sh1t, a$$hole, f*ck).
const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};

/** Tokens: the runs between spaces, hyphens, apostrophes, dots…, with the characters leetspeak uses. */
const TOKEN = /[\p{L}\p{M}\p{N}*@$]+/gu;
const MARKS = /\p{M}/gu;
const NOT_LETTER = /[^\p{L}]/gu;
const NON_ASCII = /[^\p{ASCII}]/u;
const LETTERS_ONLY = /^\p{L}+$/u;
const ORDINAL = /^\d(?:st|nd|rd|th)$/;
const ROMAN = /^(?:i{1,3}|iv|vi{0,3}|ix)$/;
const TRIPLE = /(\p{L})\1\1/u;
const VOWEL = /[aeiouy]/;
const REPEATED_PAIR = /([a-z]{2})\1\1/;
// A run of six consonants once the clusters of German, Polish, Czech and English spelling count as
// one letter each (Rothschild, Hirschsprung, Strzelczyk, Mkrtchyan all stay below it).
const CLUSTERS = /tsch|sch|ch|sh|th|ph|gh|ck|sz|cz|rz|dz|zs/g;
const CONSONANT_RUN = /[^aeiouy]{6}/;

/** Five keys in a row on a QWERTY keyboard, either way (sdfgh, poiuy): nobody's name has one. */
const KEYBOARD_RUN = (() => {
  const windows: string[] = [];
  for (const row of ['qwertyuiop', 'asdfghjkl', 'zxcvbnm']) {
    for (const line of [row, [...row].reverse().join('')]) {
      for (let i = 0; i + 5 <= line.length; i++) windows.push(line.slice(i, i + 5));
    }
  }
  return new RegExp(windows.join('|'));
})();

function fold(value: string): string {
  return value.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/** A field's letters only, folded: "N/A" → na, "Mary Jo" → maryjo, "O’Neil" → oneil. */
function letterKey(value: string): string {
  return fold(value).replace(NOT_LETTER, '');
}

function deLeet(token: string): string {
  let out = '';
  for (const c of token) out += LEET[c] ?? c;
  return out;
}

/** f*ck, sh*t, f**k: a word with its letters starred out, at least half of them still shown. */
function isMaskedProfanity(token: string): boolean {
  const stars = token.split('*').length - 1;
  if (stars === 0 || stars * 2 > token.length) return false;
  for (const word of PROFANITY) {
    if (word.length !== token.length) continue;
    let same = true;
    for (let i = 0; i < word.length && same; i++) same = token[i] === '*' || token[i] === word[i];
    if (same) return true;
  }
  return false;
}

function isProfane(token: string): boolean {
  return PROFANITY.has(token) || PROFANITY.has(deLeet(token)) || isMaskedProfanity(deLeet(token));
}

function isGibberish(raw: string, token: string): boolean {
  if (!LETTERS_ONLY.test(token)) return !ORDINAL.test(token);
  if (ROMAN.test(token)) return false;
  if (TRIPLE.test(token)) return true;
  // A letter typed with a diacritic (Smrž, Ngô) or in another script is deliberate, not a mash; the
  // remaining rules are about Latin keyboards.
  if (NON_ASCII.test(raw)) return false;
  if (token.length > 3 && !VOWEL.test(token)) return true;
  if (KEYBOARD_RUN.test(token) || REPEATED_PAIR.test(token)) return true;
  return CONSONANT_RUN.test(token.replace(CLUSTERS, 'c'));
}

function isPlaceholder(first: string, last: string, tokens: readonly string[]): boolean {
  if (NOT_APPLICABLE.test(first) || NOT_APPLICABLE.test(last)) return true;
  const f = letterKey(first);
  const l = letterKey(last);
  if (PLACEHOLDERS.has(f) || PLACEHOLDERS.has(l) || PLACEHOLDER_NAMES.has(f + l)) return true;
  if (WEAK_PLACEHOLDERS.has(f) && WEAK_PLACEHOLDERS.has(l)) return true;
  return tokens.some((t) => PLACEHOLDERS.has(t));
}

export function checkNames(first: string, last: string): NameCode[] {
  const raws = [...first.matchAll(TOKEN), ...last.matchAll(TOKEN)].map((m) => m[0]);
  const tokens = raws.map(fold);
  if (isPlaceholder(first, last, tokens)) return ['NAME_TEST'];
  const codes: NameCode[] = [];
  let gibberish = !/\p{L}/u.test(first) || !/\p{L}/u.test(last);
  let profane = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (isProfane(token)) profane = true;
    else if (!gibberish && isGibberish(raws[i]!, token)) gibberish = true;
  }
  if (profane) codes.push('NAME_PROFANE');
  if (gibberish) codes.push('NAME_GIBBERISH');
  return codes;
}
