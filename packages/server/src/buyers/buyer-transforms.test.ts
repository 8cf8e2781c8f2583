import { parseTransform, type TransformOp } from '@uf/shared/buyer-transforms';
import { describe, expect, it } from 'vitest';
import { applyTransforms } from './buyer-transforms';

// The field map's transforms (issue 34, ADR 069), each on its own and chained, written as a buyer's
// spec writes them (parsed by the shared parser, as the server does).

function ops(...texts: string[]): TransformOp[] {
  return texts.map((text) => {
    const parsed = parseTransform(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.value;
  });
}

const run = (value: string | null, ...texts: string[]) => applyTransforms(value, ops(...texts));

describe('applyTransforms', () => {
  it('changes case, trims and keeps digits', () => {
    expect(run('Jane Doe', 'upper')).toBe('JANE DOE');
    expect(run('Jane Doe', 'lower')).toBe('jane doe');
    expect(run('  Jane \n', 'trim')).toBe('Jane');
    expect(run('(312) 555-0142 ext. 9', 'digits')).toBe('31255501429');
    expect(run('no digits', 'digits')).toBe('');
  });

  it('writes US phone numbers as E.164 and leaves what it cannot vouch for', () => {
    expect(run('(312) 555-0142', 'e164')).toBe('+13125550142');
    expect(run('1-312-555-0142', 'e164')).toBe('+13125550142');
    expect(run('+1 312 555 0142', 'e164')).toBe('+13125550142');
    // Written international: kept as '+' and its digits.
    expect(run('+44 20 7946 0958', 'e164')).toBe('+442079460958');
    // Too short, or 11 digits not starting with 1 and no '+': unchanged.
    expect(run('555-0142', 'e164')).toBe('555-0142');
    expect(run('44 20 7946 0958', 'e164')).toBe('44 20 7946 0958');
    expect(run('+12', 'e164')).toBe('+12');
  });

  it('names states from their codes, with the shared list of names', () => {
    expect(run('IL', 'stateName')).toBe('Illinois');
    expect(run(' ny ', 'stateName')).toBe('New York');
    expect(run('ZZ', 'stateName')).toBe('ZZ');
    expect(run('Texas', 'stateName')).toBe('Texas');
  });

  it('maps whole values only', () => {
    expect(run('CA', 'map:CA=California,NY=New York')).toBe('California');
    expect(run('NY', 'map:CA=California,NY=New York')).toBe('New York');
    expect(run('CAL', 'map:CA=California')).toBe('CAL');
    expect(run('website', 'map:website=web,api=')).toBe('web');
    expect(run('api', 'map:website=web,api=')).toBe('');
  });

  it('gives a default to a missing or empty value, and only then', () => {
    expect(run(null, 'default:unknown')).toBe('unknown');
    expect(run('', 'default:unknown')).toBe('unknown');
    expect(run(' ', 'default:unknown')).toBe(' ');
    expect(run('x', 'default:unknown')).toBe('x');
    expect(run(null, 'default:')).toBe('');
  });

  it('turns truthy text into the first value and anything else into the second', () => {
    for (const yes of ['true', 'TRUE', '1', 'yes', 'Y', 'on', ' On '])
      expect(run(yes, 'bool:Yes/No')).toBe('Yes');
    for (const no of ['false', '0', 'no', '', 'maybe']) expect(run(no, 'bool:Yes/No')).toBe('No');
    expect(run('true', 'bool:1/0')).toBe('1');
  });

  it('hashes UTF-8 as lowercase hex (published test vectors)', () => {
    expect(run('abc', 'sha256')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(run('abc', 'md5')).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(run('', 'sha256')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    // The usual way a buyer asks for a hashed e-mail: trimmed and lower-cased first.
    expect(run(' Jane@Example.COM ', 'trim', 'lower', 'md5')).toBe(run('jane@example.com', 'md5'));
  });

  it('strips diacritics and drops what has no ASCII form', () => {
    expect(run('José Ñúñez-Öst', 'ascii')).toBe('Jose Nunez-Ost');
    expect(run('Zoë 😀 ﬁne', 'ascii')).toBe('Zoe  fine');
    expect(run('plain', 'ascii')).toBe('plain');
  });

  it('cuts substrings by code point, JavaScript slice style', () => {
    expect(run('60614-1234', 'substr:0:5')).toBe('60614');
    expect(run('60614-1234', 'substr:6')).toBe('1234');
    expect(run('abc', 'substr:5')).toBe('');
    expect(run('😀abc', 'substr:0:2')).toBe('😀a');
  });

  it('rewrites ISO dates with a pattern, longest token first', () => {
    expect(run('1956-07-04', 'date:MM/DD/YYYY')).toBe('07/04/1956');
    expect(run('1956-07-04', 'date:M/D/YYYY')).toBe('7/4/1956');
    expect(run('1956-07-04', 'date:YYYY-MM-DD')).toBe('1956-07-04');
    expect(run('1956-12-25', 'date:DD.MM.YYYY')).toBe('25.12.1956');
    expect(run('1956-07-04', 'date:YYYYMMDD')).toBe('19560704');
    // A date-time gives its date part, as written (no zone conversion).
    expect(run('2026-03-08T23:30:00.000Z', 'date:MM/DD/YYYY')).toBe('03/08/2026');
    // Not a date, or not a real one: unchanged.
    expect(run('07/04/1956', 'date:YYYY-MM-DD')).toBe('07/04/1956');
    expect(run('1956-02-30', 'date:MM/DD/YYYY')).toBe('1956-02-30');
    expect(run('1955-02-29', 'date:MM/DD/YYYY')).toBe('1955-02-29');
    expect(run('1956-02-29', 'date:MM/DD/YYYY')).toBe('02/29/1956');
    expect(run('1956-13-01', 'date:MM/DD/YYYY')).toBe('1956-13-01');
  });

  it('keeps null through every transform but default', () => {
    for (const text of [
      'upper',
      'lower',
      'trim',
      'digits',
      'e164',
      'stateName',
      'map:a=b',
      'bool:Y/N',
      'sha256',
      'md5',
      'ascii',
      'substr:0:1',
      'date:YYYY',
    ]) {
      expect(run(null, text)).toBeNull();
    }
  });

  it('applies a chain in order', () => {
    expect(run(null, 'default:il', 'upper', 'stateName')).toBe('Illinois');
    expect(run(' (312) 555-0142 ', 'digits', 'substr:0:3')).toBe('312');
    expect(run('IL', 'stateName', 'upper')).toBe('ILLINOIS');
    expect(applyTransforms('same', [])).toBe('same');
  });
});
