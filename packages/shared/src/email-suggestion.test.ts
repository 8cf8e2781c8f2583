import { describe, expect, it } from 'vitest';
import { suggestEmail } from './email-suggestion';

describe('suggestEmail', () => {
  it.each([
    ['jane@gmial.com', 'jane@gmail.com'],
    ['jane@gmai.com', 'jane@gmail.com'],
    ['jane@gamil.com', 'jane@gmail.com'],
    ['jane@gmaill.com', 'jane@gmail.com'],
    ['jane@gmail.co', 'jane@gmail.com'],
    ['jane@gmail.con', 'jane@gmail.com'],
    ['jane@gmail.cmo', 'jane@gmail.com'],
    ['jane@gmail.c', 'jane@gmail.com'],
    ['jane@gmailcom', 'jane@gmail.com'],
    ['jane@gmial.con', 'jane@gmail.com'],
    ['bob@hotmial.com', 'bob@hotmail.com'],
    ['bob@hotmal.com', 'bob@hotmail.com'],
    ['bob@yaho.com', 'bob@yahoo.com'],
    ['bob@yahooo.com', 'bob@yahoo.com'],
    ['bob@yahoo.co', 'bob@yahoo.com'],
    ['bob@outlok.com', 'bob@outlook.com'],
    ['bob@icloud.co', 'bob@icloud.com'],
    ['bob@iclod.com', 'bob@icloud.com'],
    ['bob@ymial.com', 'bob@ymail.com'],
    ['bob@comcats.net', 'bob@comcast.net'],
    ['bob@verizon.ner', 'bob@verizon.net'],
    ['bob@sbcglbal.net', 'bob@sbcglobal.net'],
    ['bob@bellsouht.net', 'bob@bellsouth.net'],
    ['bob@aol.con', 'bob@aol.com'],
    ['bob@aoll.com', 'bob@aol.com'],
    ['bob@oal.com', 'bob@aol.com'],
    ['bob@att.ne', 'bob@att.net'],
  ])('%s → %s', (typed, expected) => {
    expect(suggestEmail(typed)).toBe(expected);
  });

  it('keeps the local part as typed and lower-cases only the domain', () => {
    expect(suggestEmail('  Mary.O’Neil+Quotes@GMIAL.COM ')).toBe('Mary.O’Neil+Quotes@gmail.com');
  });

  it('never corrects a provider, a real look-alike or an ordinary company domain', () => {
    for (const email of [
      'a@gmail.com',
      'a@googlemail.com',
      'a@yahoo.com',
      'a@ymail.com',
      'a@mail.com',
      'a@email.com',
      'a@gmx.com',
      'a@aim.com',
      'a@cloud.com',
      'a@me.com',
      'a@mac.com',
      'a@msn.com',
      'a@live.com',
      'a@love.com',
      'a@act.net',
      'a@att.com',
      'a@verizon.com',
      'a@comcast.com',
      'a@cox.com',
      'a@yahoo.ca',
      'a@yahoo.co.uk',
      'a@yahoo.fr',
      'a@hotmail.co.uk',
      'a@hotmail.fr',
      'a@live.ca',
      'a@aol.de',
      'a@outlook.de',
      'a@gmail.net',
      'a@mail.ru',
      'a@yeah.net',
      'a@horizon.com',
      'a@acme.com',
      'a@umich.edu',
      'a@kp.org',
    ]) {
      expect(suggestEmail(email), email).toBeNull();
    }
  });

  it('returns null for input that is not an address', () => {
    for (const value of ['', '@gmial.com', 'gmial.com', 'jane@', 'jane@localhost']) {
      expect(suggestEmail(value), value).toBeNull();
    }
  });
});
